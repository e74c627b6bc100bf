import Geometry
import LayerModel
import SceneFormat

/// Typed readers for Lottie property values, with the place of anything malformed.
enum LottieValues {
    /// A number property (a number, or an array whose first entry is one: keyframes write `[v]`).
    static func scalar(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> LottieProperty<Double> {
        try LottieProperty.read(v, ctx, what: what, parse: { try number($0, ctx, what: what) })
    }

    /// A vector property ([x, y] or [x, y, z]); missing components are 0.
    static func vector(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> LottieProperty<[Double]> {
        try LottieProperty.read(v, ctx, what: what, parse: { try numbers($0, ctx, what: what, atLeast: 2) })
    }

    /// A colour property: [r, g, b] or [r, g, b, a] in 0…1 (or 0…255 in old files).
    static func color(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> LottieProperty<Color> {
        try LottieProperty.read(v, ctx, what: what, parse: { try colorValue($0, ctx, what: what) })
    }

    static func number(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> Double {
        let x = v.number ?? v.array?.first?.number
        guard let x else { throw ctx.error(v, "\(what): expected a number, found \(v.typeDescription)", kind: .wrongType) }
        guard x.isFinite, abs(x) <= 1e9 else { throw ctx.error(v, "\(what): \(x) is out of range (a finite number within ±1e9)", kind: .outOfRange) }
        return x
    }

    static func numbers(_ v: JSONValue, _ ctx: LottieContext, what: String, atLeast n: Int) throws -> [Double] {
        if let x = v.number {
            guard x.isFinite, abs(x) <= 1e9 else { throw ctx.error(v, "\(what): \(x) is out of range", kind: .outOfRange) }
            return Array(repeating: x, count: n)
        }
        guard let items = v.array else { throw ctx.error(v, "\(what): expected an array of numbers, found \(v.typeDescription)", kind: .wrongType) }
        var out: [Double] = []
        for (i, item) in items.prefix(4).enumerated() {
            guard let x = item.number else { throw ctx.error(item, "\(what): entry \(i) is \(item.typeDescription), not a number", kind: .wrongType) }
            guard x.isFinite, abs(x) <= 1e9 else { throw ctx.error(item, "\(what): \(x) is out of range (a finite number within ±1e9)", kind: .outOfRange) }
            out.append(x)
        }
        while out.count < n { out.append(0) }
        return out
    }

    static func colorValue(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> Color {
        let c = try numbers(v, ctx, what: what, atLeast: 3)
        // Bodymovin before 4.x wrote 0…255 components.
        let scale = c.prefix(3).contains { $0 > 1 } ? 255.0 : 1.0
        func unit(_ x: Double) -> Double { min(max(x / scale, 0), 1) }
        return Color(unit(c[0]), unit(c[1]), unit(c[2]), c.count > 3 ? min(max(c[3] / (c[3] > 1 ? 255 : 1), 0), 1) : 1)
    }

    /// "#rrggbb" (a solid layer's `sc`).
    static func hexColor(_ s: String) -> Color? {
        var hex = Substring(s)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.count == 6 || hex.count == 8, let n = UInt64(hex, radix: 16) else { return nil }
        if hex.count == 8 {
            return Color(Double((n >> 24) & 255) / 255, Double((n >> 16) & 255) / 255, Double((n >> 8) & 255) / 255, Double(n & 255) / 255)
        }
        return Color(Double((n >> 16) & 255) / 255, Double((n >> 8) & 255) / 255, Double(n & 255) / 255)
    }
}
