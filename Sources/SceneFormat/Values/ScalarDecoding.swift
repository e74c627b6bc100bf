import Geometry
import Animation

/// Numbers, booleans, strings, enumerations and the array-encoded geometry types
/// (scene-format.md "Value encodings").
extension DecodingContext {
    func number(_ v: JSONValue, domain: NumberDomain? = nil, what: String? = nil) throws -> Double {
        guard let x = v.number else { throw typeMismatch(v, expected: "a number") }
        if let domain, !domain.contains(x) {
            throw error(.outOfRange, v, "\(what.map { "\($0) " } ?? "")\(display(x)) is out of range: must be \(domain)",
                        expected: "a number \(domain)")
        }
        return x
    }

    /// A whole number (integral JSON number), checked before any conversion to Int.
    func integer(_ v: JSONValue, domain: NumberDomain? = nil, what: String? = nil) throws -> Int {
        guard let x = v.number else { throw typeMismatch(v, expected: "a whole number") }
        guard x == x.rounded(), abs(x) < 1e15 else {
            throw error(.invalidValue, v, "expected a whole number, found \(x)", expected: "a whole number")
        }
        _ = try number(v, domain: domain, what: what)
        return Int(x)
    }

    func bool(_ v: JSONValue) throws -> Bool {
        guard let b = v.bool else { throw typeMismatch(v, expected: "true or false") }
        return b
    }

    func string(_ v: JSONValue) throws -> String {
        guard let s = v.string else { throw typeMismatch(v, expected: "a string") }
        return s
    }

    /// A Core Animation constant by its scene spelling, with a suggestion for near misses.
    func enumeration<E: RawRepresentable & CaseIterable>(_ v: JSONValue, _ type: E.Type, what: String) throws -> E
    where E.RawValue == String {
        let spellings = E.allCases.map(\.rawValue)
        let expected = "one of " + spellings.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let s = v.string else { throw typeMismatch(v, expected: expected) }
        guard let e = E(rawValue: s) else {
            throw error(.invalidValue, v, "unknown \(what) \(Echo.quoted(s)), expected \(expected)", expected: expected,
                        suggestion: Suggestion.nearest(to: s, among: spellings))
        }
        return e
    }

    /// An array of exactly `count` numbers (points, sizes, rects, matrices).
    func numbers(_ v: JSONValue, count: Int, expected: String) throws -> [Double] {
        try numberElements(v, count: count, expected: expected).map { $0.number! }
    }

    /// The elements of an array of exactly `count` numbers, checked: points, sizes and rects read
    /// them in place (a `[Double]` for every frame was one allocation per layer).
    private func numberElements(_ v: JSONValue, count: Int, expected: String) throws -> [JSONValue] {
        guard let a = v.array else { throw typeMismatch(v, expected: expected) }
        guard a.count == count else {
            throw error(.wrongType, v, "expected \(expected), found an array of \(a.count) element\(a.count == 1 ? "" : "s")",
                        expected: expected)
        }
        for e in a where e.number == nil { throw typeMismatch(e, expected: "a number") }
        return a
    }

    // Points, sizes and rects read their numbers in place when they are well formed, and take
    // `numberElements` for its messages when they are not.
    func point(_ v: JSONValue) throws -> Point {
        if let n = v.numbers(count: 2) { return Point(n.0, n.1) }
        let n = try numberElements(v, count: 2, expected: ValueType.point.summary)
        return Point(n[0].number!, n[1].number!)
    }

    func size(_ v: JSONValue) throws -> Size {
        if let n = v.numbers(count: 2) { return Size(n.0, n.1) }
        let n = try numberElements(v, count: 2, expected: ValueType.size.summary)
        return Size(n[0].number!, n[1].number!)
    }

    func rect(_ v: JSONValue) throws -> Rect {
        if let n = v.numbers(count: 4) { return Rect(n.0, n.1, n.2, n.3) }
        let n = try numberElements(v, count: 4, expected: ValueType.rect.summary)
        return Rect(n[0].number!, n[1].number!, n[2].number!, n[3].number!)
    }

    /// An array of numbers, each in `domain`, at most `SceneLimits.maxArrayElements` long.
    func numberArray(_ v: JSONValue, domain: NumberDomain? = nil, limit: Int = SceneLimits.maxArrayElements,
                     what: String) throws -> [Double] {
        guard let a = v.array else { throw typeMismatch(v, expected: "an array of numbers") }
        if a.count > limit { throw self.limit(v, "\(what) has \(a.count) entries; the limit is \(limit)") }
        return try a.map { try number($0, domain: domain) }
    }

    /// A timing function: a CAMediaTimingFunction name or `[c1x, c1y, c2x, c2y]`.
    func timingFunction(_ v: JSONValue) throws -> TimingFunctionSpec {
        let expected = "a timing function (\"linear\", \"easeIn\", \"easeOut\", \"easeInEaseOut\", \"default\" or [c1x, c1y, c2x, c2y])"
        if v.string != nil {
            return .named(try enumeration(v, TimingFunctionName.self, what: "timing function"))
        }
        guard v.array != nil else { throw typeMismatch(v, expected: expected) }
        let n = try numbers(v, count: 4, expected: expected)
        // The curve must be a function of time: control points' x stay in [0, 1] (y may overshoot).
        for (k, x) in [(0, n[0]), (2, n[2])] where !(0...1).contains(x) {
            throw error(.outOfRange, v.array![k], "a timing function's control point x must be in [0, 1], found \(display(x))")
        }
        return .controlPoints(n[0], n[1], n[2], n[3])
    }
}
