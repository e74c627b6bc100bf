import Geometry
import Plan

/// Pixel-grid questions, in device pixels only (design.md §2: "misaligned" is about device pixels).
public enum Alignment {
    /// An edge within this many device pixels of a pixel boundary is on the grid. Matrix
    /// products carry noise around 1e-12; a thousandth of a pixel is invisible.
    public static let tolerance = 1e-3

    public static func isOnGrid(_ v: Double) -> Bool { abs(v - v.rounded()) <= tolerance }
    public static func isOnGrid(_ r: Rect) -> Bool {
        isOnGrid(r.minX) && isOnGrid(r.minY) && isOnGrid(r.maxX) && isOnGrid(r.maxY)
    }

    /// Whether `m` is 2D and maps the axes onto the axes: axis-aligned (scales, flips), or turned
    /// by a multiple of 90° (possibly with scales and flips). See `swapsAxes`.
    public static func mapsAxesToAxes(_ m: Transform3D) -> Bool { swapsAxes(m) != nil }

    /// For a 2D matrix that maps the axes onto the axes: false when x stays along x (m12 = m21 = 0),
    /// true when a quarter turn swaps them (m11 = m22 = 0); nil for any other matrix. A turn's
    /// sine and cosine are 6e-17 or 1.2e-16 where they should be 0, so entries that small beside
    /// the others count as 0.
    static func swapsAxes(_ m: Transform3D) -> Bool? {
        if m.isAxisAligned2D { return false }
        guard m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m31 == 0, m.m32 == 0, m.m34 == 0 else { return nil }
        let eps = 1e-12 * max(abs(m.m11), abs(m.m12), abs(m.m21), abs(m.m22))
        if abs(m.m12) <= eps && abs(m.m21) <= eps && eps > 0 { return false }
        if abs(m.m11) <= eps && abs(m.m22) <= eps && eps > 0 { return true }
        return nil
    }

    /// Device pixels per texel of a contents item along x and y, when its matrix maps the axes onto
    /// the axes (`mapsAxesToAxes`: a quarter turn swaps which texel axis runs along x); nil
    /// otherwise (rotated by another angle, skewed or 3D: resampled whatever the sizes).
    public static func pixelsPerTexel(_ item: DrawItem) -> (x: Double, y: Double)? {
        guard let swapped = swapsAxes(item.transform), item.uv.width > 0, item.uv.height > 0 else { return nil }
        let d = BlendAnalysis.deviceRect(item.quad, item.transform)
        return swapped ? (d.width / item.uv.height, d.height / item.uv.width) : (d.width / item.uv.width, d.height / item.uv.height)
    }

    /// Whether a contents item resamples its image: texels do not map 1:1 onto device pixels.
    /// (A 1:1 image at a fractional position is misaligned, not scaled.)
    /// Shown within `tolerance` device pixels of its texel size across the whole image, every
    /// sample lands within a thousandth of a texel of a texel centre: 1:1, as edges within
    /// `tolerance` of the grid are on it (a 34 px image shown 34.00002 px wide is not resampled).
    public static func isScaled(_ item: DrawItem) -> Bool {
        guard let s = pixelsPerTexel(item), let swapped = swapsAxes(item.transform) else { return true }
        let texelsAlongX = swapped ? item.uv.height : item.uv.width
        let texelsAlongY = swapped ? item.uv.width : item.uv.height
        return abs(s.x - 1) * texelsAlongX > tolerance || abs(s.y - 1) * texelsAlongY > tolerance
    }

    /// Whether a contents item shows its texels larger than device pixels along some axis.
    public static func isMagnified(_ item: DrawItem) -> Bool {
        if let s = pixelsPerTexel(item) { return s.x > 1 + 1e-6 || s.y > 1 + 1e-6 }
        // Rotated or projective: compare areas.
        let p = DeviceProjection.polygon(item.quad.corners, item.transform)
        var area = 0.0
        for i in p.indices { let a = p[i], b = p[(i + 1) % p.count]; area += a.x * b.y - b.x * a.y }
        let texels = abs(item.uv.size.width * item.uv.size.height)
        return texels > 0 && abs(area) / 2 > texels * (1 + 1e-6)
    }
}
