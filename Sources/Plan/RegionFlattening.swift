import Geometry

/// A disjoint device-pixel rectangle of the canvas and the stack of layers that cover it, which
/// the backend draws once, blending the stack in registers (`DrawItem.flattened`).
///
/// The stack starts from `base` (what the canvas holds there before the stack: its clear colour)
/// unless its bottom layer is opaque, and every layer is composited source-over in order. The
/// backend writes the result with blending off, so the region's pixels are the whole stack's.
public struct FlattenedRegion: Sendable, Equatable {
    /// One layer of the stack, as its item would have been drawn over this rectangle.
    public enum Layer: Sendable, Equatable {
        /// A premultiplied colour (the item's opacity applied).
        case solid(RGBA)
        /// Image `index` of `FramePlan.images` read texel for pixel (texelFetch): device pixel p
        /// shows texel p − (originX, originY), clamped to the image, times `opacity`.
        case image(index: Int, opacity: Float, originX: Int, originY: Int)
    }
    /// The premultiplied colour beneath the stack (the canvas's clear colour).
    public var base: RGBA
    /// Bottom to top, at most `maxDepth`.
    public var layers: [Layer]
    /// The device pixels drawn.
    public var rect: PixelRect

    public init(base: RGBA, layers: [Layer], rect: PixelRect) { self.base = base; self.layers = layers; self.rect = rect }

    /// The deepest stack one region draw blends (the backend's image bindings and the
    /// specialisation constant's range); above it a region's layers are drawn item by item.
    public static let maxDepth = 16
}

/// **Region flattening** (one of `CanvasExecution`'s decisions): a run of consecutive canvas items
/// that are pixel-aligned rectangles (solid, or an image read texel for pixel), source-over and
/// without shape, clip or coverage is split at the items' edges into disjoint rectangles, each
/// with the ordered stack of items over it. Everything beneath the topmost opaque layer of a
/// stack is dropped (culling per region), equal neighbours are merged, and each rectangle becomes
/// one item the backend draws once, blending its stack in registers. Premultiplied source-over is
/// associative, so a stack deeper than `FlattenedRegion.maxDepth` is drawn as its bottom
/// `maxDepth` layers flattened and the rest as per-item pieces clipped to the rectangle.
///
/// A rectangle is only flattened where the plan knows what lies beneath it (the clear colour: no
/// earlier canvas item reaches it; or an opaque bottom layer); a run with a rectangle that is not
/// is left as it is, as is a run that would need more than `regionsPerItem` draws per item or
/// would save fewer than `savedPixelsPerRegion` blended pixels per region.
extension CanvasExecution {
    /// The most items one run groups (the split costs up to (2n)² cells × n items).
    static let flattenRunLimit = 32
    /// A run is flattened only if its rectangles number at most this many per item.
    static let regionsPerItem = 8
    /// ... and it saves at least this many blended pixels per region drawn: each region is a draw
    /// (and its stack's shape a pipeline variant), which costs lavapipe about what blending 16k
    /// pixels does (16 full-screen layers: ≈ 3 ns per pixel and layer; a draw: tens of µs). Sparse
    /// UI, where the split makes many small regions for little overlap, stays item by item.
    public static let savedPixelsPerRegion = 128 * 128
    /// The cells one frame's splits may visit (each costs up to a run's length): bounds the
    /// step's work on a frame of thousands of overlapping pixel-aligned items; past it the rest
    /// of the frame is drawn item by item.
    static let flattenCellBudget = 1 << 16
    /// Earlier items the "nothing beneath" test looks at; past this a rectangle needs an opaque
    /// bottom layer.
    static let earlierProbe = 512

    /// One item as a flattenable layer: its device pixels on the canvas, its layer, whether it is
    /// opaque; nil when it is not a pixel-aligned, unshaped, unclipped source-over rectangle.
    static func flatLayer(_ item: DrawItem, _ images: [PlannedImage], width: Int, height: Int)
        -> (rect: PixelRect, layer: FlattenedRegion.Layer, opaque: Bool)? {
        let m = item.transform
        guard item.role != .unsupported, item.blend == .sourceOver, item.shape == nil, item.innerShape == nil,
              item.clips.isEmpty, item.gradient == nil, item.executedCoverage == .none, item.flattened == nil,
              m.m14 == 0, m.m24 == 0, m.m34 == 0, m.m44 == 1, m.m12 == 0, m.m21 == 0, m.m11 > 0, m.m22 > 0 else { return nil }
        let q = item.quad.standardized
        // Whole device pixels (the rasteriser snaps vertices to 1/256 pixel, so a float's noise
        // below that lands on the same pixel edges).
        func whole(_ v: Double) -> Int? {
            let r = v.rounded()
            return abs(v - r) <= 1.0 / 1024 && abs(r) < 16_777_216 ? Int(r) : nil
        }
        guard let x0 = whole(q.minX * m.m11 + m.m41), let x1 = whole(q.maxX * m.m11 + m.m41),
              let y0 = whole(q.minY * m.m22 + m.m42), let y1 = whole(q.maxY * m.m22 + m.m42) else { return nil }
        let cx0 = max(x0, 0), cy0 = max(y0, 0), cx1 = min(x1, width), cy1 = min(y1, height)
        guard cx1 > cx0, cy1 > cy0 else { return nil }
        let rect = PixelRect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0)
        switch item.paint {
        case .solid(let c):
            return (rect, .solid(c), c.a >= 1)
        case .image(let index, .texelFetch, let opacity):
            // Texels 1:1 on device pixels, not mirrored: texel = pixel − origin everywhere, and
            // every texel the drawn pixels read inside the image (the region shader does not
            // clamp to the edge as the item's shader does).
            let u = item.uv
            guard images.indices.contains(index), u.size.width == Double(x1 - x0), u.size.height == Double(y1 - y0),
                  let ox = whole(Double(x0) - u.origin.x), let oy = whole(Double(y0) - u.origin.y),
                  cx0 - ox >= 0, cy0 - oy >= 0, cx1 - ox <= images[index].pixelWidth, cy1 - oy <= images[index].pixelHeight
            else { return nil }
            return (rect, .image(index: index, opacity: opacity, originX: ox, originY: oy),
                    opacity >= 1 && images[index].isOpaque)
        default:
            return nil
        }
    }

    /// A run's item: its index in the list, device pixels, layer and opacity (`flatLayer`).
    typealias RunLayer = (index: Int, rect: PixelRect, layer: FlattenedRegion.Layer, opaque: Bool)

    static func flatten(_ items: [DrawItem], images: [PlannedImage], clear: RGBA, width: Int, height: Int,
                        saving: Int, stats: inout CanvasExecutionStats) -> [DrawItem] {
        var out: [DrawItem] = []
        out.reserveCapacity(items.count)
        var earlier: [PixelRect] = []
        var earlierUnknown = false
        func drawnBefore(_ item: DrawItem) {
            guard item.role != .unsupported else { return }
            if let r = reach(item, width: width, height: height), earlier.count < earlierProbe { earlier.append(r) } else { earlierUnknown = true }
        }
        var cells = flattenCellBudget
        var i = 0
        while i < items.count {
            var run: [RunLayer] = []
            var j = i
            while cells > 0, j < items.count, run.count < flattenRunLimit, let f = flatLayer(items[j], images, width: width, height: height) {
                run.append((j, f.rect, f.layer, f.opaque))
                j += 1
            }
            if run.count >= 2, let drawn = flattenRun(run, of: items, clear: clear, earlier: earlier, earlierUnknown: earlierUnknown,
                                                             saving: saving, cells: &cells, stats: &stats) {
                out.append(contentsOf: drawn)
                // What the run drew lies beneath later runs: its items' rects.
                for r in run { if earlier.count < earlierProbe { earlier.append(r.rect) } else { earlierUnknown = true } }
            } else {
                // Left as it is (not retried from its second item: that would split the run
                // again and again, and what its first item draws would lie beneath the rest).
                for k in i..<max(j, i + 1) { out.append(items[k]); drawnBefore(items[k]) }
            }
            i = max(j, i + 1)
        }
        return out
    }

    /// The regions of one run (with the pieces above deep stacks), or nil to leave it as it is.
    static func flattenRun(_ run: [RunLayer], of items: [DrawItem],
                           clear: RGBA, earlier: [PixelRect], earlierUnknown: Bool, saving: Int,
                           cells: inout Int, stats: inout CanvasExecutionStats) -> [DrawItem]? {
        // What flattening saves is at most what the items overlap pairwise: sparse runs (small
        // UI items side by side) are rejected before the split, in O(n²) for n ≤ 32.
        if saving > 0 {
            var overlap = 0
            search: for a in run.indices {
                for b in run.indices where b > a {
                    overlap += run[a].rect.intersection(run[b].rect)
                    if overlap >= saving { break search }
                }
            }
            guard overlap >= saving else { return nil }
        }
        let rects = run.map(\.rect)
        let cellCount = RegionGrid.cellCount(rects)
        cells -= cellCount
        guard cellCount <= regionsPerItem * run.count * 16, cells >= 0,
              let regions = RegionGrid.split(rects, opaque: run.map(\.opaque)),
              !regions.isEmpty, regions.count <= regionsPerItem * run.count else { return nil }
        // Beneath a stack without an opaque bottom must be the clear colour alone. Only earlier
        // items that reach the run's bounds can be beneath one of its regions.
        let bounds = run.dropFirst().reduce(run[0].rect) { $0.union($1.rect) }
        let beneath = earlier.filter { $0.intersects(bounds) }
        for r in regions where !run[r.stack[0]].opaque {
            if earlierUnknown || beneath.contains(where: { $0.intersects(r.rect) }) { return nil }
        }
        // Pixels blended item by item less pixels written once: what flattening saves.
        let saved = run.reduce(0) { $0 + $1.rect.area } - regions.reduce(0) { $0 + $1.rect.area }
        guard saved >= saving * regions.count else { return nil }
        var out: [DrawItem] = []
        var used = Set<Int>()
        for r in regions {
            let flat = r.stack.prefix(FlattenedRegion.maxDepth)
            let top = items[run[flat.last!].index]
            var region = DrawItem(layer: top.layer, role: top.role, paint: .solid(clear), transform: .identity,
                                  quad: Rect(Double(r.rect.x), Double(r.rect.y), Double(r.rect.width), Double(r.rect.height)))
            region.flattened = FlattenedRegion(base: clear, layers: flat.map { run[$0].layer }, rect: r.rect)
            region.drawsOpaque = true
            region.quadIsFinal = true
            out.append(region)
            used.formUnion(flat)
            stats.flattenedRegions += 1
            // Above the deepest stack a draw blends: the item's own pieces over this rectangle.
            for k in r.stack.dropFirst(FlattenedRegion.maxDepth) {
                out.append(piece(items[run[k].index], r.rect))
                stats.flattenedPieces += 1
            }
        }
        stats.flattenedItems += used.count
        return out
    }

    /// `item` restricted to the device pixels `r` (inside its own): its quad and uv cut at the
    /// same lines, so every pixel of `r` gets the value the whole item gives it.
    static func piece(_ item: DrawItem, _ r: PixelRect) -> DrawItem {
        let m = item.transform, q = item.quad.standardized, u = item.uv
        let lx0 = (Double(r.x) - m.m41) / m.m11, lx1 = (Double(r.x + r.width) - m.m41) / m.m11
        let ly0 = (Double(r.y) - m.m42) / m.m22, ly1 = (Double(r.y + r.height) - m.m42) / m.m22
        var p = item
        p.quad = Rect(lx0, ly0, lx1 - lx0, ly1 - ly0)
        if q.width > 0, q.height > 0 {
            let su = u.size.width / q.width, sv = u.size.height / q.height
            p.uv = Rect(u.origin.x + (lx0 - q.minX) * su, u.origin.y + (ly0 - q.minY) * sv,
                        (lx1 - lx0) * su, (ly1 - ly0) * sv)
        }
        p.quadIsFinal = true
        return p
    }
}

extension PixelRect {
    func intersects(_ o: PixelRect) -> Bool {
        x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
    }
    /// The area the two share.
    func intersection(_ o: PixelRect) -> Int {
        let w = min(x + width, o.x + o.width) - max(x, o.x), h = min(y + height, o.y + o.height) - max(y, o.y)
        return w > 0 && h > 0 ? w * h : 0
    }
    /// The smallest rectangle holding both.
    func union(_ o: PixelRect) -> PixelRect {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        return PixelRect(x: x0, y: y0, width: max(x + width, o.x + o.width) - x0, height: max(y + height, o.y + o.height) - y0)
    }
}

/// The split of a run's rectangles at their edges into disjoint cells, each with the indices of
/// the rectangles covering it (bottom to top, from the topmost opaque one up), equal neighbours
/// merged: along rows first, then spans of equal extent and stack down the rows.
enum RegionGrid {
    struct Region: Equatable {
        var rect: PixelRect
        var stack: [Int]
    }

    /// The cells the rectangles' edges make.
    static func cellCount(_ rects: [PixelRect]) -> Int {
        let xs = Set(rects.flatMap { [$0.x, $0.x + $0.width] }), ys = Set(rects.flatMap { [$0.y, $0.y + $0.height] })
        return (xs.count - 1) * (ys.count - 1)
    }

    static func split(_ rects: [PixelRect], opaque: [Bool]) -> [Region]? {
        let xs = Array(Set(rects.flatMap { [$0.x, $0.x + $0.width] })).sorted()
        let ys = Array(Set(rects.flatMap { [$0.y, $0.y + $0.height] })).sorted()
        var done: [Region] = []
        // Spans of the previous row of cells, still growing downwards.
        var open: [Region] = []
        for row in 0..<max(ys.count - 1, 0) {
            let y0 = ys[row], y1 = ys[row + 1]
            // The rectangles spanning this row, in order: only they can cover its cells.
            let across = rects.indices.filter { rects[$0].y <= y0 && y1 <= rects[$0].y + rects[$0].height }
            var spans: [Region] = []
            var stack: [Int] = []
            stack.reserveCapacity(rects.count)
            for col in 0..<(xs.count - 1) {
                let x0 = xs[col], x1 = xs[col + 1]
                stack.removeAll(keepingCapacity: true)
                for k in across where rects[k].x <= x0 && x1 <= rects[k].x + rects[k].width {
                    if opaque[k] { stack.removeAll(keepingCapacity: true) }
                    stack.append(k)
                }
                if stack.isEmpty { continue }
                if var last = spans.last, last.stack == stack, last.rect.x + last.rect.width == x0 {
                    last.rect.width = x1 - last.rect.x
                    spans[spans.count - 1] = last
                } else {
                    spans.append(Region(rect: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), stack: stack))
                }
            }
            var next: [Region] = []
            for var s in spans {
                if let k = open.firstIndex(where: { $0.rect.x == s.rect.x && $0.rect.width == s.rect.width && $0.stack == s.stack }) {
                    s.rect.y = open[k].rect.y
                    s.rect.height = y1 - s.rect.y
                    open.remove(at: k)
                }
                next.append(s)
            }
            done.append(contentsOf: open)
            open = next
        }
        return done + open
    }
}
