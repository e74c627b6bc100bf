import CVulkan

/// The VkInstance: Vulkan 1.3, application "caprof", no surface extensions (caprof never presents).
///
/// With `validation` (CAPROF_VALIDATION=1) it enables VK_LAYER_KHRONOS_validation and a
/// VK_EXT_debug_utils messenger feeding a `ValidationLog`; the messenger's create-info is also
/// chained into vkCreateInstance so instance creation itself is validated.
final class VulkanInstance {
    let handle: VkInstance
    let validationLog: ValidationLog?
    private var messenger: VkDebugUtilsMessengerEXT?

    static let validationLayer = "VK_LAYER_KHRONOS_validation"

    init(validation: Bool) throws {
        let appName = CStringArray(["caprof"])
        var app = VkApplicationInfo()
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        app.pApplicationName = appName[0]
        app.applicationVersion = caprof_vk_make_api_version(0, 0, 1, 0)
        app.pEngineName = appName[0]
        app.engineVersion = caprof_vk_make_api_version(0, 0, 1, 0)
        app.apiVersion = caprof_vk_api_version_1_3()

        let log: ValidationLog? = validation ? ValidationLog() : nil
        if validation, !(try Self.layerIsAvailable(Self.validationLayer)) {
            throw RenderError.validationLayerMissing
        }
        let layers = CStringArray(validation ? [Self.validationLayer] : [])
        let extensions = CStringArray(validation ? ["VK_EXT_debug_utils"] : [])
        var messengerInfo = log?.messengerCreateInfo() ?? VkDebugUtilsMessengerCreateInfoEXT()

        var instance: VkInstance?
        let result = withUnsafePointer(to: &app) { appPointer in
            withUnsafePointer(to: &messengerInfo) { messengerPointer in
                layers.pointers.withUnsafeBufferPointer { layerNames in
                    extensions.pointers.withUnsafeBufferPointer { extensionNames in
                        var info = VkInstanceCreateInfo()
                        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
                        info.pApplicationInfo = appPointer
                        info.pNext = log == nil ? nil : UnsafeRawPointer(messengerPointer)
                        info.enabledLayerCount = layers.count
                        info.ppEnabledLayerNames = layerNames.baseAddress
                        info.enabledExtensionCount = extensions.count
                        info.ppEnabledExtensionNames = extensionNames.baseAddress
                        return vkCreateInstance(&info, nil, &instance)
                    }
                }
            }
        }
        // The loader answers VK_ERROR_INCOMPATIBLE_DRIVER when it found no ICD at all.
        if result == VK_ERROR_INCOMPATIBLE_DRIVER {
            throw RenderError.noVulkanDriver(detail: "vkCreateInstance returned VK_ERROR_INCOMPATIBLE_DRIVER")
        }
        try vkCheck(result, "vkCreateInstance")
        guard let instance else { throw VulkanError(call: "vkCreateInstance", result: VK_ERROR_INITIALIZATION_FAILED) }
        handle = instance
        validationLog = log

        if log != nil {
            guard let create = vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT") else {
                vkDestroyInstance(instance, nil)
                throw VulkanError(call: "vkGetInstanceProcAddr(vkCreateDebugUtilsMessengerEXT)", result: VK_ERROR_EXTENSION_NOT_PRESENT)
            }
            let createMessenger = unsafeBitCast(create, to: PFN_vkCreateDebugUtilsMessengerEXT.self)
            var m: VkDebugUtilsMessengerEXT?
            let r = createMessenger(instance, &messengerInfo, nil, &m)
            if r != VK_SUCCESS { vkDestroyInstance(instance, nil) }
            try vkCheck(r, "vkCreateDebugUtilsMessengerEXT")
            messenger = m
        }
    }

    deinit {
        if let messenger, let destroy = vkGetInstanceProcAddr(handle, "vkDestroyDebugUtilsMessengerEXT") {
            unsafeBitCast(destroy, to: PFN_vkDestroyDebugUtilsMessengerEXT.self)(handle, messenger, nil)
        }
        vkDestroyInstance(handle, nil)
    }

    /// The physical devices; none at all means no usable driver.
    func physicalDevices() throws -> [VkPhysicalDevice] {
        var count: UInt32 = 0
        let first = vkEnumeratePhysicalDevices(handle, &count, nil)
        if first == VK_ERROR_INITIALIZATION_FAILED || (first == VK_SUCCESS && count == 0) {
            throw RenderError.noVulkanDriver(detail: "the Vulkan loader found no physical device")
        }
        try vkCheck(first, "vkEnumeratePhysicalDevices")
        var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        try vkCheck(vkEnumeratePhysicalDevices(handle, &count, &devices), "vkEnumeratePhysicalDevices")
        return devices.prefix(Int(count)).compactMap { $0 }
    }

    static func layerIsAvailable(_ name: String) throws -> Bool {
        var count: UInt32 = 0
        try vkCheck(vkEnumerateInstanceLayerProperties(&count, nil), "vkEnumerateInstanceLayerProperties")
        var layers = [VkLayerProperties](repeating: VkLayerProperties(), count: Int(count))
        try vkCheck(vkEnumerateInstanceLayerProperties(&count, &layers), "vkEnumerateInstanceLayerProperties")
        return layers.prefix(Int(count)).contains { string(fromCCharTuple: $0.layerName) == name }
    }

    /// CAPROF_VALIDATION=1 turns validation on.
    static var validationRequested: Bool { environment("CAPROF_VALIDATION").map { $0 != "0" } ?? false }
}
