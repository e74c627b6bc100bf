import Geometry
import LayerModel
import Animation
import SceneFormat

/// Lottie gradients as CAGradientLayer: the stops' colours and alpha merged into one list of
/// colours at the union of their offsets (exact, as Core Animation interpolates straight
/// components linearly between stops), start and end points in unit coordinates of the layer's
/// bounds (`frame`, in the shape's coordinates), and a radial gradient's end point one radius away along both axes (Lottie's radial
/// gradients are circles; CAGradientLayer's radii are per axis).
enum LottieGradients {
    static func apply(_ g: LottieGradient, to layer: inout Layer, frame: Rect, clock: LottieClock, ctx: LottieContext, at v: JSONValue) throws {
        layer.gradient.type = g.radial ? .radial : .axial
        if g.highlight { ctx.warn("a radial gradient's highlight is not drawn (the gradient stays centred)", at: v) }
        let stops = g.stops.initial
        let (colors, locations) = merged(stops, count: g.count)
        layer.gradient.colors = colors
        layer.gradient.locations = locations
        if case .animated(let keys) = g.stops {
            // The same number of stops in every keyframe (Bodymovin writes them so), else the first holds.
            let merges = keys.map { merged($0.value, count: g.count) }
            if Set(merges.map(\.1.count)).count == 1 {
                if let a = LottieAnimator.animation(g.stops, keyPath: "colors", clock: clock, { .colorArray(merged($0, count: g.count).0) }, ctx: ctx, at: v) {
                    try ctx.add(a, to: layer, at: v)
                }
                if let a = LottieAnimator.animation(g.stops, keyPath: "locations", clock: clock, { .numberArray(merged($0, count: g.count).1) }, ctx: ctx, at: v) {
                    try ctx.add(a, to: layer, at: v)
                }
            } else {
                ctx.warn("gradient stops that change in number between keyframes keep their first keyframe's stops", at: v)
            }
        }
        func unit(_ p: [Double]) -> Point {
            Point((p[0] - frame.origin.x) / frame.size.width, (p[1] - frame.origin.y) / frame.size.height)
        }
        let points = LottieShapeReader.combine3(g.start, g.end, .constant(0)) { s, e, _ -> [Double] in
            if !g.radial { return [s[0], s[1], e[0], e[1]] }
            let dx = e[0] - s[0], dy = e[1] - s[1]
            let r = (dx * dx + dy * dy).squareRoot()
            return [s[0], s[1], s[0] + r, s[1] + r]
        }
        layer.gradient.startPoint = unit([points.initial[0], points.initial[1]])
        layer.gradient.endPoint = unit([points.initial[2], points.initial[3]])
        if let a = LottieAnimator.animation(points, keyPath: "startPoint", clock: clock, { .point(unit([$0[0], $0[1]])) }, ctx: ctx, at: v) {
            try ctx.add(a, to: layer, at: v)
        }
        if let a = LottieAnimator.animation(points, keyPath: "endPoint", clock: clock, { .point(unit([$0[2], $0[3]])) }, ctx: ctx, at: v) {
            try ctx.add(a, to: layer, at: v)
        }
    }

    /// Colour stops (offset, r, g, b) × count, then alpha stops (offset, alpha): one RGBA colour
    /// per distinct offset, each channel interpolated linearly between its own stops.
    static func merged(_ flat: [Double], count: Int) -> ([Color], [Double]) {
        let n = min(count, flat.count / 4)
        var colorStops: [(Double, [Double])] = []
        for i in 0..<n { colorStops.append((flat[4 * i], [flat[4 * i + 1], flat[4 * i + 2], flat[4 * i + 3]])) }
        var alphaStops: [(Double, [Double])] = []
        var i = 4 * n
        while i + 1 < flat.count { alphaStops.append((flat[i], [flat[i + 1]])); i += 2 }
        if colorStops.isEmpty { return ([.black, .black], [0, 1]) }
        var offsets = (colorStops.map(\.0) + alphaStops.map(\.0)).map { min(max($0, 0), 1) }
        offsets.sort()
        var unique: [Double] = []
        for o in offsets where unique.last.map({ o - $0 > 1e-6 }) ?? true { unique.append(o) }
        // The first k ≥ 1 with x ≤ stops[k].0 is where the running maximum of those offsets first
        // reaches x: a binary search (a scan per offset was quadratic: 30 000 alpha stops took
        // seconds, and a precomposition's gradient is merged again for every layer that shows it).
        func reach(_ stops: [(Double, [Double])]) -> [Double] {
            var r = [-Double.infinity]
            r.reserveCapacity(stops.count)
            for k in stops.indices.dropFirst() { r.append(max(r[k - 1], stops[k].0)) }
            return r
        }
        let colorReach = reach(colorStops), alphaReach = reach(alphaStops)
        func sample(_ stops: [(Double, [Double])], _ reach: [Double], _ x: Double) -> [Double] {
            if x <= stops[0].0 { return stops[0].1 }
            var lo = 1, hi = stops.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if x <= reach[mid] { hi = mid } else { lo = mid + 1 }
            }
            guard lo < stops.count else { return stops[stops.count - 1].1 }
            let a = stops[lo - 1], b = stops[lo]
            let t = b.0 > a.0 ? (x - a.0) / (b.0 - a.0) : 1
            return LottieLerp.vector(a.1, b.1, t)
        }
        let colors = unique.map { x -> Color in
            let c = sample(colorStops, colorReach, x)
            let a = alphaStops.isEmpty ? 1 : sample(alphaStops, alphaReach, x)[0]
            func u(_ v: Double) -> Double { min(max(v, 0), 1) }
            return Color(u(c[0]), u(c[1]), u(c[2]), u(a))
        }
        return (colors, unique)
    }
}
