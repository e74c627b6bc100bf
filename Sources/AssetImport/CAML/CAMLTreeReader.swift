import SystemSupport
import Geometry
import LayerModel
import Animation

/// Reads CAML layer and animation elements. Collects `id`s (state targets), states and state
/// transitions for `StateMachine`.
final class CAMLTreeReader {
    let ctx: ImportContext
    let nodes: CAMLNodes
    /// CAML `id` → provisional layer id.
    var ids: [String: Int] = [:]
    /// Layer provisional id → its class (for typing state values).
    var classes: [Int: LayerClass] = [:]
    var states: [XMLNode] = []
    var transitions: [XMLNode] = []

    init(ctx: ImportContext, nodes: CAMLNodes) { self.ctx = ctx; self.nodes = nodes }

    /// Child elements that are not property values.
    static let structural: Set<String> = ["sublayers", "mask", "animations", "states", "stateTransitions",
                                          "scriptComponents", "scriptObject", "wallpaperParallaxGroups",
                                          "wallpaperPropertyGroups", "style", "modules"]

    func layer(_ n: XMLNode, depth: Int) throws -> Layer {
        let place = nodes.place(n)
        try ctx.countLayer(at: place, depth: depth)
        let className = n["type"] ?? n.name
        let (cls, exact) = LayerBuilder.layerClass(chain: [className])
        var layer = Layer(cls)
        layer.id = ctx.provisionalID()
        layer.location = place
        classes[layer.id] = cls
        if let id = n["id"] { ids[id] = layer.id }
        let builder = LayerBuilder(ctx: ctx)
        var ignored: [String] = []
        func apply(_ key: String, _ v: ImportedValue, _ at: SourceLocation) {
            if !exact, KeyPathTable.property(named: key) == nil, !LayerBuilder.noEffectKeys.contains(key), !key.hasPrefix("mica_") {
                ignored.append(key); return
            }
            builder.apply(key, v, to: &layer, at: at)
        }
        // Key-path attributes (CAPlayground writes transform.rotation.z="…") apply after the
        // properties they refine, in name order.
        var keyPathAttributes: [(ResolvedKeyPath, String)] = []
        for (key, text) in n.attributes.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "id", "type", "xmlns": continue
            case "name": layer.name = text; continue
            default: break
            }
            if key.contains("."), let kp = KeyPathTable.resolve(key) {
                keyPathAttributes.append((kp, text))
                continue
            }
            let hint = KeyPathTable.property(named: key)?.valueType
            let v: ImportedValue
            if let h = hint {
                guard let parsed = CAMLValues.value(text, as: h) else {
                    ctx.warn("\(key)=\"\(text.prefix(60))\": expected \(h.summary); the default is kept", at: place)
                    continue
                }
                v = parsed
            } else {
                v = CAMLValues.number(text).map { .number($0) } ?? .string(text)
            }
            apply(key, v, place)
        }
        for (kp, text) in keyPathAttributes {
            guard let raw = CAMLValues.value(text, as: kp.valueType),
                  let v = ValueTyping.typed(raw, as: kp.valueType, nullable: false),
                  kp.layerProperty.layerClass == nil || kp.layerProperty.layerClass == cls,
                  layer.setValue(v, forKeyPath: kp) else {
                ctx.warn("\(kp.keyPath)=\"\(text.prefix(60))\" could not be applied", at: place)
                continue
            }
        }
        for c in n.children {
            let at = nodes.place(c)
            switch c.name {
            case "sublayers":
                for s in c.children { layer.sublayers.append(try self.layer(s, depth: depth + 1)) }
            case "mask":
                if let m = c.children.first { layer.mask = try self.layer(m, depth: depth + 1) }
            case "animations":
                var specs: [AnimationSpec] = []
                for a in c.children {
                    try ctx.countAnimation(at: nodes.place(a))
                    if let spec = animation(a, key: a["key"] ?? a.name, layerClass: cls) {
                        if let k = spec.key { specs.removeAll { $0.key == k } }
                        specs.append(spec)
                    }
                }
                if !specs.isEmpty { ctx.pendingAnimations[layer.id, default: []] += specs }
            case "emitterCells" where cls == .emitter:
                let cells = EmitterCellBuilder(ctx: ctx)
                layer.emitter.emitterCells = try c.children.map { try emitterCell($0, depth: 1, cells) }
                try cells.checkParticles(layer, at: place)
            case "states": states += c.children
            case "stateTransitions": transitions += c.children
            case "scriptComponents", "wallpaperParallaxGroups", "wallpaperPropertyGroups", "style", "modules":
                continue
            case "scriptObject":
                ctx.warn("Mica script '\(c["src"] ?? "")' is not run", at: at)
            case "filters", "backgroundFilters":
                apply(c.name, .array(c.children.map { .filter(type: $0["filter"] ?? $0["type"] ?? $0.name, name: $0["name"],
                                                               inputs: filterInputs($0)) }), at)
            case "compositingFilter":
                apply(c.name, .filter(type: c["filter"] ?? c["value"] ?? c.children.first?["filter"] ?? "?", name: c["name"], inputs: []), at)
            default:
                let hint = KeyPathTable.property(named: c.name)?.valueType
                guard let v = nodes.value(c, hint: hint) else {
                    ctx.warn("<\(c.name)> could not be read as \(hint?.summary ?? "a value"); it is not applied", at: at)
                    continue
                }
                apply(c.name, v, at)
            }
        }
        if !exact {
            let keys = ignored.isEmpty ? "" : "; its keys \(ignored.joined(separator: ", ")) are ignored"
            ctx.warn("\(className) is not drawn yet; drawn as a plain \(cls.rawValue)\(keys)", at: place)
        }
        return layer
    }

    /// A `<CAEmitterCell>` element: attributes and value elements are its keys, `<emitterCells>` its sub-cells.
    func emitterCell(_ n: XMLNode, depth: Int, _ builder: EmitterCellBuilder) throws -> EmitterCell {
        let place = nodes.place(n)
        try builder.count(at: place, depth: depth)
        var cell = EmitterCell()
        var ignored: [String] = []
        for (key, text) in n.attributes.sorted(by: { $0.key < $1.key }) where key != "id" && key != "type" {
            let hint = EmitterCellKeyPaths.property(named: key)?.valueType
            let v = hint.flatMap { CAMLValues.value(text, as: $0) } ?? CAMLValues.number(text).map { .number($0) } ?? .string(text)
            builder.apply(key, v, to: &cell, at: place, ignored: &ignored)
        }
        for c in n.children {
            if c.name == "emitterCells" {
                cell.emitterCells = try c.children.map { try emitterCell($0, depth: depth + 1, builder) }
                continue
            }
            let hint = EmitterCellKeyPaths.property(named: c.name)?.valueType
            guard let v = nodes.value(c, hint: hint) else { ignored.append(c.name); continue }
            builder.apply(c.name, v, to: &cell, at: nodes.place(c), ignored: &ignored)
        }
        builder.finish(cell, ignored: ignored, at: place)
        return cell
    }

    /// Keys of animation attributes read as numbers (the rest are strings).
    static let numberKeys: Set<String> = ["beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration",
                                          "autoreverses", "removedOnCompletion", "additive", "cumulative", "mass", "stiffness",
                                          "damping", "velocity", "initialVelocity", "allowsOverdamping", "enabled",
                                          "startProgress", "endProgress", "mica_autorecalculatesDuration"]

    /// An animation element: `type` is the class, the element name (or `key`) the animation key.
    func animation(_ n: XMLNode, key: String?, layerClass: LayerClass, keyPathOverride: String? = nil) -> AnimationSpec? {
        let at = nodes.place(n)
        guard let cls = n["type"] else {
            ctx.warn("<\(n.name)> has no type (the animation class); it is not applied", at: at)
            return nil
        }
        var fields: [(String, ImportedValue)] = []
        let keyPath = n["keyPath"] ?? keyPathOverride
        let kp = keyPath.flatMap(KeyPathTable.resolve)
        if let k = keyPath { fields.append(("keyPath", .string(k))) }
        for (name, text) in n.attributes.sorted(by: { $0.key < $1.key }) {
            switch name {
            case "type", "key", "keyPath": continue
            case "timingFunction":
                if let t = CAMLValues.timingFunction(text) { fields.append((name, .timingFunction(t))) }
                else { ctx.warn("timingFunction \"\(text)\" is not a timing function; linear is used", at: at) }
            case "fromValue", "toValue", "byValue":
                if let t = kp?.valueType, let v = CAMLValues.value(text, as: t) { fields.append((name, v)) }
                else { fields.append((name, .string(text))) }
            case "transitionType":
                fields.append(("type", .string(text)))
            default:
                if Self.numberKeys.contains(name) {
                    guard let v = CAMLValues.number(text) else {
                        ctx.warn("\(name)=\"\(text)\": expected a number; the default is kept", at: at)
                        continue
                    }
                    fields.append((name, .number(v)))
                } else {
                    fields.append((name, .string(text)))
                }
            }
        }
        var children: [AnimationSpec] = []
        for c in n.children {
            switch c.name {
            case "animations":
                children += c.children.compactMap { animation($0, key: nil, layerClass: layerClass) }
            case "values", "fromValue", "toValue", "byValue":
                if c.name == "values" {
                    // Keyframe values: one typed element each (<real/>, <CGPoint/>, <CGImage/>, <value type=…/>).
                    fields.append((c.name, .array(c.children.compactMap { nodes.typed($0["type"] ?? $0.name, $0, hint: kp?.valueType) })))
                } else if let v = nodes.value(c, hint: kp?.valueType) {
                    fields.append((c.name, v))
                }
            case "keyTimes", "biasValues", "continuityValues", "tensionValues":
                fields.append((c.name, .array(c.children.compactMap { nodes.typed($0.name, $0, hint: .number) })))
            case "timingFunctions":
                fields.append((c.name, .array(c.children.compactMap { nodes.typed($0.name, $0, hint: nil) })))
            case "path":
                if let v = nodes.value(c, hint: .path) { fields.append((c.name, v)) }
            default:
                ctx.warn("<\(c.name)> in an animation is not supported; it is ignored", at: nodes.place(c))
            }
        }
        return AnimationBuilder(ctx: ctx, layerClass: layerClass).build(className: cls, key: key, fields: fields, children: children, at: at)
    }
}
