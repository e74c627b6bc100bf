import SystemSupport
import LayerModel
import Plan
import Raster
import Render
import SceneFormat

/// Renders a loaded scene to pixels: evaluate the presentation tree at a time, decode new images,
/// plan, execute on Vulkan. One instance keeps the Vulkan device and its texture cache, so
/// consecutive frames reuse resident textures.
public final class SceneRenderer {
    public let renderer: Renderer
    /// Shape content rasterised on the CPU, kept while frames keep showing it.
    public let content = ContentRasterizer()
    public private(set) var timings = StageTimings()
    /// The shouldRasterize cache across the frames this renderer draws (reset by `resetRasterCache`).
    public private(set) var rasterCache = RasterCache()

    /// Whether the plan flattens runs of pixel-aligned rectangles into regions drawn once
    /// (`FramePlanner.flattensRegions`): on unless `CAPROF_FLATTEN=off`, which draws every item
    /// on its own (the same pixels; for measuring what flattening saves).
    public var flattensRegions: Bool
    /// Whether the plan culls what lies beneath deep translucent stacks (`FramePlanner.cullsStacks`):
    /// on unless `CAPROF_STACK_CULLING=off`, which draws every layer (pixels within 1/255; to measure).
    public var cullsStacks: Bool

    public init(preferredDevice: String? = nil) throws {
        renderer = try Renderer(preferredDevice: preferredDevice)
        // Consecutive frames draw only their damage (a frame whose plan is unchanged is not drawn);
        // CAPROF_FRAME_CACHE=off draws every frame whole (to compare, or to time full frames).
        renderer.frameCacheEnabled = ProcessInfo.processInfo.environment["CAPROF_FRAME_CACHE"] != "off"
        flattensRegions = ProcessInfo.processInfo.environment["CAPROF_FLATTEN"] != "off"
        cullsStacks = ProcessInfo.processInfo.environment["CAPROF_STACK_CULLING"] != "off"
        // CAPROF_TEXEL_BLOCKS=off: flattened regions read row textures (the same pixels; to measure).
        if ProcessInfo.processInfo.environment["CAPROF_TEXEL_BLOCKS"] == "off" { renderer.blocksRegionTextures = false }
        // CAPROF_RETAINED_PASSES=off: every offscreen pass is rendered again (the same pixels; to measure).
        if ProcessInfo.processInfo.environment["CAPROF_RETAINED_PASSES"] == "off" { renderer.retainsPasses = false }
        // CAPROF_PARTIAL_PASSES=off: passes changed in part are rendered whole (the same pixels; to measure).
        if ProcessInfo.processInfo.environment["CAPROF_PARTIAL_PASSES"] == "off" { renderer.redrawsPassesInPart = false }
    }

    /// A renderer on `other`'s Vulkan device and pipelines, with empty caches of its own and
    /// `other`'s settings (`Renderer.init(sharingDeviceOf:)`): a catalog's scenes after the first.
    public init(sharingDeviceOf other: SceneRenderer) throws {
        renderer = try Renderer(sharingDeviceOf: other.renderer)
        flattensRegions = other.flattensRegions
        cullsStacks = other.cullsStacks
    }

    /// The result of one frame: premultiplied RGBA8 pixels and what the plan reported.
    public struct Frame {
        public var width: Int
        public var height: Int
        public var pixels: [UInt8]
        public var plan: FramePlan
        public var stats: RenderStats
    }

    /// Renders the presentation of `scene` at scene time `time` (seconds). `scale` overrides the
    /// canvas scale. Images are decoded once per source across calls with the same `scene`.
    public func render(_ scene: AnimatedScene, at time: Double, scale: Double? = nil) throws -> Frame {
        var canvas = scene.canvas
        if let s = scale { canvas.scale = s }
        let tree = StageTimings.measure(&timings.evaluate) { scene.presentation(at: time) }
        let images = try StageTimings.measure(&timings.decodeImages) { try scene.images(for: tree) }
        let plan = StageTimings.measure(&timings.plan) {
            var planner = FramePlanner(canvas: canvas, images: images.table)
            planner.flattensRegions = flattensRegions
            planner.cullsStacks = cullsStacks
            return planner.plan(root: tree, rasterCache: &rasterCache, time: time)
        }
        let rasterized = try StageTimings.measure(&timings.rasterize) { try content.prepare(plan, images: [:]) }
        let out = try StageTimings.measure(&timings.render) {
            try renderer.render(plan, pixels: FrameImages(images.pixels, rasterized: rasterized))
        }
        return Frame(width: out.width, height: out.height, pixels: out.pixels, plan: plan, stats: out.stats)
    }

    /// One frame of a document at `time` (builds its timeline; for sequences keep an
    /// `AnimatedScene` and call `render(_:at:scale:)` so images are decoded once).
    public func render(_ doc: SceneDocument, at time: Double, scale: Double? = nil) throws -> Frame {
        try render(AnimatedScene(doc), at: time, scale: scale)
    }

    /// The document at time 0.
    public func render(_ doc: SceneDocument, scale: Double? = nil) throws -> Frame {
        try render(doc, at: 0, scale: scale)
    }

    /// Loads, renders at `time` and writes one PNG atomically.
    public func renderFile(_ scenePath: String, to output: String, at time: Double = 0, scale: Double? = nil,
                           compression: PNGCodec.Compression = .fast) throws -> Frame {
        let doc = try StageTimings.measure(&timings.load) { try SceneDecoder.load(path: scenePath) }
        let frame = try render(doc, at: time, scale: scale)
        try StageTimings.measure(&timings.png) {
            try PNGCodec.write(premultiplied: frame.pixels, width: frame.width, height: frame.height, to: output, compression: compression)
        }
        return frame
    }

    /// Adds time spent outside the renderer (loading, encoding) to its timings.
    public func record(_ slot: WritableKeyPath<StageTimings, UInt64>, nanoseconds: UInt64) {
        timings[keyPath: slot] += nanoseconds
    }

    public func resetTimings() { timings = StageTimings() }

    /// Forgets the raster cache (the next frame plans every shouldRasterize layer as a first use).
    public func resetRasterCache() { rasterCache = RasterCache(maxIdleSeconds: rasterCache.maxIdleSeconds, maxScreens: rasterCache.maxScreens) }

    /// Sets the raster cache's limits (and empties it).
    public func setRasterCacheLimits(maxIdleSeconds: Double, maxScreens: Double) {
        rasterCache = RasterCache(maxIdleSeconds: maxIdleSeconds, maxScreens: maxScreens)
    }
}
