import Geometry

/// **Culling by order** (one of `StackCulling`'s two ways, taken where the estimate says it saves
/// more than counting veils): translucent layers above a veil's piece help it cull, but only in the
/// right order. A blend of alpha A keeps at most ⌈e · (255 − A) / 255⌉ of a difference e, so a
/// layer that is not a veil there (a *sheer*: its paint has at least some alpha everywhere on its
/// quad) shrinks a large difference, but one of alpha < 128 never brings 2 down to 1: sheers on
/// top of the veils leave 2 levels, sheers between them help. A count in the stencil cannot tell
/// which; so here each marked veil (the top 8) sets its own stencil bit where its pieces cover
/// (REPLACE, write mask its bit: the top veil the highest), and the stencil holds which veils above
/// a pixel are opaque there. The plan knows the rest: the order, and which layers above cover each
/// piece whole as sheers (their quads hold its corners, or are its own under the same transform).
///
/// For a piece, `left(…)` is the largest difference that reaches the top from 255 beneath it when
/// the veils of a bit pattern cover the pixel with their pieces (each of the others counted as a
/// sheer where it covers the piece, else as nothing). Its test (`test(…)`) reads the bits of the
/// veils above it but the top `dropped` (the veil's choice, by the estimate), and passes where the
/// masked stencil is at least the reference: the next pattern of the mask after the largest that
/// leaves more than one level. Every pattern past it leaves at most one: its masked bits do, and
/// an opaque piece where a sheer or nothing was counted only shrinks a difference further. A piece
/// that can never cull compares its own bit, still clear there (pieces of a veil do not overlap).
/// The first piece from the top to pass writes its rank (depth test GREATER), as with counting.
extension StackCulling {
    /// At most this many veils are marked by order: one stencil bit each.
    static let orderBits = 8
    /// The layers above a piece its test looks at (nearest first); those past it count as nothing.
    static let orderReach = 64

    /// One layer above a piece, as its test sees it: a marked veil (its bit and its pieces'
    /// alpha byte) or not, and the alpha it has over the piece as a sheer (nil: not counted).
    struct OrderLayer: Hashable {
        var bit: Int?
        var strong: Int
        var sheer: Int?
    }

    /// ⌈e · (255 − A) / 255⌉.
    static func keep(_ e: Int, alpha: Int) -> Int { ((255 - min(max(alpha, 0), 255)) * e + 254) / 255 }

    /// The difference left at the top from 255 beneath a piece of alpha byte `alpha`, with the
    /// layers above it (bottom to top) where the marked veils in `pattern` cover the pixel with
    /// their pieces.
    static func left(alpha: Int, _ above: [OrderLayer], pattern: Int) -> Int {
        var e = keep(255, alpha: alpha)
        for l in above {
            if let b = l.bit, pattern & (1 << b) != 0 { e = keep(e, alpha: l.strong) }
            else if let w = l.sheer { e = keep(e, alpha: w) }
        }
        return e
    }

    /// The piece's test reading the bits in `bitsAbove` (top veil first) but the first `dropped`:
    /// (compare mask, least masked pattern that culls), every masked pattern from it up leaving at
    /// most one level; nil when none does.
    static func test(alpha: Int, _ above: [OrderLayer], bitsAbove: [Int], dropped: Int) -> (mask: Int, reference: Int)? {
        let mask = bitsAbove.dropFirst(dropped).reduce(0) { $0 | (1 << $1) }
        var worst = -1
        var sub = mask
        while true {   // every pattern of the mask, largest first
            if left(alpha: alpha, above, pattern: sub) > 1 { worst = sub; break }
            if sub == 0 { break }
            sub = (sub - 1) & mask
        }
        if worst == -1 { return (mask, 0) }
        if worst == mask { return nil }
        return (mask, ((worst | ~mask) + 1) & mask)   // the next pattern of the mask after `worst`
    }

    /// The alpha byte the item's paint has at least everywhere on its quad: a solid's alpha, an
    /// image's least alpha (`PlannedImage.minimumAlpha`) times its opacity (a bilinear tap at level
    /// 0 never reads below its least texel); nil when 0 or not a sheer's form.
    static func sheer(_ item: DrawItem, _ images: [PlannedImage]) -> Int? {
        guard eligible(item) else { return nil }
        let a: Double
        switch item.paint {
        case .solid(let c): a = Double(c.a)
        case .image(let index, let sampling, let opacity):
            guard sampling != .trilinear, images.indices.contains(index) else { return nil }
            let least = images[index].isOpaque ? 255 : Int(images[index].minimumAlpha)
            a = Double(opacity) * Double(item.tint.a) * Double(least) / 255
        case .offscreen, .blurredShape: return nil
        }
        guard a.isFinite else { return nil }
        let byte = Int((min(max(a, 0), 1) * 255 + 1e-3).rounded(.down))
        return byte > 0 ? byte : nil
    }

    /// Whether every point lies inside the convex quad `q` (corners in order, either winding) by
    /// at least 1/16 pixel (far beyond the rasteriser's 1/256-pixel snapping); false for a
    /// degenerate quad or anything not finite.
    static func inside(_ points: [Point], _ q: [Point]) -> Bool {
        let area = (0..<4).reduce(0.0) { a, i in a + q[i].x * q[(i + 1) % 4].y - q[(i + 1) % 4].x * q[i].y }
        guard area.isFinite, abs(area) > 1e-9 else { return false }
        let sign = area > 0 ? 1.0 : -1.0
        for i in 0..<4 {
            let a = q[i], b = q[(i + 1) % 4]
            let ex = b.x - a.x, ey = b.y - a.y
            let length = (ex * ex + ey * ey).squareRoot()
            guard length > 0, length.isFinite else { return false }
            for p in points {
                let d = (ex * (p.y - a.y) - ey * (p.x - a.x)) / length * sign   // positive inside
                guard d.isFinite, d >= 1.0 / 16 else { return false }
            }
        }
        return true
    }

    /// The layers above the piece `local` of the veil at `index` (bottom to top, the nearest
    /// `orderReach`): marked veils by `bit`, sheers where they cover the piece whole.
    static func layersAbove(_ index: Int, piece local: Rect, items: [DrawItem], bit: [Int: Int], strong: [Int: Int],
                            sheers: [Int: (alpha: Int, quad: [Point])]) -> [OrderLayer] {
        let m = items[index].transform
        let c = corners(local, m)
        var out: [OrderLayer] = []
        for j in (index + 1)..<min(items.count, index + 1 + orderReach) {
            var covering: Int?
            if let s = sheers[j],
               (items[j].transform == m && items[j].quad.standardized == local.standardized) || inside(c, s.quad) {
                covering = s.alpha
            }
            // A veil is at least as opaque where its pieces are as anywhere (the least alpha
            // is at most the opaque texels'): where its bit is clear, at most its sheer.
            if let b = bit[j] { out.append(OrderLayer(bit: b, strong: strong[j] ?? 0, sheer: covering.map { min($0, strong[j] ?? 0) })) }
            else if let w = covering { out.append(OrderLayer(bit: nil, strong: 0, sheer: w)) }
        }
        return out
    }

    /// The segment culled by order, when it pays: its items (marking pieces first) and its net
    /// saving in the estimate's units (`apply`); nil when it does not pay.
    static func ordered(_ items: [DrawItem], candidates all: [(veil: Veil, boxes: [PixelRect], area: Int)], images: [PlannedImage],
                        bounds: [PixelRect?], weights: [Int], width: Int, height: Int)
        -> (items: [DrawItem], net: Int, depth: Int, veils: Int, pieces: Int, saved: Int)? {
        let candidates = Array(all.suffix(orderBits))
        guard !candidates.isEmpty else { return nil }
        let canvas = width * height
        // Bits: the top candidate the highest.
        var bit: [Int: Int] = [:], strong: [Int: Int] = [:]
        for (j, c) in candidates.enumerated() {
            bit[c.veil.index] = orderBits - candidates.count + j
            strong[c.veil.index] = c.veil.alpha
        }
        var sheers: [Int: (alpha: Int, quad: [Point])] = [:]
        for (i, item) in items.enumerated() {
            if let a = sheer(item, images) { sheers[i] = (a, corners(item.quad, item.transform)) }
        }
        guard !sheers.isEmpty else { return nil }
        // The estimate, top down on the grid of `cell`-pixel cells: each cell's pattern (the bits
        // of the veils whose pieces' inscribed boxes hold it) and the veil that culls there.
        let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
        var pattern = [UInt8](repeating: 0, count: columns * rows)
        var kth = [Int32](repeating: -1, count: columns * rows)
        var saved = [(pixels: Int, weighted: Int)](repeating: (0, 0), count: candidates.count)
        var dropped = [Int](repeating: 0, count: candidates.count)
        func cells(_ box: PixelRect, _ body: (Int) -> Void) {
            let x0 = (box.x + cell - 1) / cell, x1 = min((box.x + box.width) / cell, columns)
            let y0 = (box.y + cell - 1) / cell, y1 = min((box.y + box.height) / cell, rows)
            guard x0 < x1, y0 < y1 else { return }
            for row in y0..<y1 { for column in x0..<x1 { body(row * columns + column) } }
        }
        var next = candidates.count - 1
        for i in items.indices.reversed() {
            if let b = bounds[i] { credit(b, weight: weights[i], kth: kth, columns: columns, rows: rows, saved: &saved) }
            guard next >= 0, candidates[next].veil.index == i else { continue }
            let v = candidates[next].veil
            let above = (next + 1..<candidates.count).reversed().map { bit[candidates[$0].veil.index]! }
            // The test of its largest piece, for each number of top bits left out: the one that
            // culls the most cells here.
            if let largest = v.pieces.max(by: { $0.width * $0.height < $1.width * $1.height }) {
                let layers = layersAbove(i, piece: largest, items: items, bit: bit, strong: strong, sheers: sheers)
                var best: (count: Int, d: Int, test: (mask: Int, reference: Int))?
                for d in 0...above.count {
                    guard let t = test(alpha: v.alpha, layers, bitsAbove: above, dropped: d) else { continue }
                    var count = 0
                    for box in candidates[next].boxes {
                        cells(box) { c in if kth[c] < 0, Int(pattern[c]) & t.mask >= t.reference { count += 1 } }
                    }
                    if count > best?.count ?? 0 { best = (count, d, t) }
                }
                if let best {
                    dropped[next] = best.d
                    for box in candidates[next].boxes {
                        cells(box) { c in if kth[c] < 0, Int(pattern[c]) & best.test.mask >= best.test.reference { kth[c] = Int32(next) } }
                    }
                }
            }
            for box in candidates[next].boxes { cells(box) { c in pattern[c] |= UInt8(1 << bit[i]!) } }
            next -= 1
        }
        guard let choice = lowestWorthMarking(saved: saved, areas: candidates.map(\.area), canvas: canvas) else { return nil }
        let marked = Array(candidates.dropFirst(choice.lowest))
        let ordinal = Dictionary(uniqueKeysWithValues: marked.enumerated().map { ($1.veil.index, $0) })
        let rank = ranks(items.count, marked: ordinal)
        var out: [DrawItem] = []
        var cullsBelow = 0   // the highest marked veil with a piece that can cull: items beneath it are tested
        let depth = marked.map(\.veil.depth).max() ?? 1
        for (k, c) in marked.enumerated().reversed() {
            let v = c.veil, item = items[v.index], own = 1 << bit[v.index]!
            let j = choice.lowest + k
            let above = (j + 1..<candidates.count).reversed().map { bit[candidates[$0].veil.index]! }
            var memo: [[OrderLayer]: (mask: Int, reference: Int)?] = [:]
            var marks: [DrawItem] = []
            for piece in v.pieces {
                let layers = layersAbove(v.index, piece: piece, items: items, bit: bit, strong: strong, sheers: sheers)
                let t: (mask: Int, reference: Int)?
                if let known = memo[layers] { t = known } else {
                    t = test(alpha: v.alpha, layers, bitsAbove: above, dropped: dropped[j])
                    memo[layers] = t
                }
                var p = DrawItem(layer: item.layer, role: item.role, paint: .solid(RGBA(0, 0, 0, 1)), transform: item.transform,
                                 quad: piece)
                var s = StackStencil(.markBit, depth: depth, rank: rank[v.index])
                s.writeMask = UInt8(own)
                if let t {
                    s.compareMask = UInt8(t.mask); s.reference = UInt8(t.reference | own)
                    cullsBelow = max(cullsBelow, v.index)
                } else {
                    s.compareMask = UInt8(own); s.reference = UInt8(own)   // its own bit, clear: never
                }
                p.stackStencil = s
                marks.append(p)
            }
            // Within a veil the order is free (its pieces do not overlap): by test, one batch each.
            marks.sort { ($0.stackStencil!.compareMask, $0.stackStencil!.reference) < ($1.stackStencil!.compareMask, $1.stackStencil!.reference) }
            out += marks
        }
        for (i, var item) in items.enumerated() {
            item.stackStencil = StackStencil(i < cullsBelow ? .tested : .untested, depth: depth, rank: rank[i])
            out.append(item)
        }
        return (out, choice.net, depth, marked.count, marked.reduce(0) { $0 + $1.veil.pieces.count }, choice.pixels)
    }
}
