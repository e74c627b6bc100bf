import CVulkan

/// A 2D R8G8B8A8_UNORM image in device-local memory with a view: textures and the render target
/// (which on CPU devices may be a linear image in host-visible memory, read in place: `RenderTarget`).
/// UNORM, not sRGB: Core Animation blends sRGB-encoded values, so nothing may be linearised (mip
/// levels are averaged in the same encoded, premultiplied space as everything else).
/// `mipLevels` > 1 for textures sampled trilinearly; the view covers every level.
final class GPUImage {
    let device: VulkanDevice
    let handle: VkImage
    let memory: VkDeviceMemory
    let view: VkImageView
    let width: Int
    let height: Int
    let mipLevels: Int
    let format: VkFormat
    /// Bytes of every level (a full mip chain adds about a third to level 0).
    var byteCount: Int {
        (0..<mipLevels).reduce(0) { sum, level in
            let (w, h) = GPUImage.levelExtent(width, height, level)
            return sum + w * h * GPUImage.bytesPerTexel(format)
        }
    }

    /// 8 bytes for half-float RGBA (`floatFormat`), 4 for 8-bit RGBA.
    static func bytesPerTexel(_ format: VkFormat) -> Int { format == floatFormat ? 8 : 4 }

    /// Half-float RGBA: blur intermediates, which must not round to 8 bits between passes.
    static let floatFormat = VK_FORMAT_R16G16B16A16_SFLOAT

    /// `hostVisible`: linear tiling in host-visible memory (preferably cached), so the host can map
    /// and read it; otherwise optimal tiling, preferably device-local.
    init(_ device: VulkanDevice, width: Int, height: Int, mipLevels: Int = 1, usage: VkImageUsageFlags,
         format: VkFormat = DeviceSelector.colorFormat, hostVisible: Bool = false,
         aspect: VkImageAspectFlags = VK_IMAGE_ASPECT_COLOR_BIT.rawValue) throws {
        self.device = device
        self.format = format
        self.width = width
        self.height = height
        self.mipLevels = mipLevels
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = format
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = UInt32(mipLevels)
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = hostVisible ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        try vkCheck(vkCreateImage(device.handle, &info, nil, &image), "vkCreateImage")
        var requirements = VkMemoryRequirements()
        vkGetImageMemoryRequirements(device.handle, image, &requirements)
        let memory: VkDeviceMemory
        do {
            memory = hostVisible
                ? try DeviceMemory.allocate(device, requirements, required: DeviceMemory.hostCoherent, preferred: DeviceMemory.hostCached)
                : try DeviceMemory.allocate(device, requirements, required: 0, preferred: DeviceMemory.deviceLocal)
            try vkCheck(vkBindImageMemory(device.handle, image, memory, 0), "vkBindImageMemory")
        } catch {
            vkDestroyImage(device.handle, image, nil)
            throw error
        }
        var viewInfo = VkImageViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        viewInfo.image = image
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D
        viewInfo.format = format
        viewInfo.subresourceRange = GPUImage.colorRange(levels: mipLevels)
        viewInfo.subresourceRange.aspectMask = aspect
        var view: VkImageView?
        let result = vkCreateImageView(device.handle, &viewInfo, nil, &view)
        if result != VK_SUCCESS {
            vkDestroyImage(device.handle, image, nil); vkFreeMemory(device.handle, memory, nil)
            try vkCheck(result, "vkCreateImageView")
        }
        self.handle = image!
        self.memory = memory
        self.view = view!
    }

    deinit {
        vkDestroyImageView(device.handle, view, nil)
        vkDestroyImage(device.handle, handle, nil)
        vkFreeMemory(device.handle, memory, nil)
    }

    static let colorRange = colorRange(levels: 1)
    static let colorLayers = colorLayers(level: 0)

    /// Levels `base ..< base + levels` of the colour aspect.
    static func colorRange(base: Int = 0, levels: Int) -> VkImageSubresourceRange {
        VkImageSubresourceRange(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: UInt32(base),
                                levelCount: UInt32(levels), baseArrayLayer: 0, layerCount: 1)
    }

    static func colorLayers(level: Int) -> VkImageSubresourceLayers {
        VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: UInt32(level),
                                 baseArrayLayer: 0, layerCount: 1)
    }

    /// A full mip chain: down to 1×1, ⌊log2(max(w, h))⌋ + 1 levels.
    static func fullMipChainLength(_ width: Int, _ height: Int) -> Int {
        var levels = 1, side = max(width, height)
        while side > 1 { side /= 2; levels += 1 }
        return levels
    }

    /// The size of `level`: each level halves (rounding down), never below 1.
    static func levelExtent(_ width: Int, _ height: Int, _ level: Int) -> (Int, Int) {
        (max(width >> level, 1), max(height >> level, 1))
    }
}
