import Geometry
import LayerModel
import Animation

/// The CALayer properties most scenes set on most layers, decoded and set directly: through
/// `KeyPathTable` each took a dictionary look-up of the key and a write through a key path into
/// the layer's copy-on-write box (a writeback buffer each), ≈ 1/5 of decoding 10,000 layers, and
/// the table's first use builds 90 key paths (≈ 1.5 ms). Values are checked by the same
/// `DecodingContext.value` with the same type, nullability, domain and name as the table's entry
/// (`LayerDecodingTests` compares the two), so messages are the same.
extension LayerDecoder {
    /// What `KeyPathTable` says of a common property, as `DecodingContext.value` takes it.
    struct CommonKey {
        let name: String
        let valueType: ValueType
        let nullable: Bool
        let domain: NumberDomain?
    }

    static let commonKeys: [CommonKey] = [
        CommonKey(name: "bounds", valueType: .rect, nullable: false, domain: nil),
        CommonKey(name: "position", valueType: .point, nullable: false, domain: nil),
        CommonKey(name: "opacity", valueType: .number, nullable: false, domain: .unitInterval),
        CommonKey(name: "backgroundColor", valueType: .color, nullable: true, domain: nil),
        CommonKey(name: "cornerRadius", valueType: .number, nullable: false, domain: .nonNegative),
        CommonKey(name: "contents", valueType: .image, nullable: true, domain: nil),
    ]

    /// Decodes and sets `m` when its key is one of `commonKeys`; false for any other key. Each case
    /// is what `DecodingContext.value` does for the key's type (null first: refused unless
    /// nullable), without an `AnimationValue` in between (an image one is boxed).
    func setCommonKey(_ m: JSONMember, on layer: inout Layer) throws -> Bool {
        let v = m.value
        func notNull(_ k: Int) throws {
            let key = Self.commonKeys[k]
            if v.isNull { throw ctx.typeMismatch(v, expected: DecodingContext.expectation(key.valueType, nullable: false)) }
        }
        switch m.key {  // by how often scenes set them
        case "contents":
            layer.contents = v.isNull ? nil : try ctx.image(v)
        case "backgroundColor":
            layer.backgroundColor = v.isNull ? nil : try ctx.color(v, nullable: true)
        case "opacity":
            try notNull(2); layer.opacity = try ctx.number(v, domain: Self.commonKeys[2].domain, what: "opacity")
        case "cornerRadius":
            try notNull(4); layer.cornerRadius = try ctx.number(v, domain: Self.commonKeys[4].domain, what: "cornerRadius")
        case "bounds":
            try notNull(0); layer.bounds = try ctx.rect(v)
        case "position":
            try notNull(1); layer.position = try ctx.point(v)
        default:
            return false
        }
        return true
    }
}
