/// CATransform3D: a 4×4 matrix for **row vectors** (p' = p · M), fields in Core Animation's order.
///
/// `concat(a, b) = a · b`: `a` acts first. `translate(t, …) = translation · t` (the new operation acts
/// *before* `t`), matching CATransform3DTranslate/Scale/Rotate (reference/core-animation.md §0.3).
/// The 16 fields in memory order are the column-major storage of the column-vector matrix Mᵀ, so
/// the backend uploads them unchanged to a GLSL `mat4`.
public struct Transform3D: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var m11: Double, m12: Double, m13: Double, m14: Double
    public var m21: Double, m22: Double, m23: Double, m24: Double
    public var m31: Double, m32: Double, m33: Double, m34: Double
    public var m41: Double, m42: Double, m43: Double, m44: Double

    public init(_ m: [Double]) {
        precondition(m.count == 16)
        m11 = m[0]; m12 = m[1]; m13 = m[2]; m14 = m[3]
        m21 = m[4]; m22 = m[5]; m23 = m[6]; m24 = m[7]
        m31 = m[8]; m32 = m[9]; m33 = m[10]; m34 = m[11]
        m41 = m[12]; m42 = m[13]; m43 = m[14]; m44 = m[15]
    }
    public static let identity = Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    /// F = diag(1,1,0,1): flattening into a layer's plane (drops z).
    public static let flatten = Transform3D([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])

    public var elements: [Double] { [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44] }
    public var isIdentity: Bool { self == .identity }

    // MARK: makers (CATransform3DMake…)
    public static func translation(_ tx: Double, _ ty: Double, _ tz: Double = 0) -> Transform3D {
        var t = identity; t.m41 = tx; t.m42 = ty; t.m43 = tz; return t
    }
    public static func scale(_ sx: Double, _ sy: Double, _ sz: Double = 1) -> Transform3D {
        var t = identity; t.m11 = sx; t.m22 = sy; t.m33 = sz; return t
    }
    /// CATransform3DMakeRotation(angle, x, y, z): the axis is normalised; a zero axis gives identity.
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let len = (x * x + y * y + z * z).squareRoot()
        if len == 0 { return identity }
        let (x, y, z) = (x / len, y / len, z / len)
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Transform3D([
            t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0,
            t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0,
            t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0,
            0, 0, 0, 1,
        ])
    }
    /// A perspective matrix with eye distance d: m34 = −1/d.
    public static func perspective(_ d: Double) -> Transform3D {
        var t = identity; t.m34 = d == 0 ? 0 : -1 / d; return t
    }

    // MARK: composition
    /// CATransform3DConcat(a, b) = a · b (a acts first).
    public static func concat(_ a: Transform3D, _ b: Transform3D) -> Transform3D { a * b }
    /// Row-vector product a · b.
    public static func * (a: Transform3D, b: Transform3D) -> Transform3D {
        // Written out, without arrays: the planner multiplies matrices for every layer and every
        // replicator instance, and three heap arrays per product were most of that cost. Each
        // entry is summed as the loop it replaces did, from 0 and in k order (0 + x keeps a -0
        // product's sign as +0, as before), so results are bit-identical.
        @inline(__always) func row(_ x0: Double, _ x1: Double, _ x2: Double, _ x3: Double)
            -> (Double, Double, Double, Double) {
            (0.0 + x0 * b.m11 + x1 * b.m21 + x2 * b.m31 + x3 * b.m41,
             0.0 + x0 * b.m12 + x1 * b.m22 + x2 * b.m32 + x3 * b.m42,
             0.0 + x0 * b.m13 + x1 * b.m23 + x2 * b.m33 + x3 * b.m43,
             0.0 + x0 * b.m14 + x1 * b.m24 + x2 * b.m34 + x3 * b.m44)
        }
        var r = a
        (r.m11, r.m12, r.m13, r.m14) = row(a.m11, a.m12, a.m13, a.m14)
        (r.m21, r.m22, r.m23, r.m24) = row(a.m21, a.m22, a.m23, a.m24)
        (r.m31, r.m32, r.m33, r.m34) = row(a.m31, a.m32, a.m33, a.m34)
        (r.m41, r.m42, r.m43, r.m44) = row(a.m41, a.m42, a.m43, a.m44)
        return r
    }
    /// CATransform3DTranslate(t, …) = translation · t.
    public func translated(_ tx: Double, _ ty: Double, _ tz: Double = 0) -> Transform3D { .translation(tx, ty, tz) * self }
    /// CATransform3DScale(t, …) = scale · t.
    public func scaled(_ sx: Double, _ sy: Double, _ sz: Double = 1) -> Transform3D { .scale(sx, sy, sz) * self }
    /// CATransform3DRotate(t, …) = rotation · t.
    public func rotated(_ a: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D { .rotation(a, x, y, z) * self }

    // MARK: application
    /// p · M for the row vector [x y z 1].
    public func apply(_ x: Double, _ y: Double, _ z: Double = 0) -> Point4 {
        Point4(x * m11 + y * m21 + z * m31 + m41,
               x * m12 + y * m22 + z * m32 + m42,
               x * m13 + y * m23 + z * m33 + m43,
               x * m14 + y * m24 + z * m34 + m44)
    }
    /// Applies the transform to a 2D point (z = 0) and divides by w.
    public func apply(_ p: Point) -> Point { apply(p.x, p.y, 0).projected }

    /// True when the matrix is an affine 2D transform (no z coupling, no perspective).
    public var isAffine2D: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1
            && m34 == 0 && m43 == 0 && m44 == 1
    }
    /// CALayer.affineTransform: the affine part when exactly affine, identity otherwise.
    public var affinePart: Transform3D { isAffine2D ? self : .identity }
    /// True when the transform maps axis-aligned rectangles to axis-aligned rectangles (no rotation
    /// or skew, no perspective); the z column may be anything.
    public var isAxisAligned2D: Bool {
        m12 == 0 && m21 == 0 && m14 == 0 && m24 == 0 && m44 == 1 && m31 == 0 && m32 == 0 && m34 == 0
    }

    public var determinant: Double {
        let a = elements
        func m(_ r: Int, _ c: Int) -> Double { a[r * 4 + c] }
        var det = 0.0
        for c in 0..<4 {
            var minor = [Double]()
            for r in 1..<4 { for cc in 0..<4 where cc != c { minor.append(m(r, cc)) } }
            let d3 = minor[0] * (minor[4] * minor[8] - minor[5] * minor[7])
                - minor[1] * (minor[3] * minor[8] - minor[5] * minor[6])
                + minor[2] * (minor[3] * minor[7] - minor[4] * minor[6])
            det += (c % 2 == 0 ? 1 : -1) * m(0, c) * d3
        }
        return det
    }

    /// CATransform3DInvert: the inverse, or the input unchanged when singular.
    public var inverted: Transform3D {
        var a = elements, inv = Transform3D.identity.elements
        for col in 0..<4 {
            var pivot = col
            for r in col..<4 where abs(a[r * 4 + col]) > abs(a[pivot * 4 + col]) { pivot = r }
            if abs(a[pivot * 4 + col]) < 1e-12 { return self }
            if pivot != col { for k in 0..<4 { a.swapAt(col * 4 + k, pivot * 4 + k); inv.swapAt(col * 4 + k, pivot * 4 + k) } }
            let p = a[col * 4 + col]
            for k in 0..<4 { a[col * 4 + k] /= p; inv[col * 4 + k] /= p }
            for r in 0..<4 where r != col {
                let f = a[r * 4 + col]
                if f == 0 { continue }
                for k in 0..<4 { a[r * 4 + k] -= f * a[col * 4 + k]; inv[r * 4 + k] -= f * inv[col * 4 + k] }
            }
        }
        return Transform3D(inv)
    }

    public func isClose(to o: Transform3D, tolerance: Double = 1e-9) -> Bool {
        zip(elements, o.elements).allSatisfy { abs($0 - $1) <= tolerance }
    }

    public var description: String {
        if isIdentity { return "identity" }
        return "[" + elements.map(fmt).joined(separator: ", ") + "]"
    }
}
