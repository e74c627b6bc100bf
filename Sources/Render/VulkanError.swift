import CVulkan
import SystemSupport
import Plan

/// A Vulkan call that did not return VK_SUCCESS: the call's name and its VkResult.
public struct VulkanError: Error, CustomStringConvertible, Equatable {
    public var call: String
    /// The raw VkResult value.
    public var result: Int32
    public var resultName: String { VulkanError.name(of: result) }
    public var description: String { "\(call) failed: \(resultName) (\(result))" }

    init(call: String, result: VkResult) { self.call = call; self.result = result.rawValue }

    static func name(of result: Int32) -> String {
        switch VkResult(rawValue: result) {
        case VK_NOT_READY: return "VK_NOT_READY"
        case VK_TIMEOUT: return "VK_TIMEOUT"
        case VK_INCOMPLETE: return "VK_INCOMPLETE"
        case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY"
        case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY"
        case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED"
        case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST"
        case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED"
        case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT"
        case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT"
        case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT"
        case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER"
        case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS"
        case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED"
        case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL"
        case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY"
        case VK_ERROR_UNKNOWN: return "VK_ERROR_UNKNOWN"
        default: return "VkResult"
        }
    }
}

/// Checks a VkResult; anything but VK_SUCCESS becomes a `VulkanError` naming the call
/// (in release builds too: this is not an assertion).
@inline(__always)
func vkCheck(_ result: VkResult, _ call: @autoclosure () -> String) throws {
    if result != VK_SUCCESS { throw VulkanError(call: call(), result: result) }
}

/// Failures of the backend that are not a single failed call.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// The Vulkan loader found no driver (no ICD, or an ICD with no devices).
    case noVulkanDriver(detail: String)
    /// Devices exist but none meets caprof's requirements; each report says why.
    case noSuitableDevice([DeviceReport])
    /// CAPROF_DEVICE / preferredDevice matched no accepted device.
    case preferredDeviceNotFound(String, [DeviceReport])
    /// VK_LAYER_KHRONOS_validation (CAPROF_VALIDATION=1) reported errors.
    case validation([String])
    /// CAPROF_VALIDATION=1 but the validation layer is not installed.
    case validationLayerMissing
    /// A plan image whose key has no bitmap in the `images` dictionary.
    case missingImage(key: UInt64)
    /// An image index out of range of `FramePlan.images`.
    case badImageIndex(Int)
    /// A target or image size the device cannot hold (zero, or above its maximum 2D extent).
    case unsupportedSize(what: String, width: Int, height: Int, maximum: Int)
    /// An item samples an offscreen pass that has not run before it, or a raster-cache entry the
    /// backend does not hold (the plan and the backend's cache are out of step).
    case badOffscreenSource(String)
    /// A flattened region (`DrawItem.flattened`) whose stack the backend cannot blend in one draw.
    case badFlattenedRegion(item: Int, layers: Int)
    /// A bitmap whose size is not the one the plan drew a flattened region with.
    case imageSizeMismatch(key: UInt64, width: Int, height: Int, plannedWidth: Int, plannedHeight: Int)
    /// Pixels given for an upload that are not the image the frame's texture was made for.
    case imageChanged(key: UInt64)
    /// The frame's offscreen targets together exceed `FrameGraph.maxOffscreenBytes` (every pass
    /// of a frame holds its own target until the frame ends).
    case offscreenMemory(passes: Int, bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .noVulkanDriver(let detail):
            return "No Vulkan driver was found (\(detail)). Install mesa-vulkan-drivers "
                + "(lavapipe, a software Vulkan 1.3 driver: apt-get install mesa-vulkan-drivers) or your GPU's Vulkan driver."
        case .noSuitableDevice(let reports):
            return "No Vulkan device meets caprof's requirements:\n"
                + reports.map { "  \($0.name): \($0.reason)" }.joined(separator: "\n")
        case .preferredDeviceNotFound(let name, let reports):
            return "No accepted Vulkan device matches \"\(name)\" (CAPROF_DEVICE). Devices:\n"
                + reports.map { "  \($0.name): \($0.accepted ? "accepted" : "rejected"), \($0.reason)" }.joined(separator: "\n")
        case .validation(let messages):
            return "Vulkan validation errors:\n" + messages.map { "  " + $0 }.joined(separator: "\n")
        case .validationLayerMissing:
            return "CAPROF_VALIDATION=1 but VK_LAYER_KHRONOS_validation is not installed (apt-get install vulkan-validationlayers)."
        case .missingImage(let key):
            return "The frame plan samples image \(key), but no bitmap was given for it."
        case .badImageIndex(let index):
            return "A draw item refers to image index \(index), outside the plan's images."
        case .unsupportedSize(let what, let w, let h, let maximum):
            return "\(what) size \(w)×\(h) is not supported (each side must be 1…\(maximum) pixels)."
        case .badOffscreenSource(let what):
            return "A draw item samples \(what), which the frame has not rendered."
        case .badFlattenedRegion(let item, let layers):
            return "Canvas item \(item) is a flattened region of \(layers) layers; one region draw blends 1…\(FlattenedRegion.maxDepth)."
        case .imageSizeMismatch(let key, let w, let h, let pw, let ph):
            return "Image \(key) is \(w)×\(h) pixels, but the frame plan was made for \(pw)×\(ph)."
        case .imageChanged(let key):
            return "Image \(key) was decoded again and its pixels are not those the frame was planned with."
        case .offscreenMemory(let passes, let bytes, let limit):
            return "This frame renders \(passes) offscreen passes whose targets need \(String.gibibytes(bytes)) together; the limit is \(String.gibibytes(limit)) per frame. "
                + "Nested group opacity, masks, shadows or filters on a large canvas each render a target: flatten some of them, or profile with --no-gpu."
        }
    }
}
