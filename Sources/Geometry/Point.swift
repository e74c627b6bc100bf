/// A point, size and rectangle in Core Animation's point space (y down, origin top-left).
/// Device pixels are a different space: see `PixelRect` and `DeviceSpace`.
public struct Point: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(0, 0)
    public var description: String { "(\(fmt(x)), \(fmt(y)))" }
    public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
}

public struct Size: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(0, 0)
    public var description: String { "\(fmt(width))×\(fmt(height))" }
}

/// A 3D point (x, y, z), used for anchorPoint+anchorPointZ and position+zPosition.
public struct Point3: Equatable, Hashable, Sendable {
    public var x: Double, y: Double, z: Double
    public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
}

/// A homogeneous point (x, y, z, w) as produced by a projective `Transform3D`.
public struct Point4: Equatable, Sendable {
    public var x: Double, y: Double, z: Double, w: Double
    public init(_ x: Double, _ y: Double, _ z: Double, _ w: Double) { self.x = x; self.y = y; self.z = z; self.w = w }
    /// The projected 2D point (perspective division). Callers clip w <= 0 first.
    public var projected: Point { Point(x / w, y / w) }
}

/// Compact number formatting for descriptions and messages: no trailing ".0".
@inlinable
public func fmt(_ v: Double) -> String {
    // Int64 conversion traps outside its range: only whole numbers of modest size take that path.
    guard v.isFinite, abs(v) < 1e15 else { return String(v) }
    if v == v.rounded() { return String(Int64(v)) }
    let r = (v * 10000).rounded() / 10000
    return r == r.rounded() ? String(Int64(r)) : String(r)
}

#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif
