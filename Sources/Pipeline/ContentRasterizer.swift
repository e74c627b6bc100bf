import SystemSupport
import Dispatch
import Geometry
import LayerModel
import Plan
import Raster

/// Rasterises a plan's `RasterRequest`s (shape paths through cairo) into bitmaps for the backend,
/// keeping each bitmap while frames keep asking for its key: a layer that only moves, rotates or
/// fades asks for the same key and costs nothing; a `path` or `strokeEnd` animation asks for a new
/// key every frame and is rasterised (and then uploaded) every frame.
///
/// Bitmaps not asked for by the last `keepFrames` frames are dropped, so an animation that makes a
/// new key per frame never accumulates memory.
public final class ContentRasterizer {
    private var cache: [UInt64: (bitmap: Bitmap, lastFrame: Int)] = [:]
    private var frame = 0
    public var keepFrames = 2

    /// What the last `prepare` call did (the profiler's `raster.cpu`).
    public struct Stats: Sendable, Equatable {
        /// Requests rasterised this frame (not found in the cache).
        public var rasterized = 0
        /// Requests served from the cache.
        public var reused = 0
        /// CPU time spent rasterising.
        public var nanoseconds: UInt64 = 0
        /// Bytes of the new bitmaps (what the backend will upload for them).
        public var bytes = 0
        /// Per layer that asked first for each rasterised request: its bytes and CPU time.
        public var layers: [(layer: LayerID, bytes: Int, nanoseconds: UInt64)] = []
        /// CPU time per layer (the profiler's raster.cpu findings).
        public var nanosecondsByLayer: [LayerID: UInt64] {
            layers.reduce(into: [:]) { $0[$1.layer, default: 0] += $1.nanoseconds }
        }
        public static func == (a: Stats, b: Stats) -> Bool {
            a.rasterized == b.rasterized && a.reused == b.reused && a.bytes == b.bytes
        }
    }
    public private(set) var lastStats = Stats()
    /// Requests rasterised since this rasterizer was made (all frames).
    public private(set) var totalRasterized = 0

    public init() {}

    /// The bitmaps of `plan.rasterRequests`, rasterising those not cached, merged into `images`.
    public func prepare(_ plan: FramePlan, images: [UInt64: Bitmap]) throws -> [UInt64: Bitmap] {
        frame += 1
        var stats = Stats()
        guard !plan.rasterRequests.isEmpty else { lastStats = stats; evict(); return images }
        var out = images
        for r in plan.rasterRequests {
            if let hit = cache[r.key] {
                cache[r.key] = (hit.bitmap, frame)
                out[r.key] = hit.bitmap
                stats.reused += 1
                continue
            }
            let start = DispatchTime.now().uptimeNanoseconds
            let bitmap = try Self.rasterize(r)
            let spent = DispatchTime.now().uptimeNanoseconds - start
            stats.nanoseconds += spent
            stats.rasterized += 1
            stats.bytes += bitmap.pixels.count
            stats.layers.append((r.layer, bitmap.pixels.count, spent))
            cache[r.key] = (bitmap, frame)
            out[r.key] = bitmap
        }
        lastStats = stats
        totalRasterized += stats.rasterized
        evict()
        return out
    }

    private func evict() {
        let oldest = frame - keepFrames
        for (k, v) in cache where v.lastFrame <= oldest { cache[k] = nil }
    }

    public static func rasterize(_ r: RasterRequest) throws -> Bitmap {
        switch r.content {
        case .shape(let s):
            var job = ShapeRasterJob(fillPath: s.path, strokePath: s.strokePath, pixelWidth: r.pixelWidth, pixelHeight: r.pixelHeight)
            job.fill = s.fillColor.map { [$0.red, $0.green, $0.blue, $0.alpha].map { min(max($0, 0), 1) } }
            job.evenOdd = s.fillRule == .evenOdd
            job.stroke = s.strokeColor.map { [$0.red, $0.green, $0.blue, $0.alpha].map { min(max($0, 0), 1) } }
            job.lineWidth = s.lineWidth
            job.cap = s.lineCap == .round ? .round : s.lineCap == .square ? .square : .butt
            job.join = s.lineJoin == .round ? .round : s.lineJoin == .bevel ? .bevel : .miter
            job.miterLimit = s.miterLimit
            job.dashes = s.lineDashPattern
            job.dashPhase = s.lineDashPhase
            job.scaleX = s.scaleX; job.scaleY = s.scaleY
            job.offsetX = -s.originX; job.offsetY = -s.originY
            return try ShapeRasterizer.rasterize(job, key: r.key)
        case .shadowPath(let s):
            var job = ShadowPathRasterJob(path: s.path, color: [s.color.red, s.color.green, s.color.blue, s.color.alpha],
                                          sigmaX: s.sigmaX, sigmaY: s.sigmaY, pixelWidth: r.pixelWidth, pixelHeight: r.pixelHeight)
            job.scaleX = s.scaleX; job.scaleY = s.scaleY
            job.offsetX = -s.originX; job.offsetY = -s.originY
            return try ShadowPathRasterizer.rasterize(job, key: r.key)
        case .gradientRamp(let colors, let locations):
            return GradientRamp.bitmap(colors: colors.map { [$0.red, $0.green, $0.blue, $0.alpha] }, locations: locations,
                                       width: r.pixelWidth, key: r.key)
        case .text(let t):
            var job = TextRasterJob(string: t.string, family: t.family, sizePixels: t.fontSize * t.scale,
                                    color: [t.color.red, t.color.green, t.color.blue, t.color.alpha].map { min(max($0, 0), 1) },
                                    widthPixels: t.width * t.scale, heightPixels: t.height * t.scale)
            job.weight = t.weight; job.italic = t.italic; job.wrapped = t.wrapped
            switch t.alignment {
            case .natural: job.alignment = .natural
            case .left: job.alignment = .left
            case .right: job.alignment = .right
            case .center: job.alignment = .center
            case .justified: job.alignment = .justified
            }
            switch t.truncation {
            case .none: job.truncation = .none
            case .start: job.truncation = .start
            case .middle: job.truncation = .middle
            case .end: job.truncation = .end
            }
            return try TextRasterizer.rasterize(job, width: r.pixelWidth, height: r.pixelHeight, key: r.key).0
        }
    }
}
