import Geometry

/// caprof's own savings on a frame, apart from what Core Animation would do (the profiler's
/// findings come from `FramePlan.items`, the logical list, never from these shortcuts).
public struct CanvasExecutionStats: Sendable, Equatable {
    /// Canvas items not drawn: opaque items above them cover every pixel they could touch.
    public var culledItems = 0
    /// The device pixels of those items' bounds (fragments not shaded).
    public var culledPixels = 0
    /// Items drawn with blending off (opaque paint, no coverage).
    public var opaqueItems = 0
    /// Items whose coverage level was raised to share their neighbours' instanced draw.
    public var promotedItems = 0
    /// Large shaped items split into an interior drawn without coverage, edge bands with straight
    /// edges only and corner patches with the corner code.
    public var splitItems = 0
    /// Runs of consecutive canvas items that share a `BatchClass`: the canvas's instanced draws
    /// (a flattened region is a draw of its own).
    public var batches = 0
    /// Rectangles drawn once with their stack blended in registers (`FlattenedRegion`).
    public var flattenedRegions = 0
    /// Items drawn inside flattened regions instead of by a draw of their own.
    public var flattenedItems = 0
    /// Per-item pieces drawn over a region whose stack is deeper than `FlattenedRegion.maxDepth`.
    public var flattenedPieces = 0
    /// Clips dropped from items that lie where the clip's coverage is exactly 1 (a masksToBounds
    /// container around its content): the same pixels without the per-fragment clip code.
    public var droppedClips = 0
    /// Stack culling (`StackCulling`): K, the veils over which nothing beneath is drawn (the
    /// largest of the segments'; 0 when no segment is culled this way).
    public var stackDepth = 0
    /// Segments culled by the veils' order (`StackCulling+Order`) rather than their count.
    public var stackByOrder = 0
    /// Veils marked (their pieces drawn into the stencil and depth buffers).
    public var stackVeils = 0
    /// Their pieces (each drawn once, without colour).
    public var stackPieces = 0
    /// The plan's estimate of the pixels not shaded beneath the veils (`StackCulling.savedPixels`).
    public var stackSavedPixels = 0
    public init() {}
}

/// What decides whether consecutive items can be one instanced draw in the backend: the pipeline
/// variant (paint kind, shape, inner shape, clip count, blend, coverage level, blending off) and
/// what it samples (an image of the plan with its sampling, or an offscreen source).
public struct BatchClass: Hashable, Sendable {
    enum Source: Hashable {
        case solid, shadow
        case image(Int, DrawItem.Sampling)
        case offscreen(OffscreenSource, DrawItem.Sampling)
        case gradient(Int, DrawItem.Sampling)
    }
    var source: Source
    var hasShape: Bool
    var hasInner: Bool
    var clipCount: Int
    var blend: DrawItem.Blend
    var coverage: Coverage
    var opaque: Bool
    /// Shape coverage without derivatives (`DrawItem.hasIsotropicCoverage`): another variant.
    var isotropic: Bool
    /// Screen-linear interpolation (`DrawItem.interpolatesAffinely`): another fragment shader.
    var affine: Bool
    /// Stack culling's role and K (`DrawItem.stackStencil`; its rank is per record, rank 0
    /// here): other depth and stencil state.
    var stencil: StackStencil?

    public init(_ item: DrawItem) {
        switch item.paint {
        case .solid: source = .solid
        case .blurredShape: source = .shadow
        case .image(let i, let s, _): source = item.gradient != nil ? .gradient(i, s) : .image(i, s)
        case .offscreen(let o, let s, _): source = .offscreen(o, s)
        }
        let shaped = source != .shadow
        hasShape = shaped && item.shape != nil
        hasInner = shaped && item.innerShape != nil
        clipCount = min(item.clips.count, DrawItem.maxClips)
        blend = item.blend
        coverage = item.executedCoverage
        opaque = item.drawsOpaque
        isotropic = item.hasIsotropicCoverage
        affine = item.interpolatesAffinely
        stencil = item.stackStencil.map { StackStencil($0.role, depth: $0.depth, rank: 0) }
    }

    /// The class without what promotion may change (shape presence and coverage level).
    var promotionGroup: BatchClass {
        var g = self
        g.hasShape = false; g.coverage = .none; g.isotropic = false
        return g
    }
}

/// The plan's execution step for the canvas: from the logical items (painter's order) to what the
/// backend draws, deciding everything the backend then does literally:
///
/// 1. **Opaque occlusion culling**: an item whose bounds lie inside the fully opaque pixels of one
///    item above it, or inside 8×8-pixel cells each wholly within one of several (their union), is
///    not drawn (its pixels are replaced whatever they are). Occluders are
///    axis-aligned, unclipped source-over items with opaque paint; a rounded one occludes its
///    cross (the rect less its corner insets), a pixel in from its antialiased edges.
/// 2. **Coverage levels for batching**: within a run of small neighbours that differ only in
///    their coverage needs, each is raised to the run's highest level (an unshaped one gets a
///    shape enclosing its quad with room to spare, so its coverage is exactly 1): the same pixels,
///    one instanced draw. Large items keep their own level: there the coverage code costs more
///    than a draw call.
/// 3. **Interiors without coverage**: a large rounded item becomes a 5 × 5 grid of pieces sharing
///    whole edges (no T-junctions, so every pixel centre falls in exactly one): the interior,
///    where coverage is exactly 1, drawn without coverage code; one-pixel bands along the straight
///    edges (no corner is within reach there) and the corner zones with the corner code, in one
///    draw; each item's two groups ordered so that consecutive split items continue each other's
///    draw.
/// 4. **Blending off** for items whose every drawn pixel is opaque (`drawsOpaque`).
/// 5. **Region flattening** (`RegionFlattening.swift`): runs of pixel-aligned rectangles become
///    disjoint regions, each drawn once with its stack of layers blended in registers.
/// 6. **Stack culling** (`StackCulling.swift`): where K translucent veils cover a pixel, nothing
///    beneath them is drawn there (within 1/255 of drawing it); the veils' pieces mark, in a stencil
///    and a depth buffer, the K-th veil from the top, and items beneath it fail a depth test.
/// Order is never changed. Pure: the same items give the same result.
public enum CanvasExecution {
    /// Items of at most this many device pixels (bounds) may be promoted to batch.
    static let promotableArea = 128 * 128
    /// Occluders a culling test looks at per tile (most recent first): bounds the work per item.
    static let occluderProbe = 64

    /// `flattenOver`: the canvas's clear colour, what lies beneath a flattened region's stack;
    /// nil: no region flattening. `savingPerRegion`: the blended pixels a run must save per
    /// region to be flattened (`savedPixelsPerRegion`; tests of small scenes pass 0).
    public static func prepare(_ items: [DrawItem], images: [PlannedImage], width: Int, height: Int,
                               flattenOver clear: RGBA? = nil, savingPerRegion: Int = savedPixelsPerRegion,
                               cullsStacks: Bool = true)
        -> (items: [DrawItem], stats: CanvasExecutionStats) {
        var stats = CanvasExecutionStats()
        var out = items
        dropContainingClips(&out, width: width, height: height, stats: &stats)
        out = cull(out, images: images, width: width, height: height, stats: &stats)
        // Batching first: a small opaque item that joins its shaped neighbours' draw keeps blending.
        promote(&out, width: width, height: height, stats: &stats)
        out = split(out, width: width, height: height, stats: &stats)
        for i in out.indices where isOpaqueDraw(out[i], images) {
            out[i].drawsOpaque = true
            stats.opaqueItems += 1
        }
        if let clear {
            out = flatten(out, images: images, clear: clear, width: width, height: height, saving: savingPerRegion, stats: &stats)
        }
        if cullsStacks { StackCulling.apply(&out, images: images, width: width, height: height, stats: &stats) }
        var last: BatchClass?
        for item in out where item.role != .unsupported {
            let c = BatchClass(item)
            if c != last || item.flattened != nil { stats.batches += 1; last = c }
        }
        return (out, stats)
    }

    // MARK: clips

    /// Drops every clip whose coverage is exactly 1 wherever the item can write: an axis-aligned
    /// clip (rounded or not) whose fully covered pixels, a pixel in from its antialiased edges and
    /// clear of its corners, contain the item's reach. The clip multiplied coverage by 1.0 there,
    /// so the pixels are the same; the fragment shader no longer evaluates it (on lavapipe a
    /// masksToBounds list around its cards tripled their cost).
    static func dropContainingClips(_ items: inout [DrawItem], width: Int, height: Int, stats: inout CanvasExecutionStats) {
        for i in items.indices where !items[i].clips.isEmpty && items[i].role != .unsupported {
            guard let r = reach(items[i], width: width, height: height) else { continue }
            let kept = items[i].clips.filter { !clipCovers($0, r, itemTransform: items[i].transform, width: width, height: height) }
            if kept.count != items[i].clips.count {
                stats.droppedClips += items[i].clips.count - kept.count
                items[i].clips = kept
            }
        }
    }

    /// Whether `clip`'s coverage is exactly 1 on every pixel of `r`. A clip's transform maps the
    /// item's local space to the clip shape's, so the shape reaches the device through its inverse
    /// and then the item's transform.
    static func clipCovers(_ clip: Clip, _ r: PixelRect, itemTransform: Transform3D, width: Int, height: Int) -> Bool {
        let shape = clip.shape
        guard let toLocal = clip.transform.planarInverse else { return false }
        // The clip as an opaque shaped item: its opaque pixels are where its coverage is 1.
        let probe = DrawItem(layer: clip.layer, role: .background, paint: .solid(RGBA(0, 0, 0, 1)),
                             transform: toLocal * itemTransform, quad: shape.rect.standardized, shape: shape)
        return opaquePixels(probe, [], width: width, height: height).contains { o in
            o.x <= r.x && o.y <= r.y && o.x + o.width >= r.x + r.width && o.y + o.height >= r.y + r.height
        }
    }

    // MARK: opacity

    /// Every texel or colour the item paints has alpha 1 (exactly: solid colours, and opaque images
    /// at opacity 1 read without filtering, so no interpolation can leave alpha below 1).
    static func hasOpaquePaint(_ item: DrawItem, _ images: [PlannedImage]) -> Bool {
        guard item.blend == .sourceOver, item.gradient == nil, item.role != .unsupported else { return false }
        switch item.paint {
        case .solid(let c): return c.a >= 1
        case .image(let index, let sampling, let opacity):
            // A tint multiplies every texel (premultiplied): only an opaque tint keeps alpha 1.
            return opacity >= 1 && item.tint.a >= 1 && (sampling == .texelFetch || sampling == .nearest)
                && images.indices.contains(index) && images[index].isOpaque
        case .offscreen, .blurredShape: return false
        }
    }

    static func isOpaqueDraw(_ item: DrawItem, _ images: [PlannedImage]) -> Bool {
        hasOpaquePaint(item, images) && item.executedCoverage == .none
    }

    // MARK: culling

    /// The device pixels an item may write: its bounds, grown by the backend's antialiasing margin
    /// for shaped items; nil when that margin cannot be bounded simply (projective or very
    /// anisotropic shaped items are then never culled).
    static func reach(_ item: DrawItem, width: Int, height: Int) -> PixelRect? {
        guard let b = bounds(item, width: width, height: height) else { return nil }
        if item.shape == nil { return b }
        guard let (smin, smax) = singularValues(item.transform), smin > 1e-9, smax / smin <= 4 else { return nil }
        // The backend grows a shaped quad by 1/σmin local units: at most σmax/σmin device pixels.
        let g = Int((smax / smin).rounded(.up)) + 1
        let x0 = max(b.x - g, 0), y0 = max(b.y - g, 0)
        let x1 = min(b.x + b.width + g, width), y1 = min(b.y + b.height + g, height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The pixels an item paints fully opaque (up to two rects: a rounded rect's cross).
    static func opaquePixels(_ item: DrawItem, _ images: [PlannedImage], width: Int, height: Int) -> [PixelRect] {
        let m = item.transform
        guard hasOpaquePaint(item, images), item.clips.isEmpty, item.innerShape == nil, m.isAxisAligned2D else { return [] }
        var locals: [Rect] = []
        var inset = 0
        if let s = item.shape {
            let r = s.rect.standardized
            let limit = min(r.width, r.height) / 2
            let e = (0..<min(s.radii.count, 4)).map { i -> Double in
                s.curve == .continuous ? CornerProfile.continuous(radius: s.radii[i], limit: limit).inset
                    : CornerProfile.circular(radius: s.radii[i], limit: limit).inset
            }.max() ?? 0
            // Quad ∩ shape, less the corners; a pixel in from the antialiased edge for float noise.
            let q = item.quad.standardized
            let c = Rect(max(q.minX, r.minX), max(q.minY, r.minY), 0, 0)
            let clipped = Rect(c.origin.x, c.origin.y, min(q.maxX, r.maxX) - c.origin.x, min(q.maxY, r.maxY) - c.origin.y)
            guard clipped.width > 0, clipped.height > 0 else { return [] }
            locals = e > 0 ? [clipped.insetBy(dx: e, dy: 0), clipped.insetBy(dx: 0, dy: e)] : [clipped]
            inset = 1
        } else {
            locals = [item.quad.standardized]
        }
        return locals.compactMap { l -> PixelRect? in
            guard l.width > 0, l.height > 0 else { return nil }
            let a = m.apply(Point(l.minX, l.minY)), b = m.apply(Point(l.maxX, l.maxY))
            guard !a.x.isNaN, !a.y.isNaN, !b.x.isNaN, !b.y.isNaN else { return nil }
            // Pixels whose whole square is inside (stricter than the rasteriser's centre rule),
            // clamped to the canvas before converting: a corner can lie beyond Int's range.
            func pixel(_ v: Double, _ side: Int) -> Int { Int(min(max(v, 0), Double(side))) }
            let x0 = pixel(min(a.x, b.x).rounded(.up), width) + inset, y0 = pixel(min(a.y, b.y).rounded(.up), height) + inset
            let x1 = pixel(max(a.x, b.x).rounded(.down), width) - inset
            let y1 = pixel(max(a.y, b.y).rounded(.down), height) - inset
            return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
    }

    static func cull(_ items: [DrawItem], images: [PlannedImage], width: Int, height: Int,
                     stats: inout CanvasExecutionStats) -> [DrawItem] {
        var grid = OccluderGrid(width: width, height: height)
        var keep = [Bool](repeating: true, count: items.count)
        for i in items.indices.reversed() {
            let item = items[i]
            if item.role != .unsupported, let r = reach(item, width: width, height: height), grid.covers(r) {
                keep[i] = false
                stats.culledItems += 1
                stats.culledPixels += r.area
                continue
            }
            for o in opaquePixels(item, images, width: width, height: height) { grid.add(o) }
        }
        if stats.culledItems == 0 { return items }
        return items.indices.compactMap { keep[$0] ? items[$0] : nil }
    }

    // MARK: batching

    static func promote(_ items: inout [DrawItem], width: Int, height: Int, stats: inout CanvasExecutionStats) {
        var start = 0
        while start < items.count {
            guard let group = promotionGroup(items[start], width: width, height: height) else { start += 1; continue }
            var end = start + 1
            while end < items.count, promotionGroup(items[end], width: width, height: height) == group { end += 1 }
            if end - start > 1 { promoteRun(&items, start..<end, stats: &stats) }
            start = end
        }
    }

    /// The group an item batches in when promoted; nil when it must keep its own level (large,
    /// projective, an analytic shadow, a placeholder).
    static func promotionGroup(_ item: DrawItem, width: Int, height: Int) -> BatchClass? {
        guard item.role != .unsupported else { return nil }
        if case .blurredShape = item.paint { return nil }
        guard let (smin, smax) = singularValues(item.transform), smin > 1e-9, smax / smin <= 4,
              let b = bounds(item, width: width, height: height),
              b.area <= promotableArea else { return nil }
        // A promoted item gains a shape, and with it the isotropic variant when its transform
        // is a similarity: only items alike in that batch together.
        var group = BatchClass(item).promotionGroup
        group.isotropic = item.transform.isSimilarity
        return group
    }

    static func promoteRun(_ items: inout [DrawItem], _ run: Range<Int>, stats: inout CanvasExecutionStats) {
        let target = run.map { items[$0].executedCoverage }.max() ?? .none
        guard target > .none else { return }
        let anyShape = run.contains { items[$0].shape != nil }
        for i in run {
            var item = items[i]
            var changed = false
            if item.executedCoverage < target { item.coverageVariant = target; changed = true }
            if anyShape, item.shape == nil, let (smin, _) = singularValues(item.transform) {
                // Coverage is 1 wherever a pixel centre is half a device pixel (≤ 0.5/σmin local
                // units) inside the shape: enclose the quad with far more room than that, and the
                // backend draws the quad as it is (`quadIsFinal`).
                let g = 2 / smin + 1
                let q = item.quad.standardized
                item.shape = RoundedShape(rect: q.insetBy(dx: -g, dy: -g))
                item.quadIsFinal = true
                changed = true
            }
            if changed { items[i] = item; stats.promotedItems += 1 }
        }
    }

    // MARK: interiors

    /// Items of at least this many device pixels (bounds) with a rounded shape are split.
    static let splitArea = 128 * 128

    static func split(_ items: [DrawItem], width: Int, height: Int, stats: inout CanvasExecutionStats) -> [DrawItem] {
        var out: [DrawItem] = []
        out.reserveCapacity(items.count)
        for item in items {
            if let (interior, edges) = pieces(item, width: width, height: height) {
                // The pieces never overlap, so either group may be drawn first: the one that
                // continues the previous item's draw goes first, and the next split item's pieces
                // continue this one's last group. 200 rounded rectangles are then about one draw
                // each instead of three.
                if let last = out.last, BatchClass(last) == BatchClass(edges[0]) {
                    out += edges; out += interior
                } else {
                    out += interior; out += edges
                }
                stats.splitItems += 1
            } else {
                out.append(item)
            }
        }
        return out
    }

    /// The 5 × 5 grid of an item, or nil when it is not worth or not safe to split: only solid,
    /// affine, unpromoted items with a rounded shape, no inner edge and a large interior, and not
    /// rotated isotropic ones. The interior pieces, then the edge pieces (bands and corner zones,
    /// one draw).
    ///
    /// A rotated item's pieces have slanted edges, which lavapipe rasterises and shades in partly
    /// covered 4×4 blocks; with the isotropic coverage code (no derivatives) its whole quad costs
    /// less than its 25 pieces: 200 rotated rounded rectangles took 48 ms whole against 66 ms
    /// split (7 interleaved runs), while `cards.json`, axis-aligned, took 22 ms split against
    /// 32 ms whole.
    static func pieces(_ item: DrawItem, width: Int, height: Int) -> (interior: [DrawItem], edges: [DrawItem])? {
        guard let shape = item.shape, item.innerShape == nil, item.gradient == nil, item.coverageVariant == nil,
              !item.quadIsFinal, item.role != .unsupported, case .solid = item.paint,
              shape.coverage > .straightEdges,
              !(item.hasIsotropicCoverage && (item.transform.m12 != 0 || item.transform.m21 != 0)),
              let (smin, smax) = singularValues(item.transform), smin > 1e-9, smax / smin <= 4,
              let b = bounds(item, width: width, height: height),
              b.area >= splitArea else { return nil }
        let r = shape.rect.standardized, q = item.quad.standardized
        let limit = min(r.width, r.height) / 2
        let inset = (0..<min(shape.radii.count, 4)).map { i -> Double in
            shape.curve == .continuous ? CornerProfile.continuous(radius: shape.radii[i], limit: limit).inset
                : CornerProfile.circular(radius: shape.radii[i], limit: limit).inset
        }.max() ?? 0
        // m: a device pixel in local units (≥ 1/σmin), so a point m inside an edge has coverage
        // exactly 1 there (half a pixel is enough); e: past every corner's inset by m, so the
        // corner block cannot run where the point is farther than e from one edge.
        let m = 1 / smin, e = inset + m
        // The outer lines: the quad grown as the backend would grow it.
        let o = EdgeRamp.outset(item.transform, q)
        let xs = [q.minX - o, r.minX + m, r.minX + e, r.maxX - e, r.maxX - m, q.maxX + o]
        let ys = [q.minY - o, r.minY + m, r.minY + e, r.maxY - e, r.maxY - m, q.maxY + o]
        guard zip(xs, xs.dropFirst()).allSatisfy({ $0 < $1 }), zip(ys, ys.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        func piece(_ col: Int, _ row: Int, _ s: RoundedShape?) -> DrawItem {
            var p = item
            p.quad = Rect(xs[col], ys[row], xs[col + 1] - xs[col], ys[row + 1] - ys[row])
            p.shape = s
            p.quadIsFinal = true
            return p
        }
        // A 5 × 5 grid: columns and rows 0–1 and 3–4 are the corner zones (e wide), 2 the middle;
        // 0 and 4 also hold the one-pixel bands along the edges. Every cell shares whole edges
        // with its neighbours. The bands need straight-edge coverage only, but are raised to the
        // corners' level (a higher level only adds corner code that cannot run there: the same
        // pixels) so that bands and corners are one draw: the corner code over the thin bands
        // costs less than a draw call. Pieces never overlap, so their order does not change a pixel.
        let straight = RoundedShape(rect: shape.rect)
        var interior: [DrawItem] = [], bands: [DrawItem] = [], corners: [DrawItem] = []
        for row in 0..<5 {
            for col in 0..<5 {
                let midCol = col == 2, midRow = row == 2
                if midCol && midRow || midCol && (row == 1 || row == 3) || midRow && (col == 1 || col == 3) {
                    interior.append(piece(col, row, nil))
                } else if midCol || midRow {
                    var band = piece(col, row, straight)
                    band.coverageVariant = shape.coverage
                    bands.append(band)
                } else {
                    corners.append(piece(col, row, shape))
                }
            }
        }
        return (interior, bands + corners)
    }

    /// The device pixels `item`'s quad touches (`DeviceProjection.pixelBounds`), without building
    /// a polygon for affine matrices: this runs several times per item of a 10,000-item frame.
    static func bounds(_ item: DrawItem, width: Int, height: Int) -> PixelRect? {
        let m = item.transform, q = item.quad
        guard m.m14 == 0, m.m24 == 0, m.m44 == 1 else {
            return DeviceProjection.pixelBounds(q, m, width: width, height: height)
        }
        let x0 = q.minX * m.m11, x1 = q.maxX * m.m11, y0 = q.minY * m.m21, y1 = q.maxY * m.m21
        let u0 = q.minX * m.m12, u1 = q.maxX * m.m12, v0 = q.minY * m.m22, v1 = q.maxY * m.m22
        let r = Rect(min(x0, x1) + min(y0, y1) + m.m41, min(u0, u1) + min(v0, v1) + m.m42, 0, 0)
        let maxX = max(x0, x1) + max(y0, y1) + m.m41, maxY = max(u0, u1) + max(v0, v1) + m.m42
        return DeviceProjection.pixelBounds(Rect(r.minX, r.minY, maxX - r.minX, maxY - r.minY), width: width, height: height)
    }

    /// Singular values (smallest, largest) of an affine matrix's 2×2 part; nil when projective.
    static func singularValues(_ m: Transform3D) -> (Double, Double)? {
        guard m.m14 == 0, m.m24 == 0, m.m44 == 1 else { return nil }
        let a = m.m11, b = m.m21, d = m.m12, e = m.m22
        let s = a * a + b * b + d * d + e * e, det = a * e - b * d
        let root = max(s * s - 4 * det * det, 0).squareRoot()
        let small = (max(s - root, 0) / 2).squareRoot(), large = ((s + root) / 2).squareRoot()
        guard small.isFinite, large.isFinite else { return nil }
        return (small, large)
    }
}

/// Opaque pixel rects registered on a grid of 64-pixel tiles: a rect that contains another also
/// contains its top-left pixel, so only that pixel's tile is searched.
struct OccluderGrid {
    static let tile = 64
    /// Cells of the union test: a cell is covered when it lies wholly inside one occluder rect.
    static let cell = 8
    let columns: Int, rows: Int
    var rects: [PixelRect] = []
    var tiles: [[Int32]]
    let cellColumns: Int, cellRows: Int
    /// Cells wholly inside an occluder added so far: an item whose every cell is covered is hidden
    /// by the union of several occluders (10,000 overlapping small layers), not only by one.
    var covered: [Bool]

    init(width: Int, height: Int) {
        columns = max((width + Self.tile - 1) / Self.tile, 1)
        rows = max((height + Self.tile - 1) / Self.tile, 1)
        tiles = Array(repeating: [], count: columns * rows)
        cellColumns = max((width + Self.cell - 1) / Self.cell, 1)
        cellRows = max((height + Self.cell - 1) / Self.cell, 1)
        covered = Array(repeating: false, count: cellColumns * cellRows)
    }

    mutating func add(_ r: PixelRect) {
        guard !r.isEmpty else { return }
        // The cells wholly inside r (rounded inwards).
        let x0 = max((r.x + Self.cell - 1) / Self.cell, 0), x1 = min((r.x + r.width) / Self.cell, cellColumns)
        let y0 = max((r.y + Self.cell - 1) / Self.cell, 0), y1 = min((r.y + r.height) / Self.cell, cellRows)
        if x0 < x1, y0 < y1, r.x >= 0, r.y >= 0 {
            for y in y0..<y1 { for x in x0..<x1 { covered[y * cellColumns + x] = true } }
        }
        let index = Int32(rects.count)
        rects.append(r)
        let c0 = max(r.x / Self.tile, 0), c1 = min((r.x + r.width - 1) / Self.tile, columns - 1)
        let r0 = max(r.y / Self.tile, 0), r1 = min((r.y + r.height - 1) / Self.tile, rows - 1)
        guard c0 <= c1, r0 <= r1 else { return }
        for row in r0...r1 { for col in c0...c1 { tiles[row * columns + col].append(index) } }
    }

    func covers(_ r: PixelRect) -> Bool {
        guard !r.isEmpty else { return false }
        let col = r.x / Self.tile, row = r.y / Self.tile
        guard (0..<columns).contains(col), (0..<rows).contains(row) else { return false }
        for index in tiles[row * columns + col].reversed().prefix(CanvasExecution.occluderProbe) {
            let o = rects[Int(index)]
            if o.x <= r.x, o.y <= r.y, o.x + o.width >= r.x + r.width, o.y + o.height >= r.y + r.height { return true }
        }
        return unionCovers(r)
    }

    /// Every cell r touches is covered (conservative: a partly touched cell must be covered whole).
    func unionCovers(_ r: PixelRect) -> Bool {
        guard r.x >= 0, r.y >= 0 else { return false }
        let x0 = r.x / Self.cell, x1 = (r.x + r.width - 1) / Self.cell
        let y0 = r.y / Self.cell, y1 = (r.y + r.height - 1) / Self.cell
        guard x1 < cellColumns, y1 < cellRows else { return false }
        for y in y0...y1 { for x in x0...x1 where !covered[y * cellColumns + x] { return false } }
        return true
    }
}
