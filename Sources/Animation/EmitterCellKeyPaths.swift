import Geometry
import LayerModel

extension EmitterShape: AnimationEnumeration {}
extension EmitterMode: AnimationEnumeration {}
extension EmitterRenderMode: AnimationEnumeration {}

/// One CAEmitterCell property: its KVC name, value type, animatability and accessors. The scene
/// decoder reads cells with this table, and key paths `emitterCells.NAME.KEY` (animations,
/// transactions) address these properties of the cell named NAME.
public struct EmitterCellProperty: Sendable {
    public let name: String
    public let valueType: ValueType
    public let nullable: Bool
    /// Animatable per CAEmitterCell.h ("Animatable" in the property's comment).
    public let animatable: Bool
    public let domain: NumberDomain?
    public let summary: String
    public let get: @Sendable (EmitterCell) -> AnimationValue
    public let set: @Sendable (inout EmitterCell, AnimationValue) -> Bool
}

public enum EmitterCellKeyPaths {
    /// Every key a cell object accepts besides `emitterCells` (its sub-cells), in scene-format.md's order.
    public static let properties: [EmitterCellProperty] = [
        p("name", .string, \.name, animatable: false, "Names the cell in key paths (emitterCells.NAME.birthRate)."),
        p("enabled", .bool, \.enabled, animatable: true, "Whether the cell emits; default true."),
        p("contents", .image, \.contents, animatable: false, "The particle image; a cell without contents draws nothing (its sub-cells still emit)."),
        p("contentsRect", .rect, \.contentsRect, animatable: true, "The part of the image drawn, in unit coordinates; default [0, 0, 1, 1]."),
        p("contentsScale", .number, \.contentsScale, animatable: false, domain: .positive, "Image pixels per point; default 1."),
        p("color", .color, \.colorValue, animatable: true, "Multiplied into the contents; default opaque white."),
        p("birthRate", .number, \.birthRate, animatable: true, domain: .nonNegative, "Particles per second; default 0."),
        p("lifetime", .number, \.lifetime, animatable: true, domain: .nonNegative, "Seconds a particle lives; default 0."),
        p("lifetimeRange", .number, \.lifetimeRange, animatable: true, "Range of the lifetime (mean ± range/2)."),
        p("velocity", .number, \.velocity, animatable: true, "Initial speed, points per second."),
        p("velocityRange", .number, \.velocityRange, animatable: true, "Range of the speed."),
        p("xAcceleration", .number, \.xAcceleration, animatable: true, "Acceleration along x, points per second²."),
        p("yAcceleration", .number, \.yAcceleration, animatable: true, "Acceleration along y (down on iOS), points per second²."),
        p("zAcceleration", .number, \.zAcceleration, animatable: true, "Acceleration along z, points per second²."),
        p("scale", .number, \.scale, animatable: true, "Scale of the image; default 1."),
        p("scaleRange", .number, \.scaleRange, animatable: true, "Range of the scale."),
        p("scaleSpeed", .number, \.scaleSpeed, animatable: true, "Change of scale per second."),
        p("spin", .number, \.spin, animatable: true, "Rotation speed, radians per second."),
        p("spinRange", .number, \.spinRange, animatable: true, "Range of the rotation speed."),
        p("emissionLatitude", .number, \.emissionLatitude, animatable: true, "Angle of the emission direction toward +z, radians."),
        p("emissionLongitude", .number, \.emissionLongitude, animatable: true, "Angle of the emission direction in the x-y plane from +x, radians."),
        p("emissionRange", .number, \.emissionRange, animatable: true, "Full angle of the emission cone, radians."),
        p("redRange", .number, \.redRange, animatable: true, "Range of the colour's red component."),
        p("greenRange", .number, \.greenRange, animatable: true, "Range of the colour's green component."),
        p("blueRange", .number, \.blueRange, animatable: true, "Range of the colour's blue component."),
        p("alphaRange", .number, \.alphaRange, animatable: true, "Range of the colour's alpha."),
        p("redSpeed", .number, \.redSpeed, animatable: true, "Change of red per second."),
        p("greenSpeed", .number, \.greenSpeed, animatable: true, "Change of green per second."),
        p("blueSpeed", .number, \.blueSpeed, animatable: true, "Change of blue per second."),
        p("alphaSpeed", .number, \.alphaSpeed, animatable: true, "Change of alpha per second."),
        p("magnificationFilter", .enumeration(ContentsFilter.spellings), \.magnificationFilter, animatable: false, "linear (default), nearest or trilinear."),
        p("minificationFilter", .enumeration(ContentsFilter.spellings), \.minificationFilter, animatable: false, "linear (default), nearest or trilinear."),
        p("beginTime", .number, \.beginTime, animatable: false, "When the cell starts emitting, in the emitter's time (a sub-cell: after its parent's birth)."),
        p("duration", .number, \.duration, animatable: false, domain: .nonNegative, "How long the cell emits; 0 = for ever."),
    ]

    private static let byName: [String: EmitterCellProperty] = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0) })
    public static func property(named name: String) -> EmitterCellProperty? { byName[name] }
    /// The keys of a cell object.
    public static let keys: [String] = properties.map(\.name) + ["emitterCells"]

    private static func p<V: AnimationValueConvertible & Sendable>(
        _ name: String, _ type: ValueType, _ kp: WritableKeyPath<EmitterCell, V> & Sendable,
        animatable: Bool, domain: NumberDomain? = nil, _ summary: String
    ) -> EmitterCellProperty {
        EmitterCellProperty(name: name, valueType: type, nullable: V.self is ExpressibleByNilLiteral.Type,
                            animatable: animatable, domain: domain, summary: summary,
                            get: { $0[keyPath: kp].animationValue },
                            set: { cell, value in
                                guard let v = V(animationValue: value) else { return false }
                                cell[keyPath: kp] = v
                                return true
                            })
    }
}

extension EmitterCell {
    /// `color` as the optional the colour codec reads and writes (nil reads as Core Animation's
    /// default, opaque white).
    var colorValue: Color? {
        get { color }
        set { color = newValue ?? .white }
    }
}
