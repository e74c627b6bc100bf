import CVulkan
import Plan

/// What `caprof devices` shows for one physical device: what it is, and whether caprof accepts it
/// and why (or why not).
public struct DeviceReport: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case discreteGPU = "discrete GPU", integratedGPU = "integrated GPU",
                                          virtualGPU = "virtual GPU", cpu = "CPU", other }
    public var name: String
    public var kind: Kind
    /// "major.minor.patch" of the device's Vulkan API version.
    public var apiVersion: String
    /// Driver name and info (VkPhysicalDeviceDriverProperties), e.g. "llvmpipe: Mesa 22.3.6 (LLVM 15.0.6)".
    public var driver: String
    /// Meets every requirement (Vulkan 1.3, graphics queue, RGBA8 formats, dynamic rendering).
    public var accepted: Bool
    /// The device the renderer would use (the most preferred accepted one, or CAPROF_DEVICE's).
    public var selected: Bool
    /// Why it is accepted, used, or rejected.
    public var reason: String

    public var description: String {
        "\(name) (\(kind.rawValue), Vulkan \(apiVersion), \(driver)): "
            + (selected ? "selected" : accepted ? "accepted" : "rejected") + ", \(reason)"
    }
}

/// A physical device with what the renderer needs to open it.
struct PhysicalDeviceCandidate {
    let handle: VkPhysicalDevice
    var report: DeviceReport
    let graphicsQueueFamily: UInt32?
    /// Higher is better: discrete > integrated > virtual > cpu.
    let preference: Int
    var supportsMaintenance4 = false
}

/// Decides which physical devices caprof can use and which it prefers.
enum DeviceSelector {
    static let colorFormat = VK_FORMAT_R8G8B8A8_UNORM

    static func evaluate(_ device: VkPhysicalDevice) -> PhysicalDeviceCandidate {
        var driverProperties = VkPhysicalDeviceDriverProperties()
        driverProperties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES
        var properties = VkPhysicalDeviceProperties2()
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2
        withUnsafeMutablePointer(to: &driverProperties) { driver in
            properties.pNext = UnsafeMutableRawPointer(driver)
            vkGetPhysicalDeviceProperties2(device, &properties)
        }
        properties.pNext = nil
        let p = properties.properties
        let version = p.apiVersion
        let kind: DeviceReport.Kind
        let preference: Int
        switch p.deviceType {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: kind = .discreteGPU; preference = 4
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: kind = .integratedGPU; preference = 3
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: kind = .virtualGPU; preference = 2
        case VK_PHYSICAL_DEVICE_TYPE_CPU: kind = .cpu; preference = 1
        default: kind = .other; preference = 0
        }
        let driverName = string(fromCCharTuple: driverProperties.driverName)
        let driverInfo = string(fromCCharTuple: driverProperties.driverInfo)
        var report = DeviceReport(
            name: string(fromCCharTuple: p.deviceName), kind: kind,
            apiVersion: "\(caprof_vk_api_version_major(version)).\(caprof_vk_api_version_minor(version)).\(caprof_vk_api_version_patch(version))",
            driver: driverInfo.isEmpty ? driverName : "\(driverName): \(driverInfo)",
            accepted: false, selected: false, reason: "")
        func rejected(_ why: String) -> PhysicalDeviceCandidate {
            report.reason = why
            return PhysicalDeviceCandidate(handle: device, report: report, graphicsQueueFamily: nil, preference: preference)
        }

        if version < caprof_vk_api_version_1_3() { return rejected("Vulkan \(report.apiVersion) < 1.3") }

        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, &families)
        guard let graphics = families.firstIndex(where: {
            $0.queueFlags & VK_QUEUE_GRAPHICS_BIT.rawValue != 0 && $0.queueCount > 0
        }) else { return rejected("no graphics queue") }

        var format = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(device, colorFormat, &format)
        let needed: [(VkFormatFeatureFlagBits, String)] = [
            (VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT, "blendable color attachment"),
            (VK_FORMAT_FEATURE_TRANSFER_SRC_BIT, "transfer source"),
            (VK_FORMAT_FEATURE_TRANSFER_DST_BIT, "transfer destination"),
            (VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, "sampled image"),
            (VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT, "linear filtering"),
        ]
        for (bit, what) in needed where format.optimalTilingFeatures & bit.rawValue == 0 {
            return rejected("R8G8B8A8_UNORM cannot be used as \(what)")
        }

        var features13 = VkPhysicalDeviceVulkan13Features()
        features13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES
        var features = VkPhysicalDeviceFeatures2()
        features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2
        withUnsafeMutablePointer(to: &features13) { f13 in
            features.pNext = UnsafeMutableRawPointer(f13)
            vkGetPhysicalDeviceFeatures2(device, &features)
        }
        if features13.dynamicRendering == VkBool32(VK_FALSE) { return rejected("no dynamicRendering") }
        if features13.synchronization2 == VkBool32(VK_FALSE) { return rejected("no synchronization2") }
        // Flattened regions hand their base colour and up to 16 layers to the fragment stage as 17
        // flat vec4s (Shaders/flatten.vert): above Vulkan's minimum of 64 components, which every
        // desktop driver and lavapipe (128) exceed.
        let components = Int(min(p.limits.maxVertexOutputComponents, p.limits.maxFragmentInputComponents))
        if components < 4 * (FlattenedRegion.maxDepth + 1) {
            return rejected("\(components) vertex-to-fragment components < \(4 * (FlattenedRegion.maxDepth + 1)) (flattened regions)")
        }

        report.accepted = true
        report.reason = "Vulkan \(report.apiVersion), graphics queue family \(graphics), RGBA8 attachments, dynamic rendering"
        return PhysicalDeviceCandidate(handle: device, report: report, graphicsQueueFamily: UInt32(graphics),
                                       preference: preference,
                                       supportsMaintenance4: features13.maintenance4 != VkBool32(VK_FALSE))
    }

    /// Evaluates every device and marks the one to use: the accepted device whose name contains
    /// `preferred` (case-insensitive) if given, else the most preferred kind (first on ties, in the
    /// loader's order). Returns the candidates and the index of the selected one, if any.
    static func select(_ devices: [VkPhysicalDevice], preferred: String?) -> ([PhysicalDeviceCandidate], Int?) {
        var candidates = devices.map(evaluate)
        var chosen: Int?
        for (i, c) in candidates.enumerated() where c.report.accepted {
            if let preferred, !c.report.name.lowercased().contains(preferred.lowercased()) { continue }
            if chosen == nil || c.preference > candidates[chosen!].preference { chosen = i }
        }
        if let chosen {
            candidates[chosen].report.selected = true
            // The status word ("selected") already says it is used; the reason says why.
            candidates[chosen].report.reason += (preferred.map { " (matches \"\($0)\")" } ?? " (most preferred kind: discrete > integrated > virtual > CPU)")
            for i in candidates.indices where i != chosen && candidates[i].report.accepted {
                candidates[i].report.reason += preferred != nil
                    ? "; not used: name does not match \"\(preferred!)\""
                    : "; not used: \(candidates[chosen].report.name) is preferred"
            }
        }
        return (candidates, chosen)
    }

    /// CAPROF_DEVICE=<substring> picks a device by name.
    static var preferredFromEnvironment: String? { environment("CAPROF_DEVICE") }
}
