import Geometry
import Plan

/// Which device pixels a draw item draws, by CPU scan conversion (the counts behind blended
/// pixels, overdraw, the overlays and every finding's pixel cost; the definitions are in the
/// module's README).
///
/// Model: the pixels the backend writes.
/// - The rasteriser's part: the item's `quad` (with the one-pixel antialiasing margin the planner
///   adds around shaped items) is projected to device pixels through the item's matrix, cut where
///   w ≤ 0, and a pixel gets a fragment when its centre lies inside (top-left rule: left and top
///   edges inclusive, right and bottom exclusive), as a GPU rasteriser decides.
/// - The fragment shader's part (`EdgeCoverage`, for items with a shape, a border's inner edge or
///   clips): the coverage of the rounded shape minus the inner shape, times every clip's. A
///   fragment of coverage 0 is discarded (outside a rounded corner or a clip: not drawn), one of
///   coverage below 1 is a partial, antialiased edge pixel (`forEachRun`'s `partial`).
public struct PixelCoverage: Sendable {
    /// Device-space vertices of the clipped convex polygon, snapped to 1e-6 px (matrix products
    /// carry rounding noise; a vertex at 10.4999999999 is meant to be 10.5).
    public private(set) var polygon: [Point]
    public let canvasWidth: Int
    public let canvasHeight: Int

    /// Per-fragment coverage, when the item has any (shape, inner shape, clips).
    let edge: EdgeCoverage?

    public init(_ item: DrawItem, canvasWidth: Int, canvasHeight: Int) {
        let edge = EdgeCoverage(item)
        // With per-fragment coverage the clips are applied per pixel (with their antialiased rim),
        // so the polygon is the quad alone.
        self.init(rect: item.quad, transform: item.transform, clips: edge == nil ? item.clips : [],
                  canvasWidth: canvasWidth, canvasHeight: canvasHeight, edge: edge)
    }

    /// The coverage of `rect` (local points) under `transform`, cut by `clips`.
    public init(rect: Rect, transform: Transform3D, clips: [Clip], canvasWidth: Int, canvasHeight: Int) {
        self.init(rect: rect, transform: transform, clips: clips, canvasWidth: canvasWidth, canvasHeight: canvasHeight, edge: nil)
    }

    init(rect: Rect, transform: Transform3D, clips: [Clip], canvasWidth: Int, canvasHeight: Int, edge: EdgeCoverage?) {
        self.canvasWidth = canvasWidth; self.canvasHeight = canvasHeight; self.edge = edge
        var local = rect.standardized.corners
        for clip in clips {
            guard let region = PixelCoverage.clipRegion(clip) else { continue }
            local = PixelCoverage.clip(local, to: region)
            if local.count < 3 { break }
        }
        polygon = local.count < 3 ? [] : DeviceProjection.polygon(local, transform).map {
            Point(($0.x * 1e6).rounded() / 1e6, ($0.y * 1e6).rounded() / 1e6)
        }
        if polygon.contains(where: { !$0.x.isFinite || !$0.y.isFinite }) { polygon = [] }
    }

    /// Calls `body(y, x0..<x1)` for each run of drawn pixels (coverage > 0), top to bottom.
    public func forEachSpan(_ body: (Int, Range<Int>) -> Void) {
        forEachRun { y, xs, _ in body(y, xs) }
    }

    /// Calls `body(y, x0..<x1, partial)` for each run of drawn pixels, top to bottom and left to
    /// right; `partial` runs have coverage strictly between 0 and 1 (antialiased edge pixels).
    public func forEachRun(_ body: (Int, Range<Int>, Bool) -> Void) {
        guard let edge else {
            rasterSpans { y, xs in body(y, xs, false) }
            return
        }
        // Rows whose coverage depends on x alone (`EdgeCoverage.rowIsUniform`) share their runs:
        // computed for the first such row and replayed for the next ones with the same span.
        var uniform: (xs: Range<Int>, runs: [(Range<Int>, Bool)])?
        rasterSpans { y, xs in
            guard edge.rowIsUniform(y: y) else { return edge.runs(y: y, xs, body) }
            if let u = uniform, u.xs == xs {
                for (run, partial) in u.runs { body(y, run, partial) }
                return
            }
            var runs: [(Range<Int>, Bool)] = []
            edge.runs(y: y, xs) { _, run, partial in runs.append((run, partial)) }
            uniform = (xs, runs)
            for (run, partial) in runs { body(y, run, partial) }
        }
    }

    /// The rasteriser's spans: pixel centres inside the polygon.
    func rasterSpans(_ body: (Int, Range<Int>) -> Void) {
        guard polygon.count >= 3 else { return }
        var minY = Double.infinity, maxY = -Double.infinity
        for p in polygon { minY = min(minY, p.y); maxY = max(maxY, p.y) }
        // Rows whose centre y + 0.5 lies in [minY, maxY).
        let first = max(0, Int(clampToInt((minY - 0.5).rounded(.up))))
        let last = min(canvasHeight - 1, Int(clampToInt((maxY - 0.5).rounded(.up))) - 1)
        if first > last { return }
        let n = polygon.count
        for y in first...last {
            let yc = Double(y) + 0.5
            var xl = Double.infinity, xr = -Double.infinity
            for i in 0..<n {
                let a = polygon[i], b = polygon[(i + 1) % n]
                if (a.y <= yc && yc < b.y) || (b.y <= yc && yc < a.y) {
                    let x = a.x + (yc - a.y) * (b.x - a.x) / (b.y - a.y)
                    xl = min(xl, x); xr = max(xr, x)
                }
            }
            if xl > xr { continue }
            // Columns whose centre x + 0.5 lies in [xl, xr).
            let x0 = max(0, Int(clampToInt((xl - 0.5).rounded(.up))))
            let x1 = min(canvasWidth, Int(clampToInt((xr - 0.5).rounded(.up))))
            if x0 < x1 { body(y, x0..<x1) }
        }
    }

    /// The number of pixels drawn.
    public var pixelCount: Int {
        var n = 0
        forEachSpan { _, r in n += r.count }
        return n
    }

    /// The number of pixels drawn with partial coverage (antialiased edges).
    public var partialPixelCount: Int {
        var n = 0
        forEachRun { _, r, partial in if partial { n += r.count } }
        return n
    }

    private func clampToInt(_ v: Double) -> Double { min(max(v, -1), Double(1 << 30)) }

    /// A clip's rectangle mapped into the item's plane: the clip space → item space homography is
    /// the inverse of the (x, y, w) part of `clip.transform`. nil when it is singular or a corner
    /// comes back from behind the eye.
    static func clipRegion(_ clip: Clip) -> [Point]? {
        let m = clip.transform
        // [x y 1] · H = [x' y' w'] with H = rows (x, y, translation), columns (x, y, w).
        let h = [m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44]
        guard let inv = invert3(h) else { return nil }
        var out: [Point] = []
        for c in clip.shape.rect.standardized.corners {
            let X = c.x * inv[0] + c.y * inv[3] + inv[6]
            let Y = c.x * inv[1] + c.y * inv[4] + inv[7]
            let W = c.x * inv[2] + c.y * inv[5] + inv[8]
            if !(W > 1e-12) { return nil }
            out.append(Point(X / W, Y / W))
        }
        return out
    }

    static func invert3(_ a: [Double]) -> [Double]? {
        let c00 = a[4] * a[8] - a[5] * a[7], c01 = a[5] * a[6] - a[3] * a[8], c02 = a[3] * a[7] - a[4] * a[6]
        let det = a[0] * c00 + a[1] * c01 + a[2] * c02
        if abs(det) < 1e-15 || !det.isFinite { return nil }
        let d = 1 / det
        return [c00 * d, (a[2] * a[7] - a[1] * a[8]) * d, (a[1] * a[5] - a[2] * a[4]) * d,
                c01 * d, (a[0] * a[8] - a[2] * a[6]) * d, (a[2] * a[3] - a[0] * a[5]) * d,
                c02 * d, (a[1] * a[6] - a[0] * a[7]) * d, (a[0] * a[4] - a[1] * a[3]) * d]
    }

    /// Sutherland–Hodgman: `subject` cut by the convex polygon `clipper` (either winding).
    static func clip(_ subject: [Point], to clipper: [Point]) -> [Point] {
        var area = 0.0
        for i in clipper.indices { let a = clipper[i], b = clipper[(i + 1) % clipper.count]; area += a.x * b.y - b.x * a.y }
        if area == 0 { return [] }
        let sign: Double = area > 0 ? 1 : -1
        var out = subject
        for i in clipper.indices {
            if out.isEmpty { break }
            let e0 = clipper[i], e1 = clipper[(i + 1) % clipper.count]
            func side(_ p: Point) -> Double { sign * ((e1.x - e0.x) * (p.y - e0.y) - (e1.y - e0.y) * (p.x - e0.x)) }
            let input = out
            out = []
            for j in input.indices {
                let p = input[j], q = input[(j + 1) % input.count]
                let sp = side(p), sq = side(q)
                if sp >= 0 { out.append(p) }
                if (sp >= 0) != (sq >= 0) {
                    let t = sp / (sp - sq)
                    out.append(Point(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)))
                }
            }
        }
        return out
    }
}
