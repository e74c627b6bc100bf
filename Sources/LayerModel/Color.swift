import Geometry

/// A colour as scene authors write it: sRGB-encoded components, **not** premultiplied.
/// Components outside 0…1 are allowed (extended sRGB) and clamped only when drawn.
public struct Color: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: Double, green: Double, blue: Double, alpha: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) { red = r; green = g; blue = b; alpha = a }

    public static let black = Color(0, 0, 0)
    public static let white = Color(1, 1, 1)
    public static let clear = Color(0, 0, 0, 0)

    /// UIKit's named system colours, as the scene format lists them.
    public static let uiKitNames: [String: Color] = [
        "black": Color(0, 0, 0), "darkGray": Color(1.0 / 3, 1.0 / 3, 1.0 / 3), "lightGray": Color(2.0 / 3, 2.0 / 3, 2.0 / 3),
        "white": Color(1, 1, 1), "gray": Color(0.5, 0.5, 0.5), "red": Color(1, 0, 0), "green": Color(0, 1, 0),
        "blue": Color(0, 0, 1), "cyan": Color(0, 1, 1), "yellow": Color(1, 1, 0), "magenta": Color(1, 0, 1),
        "orange": Color(1, 0.5, 0), "purple": Color(0.5, 0, 0.5), "brown": Color(0.6, 0.4, 0.2), "clear": Color(0, 0, 0, 0),
    ]

    /// Premultiplied, clamped to 0…1, ready for the GPU (blending happens in encoded sRGB space).
    public var premultiplied: (Double, Double, Double, Double) {
        let a = min(max(alpha, 0), 1)
        func c(_ v: Double) -> Double { min(max(v, 0), 1) * a }
        return (c(red), c(green), c(blue), a)
    }
    public var isOpaque: Bool { alpha >= 1 }
    public var description: String {
        func h(_ v: Double) -> String {
            let i = Int((min(max(v, 0), 1) * 255).rounded())
            return String(i, radix: 16, uppercase: true).leftPadded(2)
        }
        return "#" + h(red) + h(green) + h(blue) + (alpha < 1 ? h(alpha) : "")
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
