import Foundation

/// Loads and decodes image files once each (by path), for a scene's `contents`.
public final class ImageLoader {
    private var cache: [String: Bitmap] = [:]
    public init() {}
    /// The largest image file read (bytes), checked before reading.
    public static let maxFileBytes = 256 << 20

    public func load(path: String) throws -> Bitmap {
        if let b = cache[path] { return b }
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw PNGError(kind: .io, message: "image file not found: \(path)")
        }
        if let size = attrs[.size] as? Int, size > Self.maxFileBytes {
            throw PNGError(kind: .tooLarge, message: "image file is \(size) bytes; the limit is \(Self.maxFileBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PNGError(kind: .io, message: "cannot read image file: \(path)")
        }
        let b = try ImageCodec.decode([UInt8](data))
        cache[path] = b
        return b
    }

    public func decode(bytes: [UInt8], key: String) throws -> Bitmap {
        if let b = cache[key] { return b }
        let b = try ImageCodec.decode(bytes)
        cache[key] = b
        return b
    }
}
