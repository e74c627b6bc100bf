import SystemSupport
import LayerModel
import Plan
import Profile
import Raster

/// Profiles a scene's frames: evaluate → plan → analyse (always, deterministic) and, with a
/// renderer, draw each frame on Vulkan for its costs. Without a renderer nothing touches Vulkan
/// (`caprof profile --no-gpu`), and the findings are the same: they come from the plans alone.
///
/// Frames are handled one at a time; the profiler keeps only counters and observations, so a long
/// timeline never holds its trees, plans or pixels.
public final class ProfileRunner {
    public let scene: AnimatedScene
    public let renderer: SceneRenderer?
    /// Whether every image is opaque, by content key (scanned once per image).
    private var opacity: [UInt64: Bool] = [:]
    /// Where the last frame's translucent textures are opaque, by key (the blended analysis's
    /// real coverage); rebuilt each frame from the keys it shows, so it never accumulates.
    private var opaqueTexels: [UInt64: OpaqueTexels] = [:]
    /// Shape and text content for runs without a renderer (`--no-gpu`): the blended analysis
    /// reads their coverage, so they are rasterised on the CPU either way.
    let ownContent = ContentRasterizer()

    /// Whether a run measures what each finding's fix saves (`measureSavings`): a plan and an
    /// analysis of each finding's worst frame with and without the fix. The gate, which reads only
    /// the figures, turns it off.
    public var measuresSavings = true

    /// The shouldRasterize cache a run starts with (empty; its limits are the options).
    public var rasterCacheLimits = RasterCache()

    public init(scene: AnimatedScene, renderer: SceneRenderer?) {
        self.scene = scene; self.renderer = renderer
    }

    /// The outcome of a run: the report and what overlays need beside it.
    public struct Run {
        public var report: ProfileReport
        /// The overdraw map of the frame shading the most pixels (when asked for).
        public var worstOverdraw: (frame: Int, map: OverdrawMap)?
        /// Thumbnails of the frames asked for, in frame order (only when frames were drawn).
        public var thumbnails: [Thumbnail] = []
    }

    /// A frame the GPU drew, box-filtered down (the HTML report's frame strip).
    public struct Thumbnail {
        public var frame: Int
        public var time: Double
        public var bitmap: Bitmap
    }

    /// Which frames to keep thumbnails of, and the box they must fit (never enlarged).
    public struct ThumbnailRequest {
        public var frames: Set<Int>
        public var maxWidth: Int
        public var maxHeight: Int
        public init(frames: Set<Int>, maxWidth: Int, maxHeight: Int) {
            self.frames = frames; self.maxWidth = maxWidth; self.maxHeight = maxHeight
        }
    }

    /// - Parameters:
    ///   - frames: frame numbers and their scene times, in order (frame i is at i / fps).
    ///   - file: the scene file as the user named it (for the report).
    ///   - toolVersion: caprof's version.
    ///   - keepOverdrawMap: keep the worst frame's per-pixel overdraw counts.
    ///   - thumbnails: frames to keep a thumbnail of (ignored without a renderer).
    ///   - progress: called with the number of frames done after each frame.
    /// A planner with the renderer's execution switches (`CAPROF_FLATTEN`, `CAPROF_STACK_CULLING`).
    func planner(_ canvas: Canvas, _ table: ImageTable) -> FramePlanner {
        var p = FramePlanner(canvas: canvas, images: table)
        p.flattensRegions = renderer?.flattensRegions ?? true
        p.cullsStacks = renderer?.cullsStacks ?? true
        return p
    }

    public func run(frames: [(index: Int, time: Double)], fps: Double, file: String, toolVersion: String,
                    keepOverdrawMap: Bool = false, thumbnails: ThumbnailRequest? = nil,
                    progress: ((Int) -> Void)? = nil) throws -> Run {
        var thumbs: [Thumbnail] = []
        let canvas = scene.canvas
        var profiler = Profiler(canvas: canvas)
        var warnings: [Unsupported] = scene.document.warnings + scene.timeline.warnings
        // Start-up: draw the first frame once before the profiled frames, so pipeline creation,
        // shader compilation and first uploads are measured apart and no frame carries them.
        var startup: ProfileReport.StartupCost?
        if let r = renderer, let first = frames.first {
            let tree = scene.presentation(at: first.time)
            let images = try scene.images(for: tree)
            let plan = planner(canvas, opaqueTable(images)).plan(root: tree)
            var wall: UInt64 = 0
            // The first frame's shape and text content is rasterised here too (first use, like
            // the first uploads), so the profiled frames find it as a running app does.
            // The translucent images' opaque texels are read before their pixels are let go.
            _ = try translucentTextures(plan, images, rasterized: [:])
            let out = try StageTimings.measure(&wall) {
                try r.renderer.render(plan, pixels: FrameImages(images.pixels, rasterized: try r.content.prepare(plan, images: [:])))
            }
            startup = .init(wallNanoseconds: wall, uploadNanoseconds: out.stats.cpuUploadNanoseconds,
                            uploadedBytes: out.stats.uploadedBytes, recordNanoseconds: out.stats.cpuEncodeNanoseconds)
            // The first profiled frame is drawn whole, so its timings are its own (not start-up's).
            r.renderer.forgetPreviousFrame()
        }
        var rasterCache = rasterCacheLimits
        // Flash Updated Regions and the reuse of unchanged frames (UpdatedRegions.swift).
        var previousPlan: FramePlan?
        var previousTree: Layer?
        var reuse = AnalysisReuse()
        for (n, frame) in frames.enumerated() {
            var cost = FrameCost()
            let tree = StageTimings.measure(&cost.evaluateNanoseconds) { scene.presentation(at: frame.time) }
            let images = try scene.images(for: tree)
            let table = opaqueTable(images)
            let plan = StageTimings.measure(&cost.planNanoseconds) {
                planner(canvas, table).plan(root: tree, rasterCache: &rasterCache, time: frame.time)
            }
            var rasterTime: UInt64 = 0
            let content = renderer?.content ?? ownContent
            let rasterized = try StageTimings.measure(&rasterTime) { try content.prepare(plan, images: [:]) }
            cost.rasterNanoseconds = rasterTime
            let rasterByLayer = content.lastStats.nanosecondsByLayer
            let textures = try translucentTextures(plan, images, rasterized: rasterized)
            let damage = FrameDamage.between(previousPlan, plan)
            var (analysis, analysisReused) = StageTimings.measure(&cost.analyzeNanoseconds) {
                reuse.analyze(plan, tree: tree, index: frame.index, time: frame.time, keepOverdrawMap: keepOverdrawMap,
                              textures: textures, with: profiler.analyzer)
            }
            // raster.cpu depends on the previous frame too: added to reused analyses as well.
            profiler.analyzer.addRasterCPU(to: &analysis, plan: plan, previous: previousPlan, tree: tree, previousTree: previousTree)
            previousPlan = plan
            previousTree = tree
            analysis.counters.damagedPixels = damage.pixels
            let motion = scene.animatedLayers(at: frame.time)
            analysis.animatingLayers = motion.animating
            analysis.movingLayers = motion.moving
            var update = FrameUpdate(damage: damage, frameCache: damage.use(executing: plan), analysisReused: analysisReused)
            if let r = renderer {
                var wall: UInt64 = 0
                r.record(\.rasterize, nanoseconds: rasterTime)
                let out = try StageTimings.measure(&wall) { try r.renderer.render(plan, pixels: FrameImages(images.pixels, rasterized: rasterized)) }
                r.record(\.evaluate, nanoseconds: cost.evaluateNanoseconds)
                r.record(\.plan, nanoseconds: cost.planNanoseconds)
                r.record(\.render, nanoseconds: wall)
                cost.renderNanoseconds = wall
                cost.recordNanoseconds = out.stats.cpuEncodeNanoseconds
                cost.uploadNanoseconds = out.stats.cpuUploadNanoseconds
                cost.gpuNanoseconds = out.stats.gpuNanoseconds
                cost.uploadedBytes = out.stats.uploadedBytes
                cost.textureBytes = out.stats.textureBytesResident
                cost.drawCalls = out.stats.drawCalls
                update.frameCache = out.stats.frameCache
                if !out.stats.passGPUNanoseconds.isEmpty { cost.passGPUNanoseconds = out.stats.passGPUNanoseconds }
                cost.retainedPasses = out.stats.retainedPasses
                cost.partialPasses = out.stats.partialPasses
                cost.culledItems = plan.execution.culledItems
                cost.flattenedItems = plan.execution.flattenedItems
                cost.stackCulledPixels = plan.execution.stackSavedPixels
                if let t = thumbnails, t.frames.contains(frame.index) {
                    let size = Self.fit(width: out.width, height: out.height, maxWidth: t.maxWidth, maxHeight: t.maxHeight)
                    let full = Bitmap(width: out.width, height: out.height, pixels: out.pixels)
                    thumbs.append(Thumbnail(frame: frame.index, time: frame.time,
                                            bitmap: size == (out.width, out.height) ? full : full.downscaled(toWidth: size.0, height: size.1)))
                }
            }
            profiler.record(analysis, cost: cost, updates: update, rasterNanoseconds: rasterByLayer)
            warnings += plan.unsupported
            progress?(n + 1)
        }
        var seen = Set<String>()
        let reportWarnings = warnings.compactMap { u -> ProfileReport.Warning? in
            guard seen.insert(u.description).inserted else { return nil }
            return ProfileReport.Warning(message: u.feature, location: u.location.map {
                FileLocation(file: $0.file, line: $0.line, column: $0.column)
            })
        }
        let summary = ProfileReport.SceneSummary(
            file: file,
            canvas: .init(width: canvas.width, height: canvas.height, scale: canvas.scale,
                          pixelWidth: canvas.pixelWidth, pixelHeight: canvas.pixelHeight),
            layers: scene.document.scene.root.subtreeCount, duration: scene.duration, fps: fps)
        var report = profiler.report(tool: .init(version: toolVersion), scene: summary, gpu: renderer != nil,
                                     device: renderer?.renderer.deviceName,
                                     deviceKind: renderer?.renderer.deviceReport.kind.rawValue, fps: fps, warnings: reportWarnings, startup: startup)
        if measuresSavings {
            try measureSavings(&report, times: Dictionary(frames.map { ($0.index, $0.time) }, uniquingKeysWith: { a, _ in a }))
        }
        return Run(report: report, worstOverdraw: profiler.worstOverdraw.map { ($0.frame, $0.map) }, thumbnails: thumbs)
    }

    /// A frame's overlays, and the frame itself when a renderer drew it.
    public struct OverlayFrame {
        public var overlays: FrameOverlays
        /// The frame as rendered (premultiplied RGBA8), nil without a renderer.
        public var rendered: Bitmap?
    }

    /// The overlays of frame `index` at scene time `time`: the frame is evaluated and planned again
    /// (deterministic: the same plan the run analysed) and, with a renderer, drawn again for the
    /// dimmed background, so a run never keeps trees, plans or pixels of its frames.
    /// `earlierTimes`: the run's frame times before this one, replayed through the plan (no
    /// rendering) so the raster cache is in the state the run had (its hits and misses overlay).
    public func overlays(frame index: Int, time: Double, earlierTimes: [Double] = []) throws -> OverlayFrame {
        let canvas = scene.canvas
        let tree = scene.presentation(at: time)
        let images = try scene.images(for: tree)
        var cache = rasterCacheLimits
        // A bitmap unused for longer than the idle limit is gone, so the cache's state at `time`
        // depends only on the frames within that window (the first of them refills it).
        // The previous frame's window too: its plan gives this frame's Flash Updated Regions.
        let previousTime = earlierTimes.last { $0 < time }
        let window = earlierTimes.filter { $0 >= min(time, previousTime ?? time) - cache.maxIdleSeconds - 1e-9 && $0 < time }
        var previousPlan: FramePlan?
        for t in window {
            let earlier = scene.presentation(at: t)
            let p = FramePlanner(canvas: canvas, images: opaqueTable(try scene.images(for: earlier))).plan(root: earlier, rasterCache: &cache, time: t)
            if t == previousTime { previousPlan = p }
        }
        let plan = FramePlanner(canvas: canvas, images: opaqueTable(images)).plan(root: tree, rasterCache: &cache, time: time)
        let damage = previousPlan.map { FrameDamage.between($0, plan) }
        var rendered: Bitmap?
        let textures = try translucentTextures(plan, images, rasterized: try (renderer?.content ?? ownContent).prepare(plan, images: [:]))
        if let r = renderer {
            // The background is drawn from a plan of this frame alone (every cached bitmap rendered
            // afresh: the same pixels), so it needs none of the run's cache textures.
            let standalone = FramePlanner(canvas: canvas, images: opaqueTable(images)).plan(root: tree)
            let out = try r.renderer.render(standalone, pixels: FrameImages(images.pixels, rasterized: try r.content.prepare(standalone, images: [:])))
            rendered = Bitmap(width: out.width, height: out.height, pixels: out.pixels)
        }
        let overlays = OverlayPainter(canvasScale: canvas.scale)
            .paint(plan, tree: tree, frame: index, time: time, rendered: rendered?.pixels, textures: textures, damage: damage)
        return OverlayFrame(overlays: overlays, rendered: rendered)
    }

    /// The largest size with the aspect ratio of width×height that fits maxWidth×maxHeight
    /// without enlarging (at least 1×1).
    public static func fit(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (Int, Int) {
        let s = min(1, Double(maxWidth) / Double(max(width, 1)), Double(maxHeight) / Double(max(height, 1)))
        return (max(1, min(width, Int((Double(width) * s).rounded()))), max(1, min(height, Int((Double(height) * s).rounded()))))
    }

    /// Up to `count` frames evenly spaced over `frames` (in order; the first and last included).
    public static func evenlySpaced(_ frames: [Int], count: Int) -> [Int] {
        if count <= 0 { return [] }
        if frames.count <= count { return frames }
        if count == 1 { return [frames[0]] }
        var out: [Int] = []
        for k in 0..<count {
            let i = Int((Double(k) * Double(frames.count - 1) / Double(count - 1)).rounded())
            if out.last != frames[i] { out.append(frames[i]) }
        }
        return out
    }

    /// Where the translucent textures `plan` samples are opaque (`OpaqueTexels`), for the blended
    /// analysis; opaque images need none. Kept from frame to frame for the keys still shown.
    /// A decoded image whose pixels were let go after upload is decoded again for it (the startup
    /// frame reads them first, so this is for images first shown after it, or evicted and back).
    func translucentTextures(_ plan: FramePlan, _ images: SceneImages, rasterized: [UInt64: Bitmap]) throws -> [UInt64: OpaqueTexels] {
        var now: [UInt64: OpaqueTexels] = [:]
        let source = FrameImages(images.pixels, rasterized: rasterized)
        for image in plan.images where !image.isOpaque {
            if let known = opaqueTexels[image.key] { now[image.key] = known; continue }
            guard source.identity(image.key) != nil else { continue }
            let b = try source.bitmap(image.key)
            now[image.key] = OpaqueTexels(width: b.width, height: b.height, rgba: b.pixels)
        }
        opaqueTexels = now
        return now
    }

    /// The image table with each image's opacity filled in (the planner passes it on to
    /// `PlannedImage.isOpaque`, which the blended analysis reads).
    func opaqueTable(_ images: SceneImages) -> ImageTable {
        images.table.mapValues { info in
            var info = info
            if let known = opacity[info.key] {
                info.isOpaque = known
            } else if let bitmap = images.bitmaps[info.key] {
                info.isOpaque = bitmap.isOpaque
                opacity[info.key] = info.isOpaque
            }
            return info
        }
    }
}
