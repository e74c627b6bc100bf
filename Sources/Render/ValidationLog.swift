import CVulkan
import SystemSupport

/// Collects messages from VK_LAYER_KHRONOS_validation (enabled by CAPROF_VALIDATION=1) through a
/// VK_EXT_debug_utils messenger. Errors are kept and turned into `RenderError.validation` by the
/// renderer after each Vulkan operation, so a validation error fails the frame (and the test)
/// instead of scrolling past on stderr.
final class ValidationLog {
    private let lock = Lock()
    private var errors: [String] = []

    func record(_ message: String) { lock.lock(); errors.append(message); lock.unlock() }

    /// Throws the errors collected so far (and forgets them).
    func throwIfErrors() throws {
        lock.lock(); let pending = errors; errors.removeAll(); lock.unlock()
        if !pending.isEmpty { throw RenderError.validation(pending) }
    }

    /// A create-info whose callback records into this log. `pUserData` is unretained: the instance
    /// owns the log for as long as the messenger exists.
    func messengerCreateInfo() -> VkDebugUtilsMessengerCreateInfoEXT {
        var info = VkDebugUtilsMessengerCreateInfoEXT()
        info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
        info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue
            | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT.rawValue
        info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT.rawValue
            | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue
            | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT.rawValue
        info.pfnUserCallback = validationCallback
        info.pUserData = Unmanaged.passUnretained(self).toOpaque()
        return info
    }
}

/// Errors are recorded; warnings only printed (they do not fail a frame).
private func validationCallback(
    severity: VkDebugUtilsMessageSeverityFlagBitsEXT, types: VkDebugUtilsMessageTypeFlagsEXT,
    data: UnsafePointer<VkDebugUtilsMessengerCallbackDataEXT>?, user: UnsafeMutableRawPointer?
) -> VkBool32 {
    let message = data?.pointee.pMessage.map { String(cString: $0) } ?? "(no message)"
    if severity.rawValue & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue != 0, let user {
        Unmanaged<ValidationLog>.fromOpaque(user).takeUnretainedValue().record(message)
    } else {
        StandardStreams.writeError(Data("caprof: Vulkan validation warning: \(message)\n".utf8))
    }
    return VkBool32(VK_FALSE)
}
