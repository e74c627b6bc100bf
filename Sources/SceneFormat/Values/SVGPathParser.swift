import Geometry

/// Parses SVG path data (SVG 1.1 §8.3: `M L H V C S Q T A Z`, absolute and relative, implicit
/// command repetition, compact number syntax) into a CGPath-like `Path`. Arcs become cubic Béziers
/// (at most 90° each), since CGPath has no elliptical arc element.
struct SVGPathParser {
    private var sc: GrammarScanner
    private var elements: [Path.Element] = []
    private var current = Point.zero
    private var subpathStart = Point.zero
    /// The second control point of the previous C/S (for S) or the control point of the previous Q/T (for T).
    private var lastCubicControl: Point?
    private var lastQuadControl: Point?
    private var closedSinceMove = false
    private let maxElements: Int

    static func parse(_ s: String, maxElements: Int) throws -> Path {
        var p = SVGPathParser(sc: GrammarScanner(s), maxElements: maxElements)
        try p.run()
        return Path(p.elements)
    }

    private init(sc: GrammarScanner, maxElements: Int) { self.sc = sc; self.maxElements = maxElements }

    private static let commands: Set<Unicode.Scalar> = ["M", "m", "L", "l", "H", "h", "V", "v", "C", "c", "S", "s",
                                                         "Q", "q", "T", "t", "A", "a", "Z", "z"]

    private mutating func run() throws {
        sc.skipWhitespace()
        if sc.atEnd { return }
        guard sc.current == "M" || sc.current == "m" else {
            throw GrammarError(sc.i, "path data must start with a moveto (M or m), found \(sc.describeCurrent)")
        }
        var command: Unicode.Scalar = "M"
        while true {
            sc.skipWhitespace()
            if sc.atEnd { return }
            let at = sc.i
            let before = elements.count
            if let c = sc.current, Self.commands.contains(c) {
                command = c
                sc.i += 1
                try execute(command, at: at, first: true)
            } else if sc.atNumber, command != "Z", command != "z" {
                // Implicit repetition; extra pairs after a moveto are linetos.
                if command == "M" { command = "L" } else if command == "m" { command = "l" }
                try execute(command, at: at, first: false)
            } else {
                throw GrammarError(sc.i, "expected a path command (M L H V C S Q T A Z) or a number, found \(sc.describeCurrent)")
            }
            // Relative coordinates add up: 1e308 twice is infinite, which no renderer can use.
            if !elements[before...].allSatisfy({ Self.isFinite($0) }) {
                throw GrammarError(at, "the path's coordinates overflow to infinity here (relative steps add up beyond ±1.8e308)")
            }
            if elements.count > maxElements {
                throw GrammarError(at, "the path has more than \(maxElements) elements")
            }
        }
    }

    static func isFinite(_ e: Path.Element?) -> Bool {
        func ok(_ p: Point) -> Bool { p.x.isFinite && p.y.isFinite }
        switch e {
        case .move(let p)?, .line(let p)?: return ok(p)
        case .quad(let a, let b)?: return ok(a) && ok(b)
        case .cubic(let a, let b, let c)?: return ok(a) && ok(b) && ok(c)
        case .close?, nil: return true
        }
    }

    private mutating func num() throws -> Double {
        sc.skipSeparator()
        return try sc.number(what: "a number")
    }
    private mutating func pair(relative: Bool) throws -> Point {
        let x = try num(), y = try num()
        return relative ? Point(current.x + x, current.y + y) : Point(x, y)
    }
    private mutating func flag() throws -> Bool {
        sc.skipSeparator()
        switch sc.current {
        case "0": sc.i += 1; return false
        case "1": sc.i += 1; return true
        default: throw GrammarError(sc.i, "expected an arc flag (0 or 1), found \(sc.describeCurrent)")
        }
    }

    /// SVG: a command after closepath starts a new subpath at the same start point.
    private mutating func reopenIfClosed() {
        if closedSinceMove { elements.append(.move(subpathStart)); closedSinceMove = false }
    }

    private mutating func execute(_ c: Unicode.Scalar, at: Int, first: Bool) throws {
        let rel = c.properties.isLowercase
        var cubicControl: Point?
        var quadControl: Point?
        switch c {
        case "M", "m":
            let p = try pair(relative: rel)
            elements.append(.move(p))
            current = p; subpathStart = p; closedSinceMove = false
        case "L", "l":
            let p = try pair(relative: rel)
            reopenIfClosed(); elements.append(.line(p)); current = p
        case "H", "h":
            let x = try num()
            let p = Point(rel ? current.x + x : x, current.y)
            reopenIfClosed(); elements.append(.line(p)); current = p
        case "V", "v":
            let y = try num()
            let p = Point(current.x, rel ? current.y + y : y)
            reopenIfClosed(); elements.append(.line(p)); current = p
        case "C", "c":
            let c1 = try pair(relative: rel), c2 = try pair(relative: rel), p = try pair(relative: rel)
            reopenIfClosed(); elements.append(.cubic(c1, c2, p)); current = p; cubicControl = c2
        case "S", "s":
            let c1 = lastCubicControl.map { Point(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
            let c2 = try pair(relative: rel), p = try pair(relative: rel)
            reopenIfClosed(); elements.append(.cubic(c1, c2, p)); current = p; cubicControl = c2
        case "Q", "q":
            let q = try pair(relative: rel), p = try pair(relative: rel)
            reopenIfClosed(); elements.append(.quad(q, p)); current = p; quadControl = q
        case "T", "t":
            let q = lastQuadControl.map { Point(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
            let p = try pair(relative: rel)
            reopenIfClosed(); elements.append(.quad(q, p)); current = p; quadControl = q
        case "A", "a":
            let rx = try num(), ry = try num(), rotation = try num()
            let large = try flag(), sweep = try flag()
            let p = try pair(relative: rel)
            reopenIfClosed()
            elements.append(contentsOf: Self.arc(from: current, to: p, rx: rx, ry: ry, degrees: rotation, large: large, sweep: sweep))
            current = p
        default:  // Z, z
            elements.append(.close)
            current = subpathStart; closedSinceMove = true
        }
        lastCubicControl = cubicControl
        lastQuadControl = quadControl
    }

    /// SVG 1.1 appendix F.6: endpoint to center parameterisation, out-of-range radii scaled up,
    /// then cubic approximations of at most 90° (control distance 4/3·tan(θ/4)).
    static func arc(from p0: Point, to p1: Point, rx: Double, ry: Double, degrees: Double,
                    large: Bool, sweep: Bool) -> [Path.Element] {
        if p0 == p1 { return [] }
        var rx = abs(rx), ry = abs(ry)
        if rx == 0 || ry == 0 { return [.line(p1)] }
        let phi = degrees * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1p = cosPhi * dx + sinPhi * dy
        let y1p = -sinPhi * dx + cosPhi * dy
        let lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
        if lambda > 1 { let s = lambda.squareRoot(); rx *= s; ry *= s }
        let num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
        let den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
        var coef = den == 0 ? 0 : (max(0, num) / den).squareRoot()
        if large == sweep { coef = -coef }
        let cxp = coef * rx * y1p / ry
        let cyp = -coef * ry * x1p / rx
        let cx = cosPhi * cxp - sinPhi * cyp + (p0.x + p1.x) / 2
        let cy = sinPhi * cxp + cosPhi * cyp + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let ux = (x1p - cxp) / rx, uy = (y1p - cyp) / ry
        let vx = (-x1p - cxp) / rx, vy = (-y1p - cyp) / ry
        let theta1 = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, vx, vy)
        if !sweep && delta > 0 { delta -= 2 * .pi }
        if sweep && delta < 0 { delta += 2 * .pi }
        guard delta.isFinite, theta1.isFinite else { return [.line(p1)] }
        let segments = max(1, Int((abs(delta) / (.pi / 2)).rounded(.up)))
        let step = delta / Double(segments)
        let k = 4.0 / 3.0 * tan(step / 4)
        func onEllipse(_ t: Double) -> Point {
            let x = rx * cos(t), y = ry * sin(t)
            return Point(cx + cosPhi * x - sinPhi * y, cy + sinPhi * x + cosPhi * y)
        }
        func derivative(_ t: Double) -> Point {
            let x = -rx * sin(t), y = ry * cos(t)
            return Point(cosPhi * x - sinPhi * y, sinPhi * x + cosPhi * y)
        }
        var out: [Path.Element] = []
        var t = theta1
        for s in 0..<segments {
            let t2 = t + step
            let a = onEllipse(t), b = s == segments - 1 ? p1 : onEllipse(t2)
            let da = derivative(t), db = derivative(t2)
            out.append(.cubic(Point(a.x + k * da.x, a.y + k * da.y), Point(b.x - k * db.x, b.y - k * db.y), b))
            t = t2
        }
        return out
    }
}
