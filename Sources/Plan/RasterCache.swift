import LayerModel

/// The shouldRasterize cache as the plan sees it: which layers have a cached bitmap, what it was
/// rendered from, and when it was last used. A value passed from one frame's plan to the next
/// (`FramePlanner.plan(root:rasterCache:time:)`), so hits and misses are decided purely, from the
/// presentation trees alone, and `--no-gpu` gives the same hits and misses as a GPU run. The
/// backend keeps the textures under the same keys and frees them when the plan evicts them.
///
/// Rules (reference §1.12, WWDC 2014 session 419; both limits are options):
/// - an entry is reused (a hit) while nothing drawn inside the bitmap changes; the rasterised
///   layer's own position, transform, anchor, zPosition and opacity are outside it, so changing
///   them is still a hit;
/// - an entry not used for more than `maxIdleSeconds` of scene time is evicted;
/// - when the cached bitmaps exceed `maxScreens` canvases of pixels, the least recently used are
///   evicted (those of the current frame last), and among equally recent ones the largest first
///   (Core Animation's order is undocumented; ours evicts the fewest bitmaps, so a bitmap larger
///   than the whole cache does not evict every other one each frame).
public struct RasterCache: Sendable {
    /// Evict an entry unused for longer than this (seconds of scene time). Default 0.1 s.
    public var maxIdleSeconds: Double
    /// Cap on the cached pixels, in canvases. Default 2.5.
    public var maxScreens: Double

    struct Entry: Sendable {
        var key: UInt64
        /// The rasterised subtree as it was drawn, with the root's outside properties neutralised.
        var snapshot: Layer
        var fingerprint: Int
        var scale: Double
        var lastUsed: Double
        var pixels: Int
    }
    var entries: [LayerID: Entry] = [:]
    /// Why an entry that is gone was dropped (reported at that layer's next miss).
    var evicted: [LayerID: InvalidationReason] = [:]
    /// Keys name the backend's textures. Each cache starts at a random point so that two caches
    /// used with one renderer (a run, then a single frame re-planned for overlays) never share a
    /// key; keys never reach a report, so output stays deterministic.
    var nextKey = UInt64.random(in: 1...(UInt64.max >> 1))

    public init(maxIdleSeconds: Double = 0.1, maxScreens: Double = 2.5) {
        self.maxIdleSeconds = maxIdleSeconds; self.maxScreens = maxScreens
    }

    /// Cached bitmaps and their pixels (for reports and tests).
    public var count: Int { entries.count }
    public var cachedPixels: Int { entries.values.reduce(0) { $0 + $1.pixels } }
    public func contains(layer: LayerID) -> Bool { entries[layer] != nil }
}

/// One shouldRasterize layer in one frame (Instruments' "Color Hits Green and Misses Red").
public struct RasterCacheEvent: Sendable, Equatable {
    public var layer: LayerID
    /// nil on a hit; the reason the bitmap had to be rendered again on a miss.
    public var miss: InvalidationReason?
    /// The cached bitmap's texels.
    public var pixels: Int
    /// Where it lands on the canvas.
    public var bounds: PixelRect?
    public var isHit: Bool { miss == nil }
    public init(layer: LayerID, miss: InvalidationReason?, pixels: Int, bounds: PixelRect?) {
        self.layer = layer; self.miss = miss; self.pixels = pixels; self.bounds = bounds
    }
}

/// Why a shouldRasterize layer's cached bitmap was rendered again (a cache miss).
public enum InvalidationReason: Sendable, Equatable, Hashable {
    /// Nothing was cached for the layer yet.
    case firstUse
    /// A property drawn inside the bitmap changed: on the layer itself (other than its position,
    /// transform, anchor, zPosition or opacity) or anywhere in its subtree. `property` is the key
    /// path ("backgroundColor", "transform", "sublayers" when layers were added or removed).
    case propertyChanged(layer: LayerID, property: String)
    /// What the bitmap holds changed in a way no single property names (e.g. a new image decoded
    /// for the same source).
    case contentChanged
    /// `rasterizationScale` changed.
    case rasterizationScaleChanged(from: Double, to: Double)
    /// Evicted after more than the idle limit unused (seconds it had been unused).
    case evictedUnused(idleSeconds: Double)
    /// Evicted because the cache held more than its cap of pixels.
    case evictedCacheFull
}
