import Geometry

/// Matrix products for the per-frame paths of value interpolation. `Transform3D.*` builds arrays;
/// these helpers write the 16 fields directly, so additive transforms, `cumulative` powers and
/// recomposition allocate nothing.
enum TransformProduct {
    /// Row-vector product a · b (a acts first): CATransform3DConcat(a, b).
    @inline(__always)
    static func concat(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
        var r = Transform3D.identity
        r.m11 = a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41
        r.m12 = a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42
        r.m13 = a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43
        r.m14 = a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44
        r.m21 = a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41
        r.m22 = a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42
        r.m23 = a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43
        r.m24 = a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44
        r.m31 = a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41
        r.m32 = a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42
        r.m33 = a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43
        r.m34 = a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44
        r.m41 = a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41
        r.m42 = a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42
        r.m43 = a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43
        r.m44 = a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44
        return r
    }

    /// mᵏ for k ≥ 0 by repeated squaring (k = 0 gives the identity): O(log k) products.
    static func power(_ m: Transform3D, _ k: Int) -> Transform3D {
        var result = Transform3D.identity, base = m, e = max(k, 0)
        while e > 0 {
            if e & 1 == 1 { result = concat(result, base) }
            e >>= 1
            if e > 0 { base = concat(base, base) }
        }
        return result
    }
}
