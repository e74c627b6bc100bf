/// How far a stroke can reach beyond a path's points, for sizing the texture a shape is
/// rasterised into (the plan needs it before anything is drawn).
extension Path {
    /// The bounding box of every point and control point (a convex-hull bound: curves stay
    /// inside their control polygon); nil for a path without points.
    public var controlBounds: Rect? {
        var pts: [Point] = []
        for e in elements {
            switch e {
            case .move(let p), .line(let p): pts.append(p)
            case .quad(let c, let p): pts += [c, p]
            case .cubic(let a, let b, let p): pts += [a, b, p]
            case .close: break
            }
        }
        return pts.isEmpty ? nil : Rect.bounding(pts)
    }

    /// The largest miter ratio 1 / sin(θ/2) over the path's joins (θ the angle between the two
    /// segments at the join), considering only joins whose ratio is at most `limit`: above it a
    /// miter join falls back to a bevel (Core Graphics), which reaches no further than lineWidth/2.
    /// 1 when there is no such join.
    public func largestMiterRatio(limit: Double) -> Double {
        var best = 1.0
        for sub in PathSegments.subpaths(of: self) {
            let segs = sub.segments.filter { $0.length > 0 }
            guard segs.count > 1 || (segs.count == 1 && sub.elements.last == .close) else { continue }
            let closed = sub.elements.last == .close
            let count = closed ? segs.count : segs.count - 1
            for i in 0..<count {
                let a = segs[i], b = segs[(i + 1) % segs.count]
                guard let d1 = a.endTangent, let d2 = b.startTangent else { continue }
                let cosTurn = max(-1, min(1, d1.x * d2.x + d1.y * d2.y))
                let s = ((1 + cosTurn) / 2).squareRoot()      // sin(θ/2) = cos(turn/2)
                guard s > 1e-12 else { continue }
                let ratio = 1 / s
                if ratio <= limit { best = max(best, ratio) }
            }
        }
        return best
    }
}

extension PathSegments.Segment {
    var startTangent: Point? {
        for p in points where p != start { return unit(p - start) }
        return nil
    }
    var endTangent: Point? {
        let end = points[points.count - 1]
        for p in ([start] + points.dropLast()).reversed() where p != end { return unit(end - p) }
        return nil
    }
}

private func unit(_ p: Point) -> Point? {
    let l = (p.x * p.x + p.y * p.y).squareRoot()
    return l > 0 ? Point(p.x / l, p.y / l) : nil
}
