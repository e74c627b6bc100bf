/// The plane mapping of a layer matrix: how the layer's own plane (z = 0) lands on a 2D target.
///
/// Restricted to z = 0 and read in (x, y, w), a Core Animation matrix is a 3×3 homography
/// [x y 1] · H with H = [[m11 m12 m14] [m21 m22 m24] [m41 m42 m44]]. Everything a flattening layer
/// draws lies on its plane, so device points map back onto that plane exactly through H⁻¹. The
/// render graph uses this to express a clip (a shape on an ancestor's plane) for an item that
/// draws an offscreen target in device pixels.
extension Transform3D {
    /// The inverse of the plane mapping as a matrix from target points (x, y, 0, 1) to the layer's
    /// plane (homogeneous; divide by w). nil when the plane is seen edge-on (singular).
    public var planarInverse: Transform3D? {
        let a = m11, b = m12, c = m14
        let d = m21, e = m22, f = m24
        let g = m41, h = m42, i = m44
        let c00 = e * i - f * h, c01 = -(d * i - f * g), c02 = d * h - e * g
        let det = a * c00 + b * c01 + c * c02
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        // Adjugate / det (the inverse of H, still applied to row vectors).
        let inv00 = c00 / det, inv01 = -(b * i - c * h) / det, inv02 = (b * f - c * e) / det
        let inv10 = c01 / det, inv11 = (a * i - c * g) / det, inv12 = -(a * f - c * d) / det
        let inv20 = c02 / det, inv21 = -(a * h - b * g) / det, inv22 = (a * e - b * d) / det
        let r = Transform3D([inv00, inv01, 0, inv02,
                             inv10, inv11, 0, inv12,
                             0, 0, 1, 0,
                             inv20, inv21, 0, inv22])
        return r.elements.allSatisfy(\.isFinite) ? r : nil
    }

    /// How many target units one local unit becomes, on average (√|det| of the 2×2 linear part):
    /// the factor that turns a length in the layer's points (a blur radius) into target pixels.
    public var planarScale: Double {
        let det = abs(m11 * m22 - m12 * m21)
        return det > 0 && det.isFinite ? det.squareRoot() : 0
    }
}
