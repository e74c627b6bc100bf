import CVulkan

/// Device memory: picking a memory type and allocating for a buffer or image.
/// One allocation per resource keeps ownership simple; the renderer holds few, long-lived resources
/// (cached textures, the target, a few reused buffers), far below maxMemoryAllocationCount.
enum DeviceMemory {
    /// The first memory type allowed by `typeBits` with all `required` properties, preferring one that
    /// also has all `preferred` ones.
    static func typeIndex(_ device: VulkanDevice, typeBits: UInt32, required: VkMemoryPropertyFlags,
                          preferred: VkMemoryPropertyFlags = 0) throws -> UInt32 {
        let props = device.memoryProperties
        let types = withUnsafeBytes(of: props.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        let allowed = (0..<Int(props.memoryTypeCount)).filter {
            typeBits & (1 << UInt32($0)) != 0 && types[$0].propertyFlags & required == required
        }
        if let best = allowed.first(where: { types[$0].propertyFlags & preferred == preferred }) ?? allowed.first {
            return UInt32(best)
        }
        throw VulkanError(call: "vkAllocateMemory (no memory type with flags \(required))", result: VK_ERROR_OUT_OF_DEVICE_MEMORY)
    }

    static func allocate(_ device: VulkanDevice, _ requirements: VkMemoryRequirements,
                         required: VkMemoryPropertyFlags, preferred: VkMemoryPropertyFlags = 0) throws -> VkDeviceMemory {
        var info = VkMemoryAllocateInfo()
        info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        info.allocationSize = requirements.size
        info.memoryTypeIndex = try typeIndex(device, typeBits: requirements.memoryTypeBits,
                                             required: required, preferred: preferred)
        var memory: VkDeviceMemory?
        try vkCheck(vkAllocateMemory(device.handle, &info, nil, &memory), "vkAllocateMemory")
        return memory!
    }

    static let deviceLocal = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue
    /// Host-visible buffers are always coherent, so no flush/invalidate is needed.
    static let hostCoherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
    static let hostCached = VK_MEMORY_PROPERTY_HOST_CACHED_BIT.rawValue
}

/// A VkBuffer in host-visible, coherent memory, persistently mapped: draw records, texture staging
/// and frame readback. All are written or read by the CPU every frame, and on lavapipe every memory
/// type is host memory anyway.
final class HostBuffer {
    let device: VulkanDevice
    let handle: VkBuffer
    let memory: VkDeviceMemory
    let size: Int
    let mapped: UnsafeMutableRawPointer

    /// `readBack`: prefer HOST_CACHED memory, which the CPU reads much faster.
    init(_ device: VulkanDevice, size: Int, usage: VkBufferUsageFlags, readBack: Bool = false) throws {
        self.device = device
        self.size = size
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(size)
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        try vkCheck(vkCreateBuffer(device.handle, &info, nil, &buffer), "vkCreateBuffer")
        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(device.handle, buffer, &requirements)
        let memory: VkDeviceMemory
        do {
            memory = try DeviceMemory.allocate(device, requirements, required: DeviceMemory.hostCoherent,
                                               preferred: readBack ? DeviceMemory.hostCached : 0)
        } catch { vkDestroyBuffer(device.handle, buffer, nil); throw error }
        var pointer: UnsafeMutableRawPointer?
        var result = vkBindBufferMemory(device.handle, buffer, memory, 0)
        if result == VK_SUCCESS { result = vkMapMemory(device.handle, memory, 0, VkDeviceSize(size), 0, &pointer) }
        if result != VK_SUCCESS {
            vkDestroyBuffer(device.handle, buffer, nil); vkFreeMemory(device.handle, memory, nil)
            try vkCheck(result, "vkBindBufferMemory/vkMapMemory")
        }
        self.handle = buffer!
        self.memory = memory
        self.mapped = pointer!
    }

    deinit {
        vkUnmapMemory(device.handle, memory)
        vkDestroyBuffer(device.handle, handle, nil)
        vkFreeMemory(device.handle, memory, nil)
    }

    /// Returns `buffer` if it holds at least `size` bytes, else a new one with room to grow
    /// (power of two), so a growing workload reallocates O(log n) times.
    static func ensure(_ buffer: HostBuffer?, _ device: VulkanDevice, size: Int, usage: VkBufferUsageFlags,
                       readBack: Bool = false) throws -> HostBuffer {
        if let buffer, buffer.size >= size { return buffer }
        var capacity = 64 * 1024
        while capacity < size { capacity *= 2 }
        return try HostBuffer(device, size: capacity, usage: usage, readBack: readBack)
    }
}
