import CVulkan

/// Timestamp queries: one pair around the whole command buffer and one pair around each offscreen
/// pass (lavapipe: period 1 ns). The pool grows with the number of passes.
final class GPUTimer {
    private let device: VulkanDevice
    private var pool: VkQueryPool
    private var capacity: Int
    private let period: Double
    private var used = 0

    /// nil when the device's queue has no timestamp support.
    init?(_ device: VulkanDevice) throws {
        guard let period = device.timestampPeriod else { return nil }
        self.device = device
        self.period = period
        capacity = 2
        pool = try Self.makePool(device, count: 2)
    }

    deinit { vkDestroyQueryPool(device.handle, pool, nil) }

    private static func makePool(_ device: VulkanDevice, count: Int) throws -> VkQueryPool {
        var info = VkQueryPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
        info.queryType = VK_QUERY_TYPE_TIMESTAMP
        info.queryCount = UInt32(count)
        var pool: VkQueryPool?
        try vkCheck(vkCreateQueryPool(device.handle, &info, nil, &pool), "vkCreateQueryPool")
        return pool!
    }

    /// Before recording a frame with `passes` offscreen passes: make room for its stamps.
    func prepare(passes: Int) throws {
        let needed = 2 + 2 * passes
        if needed > capacity {
            vkDestroyQueryPool(device.handle, pool, nil)
            capacity = max(needed, capacity * 2)
            pool = try Self.makePool(device, count: capacity)
        }
        used = needed
    }

    /// First command of the buffer: reset the frame's queries and stamp the start.
    func begin(_ cmd: VkCommandBuffer) {
        vkCmdResetQueryPool(cmd, pool, 0, UInt32(used))
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, pool, 0)
    }

    /// Around offscreen pass `i`: its start once earlier work is done, its end after it.
    func passBegin(_ cmd: VkCommandBuffer, _ i: Int) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, UInt32(2 + 2 * i))
    }
    func passEnd(_ cmd: VkCommandBuffer, _ i: Int) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, UInt32(3 + 2 * i))
    }

    /// Last command of the buffer: stamp once everything before has completed.
    func end(_ cmd: VkCommandBuffer) {
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 1)
    }

    /// After the fence: the whole buffer's time and each pass's, in nanoseconds.
    func elapsed() throws -> (total: UInt64, passes: [UInt64]) {
        var stamps = [UInt64](repeating: 0, count: used)
        let result = stamps.withUnsafeMutableBytes { raw in
            vkGetQueryPoolResults(device.handle, pool, 0, UInt32(used), raw.count, raw.baseAddress, 8,
                                  VK_QUERY_RESULT_64_BIT.rawValue | VK_QUERY_RESULT_WAIT_BIT.rawValue)
        }
        try vkCheck(result, "vkGetQueryPoolResults")
        func span(_ a: Int, _ b: Int) -> UInt64 {
            stamps[b] >= stamps[a] ? UInt64((Double(stamps[b] - stamps[a]) * period).rounded()) : 0
        }
        let passes = stride(from: 2, to: used, by: 2).map { span($0, $0 + 1) }
        return (span(0, 1), passes)
    }
}
