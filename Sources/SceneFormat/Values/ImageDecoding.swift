import SystemSupport
import LayerModel
import Animation

/// `contents`: a PNG or JPEG path relative to the scene file's directory (checked to exist and be
/// readable now, so the error points at the scene) or a `data:image/png;base64,…` /
/// `data:image/jpeg;base64,…` URI. Pixels are decoded later by the Raster module, which also
/// names the format of a file that is neither.
extension DecodingContext {
    static let dataURIPrefix = "data:image/png;base64,"
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    /// The data URI media types read, and the signature their payload must start with.
    static let dataURITypes: [(prefix: String, name: String, signature: [UInt8])] = [
        ("data:image/png;base64,", "PNG", pngSignature),
        ("data:image/jpeg;base64,", "JPEG", jpegSignature),
        ("data:image/jpg;base64,", "JPEG", jpegSignature),
    ]

    func image(_ v: JSONValue) throws -> ImageSource {
        guard let s = v.string else { throw typeMismatch(v, expected: ValueType.image.summary) }
        let here = location(v)
        if s.hasPrefix("data:") {
            guard let type = Self.dataURITypes.first(where: { s.hasPrefix($0.prefix) }) else {
                let media = s.dropFirst(5).prefix { $0 != ";" && $0 != "," }
                throw error(.invalidValue, v, "unsupported data URI of type '\(media)': caprof reads data:image/png;base64,… and data:image/jpeg;base64,…")
            }
            if s.utf8.count > SceneLimits.maxDataURICharacters {
                throw limit(v, "data URI of \(s.utf8.count) characters; the limit is \(SceneLimits.maxDataURICharacters)")
            }
            guard let data = Data(base64Encoded: String(s.dropFirst(type.prefix.count))) else {
                throw error(.invalidValue, v, "corrupt data URI: the base64 payload is not valid base64")
            }
            let bytes = [UInt8](data)
            guard bytes.starts(with: type.signature) else {
                throw error(.invalidValue, v, "corrupt data URI: the payload is not a \(type.name) (its signature is wrong)")
            }
            return ImageSource(origin: images.intern(.data(bytes)), location: here)
        }
        guard !s.isEmpty else { throw error(.invalidValue, v, "empty image path; use null for no contents") }
        if let absolute = checkedImagePaths[s] { return ImageSource(origin: .file(absolute), location: here) }
        let absolute = resolvePath(s)
        guard let status = FileStatus(path: absolute) else {
            throw error(.missingFile, v, "image file '\(s)' not found (looked for \(absolute))")
        }
        guard !status.isDirectory else { throw error(.missingFile, v, "image path '\(s)' is a directory (\(absolute))") }
        guard FileManager.default.isReadableFile(atPath: absolute) else {
            throw error(.missingFile, v, "image file '\(s)' is not readable (\(absolute))")
        }
        checkedImagePaths[s] = absolute
        return ImageSource(origin: .file(absolute), location: here)
    }

    /// A path as written, relative to the scene file's directory unless absolute.
    func resolvePath(_ p: String) -> String {
        let joined = p.hasPrefix("/") ? p : (baseDirectory.isEmpty ? p : baseDirectory + "/" + p)
        return URL(fileURLWithPath: joined).standardizedFileURL.path
    }
}
