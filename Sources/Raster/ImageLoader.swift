import Foundation

/// Loads and decodes image files once each (by path), for a scene's `contents`, within `limits`:
/// each image's size is checked from its header before decoding, and the decoded bytes of all the
/// images this loader holds are counted against `maxTotalDecodedBytes`.
public final class ImageLoader {
    private var cache: [String: Bitmap] = [:]
    public let limits: ImageLimits
    /// Decoded bytes of every image decoded so far (files and data URIs).
    public private(set) var decodedBytes = 0
    public init(limits: ImageLimits = .standard) { self.limits = limits }
    /// The largest image file read (bytes), checked before reading.
    public static let maxFileBytes = 256 << 20

    public func load(path: String) throws -> Bitmap {
        if let b = cache[path] { return b }
        guard let attrs = try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path) else {
            throw PNGError(kind: .io, message: "image file not found: \(path)")
        }
        // A FIFO or a device would block or never end: refused before it is opened.
        guard attrs[.type] as? FileAttributeType == .typeRegular else {
            throw PNGError(kind: .io, message: "image path is not a regular file (a directory, FIFO, socket or device): \(path)")
        }
        if let size = attrs[.size] as? Int, size > Self.maxFileBytes {
            throw PNGError(kind: .tooLarge, message: "image file is \(size) bytes; the limit is \(Self.maxFileBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PNGError(kind: .io, message: "cannot read image file: \(path)")
        }
        let b = try decodeCounted([UInt8](data))
        cache[path] = b
        return b
    }

    public func decode(bytes: [UInt8], key: String) throws -> Bitmap {
        if let b = cache[key] { return b }
        let b = try decodeCounted(bytes)
        cache[key] = b
        return b
    }

    /// Decodes bytes not cached here (data URIs, which their caller keys by content).
    public func decodeUncached(_ bytes: [UInt8]) throws -> Bitmap { try decodeCounted(bytes) }

    private func decodeCounted(_ data: [UInt8]) throws -> Bitmap {
        // The size from the header first (PNG or JPEG), so nothing is allocated for an image over
        // the limits; any other format is refused by name (`ImageCodec`).
        let w: Int, h: Int
        switch ImageFormat(signatureOf: data) {
        case .png: (w, h) = try PNGCodec.size(of: data)
        case .jpeg:
            (w, h) = try JPEGCodec.size(of: data)
            guard w <= limits.maxSide, h <= limits.maxSide, w * h * 4 <= limits.maxDecodedBytes else {
                throw PNGError(kind: .tooLarge, message: "this \(w)×\(h) JPEG would take \(PNGCodec.mebibytes(w * h * 4)) decoded; the limits are \(limits.maxSide) px a side and \(PNGCodec.mebibytes(limits.maxDecodedBytes)) per image (raise it with --limit image-bytes=N)")
            }
        default: return try ImageCodec.decode(data)
        }
        if decodedBytes + w * h * 4 > limits.maxTotalDecodedBytes, w * h * 4 <= limits.maxDecodedBytes {
            throw PNGError(kind: .tooLarge, message: "this \(w)×\(h) image would bring the scene's decoded images to \(PNGCodec.mebibytes(decodedBytes + w * h * 4)); the limit is \(PNGCodec.mebibytes(limits.maxTotalDecodedBytes)) in all (raise it with --limit image-total-bytes=N)")
        }
        let b = ImageFormat(signatureOf: data) == .png ? try PNGCodec.decode(data, limits: limits) : try JPEGCodec.decode(data)
        decodedBytes += b.pixels.count
        return b
    }
}
