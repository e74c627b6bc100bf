import Geometry
import LayerModel

extension Builder {
    /// A rounded clip costs coverage math only where it can change a pixel. When the composite of a
    /// rounded-clip pass is drawn 1:1 (a whole-pixel translation) and its clip is an axis-aligned
    /// rounded rectangle whose edges lie on texel boundaries, coverage is exactly 1 everywhere
    /// inside the shape but within a corner's reach: the item becomes the four corner squares (with
    /// the clip) and the cross between them (without it). Every pixel is drawn by exactly one piece
    /// with the same texel, so the pixels are the same; the first piece carries the clip, so the
    /// logical view (which expands a pass once per list) keeps it.
    static func splitAtCorners(_ item: DrawItem) -> [DrawItem] {
        let t = item.transform
        guard let clip = item.clips.last, !clip.shape.isRectangle,
              t.m11 == 1, t.m22 == 1, t.m12 == 0, t.m21 == 0, t.m14 == 0, t.m24 == 0, t.m44 == 1,
              isIntegral(t.m41), isIntegral(t.m42) else { return [item] }
        let c = clip.transform
        guard c.isAxisAligned2D, c.m14 == 0, c.m24 == 0, c.m44 == 1, c.m11 != 0, c.m22 != 0 else { return [item] }
        // The clip's rectangle and radii in the item's texel space.
        let s = clip.shape.rect.standardized
        let x0 = (s.minX - c.m41) / c.m11, x1 = (s.maxX - c.m41) / c.m11
        let y0 = (s.minY - c.m42) / c.m22, y1 = (s.maxY - c.m42) / c.m22
        let lx0 = min(x0, x1), lx1 = max(x0, x1), ly0 = min(y0, y1), ly1 = max(y0, y1)
        guard [lx0, lx1, ly0, ly1].allSatisfy(isIntegral) else { return [item] }
        let r = clip.shape.radii.max() ?? 0
        // A corner's reach, with the antialiasing ramp (and, for continuous corners, the curve's
        // extent of 1.528665 r), in whole texels.
        let extent = clip.shape.curve == .continuous ? 1.528665 : 1
        let mx = (r * extent / abs(c.m11) + 1).rounded(.up), my = (r * extent / abs(c.m22) + 1).rounded(.up)
        guard lx1 - lx0 > 2 * mx, ly1 - ly0 > 2 * my else { return [item] }
        let (ax0, ax1, ay0, ay1) = (lx0.rounded(), lx1.rounded(), ly0.rounded(), ly1.rounded())
        let q = item.quad.standardized
        func piece(_ r: Rect, clipped: Bool) -> DrawItem? {
            guard let inside = r.intersection(q), inside.width > 0, inside.height > 0 else { return nil }
            var p = item
            p.quad = inside
            p.uv = inside
            if !clipped { p.clips.removeLast() }
            return p
        }
        let corners = [Rect(ax0, ay0, mx, my), Rect(ax1 - mx, ay0, mx, my),
                       Rect(ax1 - mx, ay1 - my, mx, my), Rect(ax0, ay1 - my, mx, my)].compactMap { piece($0, clipped: true) }
        let cross = [Rect(ax0 + mx, ay0, ax1 - ax0 - 2 * mx, ay1 - ay0),
                     Rect(ax0, ay0 + my, mx, ay1 - ay0 - 2 * my),
                     Rect(ax1 - mx, ay0 + my, mx, ay1 - ay0 - 2 * my)].compactMap { piece($0, clipped: false) }
        return corners + cross
    }
}
