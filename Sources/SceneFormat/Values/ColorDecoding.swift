import LayerModel
import Animation

/// Colors: "#RGB", "#RRGGBB", "#RRGGBBAA", [r, g, b(, a)] (0–1, extended sRGB allowed), a UIKit
/// name or an iOS semantic system colour (`SystemColors`), or null for nil (where nullable).
/// Components that are all whole numbers with one above 1 (`[0, 122, 255]`) are 0–255 values
/// written by habit (UIColor(red:green:blue:) takes 0–1): an error that shows them divided by 255,
/// since reading them as extended sRGB would paint a wildly over-bright colour without a word.
extension DecodingContext {
    static func colorExpectation(nullable: Bool) -> String {
        nullable ? "a color (\"#RRGGBB\", [r, g, b(, a)], a UIKit name or null)"
                 : "a color (\"#RRGGBB\", [r, g, b(, a)] or a UIKit name)"
    }

    func color(_ v: JSONValue, nullable: Bool) throws -> Color? {
        let expected = Self.colorExpectation(nullable: nullable)
        switch v.kind {
        case .null where nullable:
            return nil
        case .string(let s):
            if s.hasPrefix("#") {
                guard let c = Self.hexColor(s) else {
                    throw error(.invalidValue, v, "invalid color \(Echo.quoted(s)): expected #RGB, #RRGGBB or #RRGGBBAA with hex digits",
                                expected: expected)
                }
                return c
            }
            if let c = SystemColors.named(s) { return c }
            let names = SystemColors.acceptedNames
            let suggestion = Suggestion.nearest(to: s, among: names)
            throw error(.invalidValue, v, "unknown color name \(Echo.quoted(s))" + (suggestion == nil
                            ? "; the names are UIKit's \(Color.uiKitNames.keys.sorted().joined(separator: ", ")) and iOS's system colours \(SystemColors.light.keys.sorted().joined(separator: ", ")) (light appearance)"
                            : ""),
                        expected: expected, suggestion: suggestion)
        case .array(let a):
            guard a.count == 3 || a.count == 4 else {
                throw error(.wrongType, v, "expected a color array [r, g, b] or [r, g, b, a], found an array of \(a.count) elements",
                            expected: expected)
            }
            let n = try a.map { e -> Double in
                guard let x = e.number else { throw typeMismatch(e, expected: "a number") }
                return x
            }
            let rgb = n.prefix(3)
            if rgb.contains(where: { $0 > 1 }) && rgb.allSatisfy({ $0 == $0.rounded() && $0 >= 0 && $0 <= 255 }) {
                func third(_ x: Double) -> String {
                    let r = (x / 255 * 1000).rounded() / 1000
                    return r == r.rounded() ? String(Int(r)) : String(r)
                }
                let scaled = rgb.map(third) + (n.count == 4 ? [n[3] > 1 ? third(n[3]) : Self.plain(n[3])] : [])
                throw error(.invalidValue, v, "color components are 0–1 (as UIColor(red:green:blue:alpha:) takes them), not 0–255: "
                                + "[\(n.map(Self.plain).joined(separator: ", "))] divided by 255 is [\(scaled.joined(separator: ", "))]",
                            expected: expected)
            }
            return Color(n[0], n[1], n[2], n.count == 4 ? n[3] : 1)
        default:
            throw typeMismatch(v, expected: expected)
        }
    }

    /// A number as written: 255, 0.5.
    static func plain(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }

    /// "#RGB" (each digit doubled), "#RRGGBB", "#RRGGBBAA"; nil when malformed.
    /// Reads the UTF-8 view in place (two arrays per color were two allocations each).
    static func hexColor(_ s: String) -> Color? {
        // On the string's bytes in place: through `String.UTF8View` each byte was an index
        // computation (≈ 1/40 of decoding a scene of 5,000 colored layers).
        var s = s
        return s.withUTF8 { hexColor(digits: UnsafeBufferPointer(rebasing: $0.dropFirst())) }
    }

    private static func hexColor(digits: UnsafeBufferPointer<UInt8>) -> Color? {
        var values: (Double, Double, Double, Double) = (0, 0, 0, 1)
        var count = 0
        func append(_ x: Double) {
            switch count {
            case 0: values.0 = x
            case 1: values.1 = x
            case 2: values.2 = x
            default: values.3 = x
            }
            count += 1
        }
        func hex(_ b: UInt8) -> Int? {
            switch b {
            case 0x30...0x39: return Int(b - 0x30)
            case 0x41...0x46: return Int(b - 0x41 + 10)
            case 0x61...0x66: return Int(b - 0x61 + 10)
            default: return nil
            }
        }
        switch digits.count {
        case 3:
            for b in digits { guard let h = hex(b) else { return nil }; append(Double(h * 17) / 255) }
        case 6, 8:
            var k = digits.startIndex
            while k != digits.endIndex {
                let next = digits.index(after: k)
                guard let hi = hex(digits[k]), let lo = hex(digits[next]) else { return nil }
                append(Double(hi * 16 + lo) / 255)
                k = digits.index(after: next)
            }
        default:
            return nil
        }
        return Color(values.0, values.1, values.2, values.3)
    }
}
