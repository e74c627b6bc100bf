import LayerModel

/// Decodes contents images by their signature: PNG (libpng) and JPEG (libjpeg-turbo).
public enum ImageCodec {
    public static func decode(_ data: [UInt8]) throws -> Bitmap {
        switch ImageFormat(signatureOf: data) {
        case .png: return try PNGCodec.decode(data)
        case .jpeg: return try JPEGCodec.decode(data)
        case .unsupported(let name):
            throw PNGError(kind: .unsupportedFormat, message: "this is a \(name) image; caprof reads PNG and JPEG contents (convert it to PNG)")
        case .unknown:
            throw PNGError(kind: .unsupportedFormat, message: "not an image caprof reads: neither PNG nor JPEG (the file starts with \(data.prefix(8).map { String(format2: $0) }.joined(separator: " ")))")
        }
    }
}

private extension String {
    init(format2 b: UInt8) {
        let digits = Array("0123456789ABCDEF")
        self = String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }
}
