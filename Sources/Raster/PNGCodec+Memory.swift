import SystemSupport

extension PNGCodec {
    /// Encodes premultiplied RGBA8 pixels as the bytes of a non-premultiplied PNG (for embedding,
    /// e.g. as a data: URI). libpng writes through the C shim to a private temporary file, which
    /// is read back and removed: the shim's one writing path stays the only place libpng runs.
    public static func encode(premultiplied pixels: [UInt8], width: Int, height: Int,
                              compression: Compression = .fast) throws -> [UInt8] {
        let dir = FileManager.default.temporaryDirectory.path
        let path = dir + "/caprof-png-\(getpid())-\(UUID().uuidString).png"
        defer { unlink(path) }
        try write(premultiplied: pixels, width: width, height: height, to: path, compression: compression)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PNGError(kind: .io, message: "cannot read back the encoded PNG from \(dir)")
        }
        return [UInt8](data)
    }
}
