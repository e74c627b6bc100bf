import CPNGShim
import SystemSupport

/// PNG encoding for the `fast` preset (zlib level 1, no filtering), in bands of `bandRows` rows:
/// each band's scanlines are deflated from a fresh state and end with a full flush, so the band's
/// compressed bytes refer to nothing before them. The bands' segments concatenate into the image's
/// one zlib stream (one IDAT chunk per band; the zlib header goes before the first, the final
/// block and the combined Adler-32 after the last).
///
/// Why: a frame sequence mostly changes a few rows (a spinner over a still screen). An encoder
/// kept across frames (`keepsBands`) compares each band's pixels with the previous frame's and
/// reuses the compressed segment of every band that did not change, so a frame costs the zlib time
/// of its changed rows: PNG encoding was 36 of the 45 ms of each such full-screen frame. libpng
/// cannot take compressed data, so the few chunks are written here; the pixels decode the same
/// whatever the bands, and one frame written alone gives the very bytes it gets in a sequence.
/// Fresh state per band costs a little size: the rows of a band cannot refer to the band above.
public final class PNGBandEncoder {
    /// Rows per band: small enough that a small change re-encodes little, large enough that the
    /// full flush and the lost history cost little size (against libpng's writer: +0.04 % on the
    /// 16-layer frame of tools/measure-composite, −1.8 % on Examples/cards.json).
    public static let bandRows = 32
    public let keepsBands: Bool
    public let zlibLevel: Int32
    /// Bands compressed and bands reused over the encoder's life.
    public private(set) var encodedBands = 0
    public private(set) var reusedBands = 0

    private struct Band { var bytes: [UInt8]; var adler: UInt32; var rawCount: Int }
    private var previous: (pixels: [UInt8], width: Int, height: Int)?
    private var bands: [Band] = []
    /// zlib's state, kept for images of the same width.
    private var deflater: OpaquePointer?
    private var deflaterWidth = 0

    deinit { caprof_png_deflater_free(deflater) }

    /// `keepsBands`: remember this image's bands for the next (a frame sequence's encoder).
    public init(keepsBands: Bool = false, zlibLevel: Int32 = PNGCodec.Compression.fast.zlibLevel) {
        self.keepsBands = keepsBands
        self.zlibLevel = zlibLevel
    }

    /// Writes premultiplied RGBA8 pixels as a non-premultiplied PNG, atomically (`AtomicFile`).
    public func write(premultiplied pixels: [UInt8], width: Int, height: Int, to path: String) throws {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "pixels do not match the size")
        do {
            try AtomicFile.write(to: path, descriptor: { fd in
                var out = ChunkWriter(fd: fd)
                try encode(pixels, width: width, height: height, into: &out)
                try out.flush()
            })
        } catch let e as AtomicFileError {
            throw PNGError(kind: .io, message: "cannot write \(path): \(e.reason)")
        }
    }

    private func encode(_ pixels: [UInt8], width: Int, height: Int, into out: inout ChunkWriter) throws {
        out.append(PNGBandEncoder.signature)
        var ihdr = [UInt8]()
        ihdr.appendBigEndian(UInt32(width)); ihdr.appendBigEndian(UInt32(height))
        ihdr += [8, 6, 0, 0, 0]          // 8 bits, RGBA, deflate, filter method 0, no interlace
        try out.chunk("IHDR", ihdr)
        try out.chunk("sRGB", [0])       // perceptual, as caprof_png_write marks it
        let same = previous.map { $0.width == width && $0.height == height } ?? false
        let count = (height + Self.bandRows - 1) / Self.bandRows
        var adler: UInt32 = 1
        var kept: [Band] = []
        if keepsBands { kept.reserveCapacity(count) }
        for i in 0..<count {
            let y0 = i * Self.bandRows, y1 = min(height, y0 + Self.bandRows)
            let band: Band
            if same, i < bands.count, Self.rowsEqual(pixels, previous!.pixels, from: y0 * width * 4, to: y1 * width * 4) {
                band = bands[i]; reusedBands += 1
            } else {
                band = try deflate(pixels, width: width, rows: y0..<y1); encodedBands += 1
            }
            adler = i == 0 ? band.adler : caprof_png_adler32_combine(adler, band.adler, band.rawCount)
            var prefix: [UInt8] = [], suffix: [UInt8] = []
            if i == 0 { prefix = [0x78, 0x01] }                 // zlib header: deflate, 32 KiB window
            if i == count - 1 {
                suffix = [0x01, 0x00, 0x00, 0xFF, 0xFF]         // final block: empty, stored
                suffix.appendBigEndian(adler)
            }
            try out.chunk("IDAT", prefix, band.bytes, suffix)
            // Kept at its length: its array was allocated for zlib's worst case.
            if keepsBands { kept.append(Band(bytes: Array(band.bytes[...]), adler: band.adler, rawCount: band.rawCount)) }
        }
        try out.chunk("IEND", [])
        if keepsBands { bands = kept; previous = (pixels, width, height) }
    }

    private static func rowsEqual(_ a: [UInt8], _ b: [UInt8], from: Int, to: Int) -> Bool {
        a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in memcmp(pa.baseAddress! + from, pb.baseAddress! + from, to - from) == 0 } }
    }

    private func deflate(_ pixels: [UInt8], width: Int, rows: Range<Int>) throws -> Band {
        if deflater == nil || deflaterWidth != width {
            caprof_png_deflater_free(deflater)
            deflater = caprof_png_deflater_new(zlibLevel, UInt32(width))
            deflaterWidth = width
            guard deflater != nil else { throw PNGError(kind: .io, message: "out of memory for zlib") }
        }
        let cap = caprof_png_band_bound(UInt32(width), UInt32(rows.count))
        var err = [CChar](repeating: 0, count: 256)
        var adler: UInt32 = 0, rc: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: cap) { buffer, count in
            var length = 0
            rc = pixels.withUnsafeBufferPointer { src in
                caprof_png_deflate_band(deflater, src.baseAddress, UInt32(width), UInt32(rows.lowerBound), UInt32(rows.upperBound), 1,
                                        buffer.baseAddress, cap, &length, &adler, &err, err.count)
            }
            count = rc == 0 ? length : 0
        }
        if rc != 0 { throw PNGError(kind: .io, message: String(cString: err)) }
        return Band(bytes: bytes, adler: adler, rawCount: rows.count * (1 + width * 4))
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}

/// PNG chunks (length, type, data, CRC-32 of type and data) through a buffer to a file descriptor.
private struct ChunkWriter {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32) { self.fd = fd; buffer.reserveCapacity(1 << 20) }

    mutating func append(_ bytes: [UInt8]) { buffer += bytes }

    mutating func chunk(_ type: String, _ parts: [UInt8]...) throws {
        let kind = Array(type.utf8)
        buffer.appendBigEndian(UInt32(parts.reduce(0) { $0 + $1.count }))
        var crc = caprof_png_crc32(0, kind, kind.count)
        buffer += kind
        for p in parts where !p.isEmpty {
            crc = p.withUnsafeBufferPointer { caprof_png_crc32(crc, $0.baseAddress, $0.count) }
            buffer += p
        }
        buffer.appendBigEndian(crc)
        if buffer.count >= 1 << 20 { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        guard StandardStreams.write(buffer, to: fd) else { throw AtomicFileError(reason: String(cString: strerror(errno))) }
        buffer.removeAll(keepingCapacity: true)
    }
}

private extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ v: UInt32) {
        append(UInt8(v >> 24)); append(UInt8((v >> 16) & 0xFF)); append(UInt8((v >> 8) & 0xFF)); append(UInt8(v & 0xFF))
    }
}
