import LayerModel
import Animation

/// The JSON Schema (draft 2020-12) of the scene format, for editors (`caprof schema`). Built from
/// the same tables the decoder reads (`KeyPathTable`, `LayerDecoder.structuralKeys`,
/// `AnimationField.all`, `TransactionDecoder.keys` …), so the keys it allows are exactly the keys
/// the decoder accepts. Value checks the schema cannot express (transform and path grammar, key-path
/// typed animation values, names a transaction refers to) are left to the decoder.
public enum SceneSchema {
    public static var jsonSchema: String { document.render() + "\n" }

    static var document: SchemaJSON {
        .object([
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string("https://caprof.invalid/schema/scene-\(SceneDecoder.formatVersion).json")),
            ("title", .string("caprof scene (format \(SceneDecoder.formatVersion))")),
            ("description", .string("A Core Animation layer tree with its animations, canvas and timeline. Names and defaults are Core Animation's.")),
            ("type", .string("object")),
            ("required", .array(["caprof", "canvas", "root"].map(SchemaJSON.string))),
            ("properties", .object([
                ("$schema", SchemaJSON.type("string").described("The JSON Schema this file follows (for editors).")),
                ("caprof", SchemaJSON.object([("const", .number(Double(SceneDecoder.formatVersion)))]).described("Format version; must be 1.")),
                ("canvas", SchemaJSON.ref("canvas")),
                ("timeline", SchemaJSON.ref("timeline")),
                ("root", SchemaJSON.ref("layer").described("The root layer; its superlayer is the canvas (points, y down, origin top-left).")),
                ("transactions", SchemaJSON.arrayOf(.ref("transaction"), max: SceneLimits.maxTransactions).described("Timeline of model changes.")),
                ("snapshots", SchemaJSON.ref("snapshots")),
            ])),
            ("additionalProperties", .bool(false)),
            ("$defs", .object(definitions)),
        ])
    }

    static var definitions: [(String, SchemaJSON)] {
        [
            ("canvas", canvas),
            ("timeline", timeline),
            ("snapshots", snapshots),
            ("point", SchemaJSON.arrayOf(.type("number"), min: 2, max: 2).described("A point [x, y].")),
            ("size", SchemaJSON.arrayOf(.type("number"), min: 2, max: 2).described("A size [width, height].")),
            ("rect", SchemaJSON.arrayOf(.type("number"), min: 4, max: 4).described("A rect [x, y, width, height].")),
            ("color", color),
            ("emitterCell", emitterCell),
            ("transform", transform),
            ("path", path),
            ("image", SchemaJSON.type("string").described(ValueType.image.summary)),
            ("timingFunction", timingFunction),
            ("cornerMask", SchemaJSON.arrayOf(.strings(CornerMask.names.map(\.0))).described(ValueType.cornerMask.summary)),
            ("layer", layer),
            ("animation", animation),
            ("transaction", transaction),
        ]
    }

    // MARK: values

    static var color: SchemaJSON {
        SchemaJSON.anyOf([
            SchemaJSON.type("string", [("pattern", .string("^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"))]),
            SchemaJSON.strings(SystemColors.acceptedNames),
            SchemaJSON.arrayOf(.type("number"), min: 3, max: 4),
        ]).described("A color: \"#RGB\", \"#RRGGBB\", \"#RRGGBBAA\", [r, g, b(, a)] in 0–1 sRGB (extended range allowed; whole numbers above 1 are refused as 0–255 values), a UIKit name or an iOS system colour (light appearance).")
    }

    static var transform: SchemaJSON {
        SchemaJSON.anyOf([
            SchemaJSON.arrayOf(.type("number"), min: 16, max: 16),
            SchemaJSON.type("string"),
        ]).described("A CATransform3D: 16 numbers [m11, m12, …, m44], or functions such as \"translate(10, 20) rotate(45deg) scale(2)\" (translate, translateX/Y/Z, scale, scaleX/Y/Z, rotate, rotateX/Y/Z, rotate3d, perspective, matrix); the rightmost acts first.")
    }

    static var path: SchemaJSON {
        func shape(_ key: String, _ extra: [(String, SchemaJSON)] = []) -> SchemaJSON {
            .object([("type", .string("object")),
                     ("properties", .object([(key, .ref("rect"))] + extra)),
                     ("required", .array([.string(key)])),
                     ("additionalProperties", .bool(false))])
        }
        return SchemaJSON.anyOf([
            SchemaJSON.type("string").described("SVG path data: M L H V C S Q T A Z, absolute and relative."),
            shape("rect"),
            shape("roundedRect", [("cornerRadius", SchemaJSON.number(.nonNegative))]),
            shape("ellipseIn"),
        ]).described(ValueType.path.summary)
    }

    static var timingFunction: SchemaJSON {
        SchemaJSON.anyOf([
            SchemaJSON.strings(TimingFunctionName.allCases.map(\.rawValue)),
            SchemaJSON.arrayOf(.type("number"), min: 4, max: 4),
        ]).described("A CAMediaTimingFunction: a name or the control points [c1x, c1y, c2x, c2y].")
    }

    /// The schema of a layer property's value.
    static func value(_ p: LayerProperty) -> SchemaJSON {
        var s: SchemaJSON
        switch p.valueType {
        case .number: s = .number(p.domain)
        case .integer:
            var d = p.domain ?? NumberDomain()
            if p.name == "instanceCount" { d.maximum = Double(SceneLimits.maxInstanceCount) }
            s = .number(d, integer: true)
        case .bool: s = .type("boolean")
        case .point: s = .ref("point")
        case .size: s = .ref("size")
        case .rect: s = .ref("rect")
        case .color: s = .ref("color")
        case .transform: s = .ref("transform")
        case .path: s = .ref("path")
        case .image: s = .ref("image")
        case .numberArray: s = .arrayOf(.number(p.domain), max: SceneLimits.maxArrayElements)
        case .colorArray: s = .arrayOf(.ref("color"), max: SceneLimits.maxArrayElements)
        case .string: s = .type("string")
        case .cornerMask: s = .ref("cornerMask")
        case .enumeration(let cases): s = .strings(cases)
        }
        if p.nullable { s = .anyOf([s, .null]) }
        return s.described(p.summary + (p.layerClass.map { " (\($0.rawValue))" } ?? ""))
    }

    // MARK: objects

    static var canvas: SchemaJSON {
        .object([
            ("type", .string("object")),
            ("required", .array([.string("width"), .string("height")])),
            ("properties", .object([
                ("width", SchemaJSON.number(.positive).described("Width in points.")),
                ("height", SchemaJSON.number(.positive).described("Height in points.")),
                ("scale", SchemaJSON.number(SceneDecoder.canvasScaleDomain).described("Device pixels per point (the screen scale); default 1. Each side is at most \(Canvas.maxPixelSide) device pixels.")),
                ("backgroundColor", SchemaJSON.anyOf([.ref("color"), .null]).described("What the root is composited over; null = transparent output (default).")),
            ])),
            ("additionalProperties", .bool(false)),
        ])
    }

    static var timeline: SchemaJSON {
        .object([
            ("type", .string("object")),
            ("properties", .object([
                ("duration", SchemaJSON.number(.positive).described("Seconds profiled from time 0; default: until every finite animation and transaction has ended (cap 10 s).")),
                ("fps", SchemaJSON.number(SceneDecoder.fpsDomain).described("Frames per second sampled; default 60.")),
            ])),
            ("additionalProperties", .bool(false)),
        ])
    }

    static var snapshots: SchemaJSON {
        .object([
            ("type", .string("object")),
            ("description", .string("Golden-frame settings for `caprof snapshot`; nothing drawn depends on them.")),
            ("properties", .object([
                ("times", SchemaJSON.arrayOf(.number(NumberDomain(minimum: 0, maximum: SceneDecoder.maxSnapshotTime)), min: 1, max: SceneDecoder.maxSnapshotTimes)
                    .described("Scene times in seconds checked by `caprof snapshot` (its --times overrides them); default 0, ¼, ½, ¾ of the timeline and its end.")),
                ("precision", SchemaJSON.number(SceneDecoder.snapshotPrecisionDomain)
                    .described("Share of pixels within ΔE 3 of the golden for a frame to pass; overrides `caprof snapshot --precision` (default 0.985) for this scene.")),
            ])),
            ("additionalProperties", .bool(false)),
        ])
    }

    /// A filter object: its type (required), name and inputs (checked by type in the decoder).
    static var filter: SchemaJSON {
        .object([
            ("type", .string("object")),
            ("required", .array([.string("type")])),
            ("properties", .object([("type", .strings(FilterType.allCases.map(\.rawValue))), ("name", .type("string"))]
                                   + FilterInput.allCases.map { ($0.rawValue, SchemaJSON.object([])) })),
            ("additionalProperties", .bool(false)),
        ])
    }

    static var layer: SchemaJSON {
        var props: [(String, SchemaJSON)] = []
        for (key, summary) in LayerDecoder.structuralKeys {
            let s: SchemaJSON
            switch key {
            case "class": s = .strings(LayerClass.allCases.map(\.rawValue))
            case "name": s = .type("string")
            case "frame": s = .ref("rect")
            case "mask": s = .ref("layer")
            case "sublayers": s = .arrayOf(.ref("layer"))
            case "filters", "backgroundFilters": s = .arrayOf(filter)
            default: s = .arrayOf(.ref("animation"))  // animations
            }
            props.append((key, s.described(summary)))
        }
        for p in KeyPathTable.properties { props.append((p.name, value(p))) }
        for (key, summary) in LayerDecoder.backdropKeys where !props.contains(where: { $0.0 == key }) {
            props.append((key, SchemaJSON.type(key == "scale" ? "number" : "string").described(summary)))
        }
        props.append(("emitterCells", emitterCells))
        // A subclass property is refused on every other class (a key two classes share, such as
        // preservesDepth, on neither).
        let subclassRules: [SchemaJSON] = LayerClass.allCases.compactMap { cls in
            let own = (KeyPathTable.properties.filter { $0.layerClass == cls }.map(\.name) + (cls == .emitter ? ["emitterCells"] : []))
                .filter { name in !LayerClass.allCases.contains { $0 != cls && LayerDecoder.keys(for: $0).contains(name) } }
            guard !own.isEmpty else { return nil }
            return .object([
                ("if", .object([("properties", .object([("class", .constant(cls.rawValue))])), ("required", .array([.string("class")]))])),
                ("else", .object([("properties", .object(own.map { ($0, SchemaJSON.bool(false)) }))])),
            ])
        }
        return .object([
            ("type", .string("object")),
            ("description", .string("A layer (CALayer or a subclass named by class). Properties keep Core Animation's names and defaults; contentsScale and rasterizationScale default to canvas.scale.")),
            ("properties", .object(props)),
            ("additionalProperties", .bool(false)),
            ("allOf", .array(subclassRules)),
        ])
    }

    static var animation: SchemaJSON {
        // Fields accepted by some classes only, grouped by their class list.
        var groups: [([AnimationClass], [String])] = []
        for f in AnimationField.all {
            guard let classes = f.classes else { continue }
            if let k = groups.firstIndex(where: { $0.0 == classes }) { groups[k].1.append(f.key) } else { groups.append((classes, [f.key])) }
        }
        let rules: [SchemaJSON] = groups.map { classes, keys in
            .object([
                ("if", .object([("properties", .object([("class", .strings(classes.map(\.rawValue)))]))])),
                ("else", .object([("properties", .object(keys.map { ($0, SchemaJSON.bool(false)) }))])),
            ])
        }
        var all = rules
        all.append(.object([
            ("if", .object([("properties", .object([("class", .strings(AnimationClass.allCases.filter(\.isPropertyAnimation).map(\.rawValue)))]))])),
            ("then", .object([("required", .array([.string("keyPath")]))])),
        ]))
        return .object([
            ("type", .string("object")),
            ("description", .string("An animation: CABasicAnimation, CAKeyframeAnimation, CASpringAnimation, CAAnimationGroup or CATransition, with CAMediaTiming fields.")),
            ("required", .array([.string("class")])),
            ("properties", .object(AnimationField.all.map { ($0.key, $0.schema) })),
            ("additionalProperties", .bool(false)),
            ("allOf", .array(all)),
        ])
    }

    static var transaction: SchemaJSON {
        func entry(_ props: [(String, SchemaJSON)]) -> SchemaJSON {
            .object([("type", .string("object")),
                     ("required", .array(props.map { .string($0.0) })),
                     ("properties", .object(props)),
                     ("additionalProperties", .bool(false))])
        }
        let layerName = SchemaJSON.type("string").described("The name of a layer (unique in the scene).")
        let props: [(String, SchemaJSON)] = [
            ("time", SchemaJSON.number(.nonNegative).described("Scene time of the commit, in seconds.")),
            ("animationDuration", SchemaJSON.number(.nonNegative).described("Duration of implicit animations; default 0.25 s.")),
            ("animationTimingFunction", SchemaJSON.ref("timingFunction").described("Timing function of implicit animations; default Core Animation's default curve.")),
            ("disableActions", SchemaJSON.type("boolean").described("Change the model without implicit animations.")),
            ("set", SchemaJSON.arrayOf(entry([("layer", layerName),
                                              ("keyPath", SchemaJSON.keyPath),
                                              ("value", SchemaJSON.object([]).described("The new value, encoded like the property."))]))
                .described("Model changes (setValue(_:forKeyPath:)), with implicit animations.")),
            ("add", SchemaJSON.arrayOf(entry([("layer", layerName), ("animation", .ref("animation"))])).described("Animations added (add(_:forKey:)).")),
            ("remove", SchemaJSON.arrayOf(entry([("layer", layerName), ("key", .type("string"))])).described("Animations removed by key.")),
            ("insert", SchemaJSON.arrayOf(entry([("parent", layerName),
                                                 ("index", SchemaJSON.number(.nonNegative, integer: true)),
                                                 ("layer", .ref("layer"))])).described("Layers inserted (insertSublayer(_:at:)).")),
            ("removeLayers", SchemaJSON.arrayOf(layerName).described("Layers removed from their superlayer.")),
        ]
        precondition(props.map(\.0) == TransactionDecoder.keys, "transaction schema and decoder keys differ")
        return .object([
            ("type", .string("object")),
            ("description", .string("A CATransaction committed at scene time `time`.")),
            ("required", .array([.string("time")])),
            ("properties", .object(props)),
            ("additionalProperties", .bool(false)),
        ])
    }
}
