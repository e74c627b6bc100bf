import CVulkan

extension VulkanError {
    /// What happened, in words, and what the user can do about it: the failures a run on a real
    /// machine meets (out of memory, a lost device) are not bugs in the scene, and the raw
    /// VkResult alone does not say what to try next.
    public var advice: String {
        switch VkResult(rawValue: result) {
        case VK_ERROR_OUT_OF_DEVICE_MEMORY, VK_ERROR_OUT_OF_HOST_MEMORY, VK_ERROR_OUT_OF_POOL_MEMORY, VK_ERROR_TOO_MANY_OBJECTS:
            return "the Vulkan device ran out of memory. Render a smaller canvas (a lower canvas.scale or --scale), "
                + "use fewer or smaller images, or pick a device with more memory (caprof devices; CAPROF_DEVICE=name)."
        case VK_ERROR_DEVICE_LOST:
            return "the Vulkan device was lost during the run (a driver crash, a GPU reset or a watchdog timeout); "
                + "nothing after the last frame written was saved. Run again; if it recurs, update the driver or pick "
                + "another device (caprof devices; CAPROF_DEVICE=name, lavapipe never loses its device)."
        case VK_ERROR_INITIALIZATION_FAILED, VK_ERROR_INCOMPATIBLE_DRIVER:
            return "the Vulkan driver could not start. Check it with `caprof devices` (or vulkaninfo); lavapipe "
                + "(apt-get install mesa-vulkan-drivers) works on any machine."
        default:
            return "this is an internal or driver failure; please report it with the command and scene."
        }
    }
}
