/// CAShapeLayer's `strokeStart` / `strokeEnd` (reference §2.1): the part of the path between two
/// fractions of its total arc length, all subpaths concatenated in order.
///
/// Each element becomes a segment (a `close` is the line back to its subpath's start; quadratics
/// are raised to cubics); curves are measured on a 64-chord table, which inverts length to the
/// curve parameter within ~1e-4 of a segment's length, and split exactly (de Casteljau) there.
/// A subpath wholly inside the range is kept as it is (a closed one stays closed, so it gets a
/// join, not caps); a cut subpath becomes an open one, so the stroker puts caps on the trimmed ends.
extension Path {
    /// The trimmed path; `self` when the range covers everything, empty when `start >= end`
    /// (reference §2.1: strokeStart > strokeEnd is unconfirmed; we draw nothing).
    public func trimmed(start: Double, end: Double) -> Path {
        let s0 = min(max(start, 0), 1), s1 = min(max(end, 0), 1)
        if s0 <= 0 && s1 >= 1 { return self }
        if s0 >= s1 { return Path() }
        let subpaths = PathSegments.subpaths(of: self)
        let total = subpaths.reduce(0) { $0 + $1.length }
        guard total > 0 else { return Path() }
        let from = s0 * total, to = s1 * total
        var out: [Element] = []
        var offset = 0.0
        for sub in subpaths {
            let a = offset, b = offset + sub.length
            offset = b
            if b <= from || a >= to { continue }
            if a >= from && b <= to { out += sub.elements; continue }
            // Cut: emit the covered part of each segment as an open subpath.
            var pos = a
            var started = false
            for seg in sub.segments {
                let sa = pos, sb = pos + seg.length
                pos = sb
                let lo = max(sa, from), hi = min(sb, to)
                if hi <= lo { continue }
                let t0 = seg.parameter(atLength: lo - sa), t1 = seg.parameter(atLength: hi - sa)
                let piece = seg.split(t0, t1)
                if !started { out.append(.move(piece.start)); started = true }
                out.append(piece.element)
            }
        }
        return Path(out)
    }

    /// Where the path trimmed at `start` begins, measured from the start of its subpath: the dash
    /// pattern restarts at every subpath, so a trimmed stroke whose dashes stay where the whole
    /// path put them starts its pattern this far in. 0 when the trim starts at a subpath's start.
    public func trimmedStartOffset(start: Double) -> Double {
        let s0 = min(max(start, 0), 1)
        guard s0 > 0 else { return 0 }
        let subpaths = PathSegments.subpaths(of: self)
        let total = subpaths.reduce(0) { $0 + $1.length }
        let from = s0 * total
        var offset = 0.0
        for sub in subpaths {
            if from < offset + sub.length { return from - offset }
            offset += sub.length
        }
        return 0
    }

    /// The total arc length of every subpath, closes included.
    public var length: Double { PathSegments.subpaths(of: self).reduce(0) { $0 + $1.length } }
}

/// A path as measured segments, per subpath.
enum PathSegments {
    struct Segment {
        var start: Point
        /// Line: [end]; cubic: [c1, c2, end].
        var points: [Point]
        /// Cumulative chord lengths at t = i / n (cubics), for length → parameter.
        var table: [Double]
        var length: Double

        init(line a: Point, _ b: Point) {
            start = a; points = [b]
            length = distance(a, b); table = [0, length]
        }

        init(cubic a: Point, _ c1: Point, _ c2: Point, _ b: Point) {
            start = a; points = [c1, c2, b]
            let n = 64
            var t: [Double] = [0]
            var prev = a, acc = 0.0
            for i in 1...n {
                let p = cubicPoint(a, c1, c2, b, Double(i) / Double(n))
                acc += distance(prev, p); t.append(acc); prev = p
            }
            table = t; length = acc
        }

        var isLine: Bool { points.count == 1 }

        /// The parameter at arc length `s` from the segment's start.
        func parameter(atLength s: Double) -> Double {
            guard length > 0 else { return 0 }
            if s <= 0 { return 0 }
            if s >= length { return 1 }
            if isLine { return s / length }
            var lo = 0, hi = table.count - 1
            while hi - lo > 1 { let m = (lo + hi) / 2; if table[m] <= s { lo = m } else { hi = m } }
            let f = (s - table[lo]) / max(table[hi] - table[lo], 1e-300)
            return (Double(lo) + f) / Double(table.count - 1)
        }

        /// The part between parameters t0 ≤ t1, as a start point and one element.
        func split(_ t0: Double, _ t1: Double) -> (start: Point, element: Path.Element) {
            if isLine {
                let b = points[0]
                return (lerp(start, b, t0), .line(lerp(start, b, t1)))
            }
            // de Casteljau: keep [0, t1], then [t0/t1, 1] of that.
            var (p0, p1, p2, p3) = (start, points[0], points[1], points[2])
            (p0, p1, p2, p3) = splitLeft(p0, p1, p2, p3, t1)
            let u = t1 > 0 ? t0 / t1 : 0
            (p0, p1, p2, p3) = splitRight(p0, p1, p2, p3, u)
            return (p0, .cubic(p1, p2, p3))
        }
    }

    struct Subpath {
        /// The original elements (move first), kept when the whole subpath is in range.
        var elements: [Path.Element]
        var segments: [Segment]
        var length: Double { segments.reduce(0) { $0 + $1.length } }
    }

    static func subpaths(of path: Path) -> [Subpath] {
        var out: [Subpath] = []
        var current: Subpath?
        var start = Point.zero, pen = Point.zero
        func begin(_ p: Point) {
            if let c = current { out.append(c) }
            current = Subpath(elements: [.move(p)], segments: [])
            start = p; pen = p
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                begin(p)
            case .line(let p):
                if current == nil { begin(pen) }
                current!.elements.append(e); current!.segments.append(Segment(line: pen, p)); pen = p
            case .quad(let c, let p):
                if current == nil { begin(pen) }
                let c1 = pen + scale(c - pen, 2.0 / 3), c2 = p + scale(c - p, 2.0 / 3)
                current!.elements.append(e); current!.segments.append(Segment(cubic: pen, c1, c2, p)); pen = p
            case .cubic(let c1, let c2, let p):
                if current == nil { begin(pen) }
                current!.elements.append(e); current!.segments.append(Segment(cubic: pen, c1, c2, p)); pen = p
            case .close:
                guard current != nil else { continue }
                current!.elements.append(e); current!.segments.append(Segment(line: pen, start))
                // After a close the pen is back at the subpath's start; a following drawing
                // element starts a new subpath there (as in Core Graphics).
                out.append(current!); current = nil; pen = start
            }
        }
        if let c = current { out.append(c) }
        return out
    }
}

@inline(__always) private func distance(_ a: Point, _ b: Point) -> Double {
    let dx = b.x - a.x, dy = b.y - a.y
    return (dx * dx + dy * dy).squareRoot()
}
@inline(__always) private func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point { Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
@inline(__always) private func scale(_ p: Point, _ s: Double) -> Point { Point(p.x * s, p.y * s) }

private func cubicPoint(_ a: Point, _ b: Point, _ c: Point, _ d: Point, _ t: Double) -> Point {
    let u = 1 - t
    let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
    return Point(w0 * a.x + w1 * b.x + w2 * c.x + w3 * d.x, w0 * a.y + w1 * b.y + w2 * c.y + w3 * d.y)
}

private func splitLeft(_ a: Point, _ b: Point, _ c: Point, _ d: Point, _ t: Double) -> (Point, Point, Point, Point) {
    let ab = lerp(a, b, t), bc = lerp(b, c, t), cd = lerp(c, d, t)
    let abc = lerp(ab, bc, t), bcd = lerp(bc, cd, t)
    return (a, ab, abc, lerp(abc, bcd, t))
}

private func splitRight(_ a: Point, _ b: Point, _ c: Point, _ d: Point, _ t: Double) -> (Point, Point, Point, Point) {
    let ab = lerp(a, b, t), bc = lerp(b, c, t), cd = lerp(c, d, t)
    let abc = lerp(ab, bc, t), bcd = lerp(bc, cd, t)
    return (lerp(abc, bcd, t), bcd, cd, d)
}
