import Animation
import LayerModel

/// Decodes a CAEmitterLayer's `emitterCells`: an array of cell objects with CAEmitterCell's keys
/// (`EmitterCellKeyPaths`) and their own `emitterCells` (sub-cells), and enforces the emitter
/// limits: `SceneLimits.maxEmitterCells` cells in one layer (sub-cells included), and at most
/// `SceneLimits.maxEmitterParticles` particles alive at once, estimated as Σ births per second ×
/// longest lifetime over the cells (`EmitterSimulation.estimatedParticles`), the layer's birthRate
/// and lifetime multipliers included.
struct EmitterCellDecoder {
    let ctx: DecodingContext
    var cellCount = 0

    init(ctx: DecodingContext) { self.ctx = ctx }

    mutating func decodeCells(_ v: JSONValue, depth: Int) throws -> [EmitterCell] {
        guard let items = v.array else { throw ctx.typeMismatch(v, expected: "an array of emitter cells") }
        return try items.map { try decodeCell($0, depth: depth) }
    }

    mutating func decodeCell(_ v: JSONValue, depth: Int) throws -> EmitterCell {
        let r = try ObjectReader(v, ctx, owner: "CAEmitterCell", expected: "an emitter cell (an object)")
        cellCount += 1
        if cellCount > SceneLimits.maxEmitterCells {
            throw ctx.limit(v, SceneLimits.Message.emitterCells)
        }
        if depth > SceneLimits.maxEmitterCellDepth {
            throw ctx.limit(v, SceneLimits.Message.emitterCellDepth)
        }
        var cell = EmitterCell()
        for m in r.members {
            if m.key == "emitterCells" {
                cell.emitterCells = try decodeCells(m.value, depth: depth + 1)
                continue
            }
            guard let property = EmitterCellKeyPaths.property(named: m.key) else {
                throw r.unknownKey(m, among: EmitterCellKeyPaths.keys)
            }
            let value = try ctx.value(m.value, as: property.valueType, nullable: property.nullable,
                                      domain: property.domain, name: property.name)
            guard property.set(&cell, value) else {
                throw ctx.error(.invalidValue, m.value, "internal error: \(m.key) refused its decoded value")
            }
        }
        return cell
    }

    /// Refuses an emitter whose particles alive at once would exceed the limit.
    func checkParticleEstimate(_ emitter: EmitterProperties, at v: JSONValue) throws {
        let n = EmitterSimulation.estimatedParticles(emitter)
        guard n.isFinite, n <= Double(SceneLimits.maxEmitterParticles) else {
            throw ctx.limit(v, SceneLimits.Message.particles(n, replicated: false))
        }
    }
}

/// The CAEmitterLayer keys that are not rows of `KeyPathTable`: `emitterCells` (objects, not a
/// value) and `preservesDepth` (the table's row belongs to CAReplicatorLayer).
enum EmitterLayerKeys {
    static let keys = ["emitterCells", "preservesDepth"]

    static func decode(_ m: JSONMember, into layer: inout Layer, _ ctx: DecodingContext) throws {
        switch m.key {
        case "emitterCells":
            var decoder = EmitterCellDecoder(ctx: ctx)
            layer.emitter.emitterCells = try decoder.decodeCells(m.value, depth: 1)
        default:
            let v = try ctx.value(m.value, as: .bool, nullable: false, domain: nil, name: m.key)
            layer.emitter.preservesDepth = v == .bool(true)
        }
    }

    /// The limits that need the whole layer (its multipliers and every cell).
    static func check(_ layer: Layer, at v: JSONValue, _ ctx: DecodingContext) throws {
        try EmitterCellDecoder(ctx: ctx).checkParticleEstimate(layer.emitter, at: v)
    }
}
