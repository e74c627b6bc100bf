import CVulkan

/// Two timestamp queries around a whole command buffer (lavapipe: period 1 ns).
final class GPUTimer {
    private let device: VulkanDevice
    private let pool: VkQueryPool
    private let period: Double

    /// nil when the device's queue has no timestamp support.
    init?(_ device: VulkanDevice) throws {
        guard let period = device.timestampPeriod else { return nil }
        self.device = device
        self.period = period
        var info = VkQueryPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
        info.queryType = VK_QUERY_TYPE_TIMESTAMP
        info.queryCount = 2
        var pool: VkQueryPool?
        try vkCheck(vkCreateQueryPool(device.handle, &info, nil, &pool), "vkCreateQueryPool")
        self.pool = pool!
    }

    deinit { vkDestroyQueryPool(device.handle, pool, nil) }

    /// First command of the buffer: reset both queries and stamp the start.
    func begin(_ cmd: VkCommandBuffer) {
        vkCmdResetQueryPool(cmd, pool, 0, 2)
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, pool, 0)
    }

    /// Last command of the buffer: stamp once everything before has completed.
    func end(_ cmd: VkCommandBuffer) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 1)
    }

    /// Elapsed nanoseconds, after the command buffer's fence.
    func elapsedNanoseconds() throws -> UInt64 {
        var stamps: (UInt64, UInt64) = (0, 0)
        let result = withUnsafeMutableBytes(of: &stamps) { raw in
            vkGetQueryPoolResults(device.handle, pool, 0, 2, raw.count, raw.baseAddress, 8,
                                  VK_QUERY_RESULT_64_BIT.rawValue | VK_QUERY_RESULT_WAIT_BIT.rawValue)
        }
        try vkCheck(result, "vkGetQueryPoolResults")
        return stamps.1 >= stamps.0 ? UInt64((Double(stamps.1 - stamps.0) * period).rounded()) : 0
    }
}
