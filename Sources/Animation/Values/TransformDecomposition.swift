import Geometry

/// A `CATransform3D` taken apart into perspective, translation, scale, skew and a rotation
/// quaternion, so that `transform` animations interpolate the parts instead of the 16 numbers
/// (reference §5.3, §10 item 5).
///
/// The algorithm is CSS Transforms Level 2's "decomposing a 3D matrix" (Graphics Gems II
/// "unmatrix" with a quaternion), which WebKit implements and which the reference recommends.
/// CSS's pseudo-code already stores matrices for row vectors (translation in `matrix[3][0…2]`),
/// exactly Core Animation's layout, so it reads over directly. In row-vector form the
/// decomposition is
///
///     M / m44 = S · K · N · T · P
///
/// (`S` acts first): `S` = diag(scale), `K` = the shear [[1,0,0],[xy,1,0],[xz,yz,1]], `N` = the
/// rotation (`rotation.rotationRows`), `T` = translation, `P` = identity with its last column
/// replaced by `perspective` (x, y, z, w). Interpolation lerps every part and slerps the
/// quaternion along the shortest arc (`Quaternion.slerp`), then recomposes.
///
/// Decisions where the reference is silent:
/// - **Singular matrices** (m44 = 0 or a zero-determinant linear part, e.g. a scale of 0) cannot
///   be decomposed: `init?` fails and `interpolate` switches discretely (§5.3: Core Animation
///   cannot animate them correctly either; WebKit falls back to software animation for them).
/// - **Mirrored matrices** (negative determinant): CSS negates all three scales and turns the
///   rotation by a half-turn, so identity → `scale(-1, 1)` would tip the layer out of its plane.
///   We negate only the axis whose orthonormalised row points most against its own axis (the
///   smallest diagonal entry of N), with the shears that involve it. For a 2D flip that is the
///   flipped axis itself, so the layer mirrors in its plane (what CSS Transforms 1's 2D
///   decomposition does); non-mirrored matrices, and every WPT case, are unaffected.
/// - Gram–Schmidt shear (not CSS Transforms 1's 2D "remaining matrix") is used for 2D matrices
///   too: WPT's `transform-interpolation-005.html` expects it (`matrix(1,0,0,7,0,0)` →
///   `matrix(7,0,1,1,0,0)` at ½ is `matrix(4,0,2,4,0,0)`).
public struct DecomposedTransform: Equatable, Sendable {
    public var translation: Point3
    public var scale: Point3
    /// Shear factors (not angles): xy, xz, yz.
    public var skewXY: Double, skewXZ: Double, skewYZ: Double
    /// The last column of the perspective matrix; (0, 0, 0, 1) when there is none.
    public var perspective: Point4
    public var rotation: Quaternion

    public init(translation: Point3 = Point3(0, 0, 0), scale: Point3 = Point3(1, 1, 1),
                skewXY: Double = 0, skewXZ: Double = 0, skewYZ: Double = 0,
                perspective: Point4 = Point4(0, 0, 0, 1), rotation: Quaternion = .identity) {
        self.translation = translation; self.scale = scale
        self.skewXY = skewXY; self.skewXZ = skewXZ; self.skewYZ = skewYZ
        self.perspective = perspective; self.rotation = rotation
    }

    public static let identity = DecomposedTransform()

    /// Decomposes `m`; nil when it is singular (see the type's notes).
    public init?(_ m: Transform3D) { self.init(m, lenient: false) }

    /// `lenient` also accepts a singular linear part (a zero scale): the missing axes of the
    /// rotation are completed to an orthonormal basis and their scale is 0. Key-path fields use it
    /// (`transform.scale` from 0 must work); interpolation does not. A zero m44, or perspective on a
    /// singular linear part, still fails.
    init?(_ m: Transform3D, lenient: Bool) {
        let w = m.m44
        guard w != 0, w.isFinite else { return nil }
        let iw = 1 / w
        let r0 = V3(m.m11 * iw, m.m12 * iw, m.m13 * iw)
        var r1 = V3(m.m21 * iw, m.m22 * iw, m.m23 * iw)
        var r2 = V3(m.m31 * iw, m.m32 * iw, m.m33 * iw)
        let t = V3(m.m41 * iw, m.m42 * iw, m.m43 * iw)
        let c = V3(m.m14 * iw, m.m24 * iw, m.m34 * iw)
        let det = V3.dot(r0, V3.cross(r1, r2))
        let singular = det == 0 || !det.isFinite
        if singular && !lenient { return nil }

        // Perspective: M = A · P with A affine; P's last column p solves L · p = c (L = rows r_i),
        // and p.w = 1 − t · p so that M's m44 is 1.
        if c.x != 0 || c.y != 0 || c.z != 0 {
            guard !singular else { return nil }
            // Cramer's rule: L p = c, with the columns of L being (r0.x, r1.x, r2.x) ….
            let colX = V3(r0.x, r1.x, r2.x), colY = V3(r0.y, r1.y, r2.y), colZ = V3(r0.z, r1.z, r2.z)
            let pX = V3.dot(c, V3.cross(colY, colZ)) / det
            let pY = V3.dot(colX, V3.cross(c, colZ)) / det
            let pZ = V3.dot(colX, V3.cross(colY, c)) / det
            perspective = Point4(pX, pY, pZ, 1 - (t.x * pX + t.y * pY + t.z * pZ))
        } else {
            perspective = Point4(0, 0, 0, 1)
        }
        translation = Point3(t.x, t.y, t.z)

        // Gram–Schmidt on the rows: scale, shear, orthonormal rows n0, n1, n2.
        var sx = r0.length
        var n0: V3
        if sx > 0 { n0 = r0 / sx } else {
            // A zero x scale: the x axis of the rotation is the one the other rows imply (n1 × n2).
            sx = 0
            let k = V3.cross(r1, r2)
            n0 = k.length > 0 ? k / k.length : r1.length > 0 ? V3.perpendicular(to: r1 / r1.length) : V3(1, 0, 0)
        }
        var xy = V3.dot(n0, r1)
        r1 = r1 - n0 * xy
        var sy = r1.length
        var n1: V3
        if sy > 0 { n1 = r1 / sy; xy /= sy } else {
            sy = 0; xy = 0
            let k = V3.cross(r2, n0)   // n1 = n2 × n0 for a rotation
            n1 = k.length > 0 ? k / k.length : V3.perpendicular(to: n0)
        }
        var xz = V3.dot(n0, r2)
        r2 = r2 - n0 * xz
        var yz = V3.dot(n1, r2)
        r2 = r2 - n1 * yz
        var sz = r2.length
        var n2: V3
        if sz > 0 { n2 = r2 / sz; xz /= sz; yz /= sz } else { sz = 0; xz = 0; yz = 0; n2 = V3.cross(n0, n1) }

        // Mirrored: negate one axis (see the type's notes). A zero-scale axis flips for free.
        if V3.dot(n0, V3.cross(n1, n2)) < 0 {
            let axis: Int
            if sx == 0 { axis = 0 } else if sy == 0 { axis = 1 } else if sz == 0 { axis = 2 }
            else if n0.x <= n1.y && n0.x <= n2.z { axis = 0 } else if n1.y <= n2.z { axis = 1 } else { axis = 2 }
            switch axis {
            case 0: sx = -sx; n0 = -n0; xy = -xy; xz = -xz
            case 1: sy = -sy; n1 = -n1; xy = -xy; yz = -yz
            default: sz = -sz; n2 = -n2; xz = -xz; yz = -yz
            }
        }
        scale = Point3(sx, sy, sz)
        skewXY = xy; skewXZ = xz; skewYZ = yz
        rotation = Quaternion(rotationRows: Rows3(n0.x, n0.y, n0.z, n1.x, n1.y, n1.z, n2.x, n2.y, n2.z))
        guard scale.x.isFinite, scale.y.isFinite, scale.z.isFinite, perspective.x.isFinite,
              perspective.y.isFinite, perspective.z.isFinite, perspective.w.isFinite,
              translation.x.isFinite, translation.y.isFinite, translation.z.isFinite,
              rotation.w.isFinite else { return nil }
    }

    /// Recomposes S · K · N · T · P (row vectors). Allocates nothing.
    public var matrix: Transform3D {
        let n = rotation.rotationRows
        let n0 = V3(n.a00, n.a01, n.a02), n1 = V3(n.a10, n.a11, n.a12), n2 = V3(n.a20, n.a21, n.a22)
        let l0 = n0 * scale.x
        let l1 = (n1 + n0 * skewXY) * scale.y
        let l2 = (n2 + n0 * skewXZ + n1 * skewYZ) * scale.z
        let p = V3(perspective.x, perspective.y, perspective.z)
        var m = Transform3D.identity
        m.m11 = l0.x; m.m12 = l0.y; m.m13 = l0.z; m.m14 = V3.dot(l0, p)
        m.m21 = l1.x; m.m22 = l1.y; m.m23 = l1.z; m.m24 = V3.dot(l1, p)
        m.m31 = l2.x; m.m32 = l2.y; m.m33 = l2.z; m.m34 = V3.dot(l2, p)
        m.m41 = translation.x; m.m42 = translation.y; m.m43 = translation.z
        m.m44 = translation.x * p.x + translation.y * p.y + translation.z * p.z + perspective.w
        return m
    }

    /// Component-wise lerp of translation, scale, shear and perspective; shortest-arc slerp of
    /// the rotation. `p` outside [0, 1] extrapolates every part.
    public func interpolated(to b: DecomposedTransform, _ p: Double) -> DecomposedTransform {
        @inline(__always) func l(_ x: Double, _ y: Double) -> Double { x + (y - x) * p }
        return DecomposedTransform(
            translation: Point3(l(translation.x, b.translation.x), l(translation.y, b.translation.y),
                                l(translation.z, b.translation.z)),
            scale: Point3(l(scale.x, b.scale.x), l(scale.y, b.scale.y), l(scale.z, b.scale.z)),
            skewXY: l(skewXY, b.skewXY), skewXZ: l(skewXZ, b.skewXZ), skewYZ: l(skewYZ, b.skewYZ),
            perspective: Point4(l(perspective.x, b.perspective.x), l(perspective.y, b.perspective.y),
                                l(perspective.z, b.perspective.z), l(perspective.w, b.perspective.w)),
            rotation: rotation.slerp(to: b.rotation, p))
    }

    /// The paced metric between two transforms (reference §4.4 "paced", §10 item 11): the
    /// Euclidean norm of the differences of translation (points), scale, shear and perspective,
    /// together with the rotation angle between the two quaternions (radians). For pure
    /// translations this is the distance moved, for pure rotations the angle turned.
    public func distance(to b: DecomposedTransform) -> Double {
        func sq(_ x: Double) -> Double { x * x }
        let dt = sq(translation.x - b.translation.x) + sq(translation.y - b.translation.y) + sq(translation.z - b.translation.z)
        let ds = sq(scale.x - b.scale.x) + sq(scale.y - b.scale.y) + sq(scale.z - b.scale.z)
        let dk = sq(skewXY - b.skewXY) + sq(skewXZ - b.skewXZ) + sq(skewYZ - b.skewYZ)
        let dp = sq(perspective.x - b.perspective.x) + sq(perspective.y - b.perspective.y)
            + sq(perspective.z - b.perspective.z) + sq(perspective.w - b.perspective.w)
        let da = sq(rotation.angle(to: b.rotation))
        return (dt + ds + dk + dp + da).squareRoot()
    }
}

/// A `transform` interpolation with both ends decomposed once: what a CABasicAnimation or a
/// keyframe segment evaluates every frame (one slerp and one recomposition per call).
public struct TransformInterpolation: Sendable {
    public let from: Transform3D
    public let to: Transform3D
    /// nil when either end is singular: the value then switches discretely.
    let decomposed: (from: DecomposedTransform, to: DecomposedTransform)?

    public init(from: Transform3D, to: Transform3D) {
        self.from = from; self.to = to
        if let a = DecomposedTransform(from), let b = DecomposedTransform(to) { decomposed = (a, b) } else { decomposed = nil }
    }

    /// The transform at progress `p`; exactly `from` at 0 and `to` at 1.
    public func callAsFunction(_ p: Double) -> Transform3D {
        if p == 0 { return from }
        if p == 1 { return to }
        guard let (a, b) = decomposed else { return p < ValueInterpolation.discreteSwitchProgress ? from : to }
        return a.interpolated(to: b, p).matrix
    }
}

/// A 3-vector for the decomposition's row arithmetic (stack only).
struct V3 {
    var x: Double, y: Double, z: Double
    @inline(__always) init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    var length: Double { (x * x + y * y + z * z).squareRoot() }
    @inline(__always) static func dot(_ a: V3, _ b: V3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
    @inline(__always) static func cross(_ a: V3, _ b: V3) -> V3 {
        V3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
    @inline(__always) static func + (a: V3, b: V3) -> V3 { V3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inline(__always) static func - (a: V3, b: V3) -> V3 { V3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inline(__always) static func * (a: V3, s: Double) -> V3 { V3(a.x * s, a.y * s, a.z * s) }
    @inline(__always) static func / (a: V3, s: Double) -> V3 { V3(a.x / s, a.y / s, a.z / s) }
    @inline(__always) static prefix func - (a: V3) -> V3 { V3(-a.x, -a.y, -a.z) }
    /// A unit vector perpendicular to the unit vector `n`: the basis axis least aligned with it,
    /// orthogonalised.
    static func perpendicular(to n: V3) -> V3 {
        let e: V3 = abs(n.x) <= abs(n.y) && abs(n.x) <= abs(n.z) ? V3(1, 0, 0)
            : abs(n.y) <= abs(n.z) ? V3(0, 1, 0) : V3(0, 0, 1)
        let v = e - n * dot(e, n)
        return v / v.length
    }
}
