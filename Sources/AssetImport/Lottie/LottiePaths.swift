import Geometry
import Animation
import SceneFormat

/// Lottie's path geometry: Bézier shapes (`sh`), rectangles (`rc`), ellipses (`el`) and
/// polystars (`sr`) as CGPaths, drawn from the same start point and in the same direction as
/// lottie-ios draws them (which is what a trim path measures along).
enum LottiePaths {
    /// The circle constant: a quarter circle as one cubic.
    static let kappa = 0.5519150244935105

    /// A Bézier shape value `{"i", "o", "v", "c"}` (keyframes wrap it in an array).
    static func bezier(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> Path {
        var value = v
        if let items = v.array {
            guard let first = items.first else { throw ctx.error(v, "\(what): an empty shape", kind: .wrongType) }
            value = first
        }
        guard value.members != nil else { throw ctx.error(value, "\(what): expected a shape {\"i\", \"o\", \"v\", \"c\"}, found \(value.typeDescription)", kind: .wrongType) }
        func points(_ key: String) throws -> [Point] {
            guard let arr = value[key]?.array else {
                if key == "v" { throw ctx.error(value, "\(what): missing vertices 'v'", kind: .missingKey) }
                return []
            }
            if arr.count > SceneLimits.maxPathElements { throw ctx.error(value, SceneLimits.Message.pathElements(what, arr.count), kind: .limitExceeded) }
            return try arr.map { p in
                let n = try LottieValues.numbers(p, ctx, what: what, atLeast: 2)
                return Point(n[0], n[1])
            }
        }
        let vertices = try points("v"), ins = try points("i"), outs = try points("o")
        let closed = value["c"]?.bool ?? false
        return path(vertices: vertices, in: ins, out: outs, closed: closed)
    }

    static func path(vertices v: [Point], in ins: [Point], out outs: [Point], closed: Bool) -> Path {
        guard let first = v.first else { return Path() }
        func tangent(_ a: [Point], _ i: Int) -> Point { i < a.count ? a[i] : Point(0, 0) }
        var e: [Path.Element] = [.move(first)]
        e.reserveCapacity(v.count + 2)
        for i in 1..<max(v.count, 1) where v.count > 1 {
            let a = v[i - 1], b = v[i]
            let c1 = a + tangent(outs, i - 1), c2 = b + tangent(ins, i)
            e.append(c1 == a && c2 == b ? .line(b) : .cubic(c1, c2, b))
        }
        if closed && v.count > 1 {
            let a = v[v.count - 1], b = first
            let c1 = a + tangent(outs, v.count - 1), c2 = b + tangent(ins, 0)
            // A straight closing segment is the close itself.
            if !(c1 == a && c2 == b) { e.append(.cubic(c1, c2, b)) }
            e.append(.close)
        } else if closed {
            e.append(.close)
        }
        return Path(e)
    }

    /// A rectangle centred on `center`: from the top right corner's end of the top edge,
    /// clockwise (or counter-clockwise for direction 3), with round corners of `roundness`.
    static func rectangle(center c: Point, size s: Size, roundness: Double, reversed: Bool) -> Path {
        let w = abs(s.width) / 2, h = abs(s.height) / 2
        let r = max(min(roundness, w, h), 0)
        let x0 = c.x - w, x1 = c.x + w, y0 = c.y - h, y1 = c.y + h
        var e: [Path.Element] = []
        if r == 0 {
            let pts = reversed ? [Point(x1, y0), Point(x0, y0), Point(x0, y1), Point(x1, y1)]
                               : [Point(x1, y0), Point(x1, y1), Point(x0, y1), Point(x0, y0)]
            e.append(.move(pts[0]))
            for p in pts.dropFirst() { e.append(.line(p)) }
            e.append(.close)
            return Path(e)
        }
        let k = r * (1 - kappa)
        if !reversed {
            e.append(.move(Point(x1, y0 + r)))
            e.append(.line(Point(x1, y1 - r)))
            e.append(.cubic(Point(x1, y1 - k), Point(x1 - k, y1), Point(x1 - r, y1)))
            e.append(.line(Point(x0 + r, y1)))
            e.append(.cubic(Point(x0 + k, y1), Point(x0, y1 - k), Point(x0, y1 - r)))
            e.append(.line(Point(x0, y0 + r)))
            e.append(.cubic(Point(x0, y0 + k), Point(x0 + k, y0), Point(x0 + r, y0)))
            e.append(.line(Point(x1 - r, y0)))
            e.append(.cubic(Point(x1 - k, y0), Point(x1, y0 + k), Point(x1, y0 + r)))
        } else {
            e.append(.move(Point(x1, y0 + r)))
            e.append(.cubic(Point(x1, y0 + k), Point(x1 - k, y0), Point(x1 - r, y0)))
            e.append(.line(Point(x0 + r, y0)))
            e.append(.cubic(Point(x0 + k, y0), Point(x0, y0 + k), Point(x0, y0 + r)))
            e.append(.line(Point(x0, y1 - r)))
            e.append(.cubic(Point(x0, y1 - k), Point(x0 + k, y1), Point(x0 + r, y1)))
            e.append(.line(Point(x1 - r, y1)))
            e.append(.cubic(Point(x1 - k, y1), Point(x1, y1 - k), Point(x1, y1 - r)))
            e.append(.line(Point(x1, y0 + r)))
        }
        e.append(.close)
        return Path(e)
    }

    /// An ellipse centred on `center`, from its top, counter-clockwise on the screen, as lottie-ios
    /// draws it (clockwise for direction 3): where a trim path starts and which way it runs, as
    /// Apple's renders of trimmed circles show.
    static func ellipse(center c: Point, size s: Size, reversed: Bool) -> Path {
        let rx = abs(s.width) / 2, ry = abs(s.height) / 2
        let kx = rx * kappa, ky = ry * kappa
        let top = Point(c.x, c.y - ry), right = Point(c.x + rx, c.y), bottom = Point(c.x, c.y + ry), left = Point(c.x - rx, c.y)
        var e: [Path.Element] = [.move(top)]
        if reversed {
            e.append(.cubic(Point(c.x + kx, top.y), Point(right.x, c.y - ky), right))
            e.append(.cubic(Point(right.x, c.y + ky), Point(c.x + kx, bottom.y), bottom))
            e.append(.cubic(Point(c.x - kx, bottom.y), Point(left.x, c.y + ky), left))
            e.append(.cubic(Point(left.x, c.y - ky), Point(c.x - kx, top.y), top))
        } else {
            e.append(.cubic(Point(c.x - kx, top.y), Point(left.x, c.y - ky), left))
            e.append(.cubic(Point(left.x, c.y + ky), Point(c.x - kx, bottom.y), bottom))
            e.append(.cubic(Point(c.x + kx, bottom.y), Point(right.x, c.y + ky), right))
            e.append(.cubic(Point(right.x, c.y - ky), Point(c.x + kx, top.y), top))
        }
        e.append(.close)
        return Path(e)
    }

    /// A star (`sy` 1) or polygon (`sy` 2) of `points` corners, the first at the top (turned by
    /// `rotation` degrees); corner roundness is not drawn.
    static func polystar(center c: Point, points n: Double, outerRadius ro: Double, innerRadius ri: Double,
                         rotation: Double, star: Bool, reversed: Bool) -> Path {
        let count = max(min(Int(n.rounded(.down)), 1000), 2)
        var angle = (rotation - 90) * .pi / 180
        let step = (star ? .pi : 2 * .pi) / Double(count)
        var pts: [Point] = []
        for i in 0..<(star ? count * 2 : count) {
            let r = star && i % 2 == 1 ? ri : ro
            pts.append(Point(c.x + r * cosine(angle), c.y + r * sine(angle)))
            angle += reversed ? -step : step
        }
        var e: [Path.Element] = [.move(pts[0])]
        for p in pts.dropFirst() { e.append(.line(p)) }
        e.append(.close)
        return Path(e)
    }

    // Kept apart so this file needs no libc import for two functions.
    static func cosine(_ x: Double) -> Double { LottieMath.cos(x) }
    static func sine(_ x: Double) -> Double { LottieMath.sin(x) }
}
