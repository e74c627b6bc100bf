import LayerModel
import Animation

/// Colors: "#RGB", "#RRGGBB", "#RRGGBBAA", [r, g, b(, a)] (0–1, extended sRGB allowed), a UIKit
/// name, or null for nil (where the property is nullable).
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
            if let c = Color.uiKitNames[s] { return c }
            throw error(.invalidValue, v, "unknown color name \(Echo.quoted(s))", expected: expected,
                        suggestion: Suggestion.nearest(to: s, among: Color.uiKitNames.keys.sorted()))
        case .array(let a):
            guard a.count == 3 || a.count == 4 else {
                throw error(.wrongType, v, "expected a color array [r, g, b] or [r, g, b, a], found an array of \(a.count) elements",
                            expected: expected)
            }
            let n = try a.map { e -> Double in
                guard let x = e.number else { throw typeMismatch(e, expected: "a number") }
                return x
            }
            return Color(n[0], n[1], n[2], n.count == 4 ? n[3] : 1)
        default:
            throw typeMismatch(v, expected: expected)
        }
    }

    /// "#RGB" (each digit doubled), "#RRGGBB", "#RRGGBBAA"; nil when malformed.
    static func hexColor(_ s: String) -> Color? {
        let digits = Array(s.utf8.dropFirst())
        var values: [Double] = []
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
            for b in digits { guard let h = hex(b) else { return nil }; values.append(Double(h * 17) / 255) }
        case 6, 8:
            for k in stride(from: 0, to: digits.count, by: 2) {
                guard let hi = hex(digits[k]), let lo = hex(digits[k + 1]) else { return nil }
                values.append(Double(hi * 16 + lo) / 255)
            }
        default:
            return nil
        }
        return Color(values[0], values[1], values[2], values.count == 4 ? values[3] : 1)
    }
}
