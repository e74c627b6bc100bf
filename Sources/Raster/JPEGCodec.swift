import CJPEGShim

/// JPEG decoding (contents images) through libjpeg-turbo's C shim, which owns libjpeg's setjmp.
/// JPEG has no alpha: the bitmap is opaque, so a JPEG layer is never blended for its image.
public enum JPEGCodec {
    /// Image size from the header, without decoding pixels.
    public static func size(of data: [UInt8]) throws -> (width: Int, height: Int) {
        var w: UInt32 = 0, h: UInt32 = 0
        var err = [CChar](repeating: 0, count: 256)
        let rc = data.withUnsafeBufferPointer { caprof_jpeg_info($0.baseAddress, $0.count, &w, &h, &err, err.count) }
        try check(rc, err)
        return (Int(w), Int(h))
    }

    /// Decodes a JPEG to an RGBA8 bitmap (alpha 255, so premultiplied = straight).
    public static func decode(_ data: [UInt8]) throws -> Bitmap {
        let (w, h) = try size(of: data)
        if w > Int(PNGCodec.maxImageSide) || h > Int(PNGCodec.maxImageSide) {
            throw PNGError(kind: .tooLarge, message: "image is \(w)×\(h) pixels; the limit is \(PNGCodec.maxImageSide) per side")
        }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        var err = [CChar](repeating: 0, count: 256)
        let rc = data.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                caprof_jpeg_decode(src.baseAddress, src.count, PNGCodec.maxImageSide, dst.baseAddress, dst.count, &err, err.count)
            }
        }
        try check(rc, err)
        var bitmap = Bitmap(width: w, height: h, pixels: pixels)
        bitmap.hasAlphaChannel = false
        return bitmap
    }

    private static func check(_ rc: Int32, _ err: [CChar]) throws {
        if rc == 0 { return }
        let msg = String(cString: err)
        switch Int(rc) {
        case Int(CAPROF_JPEG_NOT_JPEG): throw PNGError(kind: .unsupportedFormat, message: msg)
        case Int(CAPROF_JPEG_TOO_LARGE): throw PNGError(kind: .tooLarge, message: msg)
        default: throw PNGError(kind: .corrupt, message: "corrupt JPEG: \(msg.isEmpty ? "decoding failed" : msg)")
        }
    }
}
