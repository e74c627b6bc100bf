/// The numbers a property accepts (Core Animation leaves values outside it undefined, so a scene
/// that uses them is refused with a clear error rather than rendered arbitrarily).
public struct NumberDomain: Hashable, Sendable, CustomStringConvertible {
    public var minimum: Double?
    public var minimumIsExclusive: Bool
    public var maximum: Double?
    public var maximumIsExclusive: Bool
    public init(minimum: Double? = nil, exclusive: Bool = false, maximum: Double? = nil, maximumExclusive: Bool = false) {
        self.minimum = minimum; self.minimumIsExclusive = exclusive
        self.maximum = maximum; self.maximumIsExclusive = maximumExclusive
    }
    /// [0, 1]: opacity, shadowOpacity, strokeStart, strokeEnd.
    public static let unitInterval = NumberDomain(minimum: 0, maximum: 1)
    /// ≥ 0: radii, widths, counts.
    public static let nonNegative = NumberDomain(minimum: 0)
    /// > 0: scales.
    public static let positive = NumberDomain(minimum: 0, exclusive: true)
    /// [0, 10 000]: a font size in points. Core Animation sets no maximum; this one is far above
    /// any layer (a 10,000 pt glyph is 30,000 px at 3×) and below what Pango can size (it counts
    /// sizes in 1/1024 pt in an int). FreeType's 65,535 px per em is met by the plan's raster
    /// scale instead (`TextRaster.maxPixelsPerEm`), as contentsScale multiplies the size.
    public static let fontSize = NumberDomain(minimum: 0, maximum: 10_000)

    public func contains(_ v: Double) -> Bool {
        if let lo = minimum { if minimumIsExclusive ? !(v > lo) : !(v >= lo) { return false } }
        if let hi = maximum { if maximumIsExclusive ? !(v < hi) : !(v <= hi) { return false } }
        return true
    }
    public var description: String {
        func f(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        switch (minimum, maximum) {
        case let (lo?, hi?): return "in \(minimumIsExclusive ? "(" : "[")\(f(lo)), \(f(hi))\(maximumIsExclusive ? ")" : "]")"
        case let (lo?, nil): return minimumIsExclusive ? "> \(f(lo))" : "≥ \(f(lo))"
        case let (nil, hi?): return maximumIsExclusive ? "< \(f(hi))" : "≤ \(f(hi))"
        case (nil, nil): return "any number"
        }
    }
}
