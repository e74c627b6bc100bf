import CHostMemory
import CVulkan
import Plan

/// The colour attachment a frame is drawn into, and how the host reads the finished frame. Both
/// are kept while the frame size repeats (the common case: every frame of a sequence).
///
/// - `.buffer`: the frame is copied into a host-visible buffer at the end of the command buffer
///   and read from there. Any device.
/// - `.inPlace`: the target is a linear image in host-visible memory, mapped, and the host reads
///   it directly. Only on CPU devices (lavapipe), where every image is host memory: there the
///   buffer was a second frame-sized allocation (11.3 MB at 1170 × 2532) and a copy per frame.
///   A GPU renders to linear images slowly or not at all, so it keeps the buffer.
final class RenderTarget {
    enum Readback {
        case buffer(HostBuffer)
        case inPlace(UnsafeMutableRawPointer, rowPitch: Int)
    }

    let image: GPUImage
    let readback: Readback
    var width: Int { image.width }
    var height: Int { image.height }

    static let usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue
        | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue

    /// `inPlace`: read the target in place if the device can render to such an image of this size.
    init(_ device: VulkanDevice, width: Int, height: Int, inPlace: Bool) throws {
        if inPlace, Self.supportsInPlace(device, width: width, height: height) {
            image = try GPUImage(device, width: width, height: height, usage: Self.usage, hostVisible: true)
            var subresource = VkImageSubresource(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, arrayLayer: 0)
            var layout = VkSubresourceLayout()
            vkGetImageSubresourceLayout(device.handle, image.handle, &subresource, &layout)
            var pointer: UnsafeMutableRawPointer?
            try vkCheck(vkMapMemory(device.handle, image.memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &pointer), "vkMapMemory")
            // Unmapped when the memory is freed (vkFreeMemory unmaps implicitly).
            readback = .inPlace(pointer! + Int(layout.offset), rowPitch: Int(layout.rowPitch))
        } else {
            image = try GPUImage(device, width: width, height: height, usage: Self.usage)
            readback = .buffer(try HostBuffer(device, size: width * height * 4,
                                              usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue, readBack: true))
        }
    }

    /// A CPU device whose linear images of the colour format can be rendered to (with blending),
    /// copied and blitted from (backdrop captures) and sampled, at this size.
    static func supportsInPlace(_ device: VulkanDevice, width: Int, height: Int) -> Bool {
        guard device.report.kind == .cpu else { return false }
        var format = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(device.physical, DeviceSelector.colorFormat, &format)
        let needed = VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT.rawValue | VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT.rawValue
            | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT.rawValue | VK_FORMAT_FEATURE_BLIT_SRC_BIT.rawValue
            | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT.rawValue
        guard format.linearTilingFeatures & needed == needed else { return false }
        var properties = VkImageFormatProperties()
        let result = vkGetPhysicalDeviceImageFormatProperties(device.physical, DeviceSelector.colorFormat, VK_IMAGE_TYPE_2D,
                                                              VK_IMAGE_TILING_LINEAR, usage, 0, &properties)
        return result == VK_SUCCESS && Int(properties.maxExtent.width) >= width && Int(properties.maxExtent.height) >= height
    }

    var readsInPlace: Bool { if case .inPlace = readback { return true }; return false }

    /// The layout the target rests in between frames (after `recordReadback`), with the stage and
    /// access that last touched it: a damaged frame starts from there (`beginDamagedRendering`).
    var restingLayout: (layout: VkImageLayout, stage: VkPipelineStageFlags2, access: VkAccessFlags2) {
        readsInPlace ? (VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT)
            : (VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT)
    }

    /// Records what makes the frame readable by the host before the fence signals: in place, the
    /// transition to GENERAL (the layout host access needs) with the writes made visible to the
    /// host; otherwise attachment -> transfer source and the copy of `rects` (all of the frame when
    /// nil) into the readback buffer, whose other pixels still hold the previous frame.
    func recordReadback(_ cmd: VkCommandBuffer, rects: [PixelRect]? = nil) {
        let rest = restingLayout
        Barriers.image(cmd, image.handle,
                       from: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                       VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, to: rest.layout, rest.stage, rest.access)
        guard case .buffer(let buffer) = readback else { return }
        let rects = rects ?? [PixelRect(x: 0, y: 0, width: width, height: height)]
        var regions = rects.map { r -> VkBufferImageCopy in
            var region = VkBufferImageCopy()
            region.bufferOffset = VkDeviceSize((r.y * width + r.x) * 4)
            region.bufferRowLength = UInt32(width)      // rows of the whole frame, tightly packed, top-down
            region.bufferImageHeight = 0
            region.imageSubresource = GPUImage.colorLayers
            region.imageOffset = VkOffset3D(x: Int32(r.x), y: Int32(r.y), z: 0)
            region.imageExtent = VkExtent3D(width: UInt32(r.width), height: UInt32(r.height), depth: 1)
            return region
        }
        if !regions.isEmpty {
            vkCmdCopyImageToBuffer(cmd, image.handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer.handle,
                                   UInt32(regions.count), &regions)
        }
        Barriers.memory(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT)
    }

    /// The pixels after the frame's fence: premultiplied RGBA8, rows top-down, tightly packed.
    func pixels() -> [UInt8] {
        let rowBytes = width * 4, count = rowBytes * height
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            let dst = UnsafeMutableRawPointer(out.baseAddress!)
            // Megabytes written once into fresh memory (glibc maps blocks of 1 MiB or more on
            // their own): huge pages halve render's host time per full-screen frame.
            caprof_advise_huge_pages(dst, count)
            switch readback {
            case .buffer(let buffer):
                dst.copyMemory(from: buffer.mapped, byteCount: count)
            case .inPlace(let base, let rowPitch):
                if rowPitch == rowBytes {
                    dst.copyMemory(from: base, byteCount: count)
                } else {
                    for y in 0..<height { (dst + y * rowBytes).copyMemory(from: base + y * rowPitch, byteCount: rowBytes) }
                }
            }
            initialized = count
        }
    }
}
