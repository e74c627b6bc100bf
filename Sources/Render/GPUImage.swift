import CVulkan

/// A 2D R8G8B8A8_UNORM image in device-local memory with a view: textures and the render target.
/// UNORM, not sRGB: Core Animation blends sRGB-encoded values, so nothing may be linearised.
final class GPUImage {
    let device: VulkanDevice
    let handle: VkImage
    let memory: VkDeviceMemory
    let view: VkImageView
    let width: Int
    let height: Int
    var byteCount: Int { width * height * 4 }

    init(_ device: VulkanDevice, width: Int, height: Int, usage: VkImageUsageFlags) throws {
        self.device = device
        self.width = width
        self.height = height
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = DeviceSelector.colorFormat
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        try vkCheck(vkCreateImage(device.handle, &info, nil, &image), "vkCreateImage")
        var requirements = VkMemoryRequirements()
        vkGetImageMemoryRequirements(device.handle, image, &requirements)
        let memory: VkDeviceMemory
        do {
            memory = try DeviceMemory.allocate(device, requirements, required: 0, preferred: DeviceMemory.deviceLocal)
            try vkCheck(vkBindImageMemory(device.handle, image, memory, 0), "vkBindImageMemory")
        } catch {
            vkDestroyImage(device.handle, image, nil)
            throw error
        }
        var viewInfo = VkImageViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        viewInfo.image = image
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D
        viewInfo.format = DeviceSelector.colorFormat
        viewInfo.subresourceRange = GPUImage.colorRange
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

    static let colorRange = VkImageSubresourceRange(
        aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0, layerCount: 1)
    static let colorLayers = VkImageSubresourceLayers(
        aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
}
