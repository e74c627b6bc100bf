import Geometry
import Plan
import Profile
import Raster

/// What every `FramePlan` must satisfy whatever the tree: the backend and the profiler rely on it.
public enum PlanInvariants {
    /// Violations in `plan` (empty: it holds).
    ///
    /// - every item's matrix, quad, uv, shapes and clips are finite (a NaN reaches the GPU as
    ///   garbage and the profiler as NaN pixel counts);
    /// - every item covers some pixel of the canvas (off-canvas items are culled by the planner);
    /// - image indices point into `plan.images`;
    /// - flattened regions are rectangles of the canvas with 1…16 layers and valid image indices;
    /// - offscreen passes have a real target and a footprint inside the canvas, and the graph is
    ///   ordered: every item (and blur) reads only passes that ran before it (innermost first).
    public static func check(_ plan: FramePlan) -> [String] {
        var v: [String] = []
        let w = plan.pixelWidth, h = plan.pixelHeight
        if w < 1 || h < 1 { v.append("canvas \(w)×\(h)") }
        for (i, item) in plan.items.enumerated() {
            if !item.transform.elements.allSatisfy(\.isFinite) { v.append("item \(i): non-finite matrix \(item.transform)") }
            if !finite(item.quad) || !finite(item.uv) { v.append("item \(i): non-finite quad \(item.quad) or uv \(item.uv)") }
            for s in [item.shape, item.innerShape].compactMap({ $0 }) where !finite(s.rect) || !s.radii.allSatisfy(\.isFinite) {
                v.append("item \(i): non-finite shape \(s.rect) \(s.radii)")
            }
            for c in item.clips where !c.transform.elements.allSatisfy(\.isFinite) || !finite(c.shape.rect) {
                v.append("item \(i): non-finite clip \(c.shape.rect)")
            }
            if DeviceProjection.pixelBounds(item.quad, item.transform, width: w, height: h) == nil {
                v.append("item \(i): covers no pixel of the \(w)×\(h) canvas (quad \(item.quad))")
            }
            if case .image(let index, _, let opacity) = item.paint {
                if !plan.images.indices.contains(index) { v.append("item \(i): image index \(index) of \(plan.images.count)") }
                if !opacity.isFinite || opacity < 0 || opacity > 1 { v.append("item \(i): opacity \(opacity)") }
            }
            if case .solid(let c) = item.paint, ![c.r, c.g, c.b, c.a].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) {
                v.append("item \(i): colour \(c)")
            }
        }
        let passes = plan.offscreenPasses
        // The render graph: a pass's target is a real size; where it lands on the canvas is inside
        // it (raster-cache passes, in the layer's own space, have no footprint); every item samples
        // only a pass that ran before its own list; a blur reads an earlier pass.
        func sources(_ items: [DrawItem], before limit: Int, _ what: String) {
            for (k, item) in items.enumerated() {
                if case .offscreen(.pass(let j), _, _) = item.paint, !(0..<limit).contains(j) {
                    v.append("\(what) item \(k): samples pass \(j), not among the \(limit) before it")
                }
                if !item.transform.elements.allSatisfy(\.isFinite) || !finite(item.quad) {
                    v.append("\(what) item \(k): non-finite matrix or quad")
                }
                // The backend's clip slots bound what is drawn (logical items, for the profiler
                // only, may carry the clips of every composite they were expanded through).
                if item.clips.count > DrawItem.maxClips { v.append("\(what) item \(k): \(item.clips.count) clips > \(DrawItem.maxClips)") }
                if let r = item.flattened {
                    // A region is a non-empty rectangle of the canvas with a stack the backend holds.
                    let f = r.rect
                    if f.isEmpty || f.x < 0 || f.y < 0 || f.x + f.width > w || f.y + f.height > h {
                        v.append("\(what) item \(k): flattened region \(f) not inside the \(w)×\(h) canvas")
                    }
                    if !(1...FlattenedRegion.maxDepth).contains(r.layers.count) {
                        v.append("\(what) item \(k): flattened stack of \(r.layers.count) layers")
                    }
                    for case .image(let index, _, _, _) in r.layers where !plan.images.indices.contains(index) {
                        v.append("\(what) item \(k): flattened image index \(index) of \(plan.images.count)")
                    }
                }
            }
        }
        for (i, p) in passes.enumerated() {
            let b = p.bounds
            if p.width < 1 || p.height < 1 { v.append("pass \(i) (\(p.reason.rawValue)): target \(p.width)×\(p.height)") }
            if !b.isEmpty && (b.x < 0 || b.y < 0 || b.x + b.width > w || b.y + b.height > h) {
                v.append("pass \(i) (\(p.reason.rawValue)): footprint \(b) not inside the \(w)×\(h) canvas")
            }
            switch p.operation {
            case .draw(let items): sources(items, before: i, "pass \(i)")
            case .blur(let source, let sigma, _, _, let f):
                if !(0..<i).contains(source) { v.append("pass \(i): blurs pass \(source), not an earlier one") }
                if !sigma.isFinite || sigma < 0 || f < 1 { v.append("pass \(i): blur σ \(sigma), factor \(f)") }
            case .filter(let op):
                if !(0..<i).contains(op.source) { v.append("pass \(i): filters pass \(op.source), not an earlier one") }
                if case .blur(let sigma, _, let f, _) = op.kind, !sigma.isFinite || sigma < 0 || f < 1 {
                    v.append("pass \(i): filter blur σ \(sigma), factor \(f)")
                }
                if case .variableBlur(let sigma, _, _, let mask, _, let level) = op.kind {
                    if !sigma.isFinite || sigma < 0 || !plan.images.indices.contains(mask) {
                        v.append("pass \(i): variable blur σ \(sigma), mask image \(mask)")
                    }
                    // Bounded taps: a level below the coarsest blurs at most about 12 of its texels.
                    let largest = level.reducedSigma(sigma)
                    if level.downsample < 1 || !largest.isFinite || (level.upper.isFinite && largest > 13) {
                        v.append("pass \(i): variable blur level ×\(level.downsample) up to σ′ \(largest)")
                    }
                }
                if let r = op.region, r.x < 0 || r.y < 0 || r.width < 1 || r.height < 1 || r.x + r.width > p.width || r.y + r.height > p.height {
                    v.append("pass \(i): draws \(r), not inside its \(p.width)×\(p.height) target")
                }
                if let k = op.coarse {
                    // The coarser level: an earlier pass, half this one's size (rounded up).
                    if !(0..<i).contains(k) || passes[k].width != (p.width + 1) / 2 || passes[k].height != (p.height + 1) / 2 {
                        v.append("pass \(i): reads pass \(k) as its coarser level")
                    }
                }
            case .backdrop(let c):
                if c.canvasItemCount < 0 || c.canvasItemCount > plan.canvasItems.count {
                    v.append("pass \(i): backdrop after \(c.canvasItemCount) of \(plan.canvasItems.count) canvas items")
                }
            case .blend(let source, let destination, _):
                for k in [source, destination] where !(0..<i).contains(k) || passes[k].width != p.width || passes[k].height != p.height {
                    v.append("pass \(i): blends pass \(k), not an earlier one of its size")
                }
            }
        }
        sources(plan.canvasItems, before: passes.count, "canvas")
        v += stackCulling(plan.canvasItems)
        return v
    }

    /// Stack culling's items (`StackCulling`): each culled run (a canvas segment) starts with its
    /// marking pieces (solids, odd ranks, the top veil's first; ordered ones with their own bit and
    /// a test of the bits above), then its items with ranks that
    /// never decrease, every rank one the depth buffer holds exactly and every K at least 1.
    public static func stackCulling(_ items: [DrawItem]) -> [String] {
        var v: [String] = []
        var lastMark: Int?, lastItem: Int?
        for (k, item) in items.enumerated() {
            guard let s = item.stackStencil else { lastMark = nil; lastItem = nil; continue }
            if !(0...StackStencil.maxRank).contains(s.rank) || s.depth < 1 { v.append("canvas item \(k): stack rank \(s.rank), K \(s.depth)") }
            switch s.role {
            case .mark, .markBit:
                // After items: the next segment's run (backdrop captures cut the canvas).
                if lastItem != nil { lastItem = nil; lastMark = nil }
                if s.rank % 2 != 1 { v.append("canvas item \(k): marking piece of even rank \(s.rank)") }
                if case .solid = item.paint {} else { v.append("canvas item \(k): marking piece with a paint") }
                if s.role == .markBit {
                    // Its own bit, and a test of the bits above it (or of its own: never).
                    let own = s.writeMask, mask = s.compareMask
                    if own.nonzeroBitCount != 1 || (mask & own != 0 && mask != own) || s.reference & ~(mask | own) != 0 {
                        v.append("canvas item \(k): ordered piece's masks \(mask), \(own), reference \(s.reference)")
                    }
                }
                if let m = lastMark, s.rank > m { v.append("canvas item \(k): marking piece of rank \(s.rank) after \(m) (top veil first)") }
                lastMark = s.rank
            case .tested, .untested:
                if let m = lastItem, s.rank < m { v.append("canvas item \(k): stack rank \(s.rank) after \(m)") }
                lastItem = s.rank
            }
        }
        return v
    }

    /// Violations in a frame's profile counters: whole, non-negative, consistent, no NaN.
    public static func check(_ c: FrameCounters) -> [String] {
        var v: [String] = []
        if !c.overdraw.isFinite || c.overdraw < 0 { v.append("overdraw \(c.overdraw)") }
        if [c.items, c.offscreenPasses, c.offscreenPixels, c.shadedPixels, c.blendedPixels, c.maxOverdraw].contains(where: { $0 < 0 }) {
            v.append("negative counter \(c)")
        }
        if c.blendedPixels > c.shadedPixels { v.append("blended \(c.blendedPixels) > shaded \(c.shadedPixels)") }
        if c.overdrawHistogram.reduce(0, +) != c.canvasPixels { v.append("overdraw histogram \(c.overdrawHistogram) does not add up to \(c.canvasPixels) pixels") }
        return v
    }

    /// Violations in a path: every coordinate finite.
    public static func finite(_ path: Path) -> [String] {
        for (i, e) in path.elements.enumerated() {
            let points: [Point]
            switch e {
            case .move(let p), .line(let p): points = [p]
            case .quad(let a, let b): points = [a, b]
            case .cubic(let a, let b, let c): points = [a, b, c]
            case .close: points = []
            }
            if !points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) { return ["path element \(i) is not finite: \(e)"] }
        }
        return []
    }

    static func finite(_ r: Rect) -> Bool {
        r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
    }

    /// Violations in a rasterised request: the size the plan asked for, premultiplied alpha
    /// (no colour channel above its alpha: the backend blends premultiplied source-over).
    public static func check(_ bitmap: Bitmap, for r: RasterRequest) -> [String] {
        var v: [String] = []
        if bitmap.width != r.pixelWidth || bitmap.height != r.pixelHeight {
            v.append("raster request \(r.key): asked \(r.pixelWidth)×\(r.pixelHeight), got \(bitmap.width)×\(bitmap.height)")
        }
        var p = 0
        while p + 3 < bitmap.pixels.count {
            let a = bitmap.pixels[p + 3]
            if bitmap.pixels[p] > a || bitmap.pixels[p + 1] > a || bitmap.pixels[p + 2] > a {
                v.append("raster request \(r.key): texel \(p / 4) (\(bitmap.pixels[p]), \(bitmap.pixels[p + 1]), \(bitmap.pixels[p + 2]), \(a)) is not premultiplied")
                break
            }
            p += 4
        }
        return v
    }
}
