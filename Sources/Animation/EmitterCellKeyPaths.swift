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

/// Key paths into a CAEmitterLayer's cells: `emitterCells.NAME.KEY`, and through sub-cells
/// `emitterCells.NAME.emitterCells.SUB.KEY` (Core Animation's KVC addresses cells by `name`).
/// Such a key path resolves to a synthesised `LayerProperty` of CAEmitterLayer whose accessors
/// find the first cell with that name (depth-first in array order) at each level. A name no cell
/// has reads the property's default and writes nothing. Changing one in a transaction adds no
/// implicit animation (caprof's reading: CALayer's default actions cover its own keys only).
extension EmitterCellKeyPaths {
    /// The cell names along the path and the cell property, or nil when `keyPath` is not of this form.
    static func parse(_ keyPath: String) -> (names: [String], property: EmitterCellProperty)? {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3, parts.count % 2 == 1 else { return nil }
        var names: [String] = []
        var i = 0
        while i < parts.count - 1 {
            guard parts[i] == "emitterCells", !parts[i + 1].isEmpty else { return nil }
            names.append(parts[i + 1])
            i += 2
        }
        guard let property = property(named: parts[parts.count - 1]) else { return nil }
        return (names, property)
    }

    /// The key path resolved, with the cell property's type.
    public static func resolve(_ keyPath: String) -> ResolvedKeyPath? {
        guard let (_, p) = parse(keyPath) else { return nil }
        return ResolvedKeyPath(keyPath: keyPath, property: keyPath, field: nil, valueType: p.valueType)
    }

    /// The synthesised layer property of a cell key path (see above).
    public static func layerProperty(forKeyPath keyPath: String) -> LayerProperty? {
        guard let (names, p) = parse(keyPath) else { return nil }
        return LayerProperty(
            name: keyPath, valueType: p.valueType, nullable: p.nullable, layerClass: .emitter, animatable: p.animatable,
            implicitAction: .none, domain: p.domain, summary: p.summary,
            get: { layer in
                guard let cell = find(names[...], in: layer.emitter.emitterCells) else { return p.get(EmitterCell()) }
                return p.get(cell)
            },
            set: { layer, value in
                var probe = EmitterCell()
                guard p.set(&probe, value) else { return false }   // the wrong type: refused
                _ = update(names[...], in: &layer.emitter.emitterCells) { _ = p.set(&$0, value) }
                return true
            })
    }

    static func find(_ names: ArraySlice<String>, in cells: [EmitterCell]) -> EmitterCell? {
        guard let first = names.first, let cell = cells.first(where: { $0.name == first }) else { return nil }
        return names.count == 1 ? cell : find(names.dropFirst(), in: cell.emitterCells)
    }

    static func update(_ names: ArraySlice<String>, in cells: inout [EmitterCell], _ body: (inout EmitterCell) -> Void) -> Bool {
        guard let first = names.first, let i = cells.firstIndex(where: { $0.name == first }) else { return false }
        if names.count == 1 { body(&cells[i]); return true }
        return update(names.dropFirst(), in: &cells[i].emitterCells, body)
    }
}
