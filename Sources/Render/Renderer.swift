import CVulkan
import Plan
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Executes FramePlans on a Vulkan 1.3 device, headless, and returns the pixels.
///
/// One renderer is one Vulkan isolation domain: it is not Sendable; create and use it on one thread
/// (or actor) and pass the plain-value `RenderedFrame`s around. Everything expensive is kept across
/// frames: pipelines (per specialisation variant), textures (by content hash, LRU-capped), the
/// target and readback buffer (while the size repeats), the draw-record buffer, the command buffer.
///
/// Per frame: resolve textures -> encode one record per item -> batch runs of items sharing
/// pipeline/texture/sampler -> record one command buffer (uploads, dynamic rendering with a clear,
/// one instanced draw per batch, copy to the readback buffer) -> submit, wait on the fence -> read.
public final class Renderer {
    private let device: VulkanDevice
    private let pipelines: PipelineLibrary
    private let textures: TextureCache
    private let commands: FrameCommands
    private let timer: GPUTimer?
    private var target: RenderTarget?
    private var records: DrawRecordBuffer?
    private var staging: HostBuffer?
    private var frameNumber: UInt64 = 0
    /// How mip levels are made for trilinear sampling: device blits where the colour format
    /// supports them, else the CPU (internal so tests can exercise the fallback).
    var mipmapGeneration: MipmapGeneration

    /// The device rendering (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
    public var deviceName: String { device.name }
    /// Why this device was chosen (see `VulkanDevice.survey()` for all devices).
    public var deviceReport: DeviceReport { device.report }
    /// Least-recently-used textures are evicted once resident texture bytes exceed this.
    public var textureBudgetBytes: Int {
        get { textures.budgetBytes }
        set { textures.budgetBytes = newValue }
    }
    /// Default texture budget: 1 GiB (about 90 full-screen 1170×2532 images).
    public static let defaultTextureBudgetBytes = 1 << 30
    /// Staging buffers up to this size are kept for the next frame's uploads.
    static let stagingKeepBytes = 32 << 20

    /// `preferredDevice`: a case-insensitive substring of the device name (else CAPROF_DEVICE, else
    /// the most preferred kind). CAPROF_VALIDATION=1 enables the Khronos validation layer and turns
    /// its errors into thrown `RenderError.validation`.
    public init(preferredDevice: String? = nil) throws {
        device = try VulkanDevice(preferred: preferredDevice, validation: VulkanInstance.validationRequested)
        pipelines = try PipelineLibrary(device)
        textures = TextureCache(device, budgetBytes: Self.defaultTextureBudgetBytes)
        commands = try FrameCommands(device)
        timer = try GPUTimer(device)
        mipmapGeneration = device.mipmapGeneration
        try device.checkValidation()
    }

    /// Draws `plan` and reads it back. `images` maps `PlannedImage.key` to its bitmap; bitmaps with
    /// the same `contentHash` share one texture, and textures already resident are not uploaded again.
    /// CPU time of the current frame's texture uploads (texture resolution + staging copies).
    private var uploadNanoseconds: UInt64 = 0

    public func render(_ plan: FramePlan, images: [UInt64: Bitmap]) throws -> RenderedFrame {
        let start = Self.now()
        let maxSide = device.maxImageDimension2D
        guard (1...maxSide).contains(plan.pixelWidth), (1...maxSide).contains(plan.pixelHeight) else {
            throw RenderError.unsupportedSize(what: "Frame", width: plan.pixelWidth, height: plan.pixelHeight, maximum: maxSide)
        }
        frameNumber += 1
        let texturesStart = Self.now()
        let frameTextures = try FrameTextures(plan, images: images, cache: textures, frame: frameNumber,
                                              pipelines: pipelines, maxDimension: maxSide,
                                              mipmapGeneration: mipmapGeneration)
        uploadNanoseconds = Self.now() - texturesStart
        let batches: [DrawBatch]
        do {
            batches = try encode(plan, frameTextures)
            try record(plan, frameTextures, batches)
        } catch {
            frameTextures.discardUploads(from: textures)
            throw error
        }
        let cpuUpload = uploadNanoseconds
        let cpuEncode = Self.now() - start - min(cpuUpload, Self.now() - start)
        do {
            try commands.submitAndWait()
        } catch {
            frameTextures.discardUploads(from: textures)
            throw error
        }
        // A large staging buffer (a first frame of full-screen images) is not worth keeping.
        if let staging, staging.size > Self.stagingKeepBytes { self.staging = nil }
        let gpu = try timer?.elapsedNanoseconds()
        let pixels = target!.pixels()
        textures.evict(keeping: frameNumber)
        try device.checkValidation()
        return RenderedFrame(
            width: plan.pixelWidth, height: plan.pixelHeight, pixels: pixels,
            stats: RenderStats(gpuNanoseconds: gpu, uploadedBytes: frameTextures.uploadBytes,
                               textureBytesResident: textures.residentBytes, drawCalls: batches.count,
                               items: plan.items.count, cpuEncodeNanoseconds: cpuEncode,
                               cpuUploadNanoseconds: cpuUpload))
    }

    /// Writes one record per item into the record buffer and splits the items into batches.
    private func encode(_ plan: FramePlan, _ frameTextures: FrameTextures) throws -> [DrawBatch] {
        if records == nil || records!.capacity < plan.items.count {
            records = nil   // free the old buffer before allocating its successor
            records = try DrawRecordBuffer(device, items: plan.items.count, pipelines: pipelines)
        }
        let base = records!.records
        for (i, item) in plan.items.enumerated() {
            var extent = (width: 0, height: 0)
            if case .image(let index, _, _) = item.paint {
                let image = frameTextures.slots[frameTextures.slot(ofImage: index)].image
                extent = (image.width, image.height)
            }
            DrawRecord.encode(item, imageExtent: extent, into: base + i * DrawRecord.floatCount)
        }
        return DrawBatching.batches(plan.items) { frameTextures.slot(ofImage: $0) }
    }

    /// Records the frame's command buffer.
    private func record(_ plan: FramePlan, _ frameTextures: FrameTextures, _ batches: [DrawBatch]) throws {
        let width = plan.pixelWidth, height = plan.pixelHeight
        if target == nil || target!.width != width || target!.height != height {
            target = nil
            target = try RenderTarget(device, width: width, height: height)
        }
        let target = self.target!
        let uploadBytes = frameTextures.uploadBytes
        if uploadBytes > 0 {
            staging = try HostBuffer.ensure(staging, device, size: uploadBytes,
                                            usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue)
        }
        // Build every pipeline before recording, so a compile failure leaves no half-recorded buffer.
        let pipelineOf = try batches.map { try pipelines.pipeline($0.key) }

        let cmd = try commands.begin()
        timer?.begin(cmd)
        if let staging, uploadBytes > 0 {
            let copyStart = Self.now()
            frameTextures.recordUploads(cmd, staging: staging)
            uploadNanoseconds += Self.now() - copyStart
        }

        // The previous frame's contents are irrelevant (cleared below): transition from UNDEFINED.
        Barriers.image(cmd, target.image.handle, from: VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_NONE,
                       to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
        let arena = PinnedArena()
        var attachment = VkRenderingAttachmentInfo()
        attachment.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
        attachment.imageView = target.image.view
        attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
        attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE
        let c = plan.clearColor
        attachment.clearValue.color.float32 = (c.r, c.g, c.b, c.a)
        let area = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: UInt32(width), height: UInt32(height)))
        var rendering = VkRenderingInfo()
        rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO
        rendering.renderArea = area
        rendering.layerCount = 1
        rendering.colorAttachmentCount = 1
        rendering.pColorAttachments = UnsafePointer(arena.pin(attachment))
        vkCmdBeginRendering(cmd, &rendering)

        if !batches.isEmpty {
            var viewport = VkViewport(x: 0, y: 0, width: Float(width), height: Float(height), minDepth: 0, maxDepth: 1)
            var scissor = area
            vkCmdSetViewport(cmd, 0, 1, &viewport)
            vkCmdSetScissor(cmd, 0, 1, &scissor)
            var recordSet: VkDescriptorSet? = records!.descriptorSet
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout, 0, 1, &recordSet, 0, nil)
            var size: (Float, Float) = (Float(width), Float(height))
            vkCmdPushConstants(cmd, pipelines.layout, VK_SHADER_STAGE_VERTEX_BIT.rawValue, 0,
                               UInt32(PipelineLibrary.pushConstantSize), &size)
            var boundPipeline: VkPipeline?
            var boundTexture: VkDescriptorSet?
            for (batch, pipeline) in zip(batches, pipelineOf) {
                if boundPipeline != pipeline {
                    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline)
                    boundPipeline = pipeline
                }
                if let slot = batch.texture {
                    var set: VkDescriptorSet? = frameTextures.slots[slot].descriptorSet(batch.sampler)
                    if boundTexture != set {
                        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout, 1, 1, &set, 0, nil)
                        boundTexture = set
                    }
                }
                // Six vertices build the quad; the instances are the batch's items.
                vkCmdDraw(cmd, 6, UInt32(batch.count), 0, UInt32(batch.firstItem))
            }
        }
        vkCmdEndRendering(cmd)
        target.recordReadback(cmd)
        timer?.end(cmd)
    }

    private static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
