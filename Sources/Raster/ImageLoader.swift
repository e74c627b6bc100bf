import SystemSupport
import LayerModel

/// Loads and decodes image files once each (by path), for a scene's `contents`, within `limits`:
/// each image's size is checked from its header before decoding, and the decoded bytes of all the
/// images this loader holds are counted against `maxTotalDecodedBytes`.
public final class ImageLoader {
    var cache: [String: Bitmap] = [:]
    public let limits: ImageLimits
    /// Decoded bytes of every image decoded so far (files and data URIs).
    public internal(set) var decodedBytes = 0
    public init(limits: ImageLimits = .standard) { self.limits = limits }
    /// The largest image file read (bytes), checked before reading.
    public static let maxFileBytes = 256 << 20

    public func load(path: String) throws -> Bitmap {
        if let b = cache[path] { return b }
        let b = try decodeCounted(try read(path: path))
        cache[path] = b
        return b
    }

    /// The bytes of an image file, after the checks that keep a hostile path from blocking or
    /// exhausting memory (a regular file, at most `maxFileBytes`).
    func read(path: String) throws -> [UInt8] {
        guard let status = FileStatus(path: path) else {
            throw PNGError(kind: .io, message: "image file not found: \(path)")
        }
        // A FIFO or a device would block or never end: refused before it is opened.
        guard status.isRegularFile else {
            throw PNGError(kind: .io, message: "image path is not a regular file (a directory, FIFO, socket or device): \(path)")
        }
        if status.size > Self.maxFileBytes {
            throw PNGError(kind: .tooLarge, message: "image file is \(status.size) bytes; the limit is \(Self.maxFileBytes)")
        }
        guard let bytes = FileBytes.read(path: path, upTo: Self.maxFileBytes, expected: status.size) else {
            throw PNGError(kind: .io, message: "cannot read image file: \(path)")
        }
        return bytes
    }

    public func decode(bytes: [UInt8], key: String) throws -> Bitmap {
        if let b = cache[key] { return b }
        let b = try decodeCounted(bytes)
        cache[key] = b
        return b
    }

    /// Decodes bytes not cached here (data URIs, which their caller keys by content).
    public func decodeUncached(_ bytes: [UInt8]) throws -> Bitmap { try decodeCounted(bytes) }

    /// Drops the cached bitmap of `path` (its holder keeps or lets go of the pixels itself).
    public func forget(path: String) { cache[path] = nil }

    /// Decodes an image this loader decoded before and whose pixels were let go (a texture needs
    /// them again): its file read again, or its bytes. Checked against the per-image limits, not
    /// counted again against the total (it replaces what was counted); not cached.
    public func decodeAgain(path: String) throws -> Bitmap { try decodeAgain(bytes: try read(path: path)) }

    public func decodeAgain(bytes: [UInt8]) throws -> Bitmap {
        guard try checkHeader(bytes, decodedSoFar: 0) != nil else { return try ImageCodec.decode(bytes) }
        return try decodePixels(bytes)
    }

    private func decodeCounted(_ data: [UInt8]) throws -> Bitmap {
        guard let bytes = try checkHeader(data, decodedSoFar: decodedBytes) else { return try ImageCodec.decode(data) }
        _ = bytes
        let b = try decodePixels(data)
        decodedBytes += b.pixels.count
        return b
    }

    /// The decoded size of `data` from its header (PNG or JPEG), checked against the limits with
    /// `decodedSoFar` bytes already decoded, so nothing is allocated for an image over them; nil
    /// for any other format (`ImageCodec` refuses it by name).
    func checkHeader(_ data: [UInt8], decodedSoFar: Int) throws -> Int? {
        let w: Int, h: Int
        switch ImageFormat(signatureOf: data) {
        case .png: (w, h) = try PNGCodec.size(of: data)
        case .jpeg:
            (w, h) = try JPEGCodec.size(of: data)
            guard w <= limits.maxSide, h <= limits.maxSide, w * h * 4 <= limits.maxDecodedBytes else {
                throw PNGError(kind: .tooLarge, message: "this \(w)×\(h) JPEG would take \(PNGCodec.mebibytes(w * h * 4)) decoded; the limits are \(limits.maxSide) px a side and \(PNGCodec.mebibytes(limits.maxDecodedBytes)) per image (raise it with --limit image-bytes=N)")
            }
        default: return nil
        }
        if decodedSoFar + w * h * 4 > limits.maxTotalDecodedBytes, w * h * 4 <= limits.maxDecodedBytes {
            throw PNGError(kind: .tooLarge, message: "this \(w)×\(h) image would bring the scene's decoded images to \(PNGCodec.mebibytes(decodedSoFar + w * h * 4)); the limit is \(PNGCodec.mebibytes(limits.maxTotalDecodedBytes)) in all (raise it with --limit image-total-bytes=N)")
        }
        return w * h * 4
    }

    /// The pixels of a PNG or JPEG whose header passed `checkHeader` (thread-safe: no state).
    func decodePixels(_ data: [UInt8]) throws -> Bitmap {
        ImageFormat(signatureOf: data) == .png ? try PNGCodec.decode(data, limits: limits) : try JPEGCodec.decode(data)
    }
}
