import Geometry
import LayerModel
import Animation
import SceneFormat

/// The items of a shape layer (`shapes`) or group (`it`), read into a tree before layers are
/// made: Lottie's styles apply to the paths listed *before* them, in their group and the groups
/// nested in it, which is only known once the whole list is read.
indirect enum LottieShapeItem {
    case path(LottieProperty<Path>, JSONValue)
    case group(name: String?, items: [LottieShapeItem], transform: LottieTransform, JSONValue)
    case style(LottieStyle)
    case trim(LottieTrim)
    /// Read and reported, not drawn (what lottie-ios's Core Animation engine does not draw either).
    case ignored

    var json: JSONValue? {
        switch self {
        case .path(_, let v), .group(_, _, _, let v): return v
        case .style(let s): return s.json
        case .trim(let t): return t.json
        case .ignored: return nil
        }
    }
}

/// A fill, stroke, gradient fill or gradient stroke.
struct LottieStyle {
    enum Paint {
        case color(LottieProperty<Color>)
        case gradient(LottieGradient)
    }
    var name: String?
    var paint: Paint
    var opacity: LottieProperty<Double>
    /// nil for fills.
    var stroke: LottieStroke?
    var fillRule: FillRule = .nonZero
    var json: JSONValue
}

struct LottieStroke {
    var width: LottieProperty<Double>
    var cap: LineCap = .butt
    var join: LineJoin = .miter
    var miterLimit: Double = 4
    var dashes: [Double]?
    var dashPhase: Double = 0
}

struct LottieTrim {
    var start: LottieProperty<Double>
    var end: LottieProperty<Double>
    var offset: LottieProperty<Double>
    var json: JSONValue
}

/// A gradient's geometry and stops (`gf`, `gs`).
struct LottieGradient {
    var radial: Bool
    var start: LottieProperty<[Double]>
    var end: LottieProperty<[Double]>
    /// Flat stops: `count` colour stops (offset, r, g, b), then alpha stops (offset, a).
    var stops: LottieProperty<[Double]>
    var count: Int
    var highlight: Bool
}

enum LottieShapeReader {
    static func items(_ list: JSONValue?, _ ctx: LottieContext, depth: Int) throws -> [LottieShapeItem] {
        guard let list else { return [] }
        guard let array = list.array else { throw ctx.error(list, "expected an array of shape items, found \(list.typeDescription)", kind: .wrongType) }
        if depth > 64 { throw ctx.error(list, "shape groups nested more than 64 deep", kind: .limitExceeded) }
        var out: [LottieShapeItem] = []
        for item in array { out.append(try self.item(item, ctx, depth: depth)) }
        return out
    }

    static func item(_ v: JSONValue, _ ctx: LottieContext, depth: Int) throws -> LottieShapeItem {
        guard v.members != nil else { throw ctx.error(v, "a shape item must be an object with a type 'ty', found \(v.typeDescription)", kind: .wrongType) }
        if v["hd"]?.bool == true { return .ignored }   // hidden in After Effects: not drawn
        guard let ty = v["ty"]?.string else { throw ctx.error(v, "a shape item needs its type 'ty' (gr, sh, rc, el, sr, fl, st, gf, gs, tm, tr, …)", kind: .missingKey) }
        let name = v["nm"]?.string
        let what = "shape '\(name ?? ty)'"
        switch ty {
        case "gr":
            let children = try items(v["it"], ctx, depth: depth + 1)
            var transform = LottieTransform()
            if let tr = v["it"]?.array?.last(where: { $0["ty"]?.string == "tr" }) {
                transform = try LottieTransform.read(tr, ctx, what: "\(what) transform")
            }
            return .group(name: name, items: children, transform: transform, v)
        case "tr":
            return .ignored   // read with its group
        case "sh":
            guard let ks = v["ks"] else { throw ctx.error(v, "\(what): missing its path 'ks'", kind: .missingKey) }
            let p = try LottieProperty.read(ks, ctx, what: what, parse: { try LottiePaths.bezier($0, ctx, what: what) })
            return .path(try ctx.counted(p, at: v), v)
        case "rc":
            return .path(try ctx.counted(rectangle(v, ctx, what: what), at: v), v)
        case "el":
            return .path(try ctx.counted(ellipse(v, ctx, what: what), at: v), v)
        case "sr":
            return .path(try ctx.counted(polystar(v, ctx, what: what), at: v), v)
        case "fl", "st", "gf", "gs":
            return .style(try style(v, ty, ctx, what: what))
        case "tm":
            if let m = v["m"]?.number, m == 2 {
                // Core Animation trims a shape layer's whole path; "individually" trims its subpaths one after another, as that does.
            }
            return .trim(LottieTrim(start: try v["s"].map { try LottieValues.scalar($0, ctx, what: "\(what) start") } ?? .constant(0),
                                    end: try v["e"].map { try LottieValues.scalar($0, ctx, what: "\(what) end") } ?? .constant(100),
                                    offset: try v["o"].map { try LottieValues.scalar($0, ctx, what: "\(what) offset") } ?? .constant(0),
                                    json: v))
        case "mm":
            ctx.warn("\(what): merge paths are not supported by lottie-ios's Core Animation engine; the device draws the paths unmerged", at: v)
            return .ignored
        case "rd":
            ctx.warn("\(what): rounded corners are not drawn (the paths keep their sharp corners)", at: v)
            return .ignored
        case "rp":
            ctx.warn("\(what): a repeater is not drawn yet (the original copy only)", at: v)
            return .ignored
        default:
            ctx.warn("\(what): shape item type '\(ty)' is not drawn", at: v)
            return .ignored
        }
    }

    static func direction(_ v: JSONValue) -> Bool { v["d"]?.number == 3 }

    static func rectangle(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> LottieProperty<Path> {
        let p = try v["p"].map { try LottieValues.vector($0, ctx, what: "\(what) position") } ?? .constant([0, 0])
        let s = try v["s"].map { try LottieValues.vector($0, ctx, what: "\(what) size") } ?? .constant([0, 0])
        let r = try v["r"].map { try LottieValues.scalar($0, ctx, what: "\(what) roundness") } ?? .constant(0)
        let reversed = direction(v)
        return combine3(p, s, r) { p, s, r in
            LottiePaths.rectangle(center: Point(p[0], p[1]), size: Size(s[0], s[1]), roundness: r, reversed: reversed)
        }
    }

    static func ellipse(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> LottieProperty<Path> {
        let p = try v["p"].map { try LottieValues.vector($0, ctx, what: "\(what) position") } ?? .constant([0, 0])
        let s = try v["s"].map { try LottieValues.vector($0, ctx, what: "\(what) size") } ?? .constant([0, 0])
        let reversed = direction(v)
        return combine3(p, s, LottieProperty<Double>.constant(0)) { p, s, _ in
            LottiePaths.ellipse(center: Point(p[0], p[1]), size: Size(s[0], s[1]), reversed: reversed)
        }
    }

    static func polystar(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> LottieProperty<Path> {
        let p = try v["p"].map { try LottieValues.vector($0, ctx, what: "\(what) position") } ?? .constant([0, 0])
        let n = try v["pt"].map { try LottieValues.scalar($0, ctx, what: "\(what) points") } ?? .constant(5)
        let or = try v["or"].map { try LottieValues.scalar($0, ctx, what: "\(what) outer radius") } ?? .constant(0)
        let ir = try v["ir"].map { try LottieValues.scalar($0, ctx, what: "\(what) inner radius") } ?? .constant(0)
        let r = try v["r"].map { try LottieValues.scalar($0, ctx, what: "\(what) rotation") } ?? .constant(0)
        let star = v["sy"]?.number != 2, reversed = direction(v)
        if (v["is"]?["k"]?.number ?? 0) != 0 || (v["os"]?["k"]?.number ?? 0) != 0 {
            ctx.warn("\(what): a polystar's roundness is not drawn (its corners stay sharp)", at: v)
        }
        // Points, radii and rotation combined with position: rarely more than one is animated.
        let radii = combine3(or, ir, r) { a, b, c -> [Double] in [a, b, c] }
        let geometry = combine3(n, radii, LottieProperty<Double>.constant(0)) { a, b, _ -> [Double] in [a] + b }
        return combine3(p, geometry, LottieProperty<Double>.constant(0)) { p, g, _ in
            LottiePaths.polystar(center: Point(p[0], p[1]), points: g[0], outerRadius: g[1], innerRadius: g[2],
                                 rotation: g[3], star: star, reversed: reversed)
        }
    }

    /// One value from three properties. With at most one of them animated, its keyframes (and
    /// easing) are kept; otherwise keyframes at the union of their frames, linear between.
    static func combine3<A, B, C, T>(_ a: LottieProperty<A>, _ b: LottieProperty<B>, _ c: LottieProperty<C>,
                                     _ f: @escaping (A, B, C) -> T) -> LottieProperty<T> {
        let animated = [a.isAnimated, b.isAnimated, c.isAnimated].filter { $0 }.count
        if animated == 0 { return .constant(f(a.initial, b.initial, c.initial)) }
        if animated == 1 {
            if a.isAnimated { return a.map { f($0, b.initial, c.initial) } }
            if b.isAnimated { return b.map { f(a.initial, $0, c.initial) } }
            return c.map { f(a.initial, b.initial, $0) }
        }
        let frames = LottieProperty<A>.unionFrames([a.frames, b.frames, c.frames])
        let source = [a.firstSource, b.firstSource, c.firstSource].compactMap { $0 }[0]
        let keys = frames.map { fr in
            LottieKeyframe(frame: fr, value: f(a.value(at: fr, Self.lerpAny), b.value(at: fr, Self.lerpAny), c.value(at: fr, Self.lerpAny)),
                           hold: false, outEase: nil, inEase: nil, spatialOut: nil, spatialIn: nil, source: source)
        }
        return .animated(keys)
    }

    /// Interpolates the values combined above: numbers and number arrays; anything else holds.
    static func lerpAny<V>(_ a: V, _ b: V, _ t: Double) -> V {
        if let x = a as? Double, let y = b as? Double { return (x + (y - x) * t) as! V }
        if let x = a as? [Double], let y = b as? [Double] { return LottieLerp.vector(x, y, t) as! V }
        if let x = a as? Color, let y = b as? Color {
            return Color(x.red + (y.red - x.red) * t, x.green + (y.green - x.green) * t,
                         x.blue + (y.blue - x.blue) * t, x.alpha + (y.alpha - x.alpha) * t) as! V
        }
        if let x = a as? Path, let y = b as? Path, let p = LottieLerp.path(x, y, t) { return p as! V }
        return t < 1 ? a : b
    }

    static func style(_ v: JSONValue, _ ty: String, _ ctx: LottieContext, what: String) throws -> LottieStyle {
        let opacity = try v["o"].map { try LottieValues.scalar($0, ctx, what: "\(what) opacity") } ?? .constant(100)
        let paint: LottieStyle.Paint
        if ty == "fl" || ty == "st" {
            paint = .color(try v["c"].map { try LottieValues.color($0, ctx, what: "\(what) colour") } ?? .constant(.black))
        } else {
            paint = .gradient(try gradient(v, ctx, what: what))
        }
        var style = LottieStyle(name: v["nm"]?.string, paint: paint, opacity: opacity, stroke: nil, json: v)
        if ty == "st" || ty == "gs" {
            var stroke = LottieStroke(width: try v["w"].map { try LottieValues.scalar($0, ctx, what: "\(what) width") } ?? .constant(1))
            switch v["lc"]?.number { case 2: stroke.cap = .round; case 3: stroke.cap = .square; default: stroke.cap = .butt }
            switch v["lj"]?.number { case 2: stroke.join = .round; case 3: stroke.join = .bevel; default: stroke.join = .miter }
            if let ml = v["ml"]?.number, ml.isFinite, ml > 0 { stroke.miterLimit = min(ml, 1000) }
            if let d = v["d"]?.array, !d.isEmpty {
                var pattern: [Double] = []
                var animated = false
                for entry in d {
                    guard let prop = entry["v"] else { continue }
                    let value = try LottieValues.scalar(prop, ctx, what: "\(what) dash")
                    if value.isAnimated { animated = true }
                    if entry["n"]?.string == "o" { stroke.dashPhase = value.initial } else { pattern.append(max(value.initial, 0)) }
                }
                if animated { ctx.warn("\(what): animated dashes keep their first keyframe's lengths", at: v) }
                if !pattern.isEmpty && pattern.contains(where: { $0 > 0 }) {
                    if pattern.count % 2 == 1 { pattern += pattern }
                    stroke.dashes = pattern
                }
            }
            style.stroke = stroke
        } else {
            style.fillRule = v["r"]?.number == 2 ? .evenOdd : .nonZero
        }
        return style
    }

    static func gradient(_ v: JSONValue, _ ctx: LottieContext, what: String) throws -> LottieGradient {
        guard let g = v["g"], g.members != nil, let k = g["k"] else {
            throw ctx.error(v, "\(what): a gradient needs its stops 'g' {\"p\", \"k\"}", kind: .missingKey)
        }
        let count = Int(min(max(g["p"]?.number ?? 0, 0), 1000))
        let stops = try LottieProperty.read(k, ctx, what: "\(what) stops", parse: { v in
            guard let items = v.array, items.count <= 64_000 else { throw ctx.error(v, "\(what): gradient stops must be an array of numbers", kind: .wrongType) }
            try ctx.countGradientStops(items.count, at: v)
            return try items.map { try LottieValues.number($0, ctx, what: "\(what) stop") }
        })
        let highlight = (v["h"]?["k"]?.number ?? 0) != 0
        return LottieGradient(radial: v["t"]?.number == 2,
                              start: try v["s"].map { try LottieValues.vector($0, ctx, what: "\(what) start") } ?? .constant([0, 0]),
                              end: try v["e"].map { try LottieValues.vector($0, ctx, what: "\(what) end") } ?? .constant([0, 0]),
                              stops: stops, count: count, highlight: highlight)
    }
}

extension LottieProperty {
    var firstSource: JSONValue? {
        if case .animated(let k) = self { return k.first?.source }
        return nil
    }
}
