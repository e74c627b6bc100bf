import CVulkan

/// The chosen physical device opened as a VkDevice with one graphics queue and the Vulkan 1.3
/// features the renderer uses (dynamicRendering, synchronization2). Owns the instance, so Vulkan
/// objects that hold a `VulkanDevice` are always destroyed before it.
public final class VulkanDevice {
    let instance: VulkanInstance
    let physical: VkPhysicalDevice
    let handle: VkDevice
    let queue: VkQueue
    let queueFamily: UInt32
    let memoryProperties: VkPhysicalDeviceMemoryProperties
    let maxImageDimension2D: Int
    /// Nanoseconds per timestamp tick, or nil when the queue has no timestamps.
    let timestampPeriod: Double?
    /// How trilinearly sampled textures get their mip levels (device blits where the colour format
    /// allows them, else the CPU).
    let mipmapGeneration: MipmapGeneration
    /// The depth/stencil attachment format of stack-culled canvases (`StencilTarget.format(for:)`).
    let stencilFormat: VkFormat
    public let report: DeviceReport
    public var name: String { report.name }

    /// Every physical device with why caprof accepts or rejects it (for `caprof devices`).
    /// Honours CAPROF_DEVICE when marking the selected one.
    public static func survey() throws -> [DeviceReport] {
        let instance = try VulkanInstance(validation: false)
        let (candidates, _) = DeviceSelector.select(try instance.physicalDevices(),
                                                    preferred: DeviceSelector.preferredFromEnvironment)
        return candidates.map(\.report)
    }

    /// Opens the selected device: `preferred` (else CAPROF_DEVICE) is a case-insensitive substring
    /// of the device name; without it the most preferred kind wins (discrete > integrated > virtual > CPU).
    init(preferred: String?, validation: Bool) throws {
        instance = try VulkanInstance(validation: validation)
        let preferred = preferred ?? DeviceSelector.preferredFromEnvironment
        let (candidates, chosen) = DeviceSelector.select(try instance.physicalDevices(), preferred: preferred)
        guard let chosen, let family = candidates[chosen].graphicsQueueFamily else {
            if let preferred, candidates.contains(where: \.report.accepted) {
                throw RenderError.preferredDeviceNotFound(preferred, candidates.map(\.report))
            }
            throw RenderError.noSuitableDevice(candidates.map(\.report))
        }
        let candidate = candidates[chosen]
        physical = candidate.handle
        report = candidate.report
        queueFamily = family

        var priority: Float = 1
        var queueInfo = VkDeviceQueueCreateInfo()
        queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
        queueInfo.queueFamilyIndex = family
        queueInfo.queueCount = 1
        var features13 = VkPhysicalDeviceVulkan13Features()
        features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
        features13.dynamicRendering = VkBool32(VK_TRUE)
        features13.synchronization2 = VkBool32(VK_TRUE)
        // maintenance4 (optional) relaxes interface matching: the solid fragment shader may leave
        // the vertex shader's image varyings unconsumed without a validation performance warning.
        features13.maintenance4 = candidate.supportsMaintenance4 ? VkBool32(VK_TRUE) : VkBool32(VK_FALSE)
        var device: VkDevice?
        let result = withUnsafePointer(to: &priority) { priorityPointer in
            queueInfo.pQueuePriorities = priorityPointer
            return withUnsafePointer(to: &queueInfo) { queuePointer in
                withUnsafePointer(to: &features13) { featuresPointer in
                    var info = VkDeviceCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                    info.pNext = UnsafeRawPointer(featuresPointer)
                    info.queueCreateInfoCount = 1
                    info.pQueueCreateInfos = queuePointer
                    return vkCreateDevice(candidate.handle, &info, nil, &device)
                }
            }
        }
        try vkCheck(result, "vkCreateDevice")
        handle = device!
        var q: VkQueue?
        vkGetDeviceQueue(handle, family, 0, &q)
        queue = q!

        var memory = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physical, &memory)
        memoryProperties = memory
        var properties = VkPhysicalDeviceProperties()
        vkGetPhysicalDeviceProperties(physical, &properties)
        maxImageDimension2D = Int(properties.limits.maxImageDimension2D)
        mipmapGeneration = MipmapGeneration.supported(by: physical, format: DeviceSelector.colorFormat)
        stencilFormat = StencilTarget.format(for: physical)
        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &familyCount, &families)
        timestampPeriod = families[Int(family)].timestampValidBits > 0 && properties.limits.timestampPeriod > 0
            ? Double(properties.limits.timestampPeriod) : nil
    }

    deinit {
        vkDeviceWaitIdle(handle)
        vkDestroyDevice(handle, nil)
    }

    /// Throws the validation errors reported since the last check (CAPROF_VALIDATION=1).
    func checkValidation() throws { try instance.validationLog?.throwIfErrors() }
}
