import Foundation
import LayerModel
import Plan
import Raster
import Render
import SceneFormat

/// Renders a loaded scene to pixels: decode images, plan, execute on Vulkan. One instance keeps
/// the Vulkan device and its texture cache, so consecutive frames reuse resident textures.
public final class SceneRenderer {
    public let renderer: Renderer
    public private(set) var timings = StageTimings()

    public init(preferredDevice: String? = nil) throws {
        renderer = try Renderer(preferredDevice: preferredDevice)
    }

    /// The result of one frame: premultiplied RGBA8 pixels and what the plan reported.
    public struct Frame {
        public var width: Int
        public var height: Int
        public var pixels: [UInt8]
        public var plan: FramePlan
        public var stats: RenderStats
    }

    /// Renders the scene's model tree (static layer trees; animations are evaluated by the
    /// Animation module once it exists). `scale` overrides the canvas scale.
    public func render(_ doc: SceneDocument, scale: Double? = nil) throws -> Frame {
        var canvas = doc.scene.canvas
        if let s = scale { canvas.scale = s }
        let images = try StageTimings.measure(&timings.decodeImages) { try SceneImages(root: doc.scene.root) }
        let plan = StageTimings.measure(&timings.plan) {
            FramePlanner(canvas: canvas, images: images.table).plan(root: doc.scene.root)
        }
        let out = try StageTimings.measure(&timings.render) { try renderer.render(plan, images: images.bitmaps) }
        return Frame(width: out.width, height: out.height, pixels: out.pixels, plan: plan, stats: out.stats)
    }

    /// Loads, renders and writes one PNG atomically.
    public func renderFile(_ scenePath: String, to output: String, scale: Double? = nil,
                           compression: PNGCodec.Compression = .fast) throws -> Frame {
        let doc = try StageTimings.measure(&timings.load) { try SceneDecoder.load(path: scenePath) }
        let frame = try render(doc, scale: scale)
        try StageTimings.measure(&timings.encode) {
            try PNGCodec.write(premultiplied: frame.pixels, width: frame.width, height: frame.height, to: output, compression: compression)
        }
        return frame
    }

    public func resetTimings() { timings = StageTimings() }
}
