import Geometry

/// Local points → device pixels for a flat polygon, through a possibly projective matrix. The part
/// of the polygon at or behind the eye (w ≤ ε) is cut away in homogeneous space before the divide,
/// as the GPU's clipper does, so the result is what can actually cover pixels.
public enum DeviceProjection {
    /// Smallest w kept: points closer to the eye plane are clipped.
    static let minW = 1e-6

    /// The device-space polygon of `local` (a convex polygon, z = 0) under `m`; empty when all of
    /// it is behind the eye.
    public static func polygon(_ local: [Point], _ m: Transform3D) -> [Point] {
        let h = local.map { m.apply($0.x, $0.y, 0) }
        if h.allSatisfy({ $0.w > minW }) { return h.map { $0.projected } }
        var out: [Point4] = []
        for i in h.indices {
            let a = h[i], b = h[(i + 1) % h.count]
            let ina = a.w > minW, inb = b.w > minW
            if ina { out.append(a) }
            if ina != inb {
                let t = (minW - a.w) / (b.w - a.w)
                out.append(Point4(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y), a.z + t * (b.z - a.z), minW))
            }
        }
        return out.map { $0.projected }
    }

    /// The device pixels touched by `rect` under `m`, rounded out to whole pixels and clipped to a
    /// `width` × `height` canvas; nil when nothing of it is on the canvas.
    public static func pixelBounds(_ rect: Rect, _ m: Transform3D, width: Int, height: Int) -> PixelRect? {
        let p = polygon(rect.corners, m)
        if p.isEmpty { return nil }
        return pixelBounds(Rect.bounding(p), width: width, height: height)
    }

    /// `r` rounded out to whole pixels and clipped to the region of `width` × `height` pixels whose
    /// top-left corner is (originX, originY) (an offscreen target may start left of the canvas).
    public static func pixelBounds(_ r: Rect, width: Int, height: Int, originX: Double, originY: Double) -> PixelRect? {
        let shifted = Rect(r.minX - originX, r.minY - originY, r.width, r.height)
        guard let p = pixelBounds(shifted, width: width, height: height) else { return nil }
        return PixelRect(x: p.x + Int(originX), y: p.y + Int(originY), width: p.width, height: p.height)
    }

    /// `r` (device pixels) rounded out to whole pixels and clipped to the canvas.
    public static func pixelBounds(_ r: Rect, width: Int, height: Int) -> PixelRect? {
        if r.minX.isNaN || r.minY.isNaN || r.maxX.isNaN || r.maxY.isNaN { return nil }
        // Clamp before converting (a projection can reach ±∞); within 1e-6 of a pixel edge counts
        // as on it (matrix products carry rounding noise).
        func clamp(_ v: Double, _ hi: Int) -> Double { Swift.min(Swift.max(v, 0), Double(hi)) }
        let x0 = Int(clamp(r.minX + 1e-6, width).rounded(.down)), y0 = Int(clamp(r.minY + 1e-6, height).rounded(.down))
        let x1 = Int(clamp(r.maxX - 1e-6, width).rounded(.up)), y1 = Int(clamp(r.maxY - 1e-6, height).rounded(.up))
        if x1 <= x0 || y1 <= y0 { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
