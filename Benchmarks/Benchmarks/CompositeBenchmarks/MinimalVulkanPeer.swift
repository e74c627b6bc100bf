import MinimalVulkanPeer
import Raster

/// Swift face of the C peer (Benchmarks/MinimalVulkanPeer): a minimal hand-written Vulkan
/// compositor doing exactly the identity composite's work, so one benchmark run gives the ratio
/// caprof / minimal program on the same machine at the same time.
final class MinimalVulkanCompositor {
    private let peer: OpaquePointer
    let width: Int, height: Int
    /// Reused every frame, as a minimal program would.
    private var pixels: [UInt8]

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `layers`: one w×h premultiplied image per layer, each drawn full-screen at `opacity` over
    /// `clear`.
    init(layers: [Bitmap], opacity: Float, clear: (Float, Float, Float, Float)) throws {
        guard let first = layers.first else { throw Failure(description: "no layers") }
        width = first.width; height = first.height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        var error = [CChar](repeating: 0, count: 512)
        var clearColor: [Float] = [clear.0, clear.1, clear.2, clear.3]
        var created: OpaquePointer?
        // Pin every layer's pixels for the duration of the call (they are uploaded during it).
        func withPointers<R>(_ i: Int, _ acc: [UnsafePointer<UInt8>?], _ body: ([UnsafePointer<UInt8>?]) -> R) -> R {
            if i == layers.count { return body(acc) }
            return layers[i].pixels.withUnsafeBufferPointer { withPointers(i + 1, acc + [$0.baseAddress], body) }
        }
        let w = Int32(width), h = Int32(height)
        let result = withPointers(0, []) { pointers in
            minimal_vulkan_peer_create(w, h, Int32(layers.count), pointers, opacity, &clearColor,
                                       &created, &error, error.count)
        }
        guard result == 0, let created else {
            throw Failure(description: "minimal Vulkan peer: " + String(cString: error))
        }
        peer = created
    }

    deinit { minimal_vulkan_peer_destroy(peer) }

    var deviceName: String { String(cString: minimal_vulkan_peer_device_name(peer)) }

    /// One frame: draw, read back, copy into `pixels`.
    @discardableResult
    func frame() throws -> [UInt8] {
        let result = pixels.withUnsafeMutableBufferPointer { minimal_vulkan_peer_frame(peer, $0.baseAddress) }
        if result != 0 { throw Failure(description: "minimal_vulkan_peer_frame: VkResult \(result)") }
        return pixels
    }
}
