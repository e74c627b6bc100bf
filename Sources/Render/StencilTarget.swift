import CVulkan
import Plan

/// The depth/stencil attachment of a stack-culled canvas (`StackCulling` in the plan): the stencil
/// counts veils from the top, the depth holds the rank of the K-th (`StencilStates`). The smallest
/// combined format the device renders (`D24_UNORM_S8_UINT` on lavapipe and most GPUs). Made when a
/// canvas first needs it, at the canvas's size, and kept; its contents live only within one canvas
/// draw (cleared at the start, not stored), so a frame that does not cull stacks never touches it.
final class StencilTarget {
    let image: GPUImage

    init(_ device: VulkanDevice, width: Int, height: Int) throws {
        image = try GPUImage(device, width: width, height: height,
                             usage: VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue, format: device.stencilFormat,
                             aspect: Self.aspects)
    }

    /// The first combined format that the device can render into with optimal tiling. Every one
    /// holds ranks up to `StackStencil.maxRank` exactly (16 bits of depth at least).
    static func format(for physical: VkPhysicalDevice) -> VkFormat {
        for format in [VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D16_UNORM_S8_UINT] {
            var properties = VkFormatProperties()
            vkGetPhysicalDeviceFormatProperties(physical, format, &properties)
            if properties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue != 0 { return format }
        }
        return VK_FORMAT_D32_SFLOAT_S8_UINT   // D24S8 or D32S8 is always supported
    }

    /// Both aspects: a barrier on a combined format must name both.
    static let aspects = VK_IMAGE_ASPECT_STENCIL_BIT.rawValue | VK_IMAGE_ASPECT_DEPTH_BIT.rawValue

    /// The depth of `rank` (`StackStencil.rank`): exact in every format above.
    static func depth(rank: Int) -> Float { Float(min(max(rank, 0), StackStencil.maxRank)) / Float(StackStencil.maxRank) }

    /// Discards what it holds and makes it the depth/stencil attachment of the next rendering.
    func prepare(_ cmd: VkCommandBuffer) {
        var range = GPUImage.colorRange
        range.aspectMask = Self.aspects
        Barriers.image(cmd, image.handle, from: VK_IMAGE_LAYOUT_UNDEFINED,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                       to: VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                       VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                       levels: range)
    }

    /// The attachment info, for depth and stencil alike: cleared to depth 0 (nothing marked) and
    /// stencil 0 (no veil counted), not stored.
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

/// The depth and stencil state of each `StackStencil.Role` (front and back alike: layers may be
/// flipped). The stencil reference (K − 1) is set per list of batches, and for `markBit` pieces
/// the reference and masks per batch (`VK_DYNAMIC_STATE_STENCIL_*`).
enum StencilStates {
    static func state(_ role: StackStencil.Role) -> VkPipelineDepthStencilStateCreateInfo {
        var op = VkStencilOpState()
        op.compareMask = 0xFF
        op.writeMask = 0xFF
        op.failOp = VK_STENCIL_OP_KEEP
        op.passOp = VK_STENCIL_OP_KEEP
        op.depthFailOp = VK_STENCIL_OP_KEEP
        var info = VkPipelineDepthStencilStateCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO
        /// A marking piece: `write` whatever the tests, passing where the stencil compares, and
        /// writing its rank as depth where `depth` lets it.
        func marking(_ compare: VkCompareOp, _ write: VkStencilOp, depth: VkCompareOp) {
            op.compareOp = compare
            op.passOp = write
            op.failOp = write
            op.depthFailOp = write
            info.stencilTestEnable = VkBool32(VK_TRUE)
            info.depthTestEnable = VkBool32(VK_TRUE)
            info.depthCompareOp = depth
            info.depthWriteEnable = VkBool32(VK_TRUE)
        }
        switch role {
        case .mark:
            // Pieces come top veil first and each adds one (saturating: past K nothing reads
            // it); only the piece that finds K − 1 passes, and it writes its rank as depth.
            marking(VK_COMPARE_OP_EQUAL, VK_STENCIL_OP_INCREMENT_AND_CLAMP, depth: VK_COMPARE_OP_ALWAYS)
        case .markBit:
            // Culling by order: each piece sets its veil's bit (the write mask) whatever the
            // tests; it passes where the bits of the veils above it (the compare mask) read at
            // least its reference, and writes its rank where no higher rank is there: the first
            // piece from the top to pass wins.
            marking(VK_COMPARE_OP_LESS_OR_EQUAL, VK_STENCIL_OP_REPLACE, depth: VK_COMPARE_OP_GREATER)
        case .tested:
            // Drawn where its rank is at least the marked one: not beneath the K-th veil.
            info.depthTestEnable = VkBool32(VK_TRUE)
            info.depthCompareOp = VK_COMPARE_OP_GREATER_OR_EQUAL
        case .untested:
            break
        }
        info.front = op
        info.back = op
        return info
    }
}
