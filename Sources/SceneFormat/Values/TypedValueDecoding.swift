import Geometry
import LayerModel
import Animation

/// Decodes a value by the `ValueType` of its property or key path: the one place where a layer
/// property, a transaction's `set` value and an animation's from/to/keyframe values are read.
extension DecodingContext {
    /// What an error says was expected for this type.
    static func expectation(_ type: ValueType, nullable: Bool) -> String {
        if type == .color { return colorExpectation(nullable: nullable) }
        return type.summary + (nullable ? " or null" : "")
    }

    /// - Parameters:
    ///   - domain: checked for numbers, integers and number-array elements (model values only;
    ///     animation values may overshoot).
    ///   - name: the property or key path, for messages.
    func value(_ v: JSONValue, as type: ValueType, nullable: Bool, domain: NumberDomain?, name: String) throws -> AnimationValue {
        if v.isNull {
            guard nullable else { throw typeMismatch(v, expected: Self.expectation(type, nullable: false)) }
            return .null
        }
        switch type {
        case .number:
            return .number(try number(v, domain: domain, what: name))
        case .integer:
            return .number(Double(try integer(v, domain: domain, what: name)))
        case .bool:
            return .bool(try bool(v))
        case .point:
            return .point(try point(v))
        case .size:
            return .size(try size(v))
        case .rect:
            return .rect(try rect(v))
        case .color:
            return try color(v, nullable: nullable).map(AnimationValue.color) ?? .null
        case .transform:
            return .transform(try transform(v))
        case .path:
            return .path(try path(v))
        case .image:
            return .image(try image(v))
        case .numberArray:
            return .numberArray(try numberArray(v, domain: domain, what: name))
        case .colorArray:
            guard let a = v.array else { throw typeMismatch(v, expected: Self.expectation(type, nullable: nullable)) }
            if a.count > SceneLimits.maxArrayElements {
                throw limit(v, "\(name) has \(a.count) entries; the limit is \(SceneLimits.maxArrayElements)")
            }
            return .colorArray(try a.map { try color($0, nullable: false)! })
        case .string:
            return .string(try string(v))
        case .cornerMask:
            return .cornerMask(try cornerMask(v))
        case .enumeration(let cases):
            let expected = "one of " + cases.map { "\"\($0)\"" }.joined(separator: ", ")
            guard let s = v.string else { throw typeMismatch(v, expected: expected) }
            guard cases.contains(s) else {
                throw error(.invalidValue, v, "unknown \(name) \(Echo.quoted(s)), expected \(expected)", expected: expected,
                            suggestion: Suggestion.nearest(to: s, among: cases))
            }
            return .enumeration(s)
        }
    }

    /// A transform: 16 numbers in CATransform3D field order, or a transform-function string.
    func transform(_ v: JSONValue) throws -> Transform3D {
        switch v.kind {
        case .string(let s):
            do {
                return try TransformFunctionParser.parse(s)
            } catch let g as GrammarError {
                throw error(.invalidValue, v, "invalid transform at character \(g.offset + 1): \(g.message)", suggestion: g.suggestion)
            }
        case .array:
            return Transform3D(try numbers(v, count: 16, expected: "a transform of 16 numbers [m11, m12, …, m44]"))
        default:
            throw typeMismatch(v, expected: ValueType.transform.summary)
        }
    }

    /// maskedCorners: an array of corner names.
    func cornerMask(_ v: JSONValue) throws -> CornerMask {
        guard let a = v.array else { throw typeMismatch(v, expected: ValueType.cornerMask.summary) }
        let names = CornerMask.names.map(\.0)
        var mask: CornerMask = []
        for e in a {
            guard let s = e.string else { throw typeMismatch(e, expected: "a corner name") }
            guard let corner = CornerMask.names.first(where: { $0.0 == s })?.1 else {
                throw error(.invalidValue, e, "unknown corner \(Echo.quoted(s)), expected one of " + names.map { "\"\($0)\"" }.joined(separator: ", "),
                            suggestion: Suggestion.nearest(to: s, among: names))
            }
            mask.insert(corner)
        }
        return mask
    }
}
