import CVulkan
import Plan
#if canImport(Glibc)
import Glibc
#endif

/// The frame cache: the canvas target and the plan it holds are kept from one frame to the next,
/// so a frame draws only its damage (`FrameDamage`, decided by the plan from the two plans) and a
/// frame whose damage is empty is not drawn at all.
///
/// - Reused (no damage): nothing is recorded or submitted; the previous frame's pixels and
///   timings are returned, `RenderStats.frameCache == .reused` (only raster-cache evictions the
///   plan lists are applied).
/// - Damaged: offscreen passes run as planned (their pooled targets do not persist, raster-cache
///   targets do), then the canvas is begun with load-op LOAD, each damaged rectangle is cleared to
///   the clear colour and every canvas batch is drawn once per rectangle, scissored to it, and only
///   those rectangles are copied to the readback buffer (which still holds the previous frame;
///   a target read in place holds it itself, `RenderTarget`).
///   Each pixel inside is computed exactly as a full render computes it; outside, the plan proves
///   nothing changed, so the frame is byte-identical to rendering it alone.
/// - Full: the first frame, after `forgetPreviousFrame()`, a failed frame, a new canvas size.
final class FrameCache {
    /// Off by default: a bare `Renderer` draws every frame whole; sequences turn it on.
    var enabled = false
    /// The plan whose pixels the canvas target and the readback buffer hold, and its result.
    var previous: (plan: FramePlan, frame: RenderedFrame)?
    /// The damage the frame being recorded draws (nil: the whole canvas).
    var pending: FrameDamage?
}

extension Renderer {
    /// Whether consecutive `render` calls reuse the previous frame (see `FrameCache`). Off by default.
    public var frameCacheEnabled: Bool {
        get { frameCache.enabled }
        set { frameCache.enabled = newValue; if !newValue { forgetPreviousFrame() } }
    }

    /// Forgets the previous frame: the next frame is drawn whole (its timings are then its own).
    public func forgetPreviousFrame() {
        frameCache.previous = nil
        offscreen.dropHeld()
    }

    /// The damage to draw for `plan`: nil when the frame must be drawn whole (the cache off, no
    /// previous frame, or a damage that is the whole canvas anyway).
    func frameDamage(for plan: FramePlan) -> FrameDamage? {
        guard frameCache.enabled, let previous = frameCache.previous else { return nil }
        // A backdrop captures the canvas mid-frame: drawn over the previous frame, it would capture
        // pixels of that frame, so such a frame is drawn whole (or reused when unchanged).
        let captures = plan.offscreenPasses.contains { if case .backdrop = $0.operation { return true }; return false }
        let damage = FrameDamage.between(previous.plan, plan)
        if captures && !damage.isUnchanged { return nil }
        return damage.use == .full ? nil : damage
    }

    /// Takes the held results of `retaining` (this plan's pass → its counterpart in the previous
    /// plan, `RetainedPasses.between`) for this frame, keyed by this plan's pass indices; the other
    /// held targets go back to the pool.
    func takeRetained(_ retaining: [Int: Int]) -> [Int: OffscreenTarget] {
        let taken = offscreen.takeHeld(Set(retaining.values), frame: frameNumber)
        var byPass: [Int: OffscreenTarget] = [:]
        for (i, j) in retaining { byPass[i] = taken[j] }
        return byPass
    }

    /// The previous frame, returned again for a plan that damages nothing.
    func reusedFrame(_ plan: FramePlan, started: UInt64) -> RenderedFrame? {
        guard var frame = frameCache.previous?.frame else { return nil }
        frameCache.previous?.plan = plan
        frame.stats.frameCache = .reused
        frame.stats.uploadedBytes = 0
        frame.stats.cpuUploadNanoseconds = 0
        frame.stats.items = plan.items.count
        frame.stats.cpuEncodeNanoseconds = Self.monotonicNow() - started
        return frame
    }

    static func monotonicNow() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Begins rendering onto `target`, which holds the previous frame (in its resting layout after
    /// the readback), keeping its contents, and clears `rects` to `clear`.
    func beginDamagedRendering(_ cmd: VkCommandBuffer, _ target: RenderTarget, rects: [PixelRect], clear c: RGBA,
                               stencil: StencilTarget? = nil) {
        let image = target.image, rest = target.restingLayout
        Barriers.image(cmd, image.handle, from: rest.layout, rest.stage, rest.access,
                       to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
        stencil?.prepare(cmd)
        beginDynamicRendering(cmd, image, load: true, clear: c, stencil: stencil)   // each rect is scissored before drawing
        // No rectangle: a frame that only fills raster-cache bitmaps draws nothing on the canvas.
        clear(cmd, rects, to: c)
    }

    /// Clears `rects` of the attachment being rendered to `c` (none: nothing is recorded).
    func clear(_ cmd: VkCommandBuffer, _ rects: [PixelRect], to c: RGBA) {
        var clearAttachment = VkClearAttachment()
        clearAttachment.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT.rawValue
        clearAttachment.colorAttachment = 0
        clearAttachment.clearValue.color.float32 = (c.r, c.g, c.b, c.a)
        var clearRects = rects.map { VkClearRect(rect: Self.vkRect($0), baseArrayLayer: 0, layerCount: 1) }
        if !clearRects.isEmpty { vkCmdClearAttachments(cmd, 1, &clearAttachment, UInt32(clearRects.count), &clearRects) }
    }

    /// Begins rendering onto an offscreen pass's held result (readable by shaders since the last
    /// frame), keeping its contents, and clears `rects` to transparent (`PassDamage`).
    func beginPartialRendering(_ cmd: VkCommandBuffer, _ image: GPUImage, rects: [PixelRect]) {
        Barriers.image(cmd, image.handle, from: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                       to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
        beginDynamicRendering(cmd, image, load: true, clear: .clear)
        clear(cmd, rects, to: .clear)
    }

    static func vkRect(_ r: PixelRect) -> VkRect2D {
        VkRect2D(offset: VkOffset2D(x: Int32(r.x), y: Int32(r.y)), extent: VkExtent2D(width: UInt32(r.width), height: UInt32(r.height)))
    }

    /// Sets the scissor to `r` (each damaged rectangle's canvas draws are limited to it).
    func scissor(_ cmd: VkCommandBuffer, _ r: PixelRect) {
        var s = Self.vkRect(r)
        vkCmdSetScissor(cmd, 0, 1, &s)
    }
}
