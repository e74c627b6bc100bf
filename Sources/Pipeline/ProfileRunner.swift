import Foundation
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
            let plan = FramePlanner(canvas: canvas, images: opaqueTable(images)).plan(root: tree)
            var wall: UInt64 = 0
            let bitmaps = try r.content.prepare(plan, images: images.bitmaps)   // text, shapes, gradient ramps
            let out = try StageTimings.measure(&wall) { try r.renderer.render(plan, images: bitmaps) }
            startup = .init(wallNanoseconds: wall, uploadNanoseconds: out.stats.cpuUploadNanoseconds,
                            uploadedBytes: out.stats.uploadedBytes, recordNanoseconds: out.stats.cpuEncodeNanoseconds)
        }
        var rasterCache = rasterCacheLimits
        for (n, frame) in frames.enumerated() {
            var cost = FrameCost()
            let tree = StageTimings.measure(&cost.evaluateNanoseconds) { scene.presentation(at: frame.time) }
            let images = try scene.images(for: tree)
            let table = opaqueTable(images)
            let plan = StageTimings.measure(&cost.planNanoseconds) {
                FramePlanner(canvas: canvas, images: table).plan(root: tree, rasterCache: &rasterCache, time: frame.time)
            }
            let analysis = StageTimings.measure(&cost.analyzeNanoseconds) {
                profiler.analyze(plan, tree: tree, index: frame.index, time: frame.time, keepOverdrawMap: keepOverdrawMap)
            }
            if let r = renderer {
                var wall: UInt64 = 0
                var rasterTime: UInt64 = 0
                let bitmaps = try StageTimings.measure(&rasterTime) { try r.content.prepare(plan, images: images.bitmaps) }
                r.record(\.rasterize, nanoseconds: rasterTime)
                let out = try StageTimings.measure(&wall) { try r.renderer.render(plan, images: bitmaps) }
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
                if !out.stats.passGPUNanoseconds.isEmpty { cost.passGPUNanoseconds = out.stats.passGPUNanoseconds }
                if let t = thumbnails, t.frames.contains(frame.index) {
                    let size = Self.fit(width: out.width, height: out.height, maxWidth: t.maxWidth, maxHeight: t.maxHeight)
                    let full = Bitmap(width: out.width, height: out.height, pixels: out.pixels)
                    thumbs.append(Thumbnail(frame: frame.index, time: frame.time,
                                            bitmap: size == (out.width, out.height) ? full : full.downscaled(toWidth: size.0, height: size.1)))
                }
            }
            profiler.record(analysis, cost: cost)
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
        let report = profiler.report(tool: .init(version: toolVersion), scene: summary, gpu: renderer != nil,
                                     device: renderer?.renderer.deviceName, fps: fps, warnings: reportWarnings, startup: startup)
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
        let window = earlierTimes.filter { $0 >= time - cache.maxIdleSeconds - 1e-9 && $0 < time }
        for t in window {
            let earlier = scene.presentation(at: t)
            _ = FramePlanner(canvas: canvas, images: opaqueTable(try scene.images(for: earlier))).plan(root: earlier, rasterCache: &cache, time: t)
        }
        let plan = FramePlanner(canvas: canvas, images: opaqueTable(images)).plan(root: tree, rasterCache: &cache, time: time)
        var rendered: Bitmap?
        if let r = renderer {
            // The background is drawn from a plan of this frame alone (every cached bitmap rendered
            // afresh: the same pixels), so it needs none of the run's cache textures.
            let standalone = FramePlanner(canvas: canvas, images: opaqueTable(images)).plan(root: tree)
            let out = try r.renderer.render(standalone, images: try r.content.prepare(standalone, images: images.bitmaps))
            rendered = Bitmap(width: out.width, height: out.height, pixels: out.pixels)
        }
        let overlays = OverlayPainter(canvasScale: canvas.scale)
            .paint(plan, tree: tree, frame: index, time: time, rendered: rendered?.pixels)
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
