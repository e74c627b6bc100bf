import Plan

/// What one `Renderer.render` returns: the pixels and what it cost.
public struct RenderedFrame: Sendable {
    public var width: Int
    public var height: Int
    /// Premultiplied, sRGB-encoded RGBA8, rows top-down, no padding (width · height · 4 bytes).
    public var pixels: [UInt8]
    public var stats: RenderStats

    /// The premultiplied RGBA of pixel (x, y), for tests and probes.
    public func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * width + x) * 4
        return Array(pixels[i..<i + 4])
    }
}

/// Costs of one frame, for the profiler.
public struct RenderStats: Sendable, Equatable {
    /// Device time of the whole command buffer (uploads, drawing, readback copy) from timestamp
    /// queries; nil when the queue has no timestamps.
    public var gpuNanoseconds: UInt64?
    /// Texel bytes uploaded this frame (0 when every image was already resident).
    public var uploadedBytes: Int
    /// Bytes of all textures resident after the frame.
    public var textureBytesResident: Int
    /// Instanced draws recorded (runs of items sharing pipeline, texture and sampler).
    public var drawCalls: Int
    /// Draw items in the plan.
    public var items: Int
    /// CPU time from the start of `render` to the queue submission, uploads excluded (encoding
    /// records, batching, recording commands).
    public var cpuEncodeNanoseconds: UInt64
    /// CPU time spent on texture uploads: resolving the frame's textures (creating new ones) and
    /// copying their texels into the staging buffer. 0 when every image was resident.
    public var cpuUploadNanoseconds: UInt64
    /// Device time of each offscreen pass, in `FramePlan.offscreenPasses` order (empty without
    /// timestamps or passes).
    public var passGPUNanoseconds: [UInt64] = []
    /// Bytes of offscreen targets held after the frame (pooled targets and the raster cache).
    public var offscreenTargetBytes: Int = 0
    /// How the frame cache drew the frame: whole, only its damage, or not at all (reused: the
    /// pixels and timings are the previous frame's). Always `.full` with the cache off.
    public var frameCache: FrameCacheUse = .full
    /// Offscreen passes not rendered: their results were the previous frame's (`RetainedPasses`),
    /// and their texels. Per-pass times are then not reported (not every pass ran).
    public var retainedPasses: Int = 0
    public var retainedPixels: Int = 0
    /// Offscreen passes redrawn only in part onto the previous frame's result (`PassDamage`), and
    /// the texels redrawn. Per-pass times are then not reported either.
    public var partialPasses: Int = 0
    public var partialPixels: Int = 0

    public init(gpuNanoseconds: UInt64?, uploadedBytes: Int, textureBytesResident: Int, drawCalls: Int,
                items: Int, cpuEncodeNanoseconds: UInt64, cpuUploadNanoseconds: UInt64 = 0) {
        self.gpuNanoseconds = gpuNanoseconds; self.uploadedBytes = uploadedBytes
        self.textureBytesResident = textureBytesResident; self.drawCalls = drawCalls
        self.items = items; self.cpuEncodeNanoseconds = cpuEncodeNanoseconds
        self.cpuUploadNanoseconds = cpuUploadNanoseconds
    }
}
