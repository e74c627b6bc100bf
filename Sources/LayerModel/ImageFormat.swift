/// What an image file holds, from its first bytes (its signature), so a contents image is decoded
/// by the right codec and an image caprof cannot read is refused with the format it is, not as a
/// "corrupt PNG".
public enum ImageFormat: Equatable, Sendable {
    case png
    case jpeg
    /// A format recognised but not read (its usual name: "GIF", "WebP", "HEIC" …).
    case unsupported(String)
    /// No known signature.
    case unknown

    public init(signatureOf b: [UInt8]) {
        func starts(_ s: [UInt8], at o: Int = 0) -> Bool { b.count >= o + s.count && Array(b[o..<(o + s.count)]) == s }
        func ascii(_ s: String, at o: Int = 0) -> Bool { starts(Array(s.utf8), at: o) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png; return }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg; return }
        if ascii("GIF87a") || ascii("GIF89a") { self = .unsupported("GIF"); return }
        if ascii("RIFF") && ascii("WEBP", at: 8) { self = .unsupported("WebP"); return }
        if ascii("ftyp", at: 4) {
            let brand = b.count >= 12 ? String(decoding: b[8..<12], as: UTF8.self) : ""
            switch brand {
            case "avif", "avis": self = .unsupported("AVIF")
            case "heic", "heix", "hevc", "heim", "heis", "mif1", "msf1": self = .unsupported("HEIC")
            default: self = .unsupported("ISO media (\(brand))")
            }
            return
        }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { self = .unsupported("TIFF"); return }
        if ascii("BM") && b.count >= 14 { self = .unsupported("BMP"); return }
        if starts([0x00, 0x00, 0x01, 0x00]) { self = .unsupported("ICO"); return }
        if ascii("%PDF") { self = .unsupported("PDF"); return }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) || starts([0xFF, 0x4F, 0xFF, 0x51]) { self = .unsupported("JPEG 2000"); return }
        let head = String(decoding: b.prefix(256), as: UTF8.self)
        if head.contains("<svg") || (head.hasPrefix("<?xml") && head.contains("svg")) { self = .unsupported("SVG"); return }
        self = .unknown
    }

    /// The formats Raster decodes (PNG through libpng, JPEG through libjpeg-turbo); importers
    /// check this so an image of another format is a located warning, not a render failure.
    public var isDecodable: Bool { self == .png || self == .jpeg }

    /// The decodable formats, for messages.
    public static let decodableNames = "PNG and JPEG"

    /// "PNG", "JPEG", "GIF" …
    public var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .unsupported(let n): return n
        case .unknown: return "unknown"
        }
    }
}
