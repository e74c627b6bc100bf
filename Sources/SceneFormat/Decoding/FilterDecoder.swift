import LayerModel
import Animation

/// Decodes `filters` / `backgroundFilters` (arrays of filter objects) and CABackdropLayer's
/// `scale` and `groupName` (scene-format.md "Filters"). Every error names its place: an unknown
/// filter type or input suggests the nearest one, a value of the wrong type says what the input
/// expects.
struct FilterDecoder {
    let ctx: DecodingContext

    /// The keys of a filter object besides its inputs.
    static let filterKeys = ["type", "name"]

    func decodeList(_ v: JSONValue) throws -> [Filter] {
        guard let items = v.array else { throw ctx.typeMismatch(v, expected: "an array of filters ({\"type\": \"gaussianBlur\", …})") }
        if items.count > SceneLimits.maxFiltersPerList {
            throw ctx.limit(v, "more than \(SceneLimits.maxFiltersPerList) filters in one list")
        }
        return try items.map(decode)
    }

    func decode(_ v: JSONValue) throws -> Filter {
        let r = try ObjectReader(v, ctx, owner: "a filter", expected: "a filter object ({\"type\": \"gaussianBlur\", \"inputRadius\": 10})")
        let type = try ctx.enumeration(try r.required("type"), FilterType.self, what: "filter type")
        var filter = Filter(type, name: try r["name"].map { try ctx.string($0) })
        let allowed = Self.filterKeys + type.inputs.map(\.rawValue)
        for m in r.members where !Self.filterKeys.contains(m.key) {
            guard let input = FilterInput(rawValue: m.key), type.inputs.contains(input) else {
                let err = r.unknownKey(m, among: allowed)
                throw SceneError(.unknownKey, at: err.location,
                                 "unknown input \(Echo.quoted(m.key)) for a \(type.rawValue) filter (it takes "
                                    + (type.inputs.isEmpty ? "no inputs" : type.inputs.map(\.rawValue).joined(separator: ", ")) + ")",
                                 suggestion: err.suggestion)
            }
            let value = try ctx.value(m.value, as: FilterKeyPaths.valueType(input), nullable: input == .inputMaskImage,
                                      domain: Self.domain(input), name: m.key)
            if input == .inputColorMatrix, case .numberArray(let a) = value, a.count != 20 {
                throw ctx.error(.invalidValue, m.value, "inputColorMatrix needs 20 numbers (rows R G B A of [r g b a bias]), found \(a.count)",
                                expected: "20 numbers")
            }
            guard let fv = FilterKeyPaths.filterValue(value, input), filter.set(input, fv) else {
                throw ctx.error(.invalidValue, m.value, "internal error: \(m.key) refused its decoded value")
            }
        }
        return filter
    }

    private static func domain(_ input: FilterInput) -> NumberDomain? {
        input == .inputRadius ? .nonNegative : nil
    }
}
