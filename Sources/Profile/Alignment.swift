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

    /// Device pixels per texel of a contents item along x and y, when its matrix is axis-aligned
    /// 2D; nil otherwise (rotated, skewed or 3D: resampled whatever the sizes).
    public static func pixelsPerTexel(_ item: DrawItem) -> (x: Double, y: Double)? {
        guard item.transform.isAxisAligned2D, item.uv.width > 0, item.uv.height > 0 else { return nil }
        let d = BlendAnalysis.deviceRect(item.quad, item.transform)
        return (d.width / item.uv.width, d.height / item.uv.height)
    }

    /// Whether a contents item resamples its image: texels do not map 1:1 onto device pixels.
    /// (A 1:1 image at a fractional position is misaligned, not scaled.)
    public static func isScaled(_ item: DrawItem) -> Bool {
        guard let s = pixelsPerTexel(item) else { return true }
        return abs(s.x - 1) > 1e-6 || abs(s.y - 1) > 1e-6
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
