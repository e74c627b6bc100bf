import CVulkan
import Plan

/// Backdrop captures (`OffscreenPass.Operation.backdrop`): the canvas is drawn in segments. When
/// the pass list reaches a capture, the canvas items planned before it are drawn (the first
/// segment over the clear colour, later ones loading what is there), the captured region is
/// blitted into the pass's target (bilinearly when the backdrop's scale shrinks it), and the
/// canvas goes back to being a colour attachment for the next segment.
enum BackdropCapture {
    /// The canvas batches split at each capture's item count: segment s holds the batches drawn
    /// before capture s (and the last segment the rest). `drawnBefore` counts the drawn records
    /// (placeholders are not drawn) before each capture, in canvas-record indices from `firstRecord`.
    static func segments(_ batches: [DrawBatch], drawnBefore: [Int], firstRecord: Int) -> [[DrawBatch]] {
        var out: [[DrawBatch]] = []
        var rest = batches
        for boundary in drawnBefore {
            let cut = firstRecord + boundary
            var head: [DrawBatch] = []
            var tail: [DrawBatch] = []
            for b in rest {
                if b.firstItem + b.count <= cut {
                    head.append(b)
                } else if b.firstItem >= cut {
                    tail.append(b)
                } else {
                    var h = b, t = b
                    h.count = cut - b.firstItem
                    t.firstItem = cut
                    t.count = b.count - h.count
                    head.append(h); tail.append(t)
                }
            }
            out.append(head)
            rest = tail
        }
        out.append(rest)
        return out
    }

    /// Copies `region` of the canvas (a colour attachment, rendering ended) into `target`, scaled
    /// to its size, and leaves the target readable by shaders and the canvas ready to load.
    static func record(_ cmd: VkCommandBuffer, canvas: GPUImage, region: PixelRect, into target: GPUImage) {
        Barriers.image(cmd, canvas.handle, from: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                       VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                       to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT)
        Barriers.image(cmd, target.handle, from: VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_NONE,
                       to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT)
        var blit = VkImageBlit()
        blit.srcSubresource = GPUImage.colorLayers
        blit.dstSubresource = GPUImage.colorLayers
        blit.srcOffsets.0 = VkOffset3D(x: Int32(region.x), y: Int32(region.y), z: 0)
        blit.srcOffsets.1 = VkOffset3D(x: Int32(region.x + region.width), y: Int32(region.y + region.height), z: 1)
        blit.dstOffsets.0 = VkOffset3D(x: 0, y: 0, z: 0)
        blit.dstOffsets.1 = VkOffset3D(x: Int32(target.width), y: Int32(target.height), z: 1)
        let same = target.width == region.width && target.height == region.height
        vkCmdBlitImage(cmd, canvas.handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target.handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       1, &blit, same ? VK_FILTER_NEAREST : VK_FILTER_LINEAR)
        Barriers.image(cmd, target.handle, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
        Barriers.image(cmd, canvas.handle, from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                       VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                       to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT)
    }
}
