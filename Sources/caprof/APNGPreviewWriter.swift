import CPNGShim
import Raster
import SystemSupport

/// An APNG written chunk by chunk to the descriptor it is given.
final class APNGPreviewWriter: PreviewWriter {
    let fd: Int32, width: Int, height: Int
    let delays: [(num: UInt16, den: UInt16)]
    let zlibLevel: Int32
    private var sequence: UInt32 = 0
    private var index = 0
    private var previous: [UInt8]?
    private var buffer: [UInt8] = []
    /// Frames written as a changed region smaller than the canvas, and unchanged frames.
    private(set) var partialFrames = 0, unchangedFrames = 0

    init(fd: Int32, width: Int, height: Int, frameCount: Int, fps: Double, plays: Int, zlibLevel: Int32) throws {
        self.fd = fd; self.width = width; self.height = height; self.zlibLevel = zlibLevel
        if fps == fps.rounded(), fps <= 65535 {
            delays = Array(repeating: (1, UInt16(fps)), count: frameCount)
        } else {
            delays = PreviewFormat.delays(count: frameCount, fps: fps, unitsPerSecond: 1000).map { (UInt16(min(65535, $0)), 1000) }
        }
        buffer += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr: [UInt8] = []
        ihdr.be32(width); ihdr.be32(height)
        ihdr += [8, 6, 0, 0, 0]          // 8 bits, RGBA, deflate, filter method 0, no interlace
        chunk("IHDR", ihdr)
        chunk("sRGB", [0])
        var actl: [UInt8] = []
        actl.be32(frameCount); actl.be32(plays)
        chunk("acTL", actl)
        try flush()
    }

    func add(_ pixels: [UInt8]) throws {
        // The region to draw: everything for the first frame, else the changed pixels' bounds.
        var (x0, y0, x1, y1) = (0, 0, width, height)
        if let prev = previous {
            if let box = Self.changedBox(prev, pixels, width: width, height: height) {
                (x0, y0, x1, y1) = box
                if (x1 - x0) * (y1 - y0) < width * height { partialFrames += 1 }
            } else {
                (x0, y0, x1, y1) = (0, 0, 1, 1); unchangedFrames += 1
            }
        }
        let w = x1 - x0, h = y1 - y0
        var region = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let s = ((y0 + y) * width + x0) * 4
            region.replaceSubrange(y * w * 4 ..< (y + 1) * w * 4, with: pixels[s ..< s + w * 4])
        }
        var fctl: [UInt8] = []
        fctl.be32(Int(sequence)); sequence += 1
        fctl.be32(w); fctl.be32(h); fctl.be32(x0); fctl.be32(y0)
        let d = delays[min(index, delays.count - 1)]
        fctl += [UInt8(d.num >> 8), UInt8(d.num & 0xFF), UInt8(d.den >> 8), UInt8(d.den & 0xFF)]
        fctl += [0, 0]                   // APNG_DISPOSE_OP_NONE, APNG_BLEND_OP_SOURCE
        chunk("fcTL", fctl)
        let data = try deflate(region, width: w, height: h)
        if index == 0 {
            chunk("IDAT", data)
        } else {
            var fdat: [UInt8] = []
            fdat.be32(Int(sequence)); sequence += 1
            chunk("fdAT", fdat + data)
        }
        try flush()
        previous = pixels
        index += 1
    }

    func finish() throws {
        chunk("IEND", [])
        try flush()
    }

    /// The bounds [x0, x1) × [y0, y1) of the pixels that differ, nil when none does.
    static func changedBox(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> (Int, Int, Int, Int)? {
        a.withUnsafeBytes { ra in b.withUnsafeBytes { rb in
            let pa = ra.bindMemory(to: UInt32.self), pb = rb.bindMemory(to: UInt32.self)
            var minX = width, minY = height, maxX = -1, maxY = -1
            for y in 0..<height {
                let row = y * width
                if memcmp(ra.baseAddress! + row * 4, rb.baseAddress! + row * 4, width * 4) == 0 { continue }
                var x = 0
                while pa[row + x] == pb[row + x] { x += 1 }
                var e = width - 1
                while pa[row + e] == pb[row + e] { e -= 1 }
                minX = min(minX, x); maxX = max(maxX, e)
                if minY == height { minY = y }
                maxY = y
            }
            return maxY < 0 ? nil : (minX, minY, maxX + 1, maxY + 1)
        } }
    }

    /// A zlib stream of the region's scanlines (filter type 0), through CPNGShim's deflater.
    private func deflate(_ rgba: [UInt8], width w: Int, height h: Int) throws -> [UInt8] {
        guard let d = caprof_png_deflater_new(zlibLevel, UInt32(w)) else { throw PreviewError(message: "out of memory for zlib") }
        defer { caprof_png_deflater_free(d) }
        let cap = caprof_png_band_bound(UInt32(w), UInt32(h))
        var out = [UInt8](repeating: 0, count: cap)
        var length = 0, adler: UInt32 = 0
        var err = [CChar](repeating: 0, count: 256)
        let rc = rgba.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                caprof_png_deflate_band(d, src.baseAddress, UInt32(w), 0, UInt32(h), 0, dst.baseAddress, cap, &length, &adler, &err, err.count)
            }
        }
        if rc != 0 { throw PreviewError(message: String(cString: err)) }
        var stream: [UInt8] = [0x78, 0x01]                 // zlib header: deflate, 32 KiB window
        stream += out[0..<length]
        stream += [0x01, 0x00, 0x00, 0xFF, 0xFF]           // final block: empty, stored
        stream.be32(Int(adler))
        return stream
    }

    /// Length, type, data and the CRC-32 of type and data.
    private func chunk(_ type: String, _ data: [UInt8]) {
        let kind = Array(type.utf8)
        buffer.be32(data.count)
        var crc = caprof_png_crc32(0, kind, kind.count)
        crc = data.withUnsafeBufferPointer { caprof_png_crc32(crc, $0.baseAddress, $0.count) }
        buffer += kind
        buffer += data
        buffer.be32(Int(crc))
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        guard StandardStreams.write(buffer, to: fd) else { throw PreviewError(message: String(cString: strerror(errno))) }
        buffer.removeAll(keepingCapacity: true)
    }
}

private extension Array where Element == UInt8 {
    mutating func be32(_ v: Int) {
        let u = UInt32(truncatingIfNeeded: v)
        append(UInt8(u >> 24)); append(UInt8((u >> 16) & 0xFF)); append(UInt8((u >> 8) & 0xFF)); append(UInt8(u & 0xFF))
    }
}
