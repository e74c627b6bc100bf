import Geometry
import LayerModel

/// Damage: the device pixels whose colour can differ between one frame's plan and the next's
/// (Instruments' "Flash Updated Regions"). Pure, decided from the two plans alone, so the profiler
/// counts the same damaged pixels with or without a GPU, and the backend re-renders exactly these
/// rectangles onto the previous frame's target (`Renderer`'s frame cache).
///
/// Rules (`FrameDamage.between`):
/// - the first frame, a canvas of another size and another clear colour damage the whole canvas;
/// - the canvas items are compared in painter's order. With as many items as before, each pair
///   that draws differently damages the old item's bounds and the new one's (a moved layer damages
///   where it was and where it is); otherwise the common prefix and suffix are compared pairwise
///   and every item between them, before and after, is damaged;
/// - two items draw the same when everything in them is equal, their images have the same content
///   key and size (not the same index), and the offscreen result they sample is unchanged: a pass
///   is changed when it is new, differs from its counterpart in the previous plan
///   (`PassCorrespondence`), or samples a changed pass or image; a raster-cache bitmap
///   is changed when this frame renders it (a miss). A changed pass thus damages where its result
///   is drawn, except where it changed only in part (`PassDamage`: a group, a colour filter or a
///   blend around a small change) and an item composites it 1:1 at a whole-pixel offset: then
///   only those parts, moved by the offset;
/// - an item's bounds are the device pixels its quad covers (grown as the backend grows a shaped
///   quad for its antialiased edge, plus a pixel for rounding), clipped to the canvas;
/// - the rectangles are merged into at most `maxRects` disjoint ones (overlapping or touching
///   rectangles first, then the pair whose union adds the fewest pixels).
///
/// Pixels outside the damage are provably the previous frame's: every pixel's ordered list of the
/// items covering it is unchanged there.
public struct FrameDamage: Sendable, Equatable {
    /// Disjoint rectangles of damaged device pixels, top to bottom; empty when nothing changed.
    public var rects: [PixelRect]
    /// Why the whole canvas is damaged (nil when the damage comes from comparing items).
    public var fullReason: FullDamageReason?

    public init(rects: [PixelRect], fullReason: FullDamageReason? = nil) {
        self.rects = rects; self.fullReason = fullReason
    }

    /// Damaged device pixels (the rectangles are disjoint).
    public var pixels: Int { rects.reduce(0) { $0 + $1.area } }
    /// Nothing on the canvas changed: the previous frame's pixels are this frame's.
    public var isUnchanged: Bool { rects.isEmpty }

    /// How the backend treats the frame (reported per frame as `frameCache`).
    public var use: FrameCacheUse {
        if rects.isEmpty { return .reused }
        return fullReason != nil ? .full : .damaged
    }

    /// How the backend treats `plan` with this damage: as `use`, except that a frame with no
    /// damage that fills raster-cache bitmaps (a miss whose result no canvas pixel shows this
    /// frame) still runs those passes, since later hits read them: damaged, with no rectangle.
    public func use(executing plan: FramePlan) -> FrameCacheUse {
        use == .reused && plan.offscreenPasses.contains(where: { $0.rasterCacheKey != nil }) ? .damaged : use
    }

    /// The most rectangles a frame's damage is merged into (the backend draws the canvas once per
    /// rectangle, scissored).
    public static let defaultMaxRects = 4

    /// The damage from `previous` (nil: no previous frame) to `current`.
    public static func between(_ previous: FramePlan?, _ current: FramePlan, maxRects: Int = defaultMaxRects) -> FrameDamage {
        let w = current.pixelWidth, h = current.pixelHeight
        let whole = [PixelRect(x: 0, y: 0, width: w, height: h)]
        guard let previous else { return FrameDamage(rects: whole, fullReason: .firstFrame) }
        if previous.pixelWidth != w || previous.pixelHeight != h { return FrameDamage(rects: whole, fullReason: .canvasResized) }
        if previous.clearColor != current.clearColor { return FrameDamage(rects: whole, fullReason: .clearColorChanged) }
        let diff = DrawingDiff(previous, current)
        // Passes whose results changed only in part (`PassDamage`): an item compositing one 1:1
        // damages only those parts.
        let passChanges = PassDamage.changes(previous, current, diff: diff, held: nil, retained: [:], maxRects: maxRects)
        let old = previous.canvasItems.filter { $0.role != .unsupported }
        let new = current.canvasItems.filter { $0.role != .unsupported }
        var damaged: [PixelRect] = []
        func damage(_ item: DrawItem) {
            if let b = DamageBounds.of(item, width: w, height: h) { damaged.append(b) }
        }
        if old.count == new.count {
            for (a, b) in zip(old, new) where !diff.same(a, b) {
                if let parts = PassDamage.composited(a, b, diff: diff, change: passChanges, width: w, height: h) {
                    damaged += parts
                } else {
                    damage(a); damage(b)
                }
            }
        } else {
            var prefix = 0
            while prefix < min(old.count, new.count), diff.same(old[prefix], new[prefix]) { prefix += 1 }
            var suffix = 0
            while suffix < min(old.count, new.count) - prefix,
                  diff.same(old[old.count - 1 - suffix], new[new.count - 1 - suffix]) { suffix += 1 }
            for a in old[prefix..<(old.count - suffix)] { damage(a) }
            for b in new[prefix..<(new.count - suffix)] { damage(b) }
        }
        return FrameDamage(rects: DamageRegion.merge(damaged, maxRects: maxRects))
    }
}

/// Why a frame damages the whole canvas.
public enum FullDamageReason: String, Sendable, Codable, CaseIterable {
    /// No previous frame: everything is drawn.
    case firstFrame = "first-frame"
    /// The canvas has another size than the previous frame's.
    case canvasResized = "canvas-resized"
    /// The canvas's background colour (the clear colour) changed.
    case clearColorChanged = "clear-color-changed"
}

/// What the backend does with a frame, decided by its damage (the report's `frameCache`).
public enum FrameCacheUse: String, Sendable, Codable, CaseIterable {
    /// Drawn whole (the first frame, or a change of canvas).
    case full
    /// Only the damaged rectangles were drawn again, onto the previous frame's pixels.
    case damaged
    /// Nothing changed: not drawn at all; the previous frame's pixels and timings are its own.
    case reused
}

/// Compares the items of two plans by what they draw (see `FrameDamage`).
struct DrawingDiff {
    let previous: FramePlan
    let current: FramePlan
    /// For each pass of `current`, the pass of `previous` it corresponds to (`PassCorrespondence`):
    /// the same index when the lists have the same shape; across a pass that appears or goes (a
    /// raster-cache store on a miss frame), the later passes still find theirs.
    let counterpart: [Int?]
    /// Passes of `current` whose result may differ from their counterpart's in `previous` (or that
    /// have none).
    private(set) var changedPasses: Set<Int> = []
    /// Raster-cache bitmaps rendered in `current` (misses).
    let renderedCacheKeys: Set<UInt64>

    init(_ previous: FramePlan, _ current: FramePlan) {
        self.previous = previous; self.current = current
        renderedCacheKeys = Set(current.offscreenPasses.compactMap(\.rasterCacheKey))
        counterpart = PassCorrespondence.match(previous.offscreenPasses, current.offscreenPasses)
        for (i, pass) in current.offscreenPasses.enumerated() {
            guard let j = counterpart[i], samePass(previous.offscreenPasses[j], pass) else {
                changedPasses.insert(i); continue
            }
        }
    }

    /// Whether pass `i` of `current` corresponds to pass `j` of `previous` and is unchanged: what
    /// an item or a pass reading `j` then reads in `i` is the same.
    func sameSource(_ j: Int, _ i: Int) -> Bool {
        i >= 0 && i < counterpart.count && counterpart[i] == j && !changedPasses.contains(i)
    }

    private func samePass(_ a: OffscreenPass, _ b: OffscreenPass) -> Bool {
        guard a.width == b.width, a.height == b.height, a.rasterCacheKey == b.rasterCacheKey, b.rasterCacheKey == nil else {
            return false
        }
        switch (a.operation, b.operation) {
        case (.draw(let x), .draw(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.blur(let s1, let sigma1, let h1, let t1, let d1), .blur(let s2, let sigma2, let h2, let t2, let d2)):
            return sameSource(s1, s2) && sigma1 == sigma2 && h1 == h2 && t1 == t2 && d1 == d2
        case (.filter(let x), .filter(let y)):
            // A filter step is unchanged when its source is and its inputs are equal; a variable
            // blur's mask image is compared by what it is, not by its index in each plan.
            let sameCoarse = switch (x.coarse, y.coarse) {
            case (nil, nil): true
            case let (a?, b?): sameSource(a, b)
            default: false
            }
            guard sameSource(x.source, y.source), sameCoarse, x.region == y.region else { return false }
            if case .variableBlur(let s1, let h1, let n1, let m1, let r1, let l1) = x.kind,
               case .variableBlur(let s2, let h2, let n2, let m2, let r2, let l2) = y.kind {
                return s1 == s2 && h1 == h2 && n1 == n2 && r1 == r2 && l1 == l2 && m1 >= 0 && m2 >= 0
                    && m1 < previous.images.count && m2 < current.images.count
                    && previous.images[m1] == current.images[m2]
            }
            return x.kind == y.kind
        case (.backdrop(let x), .backdrop(let y)):
            // A capture copies what the canvas holds after its first items: unchanged when those
            // items are (they only sample passes that ran before this one).
            let n = y.canvasItemCount
            guard x == y, n <= previous.canvasItems.count, n <= current.canvasItems.count else { return false }
            return zip(previous.canvasItems.prefix(n), current.canvasItems.prefix(n)).allSatisfy { same($0, $1) }
        case (.blend(let s1, let d1, let f1), .blend(let s2, let d2, let f2)):
            // A blend mode's result is unchanged when the flattened layer and the destination are.
            return f1 == f2 && sameSource(s1, s2) && sameSource(d1, d2)
        default:
            return false
        }
    }

    /// Whether `a` (of the previous plan) and `b` (of the current plan) put the same pixels down.
    func same(_ a: DrawItem, _ b: DrawItem) -> Bool {
        switch (a.paint, b.paint) {
        case (.image(let i, let s1, let o1), .image(let j, let s2, let o2)):
            guard s1 == s2, o1 == o2, i >= 0, j >= 0, i < previous.images.count, j < current.images.count,
                  previous.images[i] == current.images[j] else { return false }
        case (.offscreen(let x, let s1, let o1), .offscreen(let y, let s2, let o2)):
            guard s1 == s2, o1 == o2 else { return false }
            switch (x, y) {
            case (.pass(let j), .pass(let i)): if !sameSource(j, i) { return false }
            case (.rasterCache(let k1), .rasterCache(let k2)): if k1 != k2 || renderedCacheKeys.contains(k2) { return false }
            default: return false
            }
        default:
            return a == b
        }
        // The paints are equivalent (their sources, too, by correspondence): compare the rest.
        var a = a, b = b
        a.paint = .solid(.clear); b.paint = .solid(.clear)
        return a == b
    }
}

/// Which pass of the previous plan each pass of the current plan is the same pass of: the longest
/// common subsequence of the two lists by what identifies a pass (its layer, reasons, kind of
/// operation, target size and whether it stores into the raster cache). Equal lists match index
/// for index; a pass that appears or goes (a raster-cache store, a filter that starts) leaves the
/// others matched. A match only says which results to compare: `DrawingDiff` then compares them
/// by content, so a wrong pairing can only make a pass "changed", never hide a change.
enum PassCorrespondence {
    struct Identity: Equatable {
        var layer: LayerID
        var reasons: [OffscreenReason]
        var kind: Int
        var width: Int, height: Int
        var stores: Bool

        init(_ p: OffscreenPass) {
            layer = p.layer; reasons = p.reasons; width = p.width; height = p.height
            stores = p.rasterCacheKey != nil
            switch p.operation {
            case .draw: kind = 0
            case .blur: kind = 1
            case .filter: kind = 2
            case .backdrop: kind = 3
            case .blend: kind = 4
            }
        }
    }

    /// Lists longer than this are matched index for index (the table is quadratic).
    static let maxPasses = 2048

    /// For each pass of `current`, its counterpart's index in `previous`, or nil.
    static func match(_ previous: [OffscreenPass], _ current: [OffscreenPass]) -> [Int?] {
        let a = previous.map(Identity.init), b = current.map(Identity.init)
        if a == b || a.count > maxPasses || b.count > maxPasses {
            return b.indices.map { $0 < a.count && a[$0] == b[$0] ? $0 : nil }
        }
        // lcs[i][j]: the longest common subsequence of a[i...] and b[j...].
        let n = a.count, m = b.count
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out = [Int?](repeating: nil, count: m)
        var i = 0, j = 0
        while i < n && j < m {
            if a[i] == b[j] { out[j] = i; i += 1; j += 1 }
            else if lcs[i + 1][j] >= lcs[i][j + 1] { i += 1 }
            else { j += 1 }
        }
        return out
    }
}
