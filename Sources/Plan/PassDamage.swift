/// Offscreen passes whose result differs from the previous frame's only in part: caprof's own
/// saving, like `RetainedPasses` (a device renders every pass whole; the findings count them so).
/// Pure, decided from the two plans and from which of the previous frame's results the backend
/// still holds, so the backend redraws exactly these rectangles of these passes onto their held
/// results and nothing else.
///
/// A pass that is not retained gets rectangles when the backend holds its counterpart's result
/// (`PassCorrespondence`), neither stores into the raster cache, both have the same target size,
/// and its operation is one of:
/// - a draw of as many items as before: each pair of items that draws differently damages the old
///   item's bounds and the new one's, as on the canvas (`FrameDamage`), except a pair that samples
///   a raster-cache bitmap stored again under a new key from the retained bitmap of the old one
///   (the same texels: `RetainedPasses`), which draws the same; a pair that differs only
///   in sampling a pass damaged in part, through a 1:1 whole-texel composite (how a pass's result
///   is drawn back: texel (u, v) lands on pixel (u, v) + the item's whole-pixel translation),
///   damages only those rectangles, moved, within the item's bounds;
/// - a colour matrix over a source damaged in part and of the same size: the same rectangles
///   (each texel reads only its own texel of the source);
/// - one axis of a blur (a shadow's or a filter's) over a source damaged in part: its rectangles,
///   scaled down by the pass's downsampling (rounded out: a texel averages f×f source texels),
///   grown along the axis by the kernel's reach (⌈3σ⌉ for shadows, ⌈3.5σ⌉ for filters, the taps the
///   shaders read);
/// - a blend mode over a source and a destination, each unchanged or damaged in part, all three of
///   one size: the union of theirs.
/// Anything else (a variable blur, a capture, a pass of another size) is redrawn whole. So is a pass whose rectangles, merged into at most `maxRects`, would cover
/// three quarters of it or more (the scissored draws would save little).
///
/// Outside its rectangles each such pass holds what its counterpart held: every texel there is
/// computed from the same items over the same texels of their sources. Inside, the backend clears
/// them and draws the operation scissored to each, exactly as a whole pass computes those texels,
/// so the frame is byte-identical to the same frame rendered alone.
public enum PassDamage {
    /// A pass redrawn in part: its counterpart in the previous plan, whose held result it starts
    /// from, and the rectangles of its target (texels, disjoint) that change.
    public struct Partial: Sendable, Equatable {
        public var counterpart: Int
        public var rects: [PixelRect]
    }

    /// How a pass's result compares with its counterpart's.
    enum Change: Equatable { case none, within([PixelRect]), whole }

    /// The passes of `current` the backend redraws in part (by index), given the previous plan,
    /// the previous passes whose results it holds, and the passes it retains whole
    /// (`RetainedPasses.between`).
    public static func between(_ previous: FramePlan?, _ current: FramePlan, held: Set<Int>, retained: [Int: Int],
                               maxRects: Int = FrameDamage.defaultMaxRects) -> [Int: Partial] {
        guard let previous, !held.isEmpty, previous.pixelWidth == current.pixelWidth,
              previous.pixelHeight == current.pixelHeight else { return [:] }
        let diff = DrawingDiff(previous, current)
        let change = changes(previous, current, diff: diff, held: held, retained: retained, maxRects: maxRects)
        var out: [Int: Partial] = [:]
        for (i, c) in change.enumerated() {
            if case .within(let rects) = c, retained[i] == nil, let j = diff.counterpart[i] { out[i] = Partial(counterpart: j, rects: rects) }
        }
        return out
    }

    /// How each pass of `current` differs from its counterpart in `previous`. With `held` nil, by
    /// content alone (what changed where, whatever the backend holds: `FrameDamage` maps a pass
    /// changed in part through the canvas items that composite it); with `held`, only passes whose
    /// counterparts' results are held can be `.within`, and only when that saves enough.
    static func changes(_ previous: FramePlan, _ current: FramePlan, diff: DrawingDiff, held: Set<Int>?,
                        retained: [Int: Int], maxRects: Int) -> [Change] {
        // Raster-cache keys of this frame whose bitmaps are retained ones of the previous frame's keys.
        var sameBitmap: [UInt64: UInt64] = [:]
        for (i, j) in retained {
            if let k = current.offscreenPasses[i].rasterCacheKey, let old = previous.offscreenPasses[j].rasterCacheKey { sameBitmap[k] = old }
        }
        var change = [Change](repeating: .whole, count: current.offscreenPasses.count)
        for (i, pass) in current.offscreenPasses.enumerated() {
            if retained[i] != nil || !diff.changedPasses.contains(i) { change[i] = .none; continue }
            guard let j = diff.counterpart[i], held.map({ $0.contains(j) }) ?? true else { continue }
            let old = previous.offscreenPasses[j]
            guard old.rasterCacheKey == nil, pass.rasterCacheKey == nil, old.width == pass.width, old.height == pass.height,
                  let rects = damage(old, pass, diff: diff, change: change, sameBitmap: sameBitmap, in: current),
                  !rects.isEmpty else { continue }
            let merged = DamageRegion.merge(rects, maxRects: maxRects)
            if held != nil, merged.reduce(0, { $0 + $1.area }) * 4 >= pass.width * pass.height * 3 { continue }
            change[i] = .within(merged)
        }
        return change
    }

    /// The rectangles of `pass` (of the current plan) that differ from `old` (its counterpart), or
    /// nil when the pass must be drawn whole.
    private static func damage(_ old: OffscreenPass, _ pass: OffscreenPass, diff: DrawingDiff, change: [Change],
                               sameBitmap: [UInt64: UInt64], in current: FramePlan) -> [PixelRect]? {
        let w = pass.width, h = pass.height
        func sameSize(_ k: Int) -> Bool {
            current.offscreenPasses.indices.contains(k) && current.offscreenPasses[k].width == w && current.offscreenPasses[k].height == h
        }
        switch (old.operation, pass.operation) {
        case (.draw(let a), .draw(let b)):
            guard a.count == b.count else { return nil }
            var rects: [PixelRect] = []
            for (x, y) in zip(a, b) where !diff.same(x, y) && !sameRetainedBitmap(x, y, sameBitmap) {
                if let moved = composited(x, y, diff: diff, change: change, width: w, height: h) {
                    rects += moved
                } else {
                    if let r = DamageBounds.of(x, width: w, height: h) { rects.append(r) }
                    if let r = DamageBounds.of(y, width: w, height: h) { rects.append(r) }
                }
            }
            return rects
        case (.filter(let x), .filter(let y)):
            guard x.kind == y.kind, diff.counterpart.indices.contains(y.source), diff.counterpart[y.source] == x.source,
                  case .within(let rects) = change[y.source] else { return nil }
            switch y.kind {
            case .colorMatrix:
                return sameSize(y.source) ? rects : nil
            case .blur(let sigma, let horizontal, let f, _):
                let reach = FilterOperation.reach(sigma: sigma)
                return blurred(rects, reach: reach, horizontal: horizontal, downsample: f, of: current.offscreenPasses[y.source], into: pass)
            case .variableBlur:
                return nil
            }
        case (.blur(let s1, let sigma1, let h1, let t1, let f1), .blur(let s2, let sigma2, let h2, let t2, let f2)):
            guard sigma1 == sigma2, h1 == h2, t1 == t2, f1 == f2, diff.counterpart.indices.contains(s2), diff.counterpart[s2] == s1,
                  case .within(let rects) = change[s2] else { return nil }
            let reach = Int(min((3 * max(sigma2, 0)).rounded(.up), 4096))
            return blurred(rects, reach: reach, horizontal: h2, downsample: f2, of: current.offscreenPasses[s2], into: pass)
        case (.blend(let s1, let d1, let f1), .blend(let s2, let d2, let f2)):
            guard f1 == f2 else { return nil }
            var rects: [PixelRect] = []
            for (o, n) in [(s1, s2), (d1, d2)] {
                guard diff.counterpart.indices.contains(n), diff.counterpart[n] == o, sameSize(n) else { return nil }
                switch change[n] {
                case .none: break
                case .within(let r): rects += r
                case .whole: return nil
                }
            }
            return rects
        default:
            return nil
        }
    }

    /// Where one axis of a blur of `source` into `pass` changes when `source` changed within `rects`:
    /// scaled down by `downsample` f (a texel averages the f×f source texels under it) and grown
    /// along the axis by `reach` taps, within the target. Nil when the target is not the source's
    /// size ÷ f.
    static func blurred(_ rects: [PixelRect], reach: Int, horizontal: Bool, downsample: Int,
                        of source: OffscreenPass, into pass: OffscreenPass) -> [PixelRect]? {
        let f = max(downsample, 1)
        guard pass.width == (source.width + f - 1) / f, pass.height == (source.height + f - 1) / f else { return nil }
        return rects.compactMap { r in
            var x0 = r.x / f, y0 = r.y / f
            var x1 = (r.x + r.width + f - 1) / f, y1 = (r.y + r.height + f - 1) / f
            if horizontal { x0 -= reach; x1 += reach } else { y0 -= reach; y1 += reach }
            return DamageRegion.clip(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), width: pass.width, height: pass.height)
        }
    }

    /// Whether `x` (of the previous plan) and `y` (of the current) draw a raster-cache bitmap whose
    /// texels are the same (`y`'s key stored from the retained bitmap of `x`'s) the same way.
    private static func sameRetainedBitmap(_ x: DrawItem, _ y: DrawItem, _ sameBitmap: [UInt64: UInt64]) -> Bool {
        guard case .offscreen(.rasterCache(let k1), let s1, let o1) = x.paint, case .offscreen(.rasterCache(let k2), let s2, let o2) = y.paint,
              s1 == s2, o1 == o2, sameBitmap[k2] == k1 else { return false }
        var a = x, b = y
        a.paint = .solid(.clear); b.paint = .solid(.clear)
        return a == b
    }

    /// Where `y` (of the current plan) draws differently from `x` (of the previous) when the two
    /// differ only in the pass they composite and that pass changed within rectangles, or nil.
    /// A 1:1 whole-texel composite (texel (u, v) on pixel (u, v) + a whole-pixel offset: how a
    /// pass's result is drawn back) changes exactly those rectangles, moved. An axis-aligned
    /// bilinear composite (a shadow drawn back magnified from its reduced resolution, a result at a
    /// fractional offset) changes the pixels whose samples can reach a changed texel: the
    /// rectangles mapped through its texel-to-pixel scale and offset, grown by a texel's footprint
    /// and a pixel for rounding. Either way within the item's bounds.
    static func composited(_ x: DrawItem, _ y: DrawItem, diff: DrawingDiff, change: [Change],
                           width: Int, height: Int) -> [PixelRect]? {
        guard case .offscreen(.pass(let j), let s1, let o1) = x.paint, case .offscreen(.pass(let i), let s2, let o2) = y.paint,
              s1 == s2, s2 == .texelFetch || s2 == .linear, o1 == o2, diff.counterpart.indices.contains(i),
              diff.counterpart[i] == j, case .within(let rects) = change[i] else { return nil }
        var a = x, b = y
        a.paint = .solid(.clear); b.paint = .solid(.clear)
        let t = y.transform
        guard a == b, t.m12 == 0, t.m21 == 0, t.m13 == 0, t.m23 == 0, t.m14 == 0, t.m24 == 0, t.m34 == 0, t.m44 == 1,
              t.m11 > 0, t.m22 > 0, abs(t.m41) < 1e9, abs(t.m42) < 1e9, y.uv.width > 0, y.uv.height > 0,
              let bounds = DamageBounds.of(y, width: width, height: height) else { return nil }
        func clipped(_ r: PixelRect) -> PixelRect? { DamageRegion.intersection(r, bounds) }
        if s2 == .texelFetch, y.quad == y.uv, t.m11 == 1, t.m22 == 1, t.m41 == t.m41.rounded(), t.m42 == t.m42.rounded() {
            let dx = Int(t.m41), dy = Int(t.m42)
            return rects.compactMap { clipped(PixelRect(x: $0.x + dx, y: $0.y + dy, width: $0.width, height: $0.height)) }
        }
        guard s2 == .linear else { return nil }
        // Texel u lands on pixel x = ((u − uv.x) · kx + quad.x) · m11 + m41; a bilinear sample
        // reads the texels within one of its position, so a texel reaches one texel's width
        // around it, and the pixel grid a pixel more.
        let kx = y.quad.width / y.uv.width * t.m11, ky = y.quad.height / y.uv.height * t.m22
        guard kx.isFinite, ky.isFinite, kx > 0, ky > 0 else { return nil }
        func px(_ u: Double) -> Double { (u - y.uv.minX) * kx + y.quad.minX * t.m11 + t.m41 }
        func py(_ v: Double) -> Double { (v - y.uv.minY) * ky + y.quad.minY * t.m22 + t.m42 }
        return rects.compactMap { r in
            let x0 = px(Double(r.x - 1)).rounded(.down) - 1, x1 = px(Double(r.x + r.width + 1)).rounded(.up) + 1
            let y0 = py(Double(r.y - 1)).rounded(.down) - 1, y1 = py(Double(r.y + r.height + 1)).rounded(.up) + 1
            guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite, abs(x0) < 1e9, abs(y0) < 1e9, abs(x1) < 1e9, abs(y1) < 1e9 else {
                return bounds
            }
            return clipped(PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0)))
        }
    }
}
