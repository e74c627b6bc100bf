import CVulkan
import CHostMemory
import Plan

/// lavapipe compiles a pipeline's fragment shader with LLVM at its first draw, not when the
/// pipeline is created: llvmpipe keys each compiled variant on draw-time state (blend, formats,
/// the bound textures' formats and sizes …). On a first frame of large images that compile ran
/// with every texture already resident, and LLVM's working memory (6.3 MiB for the 16 full-screen
/// layers, in the driver's thread's heap) was part of the process's peak.
///
/// So, before the chunked uploads, the canvas is drawn once with the frame's own pipelines,
/// records and textures (allocated, not yet written: their pages are not resident) into a
/// one-pixel scissor; the compiled variants are kept by the driver, its working memory is freed
/// and handed back to the system (`malloc_trim`), and only then are the textures filled. The
/// frame itself is then drawn exactly as before, from a cleared target: pixels do not change
/// (`ImageDrawingTests.testCompilingShadersBeforeUploadsDoesNotChangeTheFrame`). Frames with
/// offscreen passes are left alone (their targets would have to be rendered first), and so are
/// damaged frames (the frame cache draws them onto the previous frame's pixels, which this draw
/// would discard). The compile's time now falls in the frame's CPU encode time, not its GPU time.
extension Renderer {
    func compileCanvasShaders(_ plan: FramePlan, _ frameTextures: FrameTextures, _ graph: FrameGraph,
                              _ pipelineOf: [[VkPipeline]], _ target: RenderTarget) throws {
        guard plan.offscreenPasses.isEmpty, let pipelines = pipelineOf.last, !pipelines.isEmpty else { return }
        let canvas = plan.offscreenPasses.count
        let cmd = try commands.begin()
        // Sampled images must be in a readable layout; their contents are undefined until the
        // uploads, which transition them from UNDEFINED again (discarding them).
        for upload in frameTextures.uploads {
            let image = upload.texture.image
            Barriers.image(cmd, image.handle, from: VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                           to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                           VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, levels: GPUImage.colorRange(levels: image.mipLevels))
        }
        // Render area and scissor one pixel: the target's other pages stay untouched until the
        // frame's draw (a whole-target clear here put them beside the uploads: 7 MiB more at the peak).
        Barriers.image(cmd, target.image.handle, from: VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                       to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT)
        let stencil = stencil(for: graph.batches[canvas])
        stencil?.prepare(cmd)
        beginDynamicRendering(cmd, target.image, load: false, clear: plan.clearColor, onlyFirstPixel: true, stencil: stencil)
        drawBatches(cmd, graph.batches[canvas], pipelines, frameTextures, graph, list: canvas,
                    width: plan.pixelWidth, height: plan.pixelHeight)
        vkCmdEndRendering(cmd)
        try commands.submitAndWait()
        lastFrameCompiledShadersFirst = true
        _ = caprof_release_free_memory()
    }
}
