import Geometry

extension Transform3D {
    /// Whether w is the same at every point of the plane z = 0 (a layer's own plane): m14 = m24 = 0,
    /// so w = m44 there. Device positions are then an affine function of local ones, and so is
    /// everything the vertex shader computes linearly from them (local point, texel coordinates,
    /// clip coordinates): interpolating those linearly in screen space is exact.
    public var keepsWConstant: Bool { m14 == 0 && m24 == 0 }
}

extension DrawItem {
    /// Whether the backend draws this item with the `AFFINE` fragment shaders, which interpolate
    /// its varyings linearly in screen space (`noperspective`) instead of perspective-correctly.
    /// The same values wherever w is constant, without lavapipe's per-pixel 1/w and a multiply per
    /// interpolated component. Items under perspective keep the general shaders; the two are
    /// different pipelines, so the plan's batches (`BatchClass`) keep them apart.
    public var interpolatesAffinely: Bool { transform.keepsWConstant }
}
