import CPNGShim
import SystemSupport

/// Why a PNG could not be read or written.
public struct PNGError: Error, CustomStringConvertible, Equatable {
    /// `unsupportedFormat`: an image of another format than PNG and JPEG (the message names it).
    public enum Kind: Equatable, Sendable { case notPNG, corrupt, tooLarge, io, unsupportedFormat }
    public var kind: Kind
    public var message: String
    public var description: String { message }
    public init(kind: Kind, message: String) { self.kind = kind; self.message = message }
}

/// PNG decoding (contents images) and encoding (output frames) through libpng's C shim.
public enum PNGCodec {
    /// The largest image side accepted for `contents` (design.md "Limits").
    public static let maxImageSide: UInt32 = 16384

    /// Image size without decoding pixels.
    public static func size(of data: [UInt8]) throws -> (width: Int, height: Int) {
        var w: UInt32 = 0, h: UInt32 = 0
        var err = [CChar](repeating: 0, count: 256)
        let rc = data.withUnsafeBufferPointer { caprof_png_info($0.baseAddress, $0.count, &w, &h, &err, err.count) }
        try check(rc, err)
        return (Int(w), Int(h))
    }

    /// Decodes a PNG to a premultiplied RGBA8 bitmap (what the compositor samples). The size is
    /// read from the header and checked against `limits` (and against the file's length) before
    /// the pixels are allocated.
    public static func decode(_ data: [UInt8], limits: ImageLimits = .standard) throws -> Bitmap {
        let (w, h) = try size(of: data)
        try check(width: w, height: h, fileBytes: data.count, limits)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        var err = [CChar](repeating: 0, count: 256)
        let rc = data.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                caprof_png_decode(src.baseAddress, src.count, maxImageSide, dst.baseAddress, dst.count, &err, err.count)
            }
        }
        try check(rc, err)
        premultiply(&pixels)
        var bitmap = Bitmap(width: w, height: h, pixels: pixels)
        bitmap.hasAlphaChannel = hasAlphaChannel(data)
        return bitmap
    }

    /// Whether a PNG carries alpha, from its header alone: colour type 4 (grey + alpha) or 6
    /// (RGBA), or a tRNS chunk (transparency for grey, RGB or palette images) before the image
    /// data. The decoder expands every PNG to RGBA, so this is the one place the source's format
    /// is still known. true when the chunks cannot be read (never wrongly opaque).
    public static func hasAlphaChannel(_ data: [UInt8]) -> Bool {
        func u32(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        func type(_ at: Int) -> String { String(decoding: data[at + 4..<at + 8], as: UTF8.self) }
        // Signature (8 bytes), then IHDR: length, "IHDR", width, height, bit depth, colour type.
        guard data.count >= 26, type(8) == "IHDR" else { return true }
        if data[25] & 4 != 0 { return true }
        var at = 8
        while at + 8 <= data.count {
            switch type(at) {
            case "tRNS": return true
            case "IDAT", "IEND": return false
            default: break
            }
            let next = at + 12 + u32(at)
            guard next > at else { return true }
            at = next
        }
        return true
    }

    /// Refuses, from the header alone, an image over `limits` or one its file is too short to hold.
    public static func check(width w: Int, height h: Int, fileBytes: Int, _ limits: ImageLimits) throws {
        if w > limits.maxSide || h > limits.maxSide {
            throw PNGError(kind: .tooLarge, message: "image is \(w)×\(h) pixels; the limit is \(limits.maxSide) per side")
        }
        if w * h * 4 > limits.maxDecodedBytes {
            throw PNGError(kind: .tooLarge, message: "image is \(w)×\(h) pixels, \(mebibytes(w * h * 4)) decoded; the limit is \(mebibytes(limits.maxDecodedBytes)) per image (raise it with --limit image-bytes=N, or scale the image down to the size it is shown at)")
        }
        let least = ImageLimits.minimumPNGBytes(width: w, height: h)
        if fileBytes < least {
            throw PNGError(kind: .corrupt, message: "PNG header declares \(w)×\(h) pixels but the file has only \(fileBytes) bytes; no PNG that size fits in fewer than \(least)")
        }
    }

    static func mebibytes(_ n: Int) -> String {
        n >= 1 << 20 ? "\(n >> 20) MiB" : "\(n) bytes"
    }

    /// Compression presets: `fast` is zlib level 1 with no filtering (≈4× faster than libpng's
    /// defaults on a full-screen frame, design.md §3); `small` is level 6 with adaptive filters.
    public enum Compression: String, CaseIterable, Sendable {
        case fast, small
        public var zlibLevel: Int32 { self == .fast ? 1 : 6 }
        var filters: Int32 { self == .fast ? 0 : 1 }
    }

    /// Writes premultiplied RGBA8 pixels as a non-premultiplied PNG, atomically: the image is
    /// written to a temporary file beside `path` and renamed over it, so a failure never leaves a
    /// half-written file.
    public static func write(premultiplied pixels: [UInt8], width: Int, height: Int, to path: String,
                             compression: Compression = .fast) throws {
        // `fast` is written in bands (PNGBandEncoder), so a frame written alone has the bytes it
        // has in a sequence, whose encoder reuses the bands that did not change.
        if compression == .fast, width > 0, height > 0 {
            try PNGBandEncoder().write(premultiplied: pixels, width: width, height: height, to: path)
            return
        }
        // A special file (/dev/null, a pipe) or a link (/dev/stdout) is written in place
        // (`AtomicFile.writesInPlace`): a rename would replace the node or the link.
        do {
            try AtomicFile.write(to: path) { target in
                var err = [CChar](repeating: 0, count: 256)
                // Converted to straight alpha row by row in the shim (no frame-sized copy).
                let rc = pixels.withUnsafeBufferPointer {
                    caprof_png_write(target, $0.baseAddress, UInt32(width), UInt32(height), 1, compression.zlibLevel, compression.filters, &err, err.count)
                }
                if rc != 0 { throw PNGError(kind: .io, message: "cannot write \(path): \(String(cString: err))") }
            }
        } catch let e as AtomicFileError {
            throw PNGError(kind: .io, message: "cannot write \(path): \(e.reason)")
        }
    }

    private static func check(_ rc: Int32, _ err: [CChar]) throws {
        if rc == 0 { return }
        let msg = String(cString: err)
        switch Int(rc) {
        case Int(CAPROF_PNG_NOT_PNG): throw PNGError(kind: .notPNG, message: msg.isEmpty ? "not a PNG file" : msg)
        case Int(CAPROF_PNG_TOO_LARGE): throw PNGError(kind: .tooLarge, message: msg)
        case Int(CAPROF_PNG_IO): throw PNGError(kind: .io, message: msg)
        default: throw PNGError(kind: .corrupt, message: "corrupt PNG: \(msg.isEmpty ? "decoding failed" : msg)")
        }
    }
}

/// Premultiplies RGBA8 in place with rounding: c' = round(c · a / 255).
public func premultiply(_ px: inout [UInt8]) {
    px.withUnsafeMutableBufferPointer { p in
        var i = 0
        while i < p.count {
            let a = UInt32(p[i + 3])
            if a != 255 {
                p[i] = UInt8((UInt32(p[i]) * a + 127) / 255)
                p[i + 1] = UInt8((UInt32(p[i + 1]) * a + 127) / 255)
                p[i + 2] = UInt8((UInt32(p[i + 2]) * a + 127) / 255)
            }
            i += 4
        }
    }
}

/// Undoes `premultiply`: c = round(c' · 255 / a), 0 where a = 0.
public func unpremultiply(_ px: inout [UInt8]) {
    px.withUnsafeMutableBufferPointer { p in
        var i = 0
        while i < p.count {
            let a = UInt32(p[i + 3])
            if a == 0 { p[i] = 0; p[i + 1] = 0; p[i + 2] = 0 } else if a != 255 {
                p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + a / 2) / a))
                p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + a / 2) / a))
                p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + a / 2) / a))
            }
            i += 4
        }
    }
}
