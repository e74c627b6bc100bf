import CVulkan

/// The one command buffer a frame is recorded into, and the fence the CPU waits on. Frames are
/// synchronous (record, submit, wait, read back), so a single buffer is reused every frame.
final class FrameCommands {
    private let device: VulkanDevice
    private let pool: VkCommandPool
    let buffer: VkCommandBuffer
    private let fence: VkFence

    init(_ device: VulkanDevice) throws {
        self.device = device
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT.rawValue
        poolInfo.queueFamilyIndex = device.queueFamily
        var pool: VkCommandPool?
        try vkCheck(vkCreateCommandPool(device.handle, &poolInfo, nil, &pool), "vkCreateCommandPool")
        self.pool = pool!
        var allocInfo = VkCommandBufferAllocateInfo()
        allocInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocInfo.commandPool = pool
        allocInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocInfo.commandBufferCount = 1
        var buffer: VkCommandBuffer?
        var fence: VkFence?
        var fenceInfo = VkFenceCreateInfo()
        fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        var result = vkAllocateCommandBuffers(device.handle, &allocInfo, &buffer)
        if result == VK_SUCCESS { result = vkCreateFence(device.handle, &fenceInfo, nil, &fence) }
        if result != VK_SUCCESS { vkDestroyCommandPool(device.handle, pool, nil) }
        try vkCheck(result, "vkAllocateCommandBuffers/vkCreateFence")
        self.buffer = buffer!
        self.fence = fence!
    }

    deinit {
        vkDestroyFence(device.handle, fence, nil)
        vkDestroyCommandPool(device.handle, pool, nil)
    }

    /// Resets the pool (the previous frame has completed) and begins a one-time-submit recording.
    func begin() throws -> VkCommandBuffer {
        try vkCheck(vkResetCommandPool(device.handle, pool, 0), "vkResetCommandPool")
        var info = VkCommandBufferBeginInfo()
        info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
        try vkCheck(vkBeginCommandBuffer(buffer, &info), "vkBeginCommandBuffer")
        return buffer
    }

    /// Ends the recording, submits it and blocks until the device has finished it.
    func submitAndWait() throws {
        try vkCheck(vkEndCommandBuffer(buffer), "vkEndCommandBuffer")
        var commandBuffer: VkCommandBuffer? = buffer
        var submit = VkSubmitInfo()
        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
        submit.commandBufferCount = 1
        try withUnsafePointer(to: &commandBuffer) { pointer in
            submit.pCommandBuffers = pointer
            try vkCheck(vkQueueSubmit(device.queue, 1, &submit, fence), "vkQueueSubmit")
        }
        var f: VkFence? = fence
        try vkCheck(vkWaitForFences(device.handle, 1, &f, VkBool32(VK_TRUE), UInt64.max), "vkWaitForFences")
        try vkCheck(vkResetFences(device.handle, 1, &f), "vkResetFences")
    }
}
