import Geometry

/// A unit quaternion (x, y, z, w): the rotation part of a decomposed `CATransform3D`
/// (reference §5.3), interpolated by spherical linear interpolation.
///
/// Convention: `Quaternion(angle: θ, axis: a)` = (a·sin(θ/2), cos(θ/2)) is the rotation that
/// `Transform3D.rotation(θ, a.x, a.y, a.z)` (CATransform3DMakeRotation) makes. That is also CSS's
/// `rotate3d(x, y, z, θ)`: CSS's column-major `matrix3d` arguments land in CA's m11…m44 in order.
public struct Quaternion: Equatable, Sendable, CustomStringConvertible {
    public var x: Double, y: Double, z: Double, w: Double

    public init(x: Double, y: Double, z: Double, w: Double) { self.x = x; self.y = y; self.z = z; self.w = w }

    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// The rotation by `angle` radians about the axis (ax, ay, az), normalised; a zero axis gives
    /// the identity, as CATransform3DMakeRotation does.
    public init(angle: Double, axisX ax: Double, _ ay: Double, _ az: Double) {
        let len = (ax * ax + ay * ay + az * az).squareRoot()
        guard len > 0 else { self = .identity; return }
        let s = sin(angle / 2) / len
        self.init(x: ax * s, y: ay * s, z: az * s, w: cos(angle / 2))
    }

    public var description: String { "(\(fmt(x)), \(fmt(y)), \(fmt(z)), \(fmt(w)))" }

    @inline(__always)
    public func dot(_ o: Quaternion) -> Double { x * o.x + y * o.y + z * o.z + w * o.w }

    @inline(__always)
    public static prefix func - (q: Quaternion) -> Quaternion { Quaternion(x: -q.x, y: -q.y, z: -q.z, w: -q.w) }

    /// The rotation angle in [0, π] (q and −q are the same rotation).
    public var angle: Double { 2 * acos(min(abs(w) / norm, 1)) }

    public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }

    public var normalized: Quaternion {
        let n = norm
        guard n > 0 else { return .identity }
        return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
    }

    /// The angle in [0, π] of the rotation that takes `self` to `o` (the shortest arc).
    public func angle(to o: Quaternion) -> Double {
        2 * acos(min(abs(dot(o)), 1))
    }

    /// Spherical linear interpolation along the **shortest arc** (reference §5.3: "shortest path is
    /// taken; 0 → 2π does nothing"). Unlike CSS Transforms 2's pseudo-code, which slerps the two
    /// quaternions as decomposed, we first flip `to` when the dot product is negative: q and −q are
    /// the same rotation, and a half-turn's sign is an accident of the decomposition, so without the
    /// flip the direction of travel would depend on rounding. `t` outside [0, 1] extrapolates along
    /// the same great circle (springs and overshooting curves).
    public func slerp(to other: Quaternion, _ t: Double) -> Quaternion {
        var b = other
        var d = dot(b)
        if d < 0 { b = -b; d = -d }
        if d > 1 - 1e-12 {
            // (Nearly) the same rotation: sin θ ≈ 0. A normalised lerp is exact to first order and
            // still extrapolates.
            return Quaternion(x: x + (b.x - x) * t, y: y + (b.y - y) * t,
                              z: z + (b.z - z) * t, w: w + (b.w - w) * t).normalized
        }
        let theta = acos(d)
        let sinTheta = (1 - d * d).squareRoot()
        let wa = sin((1 - t) * theta) / sinTheta
        let wb = sin(t * theta) / sinTheta
        return Quaternion(x: x * wa + b.x * wb, y: y * wa + b.y * wb, z: z * wa + b.z * wb, w: w * wa + b.w * wb)
    }

    // MARK: rotation matrices (row-vector layout)

    /// The 3×3 rotation matrix N in Core Animation's row-vector layout (p' = p · N), as rows.
    /// For a unit quaternion this equals the upper-left 3×3 of `Transform3D.rotation`.
    public var rotationRows: Rows3 {
        let xx = x * x, yy = y * y, zz = z * z
        let xy = x * y, xz = x * z, yz = y * z, xw = x * w, yw = y * w, zw = z * w
        return Rows3(
            1 - 2 * (yy + zz), 2 * (xy + zw), 2 * (xz - yw),
            2 * (xy - zw), 1 - 2 * (xx + zz), 2 * (yz + xw),
            2 * (xz + yw), 2 * (yz - xw), 1 - 2 * (xx + yy))
    }

    /// The quaternion of an orthonormal rotation matrix (det +1) in row-vector layout, by
    /// Shepperd's method (branch on the largest of the trace and the diagonal, so it is stable near
    /// half-turns). The result has w ≥ 0.
    public init(rotationRows n: Rows3) {
        let trace = n.a00 + n.a11 + n.a22
        var q: Quaternion
        if trace > 0 {
            let s = 0.5 / (trace + 1).squareRoot()
            q = Quaternion(x: (n.a12 - n.a21) * s, y: (n.a20 - n.a02) * s, z: (n.a01 - n.a10) * s, w: 0.25 / s)
        } else if n.a00 >= n.a11 && n.a00 >= n.a22 {
            let s = 2 * max(1 + n.a00 - n.a11 - n.a22, 0).squareRoot()
            q = Quaternion(x: 0.25 * s, y: (n.a01 + n.a10) / s, z: (n.a02 + n.a20) / s, w: (n.a12 - n.a21) / s)
        } else if n.a11 >= n.a22 {
            let s = 2 * max(1 + n.a11 - n.a00 - n.a22, 0).squareRoot()
            q = Quaternion(x: (n.a01 + n.a10) / s, y: 0.25 * s, z: (n.a12 + n.a21) / s, w: (n.a20 - n.a02) / s)
        } else {
            let s = 2 * max(1 + n.a22 - n.a00 - n.a11, 0).squareRoot()
            q = Quaternion(x: (n.a02 + n.a20) / s, y: (n.a12 + n.a21) / s, z: 0.25 * s, w: (n.a01 - n.a10) / s)
        }
        if q.w < 0 { q = -q }
        self = q.normalized
    }
}

/// A 3×3 matrix by rows (aRC = row R, column C), without heap storage: the linear part of a
/// `Transform3D` during decomposition.
public struct Rows3: Equatable, Sendable {
    public var a00: Double, a01: Double, a02: Double
    public var a10: Double, a11: Double, a12: Double
    public var a20: Double, a21: Double, a22: Double

    public init(_ a00: Double, _ a01: Double, _ a02: Double,
                _ a10: Double, _ a11: Double, _ a12: Double,
                _ a20: Double, _ a21: Double, _ a22: Double) {
        self.a00 = a00; self.a01 = a01; self.a02 = a02
        self.a10 = a10; self.a11 = a11; self.a12 = a12
        self.a20 = a20; self.a21 = a21; self.a22 = a22
    }

    public static let identity = Rows3(1, 0, 0, 0, 1, 0, 0, 0, 1)

    public var determinant: Double {
        a00 * (a11 * a22 - a12 * a21) - a01 * (a10 * a22 - a12 * a20) + a02 * (a10 * a21 - a11 * a20)
    }

    /// Row-vector product self · o (self acts first).
    public static func * (a: Rows3, b: Rows3) -> Rows3 {
        Rows3(a.a00 * b.a00 + a.a01 * b.a10 + a.a02 * b.a20,
              a.a00 * b.a01 + a.a01 * b.a11 + a.a02 * b.a21,
              a.a00 * b.a02 + a.a01 * b.a12 + a.a02 * b.a22,
              a.a10 * b.a00 + a.a11 * b.a10 + a.a12 * b.a20,
              a.a10 * b.a01 + a.a11 * b.a11 + a.a12 * b.a21,
              a.a10 * b.a02 + a.a11 * b.a12 + a.a12 * b.a22,
              a.a20 * b.a00 + a.a21 * b.a10 + a.a22 * b.a20,
              a.a20 * b.a01 + a.a21 * b.a11 + a.a22 * b.a21,
              a.a20 * b.a02 + a.a21 * b.a12 + a.a22 * b.a22)
    }
}
