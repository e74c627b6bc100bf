import CVulkan
import Plan

/// The stencil attachment of a stack-culled canvas (`StackCulling` in the plan): one byte per
/// pixel where the device has `S8_UINT` (lavapipe, most GPUs), else the smallest combined
/// depth/stencil format (its depth is never used). Made when a canvas first needs it, at the
/// canvas's size, and kept; its contents live only within one canvas draw (cleared at the start,
/// not stored), so a frame that does not cull stacks never touches it.
final class StencilTarget {
    let image: GPUImage

    init(_ device: VulkanDevice, width: Int, height: Int) throws {
        image = try GPUImage(device, width: width, height: height,
                             usage: VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue, format: device.stencilFormat,
                             aspect: Self.aspects(device.stencilFormat))
    }

    /// The first format that the device can render stencil into with optimal tiling.
    static func format(for physical: VkPhysicalDevice) -> VkFormat {
        for format in [VK_FORMAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D16_UNORM_S8_UINT] {
            var properties = VkFormatProperties()
            vkGetPhysicalDeviceFormatProperties(physical, format, &properties)
            if properties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue != 0 { return format }
        }
        return VK_FORMAT_D32_SFLOAT_S8_UINT   // one of the combined formats is always supported
    }

    /// The image's aspects: a barrier on a combined format must name both.
    static func aspects(_ format: VkFormat) -> VkImageAspectFlags {
        format == VK_FORMAT_S8_UINT ? VK_IMAGE_ASPECT_STENCIL_BIT.rawValue
            : VK_IMAGE_ASPECT_STENCIL_BIT.rawValue | VK_IMAGE_ASPECT_DEPTH_BIT.rawValue
    }

    /// Discards what it holds and makes it the stencil attachment of the next rendering.
    func prepare(_ cmd: VkCommandBuffer) {
        var range = GPUImage.colorRange
        range.aspectMask = Self.aspects(image.format)
        Barriers.image(cmd, image.handle, from: VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                       to: VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                       levels: range)
    }

    /// The attachment info: cleared to 0 (no veil counted), not stored.
    var attachment: VkRenderingAttachmentInfo {
        var a = VkRenderingAttachmentInfo()
        a.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO
        a.imageView = image.view
        a.imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
        a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR
        a.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE
        a.clearValue.depthStencil = VkClearDepthStencilValue(depth: 0, stencil: 0)
        return a
    }
}

/// The stencil tests and operations of each `StackStencil.Role` (front and back alike: layers may
/// be flipped): the stencil holds, at each pixel, the veils above the item being drawn that cover
/// it. The reference, K, is set per canvas segment (`VK_DYNAMIC_STATE_STENCIL_REFERENCE`).
enum StencilStates {
    static func state(_ role: StackStencil.Role) -> VkPipelineDepthStencilStateCreateInfo {
        var op = VkStencilOpState()
        op.compareMask = 0xFF
        op.writeMask = 0xFF
        op.failOp = VK_STENCIL_OP_KEEP
        op.passOp = VK_STENCIL_OP_KEEP
        op.depthFailOp = VK_STENCIL_OP_KEEP
        switch role {
        case .count:
            op.compareOp = VK_COMPARE_OP_ALWAYS
            op.passOp = VK_STENCIL_OP_INCREMENT_AND_CLAMP
        case .uncount:
            op.compareOp = VK_COMPARE_OP_ALWAYS
            op.passOp = VK_STENCIL_OP_DECREMENT_AND_CLAMP
        case .tested:
            op.compareOp = VK_COMPARE_OP_GREATER   // K > the veils above that cover
            op.writeMask = 0
        case .untested:
            op.compareOp = VK_COMPARE_OP_ALWAYS
            op.writeMask = 0
        }
        var info = VkPipelineDepthStencilStateCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO
        info.depthTestEnable = VkBool32(VK_FALSE)
        info.depthWriteEnable = VkBool32(VK_FALSE)
        info.stencilTestEnable = VkBool32(role == .untested ? VK_FALSE : VK_TRUE)
        info.front = op
        info.back = op
        return info
    }
}
