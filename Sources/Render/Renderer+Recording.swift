import CVulkan
import Plan
import Raster
import Glibc

/// Recording a frame's draws into a command buffer: beginning dynamic rendering on a target (with
/// the stack-culling stencil when its batches need it) and drawing the batches with their
/// pipelines. `Renderer.record` and the shader precompile draw through these.
extension Renderer {
    /// Transitions `image` to a colour attachment (its previous contents discarded) and begins
    /// dynamic rendering into all of it, cleared to `clear`.
    /// `load`: keep what the image holds (a canvas segment after a backdrop capture, which left
    /// it a colour attachment) instead of clearing it.
    /// `stencil`: a stack-culled canvas's stencil attachment, cleared (`StencilTarget`).
    func beginRendering(_ cmd: VkCommandBuffer, _ image: GPUImage, clear c: RGBA, load: Bool = false,
                        stencil: StencilTarget? = nil) {
        if !load {
            Barriers.image(cmd, image.handle, from: VK_IMAGE_LAYOUT_UNDEFINED,
                           VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_NONE,
                           to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                           VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
        }
        stencil?.prepare(cmd)
        beginDynamicRendering(cmd, image, load: load, clear: c, stencil: stencil)
    }

    /// The stencil attachment `batches` need: the frame's when any culls stacks.
    func stencil(for batches: [DrawBatch]) -> StencilTarget? {
        batches.contains { $0.key.stencil != nil } ? stencil : nil
    }

    /// Begins dynamic rendering into all of `image` (a colour attachment already), loading what it
    /// holds or clearing it to `clear`; viewport and scissor cover the whole image. `onlyFirstPixel`
    /// limits the render area and scissor to pixel (0, 0) (`ShaderPrecompile.swift`).
    func beginDynamicRendering(_ cmd: VkCommandBuffer, _ image: GPUImage, load: Bool, clear c: RGBA, onlyFirstPixel: Bool = false,
                               stencil: StencilTarget? = nil) {
        let arena = PinnedArena()
        var attachment = VkRenderingAttachmentInfo()
        attachment.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
        attachment.imageView = image.view
        attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
        attachment.loadOp = load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE
        attachment.clearValue.color.float32 = (c.r, c.g, c.b, c.a)
        let area = VkRect2D(offset: VkOffset2D(x: 0, y: 0),
                            extent: onlyFirstPixel ? VkExtent2D(width: 1, height: 1) : VkExtent2D(width: UInt32(image.width), height: UInt32(image.height)))
        var rendering = VkRenderingInfo()
        rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO
        rendering.renderArea = area
        rendering.layerCount = 1
        rendering.colorAttachmentCount = 1
        rendering.pColorAttachments = UnsafePointer(arena.pin(attachment))
        if let stencil {
            // One combined image: the same attachment for both aspects.
            let a = UnsafePointer(arena.pin(stencil.attachment))
            rendering.pStencilAttachment = a
            rendering.pDepthAttachment = a
        }
        vkCmdBeginRendering(cmd, &rendering)
        var viewport = VkViewport(x: 0, y: 0, width: Float(image.width), height: Float(image.height), minDepth: 0, maxDepth: 1)
        var scissor = area
        vkCmdSetViewport(cmd, 0, 1, &viewport)
        vkCmdSetScissor(cmd, 0, 1, &scissor)
    }

    func drawBatches(_ cmd: VkCommandBuffer, _ batches: [DrawBatch], _ pipelineOf: [VkPipeline],
                             _ frameTextures: FrameTextures, _ graph: FrameGraph, list: Int, width: Int, height: Int) {
        if batches.isEmpty { return }
        var recordSet: VkDescriptorSet? = records!.descriptorSet
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout, 0, 1, &recordSet, 0, nil)
        var size: (Float, Float) = (Float(width), Float(height))
        vkCmdPushConstants(cmd, pipelines.layout, VK_SHADER_STAGE_VERTEX_BIT.rawValue, 0,
                           UInt32(PipelineLibrary.pushConstantSize), &size)
        var boundPipeline: VkPipeline?
        var boundTexture: VkDescriptorSet?
        if let k = batches.first(where: { $0.stencilDepth != nil })?.stencilDepth {
            // Stack culling: K − 1, what the marking pieces' stencil test compares with
            // (StencilStates).
            vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK.rawValue, UInt32(max(k - 1, 0)))
        }
        for (batch, pipeline) in zip(batches, pipelineOf) {
            if let b = batch.stencilBits {
                // Culling by order: this batch's test and bit (StencilStates, `markBit`).
                vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK.rawValue, UInt32(b.reference))
                vkCmdSetStencilCompareMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK.rawValue, UInt32(b.compare))
                vkCmdSetStencilWriteMask(cmd, VK_STENCIL_FACE_FRONT_AND_BACK.rawValue, UInt32(b.write))
            }
            if boundPipeline != pipeline {
                vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline)
                boundPipeline = pipeline
            }
            if batch.regionTextures != nil {
                // Set 0 (the records) and the push constants stay bound: the layouts share them.
                if let regionSet = batch.regionSet {
                    var bind: VkDescriptorSet? = regionSet
                    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.regionLayout, 1, 1, &bind, 0, nil)
                    boundTexture = nil
                }
                vkCmdDraw(cmd, 6, 1, 0, UInt32(batch.firstItem))
                continue
            }
            var set: VkDescriptorSet?
            switch batch.texture {
            case .image(let slot)?: set = frameTextures.slots[slot].descriptorSet(batch.sampler)
            case .target(let source)?: set = (try? graph.target(source, before: list))?.descriptorSet(batch.sampler)
            case nil: set = nil
            }
            if let s = set, boundTexture != s {
                var bind: VkDescriptorSet? = s
                vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.layout, 1, 1, &bind, 0, nil)
                boundTexture = s
            }
            // Six vertices build the quad; the instances are the batch's items.
            vkCmdDraw(cmd, 6, UInt32(batch.count), 0, UInt32(batch.firstItem))
        }
    }
}
