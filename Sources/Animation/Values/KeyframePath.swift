import Geometry

/// A CAKeyframeAnimation `path` as keyframe segments (reference §4.4): every element other than a
/// move-to is one segment, from the current point to its end point, followed exactly; the keyframes
/// are the first segment's start and every segment's end.
///
/// Lines and quadratics are stored as the equivalent cubic Bézier (a line with its control points
/// at the thirds, so its parameter is proportional to distance, as a line's should be). A move-to
/// inside the path starts the next segment elsewhere: the value jumps there at that keyframe.
/// Decisions: a `close` whose current point is already the subpath start adds no segment (a
/// zero-length segment would stall the animation and has no tangent); an element before any
/// move-to starts at its own end point, as if moved there.
struct KeyframePath: Sendable {
    struct Segment: Sendable {
        var p0: Point, c1: Point, c2: Point, p1: Point
    }
    let segments: [Segment]
    /// segments.count + 1 points, or one point for a path with moves only.
    let keyframes: [Point]

    /// nil for a path with no points at all.
    init?(_ path: Path) {
        var segs: [Segment] = []
        var current: Point?, start: Point?
        var firstMove: Point?
        func line(_ a: Point, _ b: Point) -> Segment {
            Segment(p0: a, c1: Point(a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3),
                    c2: Point(a.x + 2 * (b.x - a.x) / 3, a.y + 2 * (b.y - a.y) / 3), p1: b)
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                current = p; start = p
                if firstMove == nil { firstMove = p }
            case .line(let q):
                let a = current ?? q
                segs.append(line(a, q)); current = q; if start == nil { start = a }
            case .quad(let c, let q):
                let a = current ?? q
                segs.append(Segment(p0: a, c1: Point(a.x + 2 * (c.x - a.x) / 3, a.y + 2 * (c.y - a.y) / 3),
                                    c2: Point(q.x + 2 * (c.x - q.x) / 3, q.y + 2 * (c.y - q.y) / 3), p1: q))
                current = q; if start == nil { start = a }
            case .cubic(let c1, let c2, let q):
                let a = current ?? q
                segs.append(Segment(p0: a, c1: c1, c2: c2, p1: q)); current = q; if start == nil { start = a }
            case .close:
                if let c = current, let s = start, c != s { segs.append(line(c, s)) }
                current = start
            }
        }
        if let f = segs.first {
            keyframes = [f.p0] + segs.map(\.p1)
        } else if let m = firstMove {
            keyframes = [m]
        } else {
            return nil
        }
        segments = segs
    }

    /// The point of segment `i` at parameter `s` (extrapolates the cubic outside [0, 1]).
    @inline(__always)
    func point(segment i: Int, _ s: Double) -> Point {
        let g = segments[i]
        let u = 1 - s
        let a = u * u * u, b = 3 * u * u * s, c = 3 * u * s * s, d = s * s * s
        return Point(a * g.p0.x + b * g.c1.x + c * g.c2.x + d * g.p1.x,
                     a * g.p0.y + b * g.c1.y + c * g.c2.y + d * g.p1.y)
    }

    /// The direction of travel at segment `i`, parameter `s`: the derivative, or where it vanishes
    /// (a control point on an end point) the first non-zero of c1 − p0, c2 − p0 (near the start) or
    /// p1 − c2, p1 − c1 (near the end), or the chord.
    func tangent(segment i: Int, _ s: Double) -> Point {
        let g = segments[i]
        let u = 1 - s
        let d = Point(3 * u * u * (g.c1.x - g.p0.x) + 6 * u * s * (g.c2.x - g.c1.x) + 3 * s * s * (g.p1.x - g.c2.x),
                      3 * u * u * (g.c1.y - g.p0.y) + 6 * u * s * (g.c2.y - g.c1.y) + 3 * s * s * (g.p1.y - g.c2.y))
        @inline(__always) func nonZero(_ v: Point) -> Bool { v.x * v.x + v.y * v.y > 1e-24 }
        if nonZero(d) { return d }
        let (a, b) = s < 0.5 ? (g.c1 - g.p0, g.c2 - g.p0) : (g.p1 - g.c2, g.p1 - g.c1)
        if nonZero(a) { return a }
        if nonZero(b) { return b }
        return g.p1 - g.p0
    }

    /// The chord between two parameters of one segment (for `ArcLengthTable`).
    func chord(segment i: Int, _ s0: Double, _ s1: Double) -> Double {
        let a = point(segment: i, s0), b = point(segment: i, s1)
        return hypot(b.x - a.x, b.y - a.y)
    }
}
