import CVulkan

/// The colour attachment a frame is drawn into and the host-visible buffer it is read back through.
/// Both are kept while the frame size repeats (the common case: every frame of a sequence).
final class RenderTarget {
    let image: GPUImage
    let readback: HostBuffer
    var width: Int { image.width }
    var height: Int { image.height }

    init(_ device: VulkanDevice, width: Int, height: Int) throws {
        image = try GPUImage(device, width: width, height: height,
                             usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue
                                | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue)
        readback = try HostBuffer(device, size: width * height * 4,
                                  usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue, readBack: true)
    }

    /// Records: attachment -> transfer source, copy into the readback buffer (tightly packed rows,
    /// top-down), and make the transfer visible to the host before the fence signals.
    func recordReadback(_ cmd: VkCommandBuffer) {
        Barriers.image(cmd, image.handle,
                       from: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                       to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT)
        var region = VkBufferImageCopy()
        region.bufferOffset = 0
        region.bufferRowLength = 0      // tightly packed
        region.bufferImageHeight = 0
        region.imageSubresource = GPUImage.colorLayers
        region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        vkCmdCopyImageToBuffer(cmd, image.handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.handle, 1, &region)
        Barriers.memory(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT)
    }

    /// The pixels after the frame's fence: premultiplied RGBA8, rows top-down.
    func pixels() -> [UInt8] {
        let count = width * height * 4
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            out.baseAddress!.initialize(from: readback.mapped.assumingMemoryBound(to: UInt8.self), count: count)
            initialized = count
        }
    }
}
