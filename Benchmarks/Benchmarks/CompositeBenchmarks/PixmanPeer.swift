import PixmanPeer
import Raster

/// Swift face of the C pixman peer (Benchmarks/PixmanPeer): the 16-layer composite done on the CPU
/// by pixman (premultiplied OVER with a constant-opacity mask; bilinear with an affine transform
/// for the rotated stack), so one run gives the ratio caprof ÷ pixman on the same machine.
final class PixmanCompositor {
    private let peer: OpaquePointer
    /// The source images: pixman reads them in place, so they live at stable addresses.
    private let sources: StableImages
    let width: Int, height: Int, threads: Int
    private var pixels: [UInt8]

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `transforms`: nil for identity, else per layer (a, b, c, d, e, f) mapping a destination
    /// point to a source point: x' = a·x + c·y + e, y' = b·x + d·y + f.
    init(layers: StableImages, opacity: Float, transforms: [[Double]]?, threads: Int) throws {
        guard layers.count > 0 else { throw Failure(description: "no layers") }
        sources = layers
        width = layers.width; height = layers.height; self.threads = threads
        pixels = [UInt8](repeating: 0, count: width * height * 4)
        let flat = transforms?.flatMap { $0 }
        let consts: [UnsafePointer<UInt8>?] = layers.pointers.map { UnsafePointer($0) }
        let w = Int32(width), h = Int32(height), n = Int32(layers.count), t = Int32(threads)
        let created: OpaquePointer? = consts.withUnsafeBufferPointer { layerPointers in
            if let flat {
                return flat.withUnsafeBufferPointer {
                    pixman_peer_create(w, h, n, layerPointers.baseAddress, $0.baseAddress, opacity, t)
                }
            }
            return pixman_peer_create(w, h, n, layerPointers.baseAddress, nil, opacity, t)
        }
        guard let created else {
            throw Failure(description: "pixman_peer_create failed")
        }
        peer = created
    }

    deinit {
        pixman_peer_destroy(peer)
    }

    static var version: String { String(cString: pixman_peer_version()) }

    /// One frame: clear to white, composite every layer, into `pixels` (returned).
    @discardableResult
    func frame() -> [UInt8] {
        pixels.withUnsafeMutableBufferPointer { pixman_peer_frame(peer, $0.baseAddress) }
        return pixels
    }
}

/// Copies of same-sized images at addresses that never move (Swift arrays' storage may), shared
/// by every pixman compositor of the process.
final class StableImages: @unchecked Sendable {
    let pointers: [UnsafeMutablePointer<UInt8>]
    let width: Int, height: Int
    var count: Int { pointers.count }

    init(_ bitmaps: [Bitmap]) {
        width = bitmaps.first?.width ?? 0; height = bitmaps.first?.height ?? 0
        pointers = bitmaps.map { b in
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: b.pixels.count)
            p.initialize(from: b.pixels, count: b.pixels.count)
            return p
        }
    }

    deinit { pointers.forEach { $0.deallocate() } }
}
