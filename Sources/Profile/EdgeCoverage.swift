#if canImport(Glibc)
import Glibc          // atan2 only: Profile stays free of Foundation (no clock, no I/O)
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import Plan

/// The per-pixel coverage the backend's fragment shader computes for an item's rounded shape,
/// a border's inner edge and every clip (`Shaders/coverage.glsl`, ported line for line), so the
/// profiler counts the pixels the GPU actually writes and knows which of them are partial:
///
/// - coverage 0: the fragment is discarded (outside a rounded corner, outside a clip);
/// - 0 < coverage < 1: an antialiased edge pixel, blended with what lies beneath whatever the
///   paint (rounded corners, fractional edges, the rim of a rounded clip);
/// - coverage 1: the paint alone decides whether the pixel blends.
///
/// The shader takes derivatives over 2×2 pixel quads; here they are finite differences of the
/// device → local mapping one pixel right and one pixel down, which is exact for affine matrices.
struct EdgeCoverage: Sendable {
    private let toLocal: [Double]          // 3×3 device (x, y, 1) → local (X, Y, W), row vectors
    private let shape: CornerShape?
    private let inner: CornerShape?
    private let clips: [(toClip: [Double], shape: CornerShape)]
    /// Device → local and every clip map are axis-aligned scalings and translations: coverage
    /// along a row is then exactly 0…rising…1…falling…0, which the bisection relies on.
    private let axisAligned: Bool

    /// nil when the item has no per-fragment coverage (no shape, no inner shape, no clip): its
    /// coverage is 1 wherever the rasteriser puts a fragment.
    init?(_ item: DrawItem) {
        // A blurred shape (an analytic shadow) paints its whole quad, the Gaussian's reach around
        // its shape: the shape is what is blurred, not where the item draws.
        var blurred = false
        if case .blurredShape = item.paint { blurred = true }
        guard (!blurred && (item.shape != nil || item.innerShape != nil)) || !item.clips.isEmpty else { return nil }
        let m = item.transform
        guard let inv = PixelCoverage.invert3([m.m11, m.m12, m.m14, m.m21, m.m22, m.m24, m.m41, m.m42, m.m44]) else { return nil }
        toLocal = inv
        shape = blurred ? nil : item.shape.map(CornerShape.init)
        inner = blurred ? nil : item.innerShape.map(CornerShape.init)
        clips = item.clips.map { c in
            let t = c.transform
            return ([t.m11, t.m12, t.m14, t.m21, t.m22, t.m24, t.m41, t.m42, t.m44], CornerShape(c.shape))
        }
        func aligned(_ h: [Double]) -> Bool { h[1] == 0 && h[3] == 0 && h[2] == 0 && h[5] == 0 && h[8] == 1 }
        axisAligned = aligned(inv) && clips.allSatisfy { aligned($0.toClip) }
    }

    /// Coverage (0…1) of the pixel whose centre is (x + 0.5, y + 0.5).
    func coverage(x: Int, y: Int) -> Double { evaluate(x: x, y: y).coverage }

    /// The coverage, and whether the pixel lies wholly inside the inner shape (a border's hole).
    func evaluate(x: Int, y: Int) -> (coverage: Double, inHole: Bool) {
        let cx = Double(x) + 0.5, cy = Double(y) + 0.5
        let p: Point, px: Point, py: Point, dpdx: Point, dpdy: Point
        let h = toLocal
        if h[2] == 0 && h[5] == 0 && h[8] == 1 {
            // Affine (every 2D item): the derivatives are the matrix's own, one map per pixel.
            p = Point(cx * h[0] + cy * h[3] + h[6], cx * h[1] + cy * h[4] + h[7])
            dpdx = Point(h[0], h[1]); dpdy = Point(h[3], h[4])
            px = Point(p.x + dpdx.x, p.y + dpdx.y); py = Point(p.x + dpdy.x, p.y + dpdy.y)
        } else {
            guard let a = Self.map(h, cx, cy), let b = Self.map(h, cx + 1, cy), let c = Self.map(h, cx, cy + 1) else { return (0, false) }
            p = a; px = b; py = c
            dpdx = Point(px.x - p.x, px.y - p.y); dpdy = Point(py.x - p.x, py.y - p.y)
        }
        var c = 1.0
        if let s = shape { c = s.coverage(p, dpdx, dpdy) }
        var inHole = false
        if let s = inner {
            let i = s.coverage(p, dpdx, dpdy)
            inHole = i >= Self.full
            c = max(c - i, 0)
        }
        for clip in clips where c > 0 {
            // Behind the eye (w ≤ 0) in the clip's space is out, as in the shader.
            guard let q = Self.map(clip.toClip, p.x, p.y), let qx = Self.map(clip.toClip, px.x, px.y),
                  let qy = Self.map(clip.toClip, py.x, py.y) else { return (0, inHole) }
            c *= clip.shape.coverage(q, Point(qx.x - q.x, qx.y - q.y), Point(qy.x - q.x, qy.y - q.y))
        }
        return (c, inHole)
    }

    /// Splits one rasteriser span of row `y` into runs of full and partial coverage, dropping
    /// pixels of coverage 0. Without an inner shape the drawn region and the full region are
    /// convex (intersections of convex shapes), so on a row each is one interval: their ends are
    /// bisected from a full middle pixel (or, when the middle is not full, scanned inward until
    /// coverage reaches 1), and the pixels between are not evaluated.
    /// A border (shape minus inner shape) is scanned inward from both ends until the pixels lie
    /// wholly inside its hole (also one interval per row: the inner shape is convex).
    func runs(y: Int, _ xs: Range<Int>, _ body: (Int, Range<Int>, Bool) -> Void) {
        var pending: (start: Int, end: Int, partial: Bool)?
        func emit(_ x: Int, _ c: Double) {
            if c <= Self.zero { flush(); return }
            let partial = c < Self.full
            if let p = pending, p.end == x, p.partial == partial { pending!.end = x + 1; return }
            flush(); pending = (x, x + 1, partial)
        }
        func flush() { if let p = pending { body(y, p.start..<p.end, p.partial); pending = nil } }
        if inner != nil {
            var left = xs.lowerBound, hole = false
            while left < xs.upperBound {
                let e = evaluate(x: left, y: y)
                if e.inHole { hole = true; break }
                emit(left, e.coverage); left += 1
            }
            flush()
            guard hole else { return }
            var right = xs.upperBound - 1
            var tail: [(Int, Double)] = []
            while right > left {
                let e = evaluate(x: right, y: y)
                if e.inHole { break }
                tail.append((right, e.coverage)); right -= 1
            }
            for (x, c) in tail.reversed() { emit(x, c) }
            flush(); return
        }
        // Fast path (axis-aligned items, the common case): when the span's middle pixel is full,
        // the drawn pixels are an interval around it, so its two ends are found by bisection and
        // only the partial band inside each end is scanned: O(log n) evaluations per row instead
        // of one per pixel of a rounded corner's empty part. Rotated or projected items keep the scan (their ramps need not be
        // monotone along a row near a corner).
        let lo = xs.lowerBound, hi = xs.upperBound - 1
        if axisAligned && hi - lo >= 8 {
            let m = (lo + hi) / 2
            if coverage(x: m, y: y) >= Self.full {
                let drawn = { (x: Int) in self.coverage(x: x, y: y) > Self.zero }
                let p0 = Self.first(lo, m, drawn), p1 = Self.last(m, hi, drawn)
                // From each drawn end, scan inward to the first full pixel, as the plain scan
                // below does (a seam pixel of a corner can be a hair under 1 between full ones).
                var f0 = p0
                while coverage(x: f0, y: y) < Self.full { f0 += 1 }
                var f1 = p1
                while f1 > f0 && coverage(x: f1, y: y) < Self.full { f1 -= 1 }
                if p0 < f0 { body(y, p0..<f0, true) }
                body(y, f0..<(f1 + 1), false)
                if f1 < p1 { body(y, (f1 + 1)..<(p1 + 1), true) }
                return
            }
        }
        var left = xs.lowerBound
        var leftFull = false
        while left < xs.upperBound {
            let c = coverage(x: left, y: y)
            if c >= Self.full { leftFull = true; break }
            emit(left, c); left += 1
        }
        guard leftFull else { flush(); return }
        var right = xs.upperBound - 1
        var tail: [(Int, Double)] = []
        while right > left {
            let c = coverage(x: right, y: y)
            if c >= Self.full { break }
            tail.append((right, c)); right -= 1
        }
        flush()
        pending = (left, right + 1, false)
        for (x, c) in tail.reversed() { emit(x, c) }
        flush()
    }

    /// Whether row `y`'s coverage is a function of x alone, the same function on every such row:
    /// the item and its clips are axis-aligned with no inner shape, and the row lies clear of
    /// every shape's top and bottom antialiasing band and of its corners. Each shape's vertical
    /// factor is then exactly 1 and no corner branch is taken, so `runs` gives such rows the same
    /// runs for the same span (`PixelCoverage.forEachRun` computes them once: a full-screen
    /// clipped layer has hundreds of such rows and a handful of others).
    func rowIsUniform(y: Int) -> Bool {
        guard axisAligned, inner == nil else { return false }
        let h = toLocal
        // As `evaluate` maps it (h[1] = h[3] = 0): local y of the row, and one pixel down in local units.
        let localY = (Double(y) + 0.5) * h[4] + h[7], pixel = abs(h[4])
        if let s = shape, !s.isClearVertically(localY, pixel: pixel) { return false }
        for clip in clips {
            let t = clip.toClip
            if !clip.shape.isClearVertically(localY * t[4] + t[7], pixel: abs(pixel * t[4])) { return false }
        }
        return true
    }

    /// The first x in a...b where `holds` (false then true along the range; b holds).
    private static func first(_ a: Int, _ b: Int, _ holds: (Int) -> Bool) -> Int {
        var a = a, b = b
        while a < b { let mid = (a + b) / 2; if holds(mid) { b = mid } else { a = mid + 1 } }
        return a
    }

    /// The last x in a...b where `holds` (true then false along the range; a holds).
    private static func last(_ a: Int, _ b: Int, _ holds: (Int) -> Bool) -> Int {
        var a = a, b = b
        while a < b { let mid = (a + b + 1) / 2; if holds(mid) { a = mid } else { b = mid - 1 } }
        return a
    }

    /// Coverage at or below `zero` is discarded; at or above `full` the fragment is fully covered
    /// (float noise on pixel-aligned edges stays well inside both).
    static let zero = 1e-6
    static let full = 1 - 1e-6

    /// (x, y, 1) · H, divided by w; nil at or behind the eye.
    private static func map(_ h: [Double], _ x: Double, _ y: Double) -> Point? {
        let X = x * h[0] + y * h[3] + h[6], Y = x * h[1] + y * h[4] + h[7], W = x * h[2] + y * h[5] + h[8]
        guard W > 1e-12 else { return nil }
        return Point(X / W, Y / W)
    }
}

/// A rounded rectangle in the form the shader evaluates: per corner (minXMinY, maxXMinY,
/// maxXMaxY, minXMaxY) a centre inset from the corner and a radial profile (`CornerProfile`),
/// radii clamped to half the shorter side, as `Render`'s draw records write them.
struct CornerShape: Sendable {
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    let corners: [CornerProfile]

    init(_ s: RoundedShape) {
        let r = s.rect.standardized
        minX = r.minX; minY = r.minY; maxX = r.maxX; maxY = r.maxY
        let limit = min(r.width, r.height) / 2
        corners = (0..<4).map { i in
            let radius = i < s.radii.count ? s.radii[i] : 0
            return s.curve == .continuous ? CornerProfile.continuous(radius: radius, limit: limit)
                                          : CornerProfile.circular(radius: radius, limit: limit)
        }
    }

    /// The continuous profile's extremes (ρ/r), for deciding pixels far from the curve.
    static let tableMin = ContinuousCorner.radialTable.min() ?? 0
    static let tableMax = ContinuousCorner.radialTable.max() ?? 0

    /// `continuousProfile` of corners.glsl: ρ/r at θ and dρ/dθ, linear in the 33-entry table.
    static func continuousProfile(_ theta: Double) -> (Double, Double) {
        let table = ContinuousCorner.radialTable
        let n = Double(table.count - 1)
        let x = min(max(theta * (n / (Double.pi / 2)), 0), n)
        let i = min(Int(x), table.count - 2)
        let a = table[i], b = table[i + 1]
        return (a + (b - a) * (x - Double(i)), (b - a) * (n / (Double.pi / 2)))
    }

    /// Whether, at local y with `pixel` local units per device pixel down, `coverage`'s vertical
    /// factor is exactly 1 and no corner applies, whatever x: the row is at least half a pixel
    /// inside the top and bottom edges and below (above) every corner's inset. The margin, far
    /// above the rounding of `coverage`'s own arithmetic, keeps the answer on the safe side.
    func isClearVertically(_ y: Double, pixel: Double) -> Bool {
        let dyEdge = min(y - minY, maxY - y)
        let margin = 1e-9 * (abs(y) + abs(minY) + abs(maxY) + pixel + 1)
        let inset = max(max(corners[0].inset, corners[1].inset), max(corners[2].inset, corners[3].inset))
        return dyEdge >= 0.5 * max(pixel, 1e-12) + margin && dyEdge >= inset + margin
    }

    /// `roundedRectCoverage` of coverage.glsl: straight edges box-filtered per axis over one
    /// device pixel, corners by the distance to the profile along its normal.
    func coverage(_ p: Point, _ dpdx: Point, _ dpdy: Point) -> Double {
        let left = p.x - minX, right = maxX - p.x, top = p.y - minY, bottom = maxY - p.y
        let ux = max((dpdx.x * dpdx.x + dpdy.x * dpdy.x).squareRoot(), 1e-12)
        let uy = max((dpdx.y * dpdx.y + dpdy.y * dpdy.y).squareRoot(), 1e-12)
        let dxEdge = min(left, right), dyEdge = min(top, bottom)
        var c = clamp01(0.5 + dxEdge / ux) * clamp01(0.5 + dyEdge / uy)
        let isRight = right < left, isBottom = bottom < top
        let corner = isBottom ? (isRight ? 2 : 3) : (isRight ? 1 : 0)
        let e = corners[corner].inset
        let fx = e - dxEdge, fy = e - dyEdge
        // A square corner (inset 0) has no corner region: past both edges the straight-edge
        // product already gives ~0. (Entering the branch there would divide by ρ = 0: NaN in the
        // shader, 0.5 here; either would draw a stray pixel diagonally off a square corner.)
        if e > 0 && fx > 0 && fy > 0 {
            let dist = (fx * fx + fy * fy).squareRoot()
            let profile = corners[corner]
            let rx = fx / dist * (isRight ? 1 : -1), ry = fy / dist * (isBottom ? 1 : -1)
            let a = rx * dpdx.x + ry * dpdx.y, b = rx * dpdy.x + ry * dpdy.y
            let u = max((a * a + b * b).squareRoot(), 1e-12)
            // ρ lies between the profile's extremes; the normal leans from the ray by at most
            // atan(ρ'/ρ), a factor ≥ 0.85 on the distance (the table's steepest slope gives
            // 0.98). Where the pixel is surely inside or outside, the exact value is 1 or 0 and
            // the angle (atan2, the table) is not needed: the common case, well away from the curve.
            let rhoMin = profile.profileScale * Self.tableMin + profile.circularRadius
            let rhoMax = profile.profileScale * Self.tableMax + profile.circularRadius
            if (rhoMin - dist) * 0.85 >= 0.5 * u { return 1 }
            if (dist - rhoMax) * 0.85 >= 0.5 * u { return 0 }
            // The tabulated profile and its slope, interpolated as the shader does.
            let (table, tableSlope) = profile.profileScale == 0 ? (0, 0) : Self.continuousProfile(atan2(fy, fx))
            let rho = profile.profileScale * table + profile.circularRadius
            let slope = profile.profileScale * tableSlope
            let normalDistance = (rho - dist) * rho / max((rho * rho + slope * slope).squareRoot(), 1e-12)
            c = clamp01(0.5 + normalDistance / u)
        }
        return c
    }
}

@inline(__always) private func clamp01(_ v: Double) -> Double { min(max(v, 0), 1) }
