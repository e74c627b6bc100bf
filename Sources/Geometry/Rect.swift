/// An axis-aligned rectangle in point space (origin = min corner; y down on iOS).
public struct Rect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    public init(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        origin = Point(x, y); size = Size(w, h)
    }
    public static let zero = Rect(0, 0, 0, 0)
    /// The unit rectangle (0,0,1,1), default of contentsRect and contentsCenter.
    public static let unit = Rect(0, 0, 1, 1)

    public var minX: Double { min(origin.x, origin.x + size.width) }
    public var minY: Double { min(origin.y, origin.y + size.height) }
    public var maxX: Double { max(origin.x, origin.x + size.width) }
    public var maxY: Double { max(origin.y, origin.y + size.height) }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { abs(size.width) }
    public var height: Double { abs(size.height) }
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }

    /// CGRectStandardize: a non-negative size with the same covered area.
    public var standardized: Rect { Rect(minX, minY, width, height) }

    public func intersection(_ o: Rect) -> Rect? {
        let x0 = max(minX, o.minX), y0 = max(minY, o.minY)
        let x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        if x1 <= x0 || y1 <= y0 { return nil }
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }
    public func union(_ o: Rect) -> Rect {
        let x0 = min(minX, o.minX), y0 = min(minY, o.minY)
        return Rect(x0, y0, max(maxX, o.maxX) - x0, max(maxY, o.maxY) - y0)
    }
    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
    public func insetBy(dx: Double, dy: Double) -> Rect { Rect(minX + dx, minY + dy, width - 2 * dx, height - 2 * dy) }
    public var corners: [Point] { [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)] }
    public var description: String { "(\(fmt(origin.x)), \(fmt(origin.y)), \(fmt(size.width)), \(fmt(size.height)))" }

    /// The bounding box of a set of points.
    public static func bounding(_ pts: [Point]) -> Rect {
        guard let f = pts.first else { return .zero }
        var x0 = f.x, y0 = f.y, x1 = f.x, y1 = f.y
        for p in pts.dropFirst() { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
        return Rect(x0, y0, x1 - x0, y1 - y0)
    }
}
