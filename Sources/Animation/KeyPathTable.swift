import Geometry
import LayerModel

/// What Core Animation does when a transaction changes a property (reference §7.2–7.3).
public enum ImplicitAction: String, Sendable {
    /// No implicit animation: not animatable, or animatable only explicitly (`path`).
    case none
    /// A CABasicAnimation from the presentation value to the new value.
    case basic
    /// A fade CATransition (`contents`).
    case fade
}

/// One layer property: its scene/KVC name, value type, owner class and how to read and write it.
/// The scene decoder, the JSON Schema, transactions and presentation evaluation all use this table.
public struct LayerProperty: Sendable {
    public let name: String
    public let valueType: ValueType
    /// Accepts `null` (nil CGColor, CGPath, contents, arrays, string).
    public let nullable: Bool
    /// The subclass that declares it; nil = CALayer (every layer class).
    public let layerClass: LayerClass?
    /// Animatable per the CALayer headers (reference §7.3).
    public let animatable: Bool
    public let implicitAction: ImplicitAction
    /// Accepted numbers, for number and integer properties and the elements of number arrays.
    public let domain: NumberDomain?
    /// One line for editor tooltips (the JSON Schema's description).
    public let summary: String
    public let get: @Sendable (Layer) -> AnimationValue
    /// Writes the value; false when it has the wrong type for the property (the caller validated it).
    public let set: @Sendable (inout Layer, AnimationValue) -> Bool
}

/// A sub-field of a structured property in a key path (`position.x`, `transform.rotation.z`;
/// Core Animation Programming Guide, "Key-Value Coding Extensions"; reference §5.5).
public enum KeyPathField: String, CaseIterable, Sendable {
    // CGPoint
    case x, y
    // CGSize
    case width, height
    // CGRect
    case origin, originX = "origin.x", originY = "origin.y"
    case size, sizeWidth = "size.width", sizeHeight = "size.height"
    // CATransform3D
    case rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z"
    /// Same as rotation.z.
    case rotation
    case scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z"
    /// Average of the three scale factors (get); setting sets all three.
    case scale
    /// Undocumented but used by Apple's code: x and y scale together.
    case scaleXY = "scale.xy"
    case translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"
    /// x and y translation as a CGSize.
    case translation

    /// The fields a value of this type has.
    public static func fields(of type: ValueType) -> [KeyPathField] {
        switch type {
        case .point: return [.x, .y]
        case .size: return [.width, .height]
        case .rect: return [.origin, .originX, .originY, .size, .sizeWidth, .sizeHeight]
        case .transform:
            return [.rotationX, .rotationY, .rotationZ, .rotation, .scaleX, .scaleY, .scaleZ, .scale, .scaleXY,
                    .translationX, .translationY, .translationZ, .translation]
        default: return []
        }
    }
    /// The type of the field's values.
    public var valueType: ValueType {
        switch self {
        case .origin: return .point
        case .size, .translation: return .size
        default: return .number
        }
    }
}

/// A key path resolved against `KeyPathTable`: the property, an optional sub-field, the value type.
public struct ResolvedKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// As written (`"transform.rotation.z"`).
    public let keyPath: String
    /// The layer property at its root (`"transform"`).
    public let property: String
    public let field: KeyPathField?
    public let valueType: ValueType
    public var description: String { keyPath }
    /// The table entry of the root property.
    public var layerProperty: LayerProperty {
        KeyPathTable.property(named: property) ?? FilterKeyPaths.property(named: property)   // filters.NAME.INPUT
            ?? EmitterCellKeyPaths.layerProperty(forKeyPath: property)!                     // emitterCells.NAME.KEY
    }
}

public enum KeyPathTable {
    /// Every property a scene may set on a layer, in scene-format.md's order.
    public static let properties: [LayerProperty] = [
        // Geometry
        p("bounds", .rect, \.bounds, animatable: true, "The layer's bounds rectangle [x, y, width, height] in its own coordinate space."),
        p("position", .point, \.position, animatable: true, "Position of the anchor point in the superlayer's coordinate space."),
        p("anchorPoint", .point, \.anchorPoint, animatable: true, "Anchor point in unit coordinates of the bounds; default [0.5, 0.5]."),
        p("anchorPointZ", .number, \.anchorPointZ, animatable: true, "Anchor point's z component."),
        p("zPosition", .number, \.zPosition, animatable: true, "Position on the z axis."),
        p("transform", .transform, \.transform, animatable: true, "Transform applied to the layer about its anchor point."),
        p("sublayerTransform", .transform, \.sublayerTransform, animatable: true, "Transform applied to the sublayers, about the anchor point."),
        p("geometryFlipped", .bool, \.geometryFlipped, animatable: false, "Flips the layer's geometry vertically for its sublayers."),
        // Appearance
        p("opacity", .number, \.opacity, animatable: true, domain: .unitInterval, "Opacity in [0, 1]; default 1."),
        p("hidden", .bool, \.hidden, animatable: true, "Whether the layer is hidden."),
        p("backgroundColor", .color, \.backgroundColor, animatable: true, "Background color; null = none (default)."),
        p("cornerRadius", .number, \.cornerRadius, animatable: true, domain: .nonNegative, "Radius of the rounded corners of the background and border."),
        p("maskedCorners", .cornerMask, \.maskedCorners, animatable: false, "Which corners cornerRadius rounds; default all four."),
        e("cornerCurve", \.cornerCurve, animatable: false, "Curve of rounded corners: circular (default) or continuous."),
        p("borderWidth", .number, \.borderWidth, animatable: true, domain: .nonNegative, "Border width, drawn inside the bounds."),
        p("borderColor", .color, \.borderColor, animatable: true, "Border color; default opaque black."),
        p("masksToBounds", .bool, \.masksToBounds, animatable: true, "Clips sublayers and contents to the (rounded) bounds."),
        p("doubleSided", .bool, \.doubleSided, animatable: true, "Whether the back of the layer is drawn when facing away."),
        p("opaque", .bool, \.opaque, animatable: false, "Promises that the contents are fully opaque."),
        p("allowsGroupOpacity", .bool, \.allowsGroupOpacity, animatable: false, "Composite the subtree as a group when opacity < 1; default true."),
        p("allowsEdgeAntialiasing", .bool, \.allowsEdgeAntialiasing, animatable: false, "Antialias edges when transformed."),
        e("compositingFilter", \.compositingFilter, animatable: false, "How the layer composites onto what lies beneath: a W3C blend mode or a Porter-Duff operator; default normalBlendMode (source-over)."),
        // Contents
        p("contents", .image, \.contents, animatable: true, action: .fade, "Image shown by the layer: a PNG or JPEG path relative to the scene file, or a data:image/png;base64 or data:image/jpeg;base64 URI."),
        e("contentsGravity", \.contentsGravity, animatable: false, "How contents are placed in the bounds; default resize."),
        p("contentsRect", .rect, \.contentsRect, animatable: true, "Part of the image shown, in unit coordinates; default [0, 0, 1, 1]."),
        p("contentsCenter", .rect, \.contentsCenter, animatable: true, "Stretchable part of the image (nine-part scaling), in unit coordinates. Applies with the resizing gravities (resize, resizeAspect, resizeAspectFill); the positioning ones show the image whole at its natural size."),
        p("contentsScale", .number, \.contentsScale, animatable: true, domain: .positive, "Image pixels per point; default canvas.scale in scene files."),
        e("minificationFilter", \.minificationFilter, animatable: false, "Filter used when contents are scaled down."),
        e("magnificationFilter", \.magnificationFilter, animatable: false, "Filter used when contents are scaled up."),
        // Shadow
        p("shadowColor", .color, \.shadowColor, animatable: true, "Shadow color; default opaque black."),
        p("shadowOpacity", .number, \.shadowOpacity, animatable: true, domain: .unitInterval, "Shadow opacity in [0, 1]; default 0 (no shadow)."),
        p("shadowOffset", .size, \.shadowOffset, animatable: true, "Shadow offset; default [0, -3]."),
        p("shadowRadius", .number, \.shadowRadius, animatable: true, domain: .nonNegative, "Shadow blur radius; default 3."),
        p("shadowPath", .path, \.shadowPath, animatable: true, "Shape of the shadow; without it the shadow needs an offscreen pass."),
        // Caching
        p("shouldRasterize", .bool, \.shouldRasterize, animatable: true, "Render the subtree into a cached bitmap."),
        p("rasterizationScale", .number, \.rasterizationScale, animatable: true, domain: .positive, "Pixels per point of the rasterization cache; default canvas.scale in scene files."),
        // Timing
        p("beginTime", .number, \.beginTime, animatable: false, "The layer's own CAMediaTiming beginTime (seconds)."),
        p("timeOffset", .number, \.timeOffset, animatable: false, "The layer's own CAMediaTiming timeOffset (seconds)."),
        p("speed", .number, \.speed, animatable: false, "The layer's own CAMediaTiming speed; default 1."),
        // CAShapeLayer
        p("path", .path, \.shape.path, .shape, animatable: true, action: ImplicitAction.none, "The shape's path in the layer's coordinates."),
        p("fillColor", .color, \.shape.fillColor, .shape, animatable: true, "Fill color; default opaque black, null = no fill."),
        e("fillRule", \.shape.fillRule, .shape, animatable: false, "nonZero (default) or evenOdd."),
        p("strokeColor", .color, \.shape.strokeColor, .shape, animatable: true, "Stroke color; default null (no stroke)."),
        p("lineWidth", .number, \.shape.lineWidth, .shape, animatable: true, domain: .nonNegative, "Stroke width; default 1."),
        e("lineCap", \.shape.lineCap, .shape, animatable: false, "butt (default), round or square."),
        e("lineJoin", \.shape.lineJoin, .shape, animatable: false, "miter (default), round or bevel."),
        p("miterLimit", .number, \.shape.miterLimit, .shape, animatable: true, domain: .nonNegative, "Miter limit; default 10."),
        p("lineDashPattern", .numberArray, \.shape.lineDashPattern, .shape, animatable: false, domain: .nonNegative, "Dash lengths: on, off, on, …; null = solid."),
        p("lineDashPhase", .number, \.shape.lineDashPhase, .shape, animatable: true, "Offset into the dash pattern."),
        p("strokeStart", .number, \.shape.strokeStart, .shape, animatable: true, domain: .unitInterval, "Start of the stroked part of the path, in [0, 1]."),
        p("strokeEnd", .number, \.shape.strokeEnd, .shape, animatable: true, domain: .unitInterval, "End of the stroked part of the path, in [0, 1]; default 1."),
        // CAGradientLayer
        p("colors", .colorArray, \.gradient.colors, .gradient, animatable: true, "Gradient stop colors."),
        p("locations", .numberArray, \.gradient.locations, .gradient, animatable: true, "Stop locations in [0, 1]; null = evenly spread."),
        p("startPoint", .point, \.gradient.startPoint, .gradient, animatable: true, "Start point in unit coordinates; default [0.5, 0]."),
        p("endPoint", .point, \.gradient.endPoint, .gradient, animatable: true, "End point in unit coordinates; default [0.5, 1]."),
        e("type", \.gradient.type, .gradient, animatable: false, "Gradient type: axial (default), radial or conic."),
        // CATextLayer
        p("string", .string, \.text.string, .text, animatable: false, "The text shown."),
        p("font", .string, \.text.font, .text, animatable: false, "Font family name; default Helvetica (mapped to an installed font)."),
        p("fontSize", .number, \.text.fontSize, .text, animatable: true, domain: .fontSize, "Font size in points, at most 10,000; default 36."),
        p("foregroundColor", .color, \.text.foregroundColor, .text, animatable: true, "Text color; default opaque white."),
        e("alignmentMode", \.text.alignmentMode, .text, animatable: false, "natural (default), left, right, center or justified."),
        p("wrapped", .bool, \.text.wrapped, .text, animatable: false, "Wrap the text to the bounds width."),
        e("truncationMode", \.text.truncationMode, .text, animatable: false, "none (default), start, middle or end."),
        // CAReplicatorLayer
        p("instanceCount", .integer, \.replicator.instanceCount, .replicator, animatable: true, domain: .nonNegative, "Number of copies of the sublayers, the original included; default 1."),
        p("instanceTransform", .transform, \.replicator.instanceTransform, .replicator, animatable: true, "Transform from one instance to the next, about the replicator's center."),
        p("instanceDelay", .number, \.replicator.instanceDelay, .replicator, animatable: true, "Time shift between instances (seconds)."),
        p("instanceColor", .color, \.replicator.instanceColor, .replicator, animatable: true, "Color multiplied into the first instance; default opaque white."),
        p("instanceRedOffset", .number, \.replicator.instanceRedOffset, .replicator, animatable: true, "Added to the red multiplier of each successive instance."),
        p("instanceGreenOffset", .number, \.replicator.instanceGreenOffset, .replicator, animatable: true, "Added to the green multiplier of each successive instance."),
        p("instanceBlueOffset", .number, \.replicator.instanceBlueOffset, .replicator, animatable: true, "Added to the blue multiplier of each successive instance."),
        p("instanceAlphaOffset", .number, \.replicator.instanceAlphaOffset, .replicator, animatable: true, "Added to the alpha multiplier of each successive instance."),
        p("preservesDepth", .bool, \.replicator.preservesDepth, .replicator, animatable: false, "Keep instances in 3D (as a CATransformLayer) instead of flattening."),
        // CAEmitterLayer (emitterCells and preservesDepth are read by the layer decoder)
        p("birthRate", .number, \.emitter.birthRate, .emitter, animatable: true, "Multiplies every cell's birthRate; default 1."),
        p("lifetime", .number, \.emitter.lifetime, .emitter, animatable: true, "Multiplies every cell's lifetime; default 1."),
        p("velocity", .number, \.emitter.velocity, .emitter, animatable: true, "Multiplies every cell's velocity; default 1."),
        p("scale", .number, \.emitter.scale, .emitter, animatable: true, "Multiplies every cell's scale; default 1."),
        p("spin", .number, \.emitter.spin, .emitter, animatable: true, "Multiplies every cell's spin; default 1."),
        p("seed", .integer, \.emitter.seed, .emitter, animatable: false, domain: NumberDomain(minimum: 0, maximum: 4_294_967_295), "Seed of the particles' random numbers (0…2³²−1); default 0."),
        p("emitterPosition", .point, \.emitter.emitterPosition, .emitter, animatable: true, "Centre of the emitter shape, in the layer's coordinates."),
        p("emitterZPosition", .number, \.emitter.emitterZPosition, .emitter, animatable: true, "z of the emitter shape's centre."),
        p("emitterSize", .size, \.emitter.emitterSize, .emitter, animatable: true, "Size of the emitter shape (a circle's or sphere's radius is its width)."),
        p("emitterDepth", .number, \.emitter.emitterDepth, .emitter, animatable: true, "Depth of a cuboid emitter shape."),
        e("emitterShape", \.emitter.emitterShape, .emitter, animatable: false, "point (default), line, rectangle, circle, cuboid or sphere."),
        e("emitterMode", \.emitter.emitterMode, .emitter, animatable: false, "volume (default), points, outline or surface."),
        e("renderMode", \.emitter.renderMode, .emitter, animatable: false, "unordered (default), oldestFirst, oldestLast, backToFront or additive."),
    ]

    private static let byName: [String: LayerProperty] = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0) })

    public static func property(named name: String) -> LayerProperty? { byName[name] }

    /// Resolves a KVC key path (`"opacity"`, `"position.x"`, `"transform.rotation.z"`); nil when
    /// the root is not a layer property or the sub-field does not exist on its type.
    public static func resolve(_ keyPath: String) -> ResolvedKeyPath? {
        let root: Substring, rest: Substring?
        if let dot = keyPath.firstIndex(of: ".") {
            root = keyPath[..<dot]; rest = keyPath[keyPath.index(after: dot)...]
        } else {
            root = Substring(keyPath); rest = nil
        }
        if FilterKeyPaths.lists.contains(String(root)) { return FilterKeyPaths.resolve(keyPath) }
        if root == "emitterCells" { return EmitterCellKeyPaths.resolve(keyPath) }
        guard let prop = byName[String(root)] else { return nil }
        guard let rest else {
            return ResolvedKeyPath(keyPath: keyPath, property: prop.name, field: nil, valueType: prop.valueType)
        }
        guard let field = KeyPathField(rawValue: String(rest)),
              KeyPathField.fields(of: prop.valueType).contains(field) else { return nil }
        return ResolvedKeyPath(keyPath: keyPath, property: prop.name, field: field, valueType: field.valueType)
    }

    /// Every key path `resolve` accepts, for suggestions ("did you mean …?") and documentation.
    public static let allKeyPaths: [String] = properties.flatMap { prop in
        [prop.name] + KeyPathField.fields(of: prop.valueType).map { "\(prop.name).\($0.rawValue)" }
    }

    /// The key paths `resolve` accepts beyond `allKeyPaths`, as JSON Schema (ECMA-262) patterns:
    /// `filters.NAME.INPUT` / `backgroundFilters.NAME.INPUT` (NAME may contain dots) and
    /// `emitterCells.NAME[.emitterCells.SUB…].KEY`. The scene schema offers them beside the names.
    public static let keyPathPatterns: [String] = [
        "^(" + FilterKeyPaths.lists.joined(separator: "|") + ")\\..+\\.("
            + FilterInput.allCases.map(\.rawValue).joined(separator: "|") + ")$",
        "^emitterCells\\.[^.]+(\\.emitterCells\\.[^.]+)*\\.("
            + EmitterCellKeyPaths.properties.map(\.name).joined(separator: "|") + ")$",
    ]

    // MARK: table builders

    private static func p<V: AnimationValueConvertible & Sendable>(
        _ name: String, _ type: ValueType, _ kp: WritableKeyPath<Layer, V> & Sendable, _ cls: LayerClass? = nil,
        animatable: Bool, action: ImplicitAction? = nil, domain: NumberDomain? = nil, _ summary: String
    ) -> LayerProperty {
        LayerProperty(
            name: name, valueType: type, nullable: V.self is ExpressibleByNilLiteral.Type, layerClass: cls,
            animatable: animatable, implicitAction: action ?? (animatable ? .basic : .none), domain: domain,
            summary: summary,
            get: { $0[keyPath: kp].animationValue },
            set: { layer, value in
                guard let v = V(animationValue: value) else { return false }
                layer[keyPath: kp] = v
                return true
            })
    }

    private static func e<V: AnimationEnumeration & Sendable>(
        _ name: String, _ kp: WritableKeyPath<Layer, V> & Sendable, _ cls: LayerClass? = nil,
        animatable: Bool, _ summary: String
    ) -> LayerProperty {
        p(name, .enumeration(V.spellings), kp, cls, animatable: animatable, summary)
    }
}
