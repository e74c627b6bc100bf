import Geometry

/// The device pixels an item can touch when the backend draws it: its quad under its matrix, grown
/// as the backend grows a shaped quad for the antialiased edge (about one device pixel along the
/// direction the matrix shrinks most, in local units, capped at the quad's size), plus one pixel
/// for rounding, clipped to the canvas. An over-estimate is safe (more is redrawn); an
/// under-estimate would leave stale pixels, so this errs large.
enum DamageBounds {
    static func of(_ item: DrawItem, width: Int, height: Int) -> PixelRect? {
        var q = item.quad.standardized
        if item.shape != nil, q.width > 0, q.height > 0 {
            let o = outset(item.transform, q)
            q = Rect(q.minX - o, q.minY - o, q.width + 2 * o, q.height + 2 * o)
        }
        guard let p = DeviceProjection.pixelBounds(q, item.transform, width: width, height: height) else { return nil }
        return DamageRegion.clip(PixelRect(x: p.x - 1, y: p.y - 1, width: p.width + 2, height: p.height + 2),
                                 width: width, height: height)
    }

    /// Local units per device pixel where the matrix shrinks most (1 / the smallest singular value
    /// of the projected Jacobian over the quad's corners in front of the eye), capped at the quad's
    /// size: the backend's antialiasing outset, doubled to stay on the safe side.
    static func outset(_ t: Transform3D, _ q: Rect) -> Double {
        var smallest = Double.infinity
        for c in q.corners {
            let x = c.x * t.m11 + c.y * t.m21 + t.m41, y = c.x * t.m12 + c.y * t.m22 + t.m42
            let w = c.x * t.m14 + c.y * t.m24 + t.m44
            guard w > 0 else { continue }
            let a = (t.m11 * w - x * t.m14) / (w * w), b = (t.m21 * w - x * t.m24) / (w * w)
            let d = (t.m12 * w - y * t.m14) / (w * w), e = (t.m22 * w - y * t.m24) / (w * w)
            let s = a * a + b * b + d * d + e * e, det = a * e - b * d
            smallest = min(smallest, (max(s - (max(s * s - 4 * det * det, 0)).squareRoot(), 0) / 2).squareRoot())
        }
        let cap = max(q.width, q.height)
        guard smallest.isFinite, smallest > 1e-6 else { return cap }
        return min(2 / smallest, cap)
    }
}

/// Merging damaged rectangles into a few disjoint ones.
enum DamageRegion {
    /// Rectangles kept while accumulating before the cheapest pairs are merged (bounds the work on
    /// frames where thousands of items change).
    static let workingLimit = 32

    /// `r` clipped to the canvas; nil when nothing is left.
    static func clip(_ r: PixelRect, width: Int, height: Int) -> PixelRect? {
        intersection(r, PixelRect(x: 0, y: 0, width: width, height: height))
    }

    /// The pixels `a` and `b` share; nil when none.
    static func intersection(_ a: PixelRect, _ b: PixelRect) -> PixelRect? {
        let x0 = max(a.x, b.x), y0 = max(a.y, b.y)
        let x1 = min(a.x + a.width, b.x + b.width), y1 = min(a.y + a.height, b.y + b.height)
        return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    static func union(_ a: PixelRect, _ b: PixelRect) -> PixelRect {
        let x0 = min(a.x, b.x), y0 = min(a.y, b.y)
        return PixelRect(x: x0, y: y0, width: max(a.x + a.width, b.x + b.width) - x0,
                         height: max(a.y + a.height, b.y + b.height) - y0)
    }

    /// Whether `a` and `b` share a pixel or an edge (so their union is worth taking at once).
    static func touch(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height && b.y <= a.y + a.height
    }

    static func overlap(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    /// At most `maxRects` pairwise disjoint rectangles covering every pixel of `rects`, sorted by
    /// (y, x). Touching or overlapping rectangles are merged into their bounding box; while there
    /// are too many, the pair whose bounding box adds the fewest pixels is merged.
    static func merge(_ rects: [PixelRect], maxRects: Int) -> [PixelRect] {
        let limit = max(maxRects, 1)
        var out: [PixelRect] = []
        for r in rects where !r.isEmpty {
            out.append(r)
            absorbTouching(&out)
            while out.count > workingLimit { mergeCheapestPair(&out) }
        }
        while out.count > limit { mergeCheapestPair(&out) }
        return out.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// Merges the last rectangle with every rectangle it touches, repeatedly (a bounding box can
    /// reach rectangles its parts did not), so the list stays pairwise apart.
    private static func absorbTouching(_ out: inout [PixelRect]) {
        guard var r = out.popLast() else { return }
        var merged = true
        while merged {
            merged = false
            for i in out.indices.reversed() where touch(out[i], r) {
                r = union(r, out.remove(at: i)); merged = true
            }
        }
        out.append(r)
    }

    /// Replaces the pair of rectangles whose bounding box has the fewest pixels not in either by
    /// that box (then absorbs what the box now overlaps).
    private static func mergeCheapestPair(_ out: inout [PixelRect]) {
        guard out.count > 1 else { return }
        var best = (i: 0, j: 1, cost: Int.max)
        for i in 0..<out.count {
            for j in (i + 1)..<out.count {
                let cost = union(out[i], out[j]).area - out[i].area - out[j].area
                if cost < best.cost { best = (i, j, cost) }
            }
        }
        let u = union(out[best.i], out[best.j])
        out.remove(at: best.j); out.remove(at: best.i)
        out.append(u)
        absorbTouching(&out)
    }
}
