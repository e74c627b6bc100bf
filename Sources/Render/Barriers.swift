import CVulkan

/// Pipeline barriers (synchronization2), one helper per transition the renderer records.
enum Barriers {
    /// An image layout transition between two (stage, access) scopes, of level 0 unless `levels`
    /// names other mip levels.
    static func image(_ cmd: VkCommandBuffer, _ image: VkImage,
                      from oldLayout: VkImageLayout, _ srcStage: VkPipelineStageFlags2, _ srcAccess: VkAccessFlags2,
                      to newLayout: VkImageLayout, _ dstStage: VkPipelineStageFlags2, _ dstAccess: VkAccessFlags2,
                      levels: VkImageSubresourceRange = GPUImage.colorRange) {
        var barrier = VkImageMemoryBarrier2()
        barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2
        barrier.srcStageMask = srcStage
        barrier.srcAccessMask = srcAccess
        barrier.dstStageMask = dstStage
        barrier.dstAccessMask = dstAccess
        barrier.oldLayout = oldLayout
        barrier.newLayout = newLayout
        barrier.srcQueueFamilyIndex = caprof_vk_queue_family_ignored()
        barrier.dstQueueFamilyIndex = caprof_vk_queue_family_ignored()
        barrier.image = image
        barrier.subresourceRange = levels
        withUnsafePointer(to: &barrier) { pointer in
            var dependency = VkDependencyInfo()
            dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
            dependency.imageMemoryBarrierCount = 1
            dependency.pImageMemoryBarriers = pointer
            vkCmdPipelineBarrier2(cmd, &dependency)
        }
    }

    /// A global memory barrier (e.g. transfer writes -> host reads before the fence).
    static func memory(_ cmd: VkCommandBuffer, _ srcStage: VkPipelineStageFlags2, _ srcAccess: VkAccessFlags2,
                       _ dstStage: VkPipelineStageFlags2, _ dstAccess: VkAccessFlags2) {
        var barrier = VkMemoryBarrier2()
        barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2
        barrier.srcStageMask = srcStage
        barrier.srcAccessMask = srcAccess
        barrier.dstStageMask = dstStage
        barrier.dstAccessMask = dstAccess
        withUnsafePointer(to: &barrier) { pointer in
            var dependency = VkDependencyInfo()
            dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO
            dependency.memoryBarrierCount = 1
            dependency.pMemoryBarriers = pointer
            vkCmdPipelineBarrier2(cmd, &dependency)
        }
    }
}
