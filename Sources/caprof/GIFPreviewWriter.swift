import CGIF
import CImageQuant
import Raster
import SystemSupport

/// A GIF89a written through giflib to a duplicate of the descriptor it is given.
final class GIFPreviewWriter: PreviewWriter {
    let width: Int, height: Int
    let delays: [Int]
    let dither: Bool
    private var gif: UnsafeMutablePointer<GifFileType>?
    private var index = 0
    /// Frames that kept their exact colours, and frames quantised by libimagequant.
    private(set) var exactFrames = 0, quantizedFrames = 0

    struct QuantizedFrame {
        var indices: [UInt8]
        var palette: [GifColorType]
        var transparent: Int?
    }

    /// `plays`: how many times the animation plays, 0 forever.
    init(fd: Int32, width: Int, height: Int, delays: [Int], plays: Int, dither: Bool) throws {
        self.width = width; self.height = height; self.delays = delays; self.dither = dither
        let own = dup(fd)
        guard own >= 0 else { throw PreviewError(message: String(cString: strerror(errno))) }
        var error: Int32 = 0
        guard let g = EGifOpenFileHandle(own, &error) else {
            close(own)
            throw PreviewError(message: Self.reason(error))
        }
        gif = g
        EGifSetGifVersion(g, true)
        try check(EGifPutScreenDesc(g, Int32(width), Int32(height), 8, 0, nil))
        // NETSCAPE2.0: the loop count is the number of repeats after the first play (0: forever).
        if plays != 1 {
            let repeats = plays == 0 ? 0 : min(65535, plays - 1)
            try check(EGifPutExtensionLeader(g, APPLICATION_EXT_FUNC_CODE))
            var app = Array("NETSCAPE2.0".utf8)
            try check(EGifPutExtensionBlock(g, 11, &app))
            var loop: [UInt8] = [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8)]
            try check(EGifPutExtensionBlock(g, 3, &loop))
            try check(EGifPutExtensionTrailer(g))
        }
    }

    deinit {
        if let g = gif { var e: Int32 = 0; EGifCloseFile(g, &e) }
    }

    /// A frame not yet written: its disposal depends on the frame after it.
    private struct Pending {
        var pixels: [UInt8]
        var region: (x: Int, y: Int, w: Int, h: Int)
        var frame: QuantizedFrame
    }
    private var pending: Pending?

    /// Frames are written one behind: frame n + 1 is the bounding box of the pixels that changed
    /// since frame n, drawn over it (frame n disposed "do not dispose"), unless frame n + 1 makes
    /// a pixel transparent that was not: then frame n (re-encoded whole if it was a region) is
    /// disposed to the background and frame n + 1 covers the whole canvas.
    func add(_ pixels: [UInt8]) throws {
        guard gif != nil else { throw PreviewError(message: "GIF already finished") }
        let full = (x: 0, y: 0, w: width, h: height)
        guard var p = pending else {
            pending = Pending(pixels: pixels, region: full, frame: try quantize(pixels, full))
            return
        }
        var region = full, disposal = DISPOSE_DO_NOT
        if let box = APNGPreviewWriter.changedBox(p.pixels, pixels, width: width, height: height) {
            if Self.clearsNothing(from: p.pixels, to: pixels, width: width, box: box) {
                region = (box.0, box.1, box.2 - box.0, box.3 - box.1)
            } else {
                disposal = DISPOSE_BACKGROUND
                if p.region != full { p.region = full; p.frame = try quantize(p.pixels, full) }
            }
        } else {
            region = (0, 0, 1, 1)
        }
        try write(p, disposal: disposal)
        pending = Pending(pixels: pixels, region: region, frame: try quantize(pixels, region))
        if region != full { partialFrames += 1 }
    }

    func finish() throws {
        guard let g = gif else { return }
        if let p = pending { try write(p, disposal: DISPOSE_DO_NOT); pending = nil }
        gif = nil
        var error: Int32 = 0
        if EGifCloseFile(g, &error) != GIF_OK { throw PreviewError(message: Self.reason(error)) }
    }

    /// Frames written as a region smaller than the canvas.
    private(set) var partialFrames = 0

    /// Whether no pixel in `box` turns transparent (alpha < 128) from opaque: a region drawn
    /// over the frame before can only keep or cover its pixels.
    static func clearsNothing(from old: [UInt8], to new: [UInt8], width: Int, box: (Int, Int, Int, Int)) -> Bool {
        for y in box.1..<box.3 {
            var i = (y * width + box.0) * 4 + 3
            for _ in box.0..<box.2 {
                if new[i] < 128 && old[i] >= 128 { return false }
                i += 4
            }
        }
        return true
    }

    /// The region's pixels in their own palette (reused when they equal the last region's).
    private var lastRegion: (pixels: [UInt8], frame: QuantizedFrame)?
    private func quantize(_ pixels: [UInt8], _ r: (x: Int, y: Int, w: Int, h: Int)) throws -> QuantizedFrame {
        var sub: [UInt8]
        if r == (0, 0, width, height) {
            sub = pixels
        } else {
            sub = [UInt8](repeating: 0, count: r.w * r.h * 4)
            for y in 0..<r.h {
                let s = ((r.y + y) * width + r.x) * 4
                sub.replaceSubrange(y * r.w * 4 ..< (y + 1) * r.w * 4, with: pixels[s ..< s + r.w * 4])
            }
        }
        if let l = lastRegion, l.pixels == sub { return l.frame }
        let q: QuantizedFrame
        if let exact = Self.exactColors(sub) {
            q = exact; exactFrames += 1
        } else if dither {
            q = try Self.quantize(sub, width: r.w, height: r.h, dither: true); quantizedFrames += 1
        } else {
            q = try Self.quantizeColors(sub); quantizedFrames += 1
        }
        lastRegion = (sub, q)
        return q
    }

    private func write(_ p: Pending, disposal: Int32) throws {
        guard let g = gif else { return }
        let q = p.frame
        var gcb = GraphicsControlBlock(DisposalMode: disposal, UserInputFlag: false,
                                       DelayTime: Int32(min(65535, delays[min(index, delays.count - 1)])),
                                       TransparentColor: Int32(q.transparent ?? Int(NO_TRANSPARENT_COLOR)))
        var ext = [UInt8](repeating: 0, count: 4)
        _ = EGifGCBToExtension(&gcb, &ext)
        try check(EGifPutExtension(g, GRAPHICS_EXT_FUNC_CODE, 4, ext))
        // Colour tables hold a power of two entries (at least 2).
        var count = 2
        while count < q.palette.count { count *= 2 }
        var colors = q.palette + Array(repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: count - q.palette.count)
        guard let map = GifMakeMapObject(Int32(count), &colors) else { throw PreviewError(message: "out of memory for a GIF palette") }
        defer { GifFreeMapObject(map) }
        try check(EGifPutImageDesc(g, Int32(p.region.x), Int32(p.region.y), Int32(p.region.w), Int32(p.region.h), false, map))
        var indices = q.indices
        try check(EGifPutLine(g, &indices, Int32(indices.count)))
        index += 1
    }

    private func check(_ rc: Int32) throws {
        if rc != GIF_OK { throw PreviewError(message: Self.reason(gif?.pointee.Error ?? 0)) }
    }

    private static func reason(_ code: Int32) -> String {
        if let s = GifErrorString(code) { return "giflib: " + String(cString: s) }
        return "giflib error \(code)"
    }

    /// The frame with its own colours, when it has at most 256 (the transparent index included).
    static func exactColors(_ pixels: [UInt8]) -> QuantizedFrame? {
        var table: [UInt32: UInt8] = [:]
        var palette: [GifColorType] = []
        var transparent: Int?
        var indices = [UInt8](repeating: 0, count: pixels.count / 4)
        var lastKey: UInt32 = .max, lastIndex: UInt8 = 0
        let ok: Bool = pixels.withUnsafeBufferPointer { p in
            var i = 0, n = 0
            while i < p.count {
                // Transparent pixels share one key no colour has (alpha bit set).
                let key: UInt32 = p[i + 3] < 128 ? 0x0100_0000
                    : UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16
                if key != lastKey {
                    if let found = table[key] {
                        lastIndex = found
                    } else {
                        guard palette.count < 256 else { return false }
                        lastIndex = UInt8(palette.count)
                        table[key] = lastIndex
                        if key == 0x0100_0000 {
                            transparent = palette.count
                            palette.append(GifColorType(Red: 0, Green: 0, Blue: 0))
                        } else {
                            palette.append(GifColorType(Red: p[i], Green: p[i + 1], Blue: p[i + 2]))
                        }
                    }
                    lastKey = key
                }
                indices[n] = lastIndex
                i += 4; n += 1
            }
            return true
        }
        return ok ? QuantizedFrame(indices: indices, palette: palette, transparent: transparent) : nil
    }

    /// Without dithering: libimagequant picks the palette from the frame's histogram of distinct
    /// colours (a flat UI frame has a few thousand, its pixels hundreds of thousands), then each
    /// distinct colour maps to its nearest entry (RGB distance) and each entry becomes the most
    /// frequent colour it stands for when that colour is at least half of its pixels: flat areas
    /// keep their exact colour. 3–4 times faster than libimagequant's own remapping of every pixel.
    static func quantizeColors(_ px: [UInt8]) throws -> QuantizedFrame {
        let clear: UInt32 = 0x0100_0000
        @inline(__always) func key(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
            p[i + 3] < 128 ? clear : UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16
        }
        var histogram: [UInt32: Int] = [:]
        px.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let k = key(p, i); var j = i + 4
                while j < p.count && key(p, j) == k { j += 4 }
                histogram[k, default: 0] += (j - i) / 4
                i = j
            }
        }
        let hasClear = histogram.removeValue(forKey: clear) != nil
        let colors = Array(histogram)
        guard let attr = liq_attr_create() else { throw PreviewError(message: "out of memory for libimagequant") }
        defer { liq_attr_destroy(attr) }
        _ = liq_set_max_colors(attr, hasClear ? 255 : 256)
        _ = liq_set_speed(attr, 5)
        guard let hist = liq_histogram_create(attr) else { throw PreviewError(message: "out of memory for libimagequant") }
        defer { liq_histogram_destroy(hist) }
        let entries = colors.map { c in
            liq_histogram_entry(color: liq_color(r: UInt8(c.key & 0xFF), g: UInt8((c.key >> 8) & 0xFF), b: UInt8((c.key >> 16) & 0xFF), a: 255),
                                count: UInt32(min(c.value, Int(UInt32.max))))
        }
        guard liq_histogram_add_colors(hist, attr, entries, Int32(entries.count), 0) == LIQ_OK else {
            throw PreviewError(message: "libimagequant refused a frame's colours")
        }
        var result: OpaquePointer?
        guard liq_histogram_quantize(hist, attr, &result) == LIQ_OK, let res = result else {
            throw PreviewError(message: "libimagequant could not quantise a frame")
        }
        defer { liq_result_destroy(res) }
        var pal = liq_get_palette(res)!.pointee
        var palette: [(r: Int, g: Int, b: Int)] = []
        withUnsafeBytes(of: &pal.entries) { e in
            let c = e.bindMemory(to: liq_color.self)
            for k in 0..<Int(pal.count) { palette.append((Int(c[k].r), Int(c[k].g), Int(c[k].b))) }
        }
        func nearest(_ k: UInt32) -> Int {
            let r = Int(k & 0xFF), g = Int((k >> 8) & 0xFF), b = Int((k >> 16) & 0xFF)
            var best = 0, bestD = Int.max
            for (i, e) in palette.enumerated() {
                let d = (e.r - r) * (e.r - r) + (e.g - g) * (e.g - g) + (e.b - b) * (e.b - b)
                if d < bestD { bestD = d; best = i; if d == 0 { break } }
            }
            return best
        }
        // Snap each entry to its most frequent colour, then map every colour again.
        var cluster = [Int](repeating: 0, count: palette.count)
        var mode = [(key: UInt32, count: Int)](repeating: (0, 0), count: palette.count)
        for c in colors {
            let i = nearest(c.key)
            cluster[i] += c.value
            if c.value > mode[i].count { mode[i] = (c.key, c.value) }
        }
        for i in palette.indices where mode[i].count > 0 && 2 * mode[i].count >= cluster[i] {
            let k = mode[i].key
            palette[i] = (Int(k & 0xFF), Int((k >> 8) & 0xFF), Int((k >> 16) & 0xFF))
        }
        var index: [UInt32: UInt8] = [:]
        index.reserveCapacity(colors.count + 1)
        for c in colors { index[c.key] = UInt8(nearest(c.key)) }
        if hasClear { index[clear] = UInt8(palette.count) }
        var indices = [UInt8](repeating: 0, count: px.count / 4)
        px.withUnsafeBufferPointer { p in
            var last: UInt32 = .max, lastIndex: UInt8 = 0
            for n in 0..<indices.count {
                let k = key(p, n * 4)
                if k != last { last = k; lastIndex = index[k]! }
                indices[n] = lastIndex
            }
        }
        var gifPalette = palette.map { GifColorType(Red: UInt8($0.r), Green: UInt8($0.g), Blue: UInt8($0.b)) }
        if hasClear { gifPalette.append(GifColorType(Red: 0, Green: 0, Blue: 0)) }
        return QuantizedFrame(indices: indices, palette: gifPalette, transparent: hasClear ? palette.count : nil)
    }

    /// With `--dither`: libimagequant remaps every pixel (alpha thresholded at 128 first).
    static func quantize(_ pixels: [UInt8], width: Int, height: Int, dither: Bool) throws -> QuantizedFrame {
        var px = pixels
        var i = 0
        while i < px.count {
            if px[i + 3] < 128 { px[i] = 0; px[i + 1] = 0; px[i + 2] = 0; px[i + 3] = 0 } else { px[i + 3] = 255 }
            i += 4
        }
        guard let attr = liq_attr_create() else { throw PreviewError(message: "out of memory for libimagequant") }
        defer { liq_attr_destroy(attr) }
        _ = liq_set_max_colors(attr, 256)
        _ = liq_set_speed(attr, 10)     // fastest: a preview's palette, not an archival one
        return try px.withUnsafeBytes { raw -> QuantizedFrame in
            guard let image = liq_image_create_rgba(attr, raw.baseAddress!, Int32(width), Int32(height), 0) else {
                throw PreviewError(message: "libimagequant refused a \(width)×\(height) frame")
            }
            defer { liq_image_destroy(image) }
            var result: OpaquePointer?
            guard liq_image_quantize(image, attr, &result) == LIQ_OK, let res = result else {
                throw PreviewError(message: "libimagequant could not quantise a frame")
            }
            defer { liq_result_destroy(res) }
            _ = liq_set_dithering_level(res, dither ? 1 : 0)
            var indices = [UInt8](repeating: 0, count: width * height)
            let rc = indices.withUnsafeMutableBytes { liq_write_remapped_image(res, image, $0.baseAddress!, $0.count) }
            guard rc == LIQ_OK else { throw PreviewError(message: "libimagequant could not remap a frame") }
            var pal = liq_get_palette(res)!.pointee
            var palette: [GifColorType] = []
            var transparent: Int?
            withUnsafeBytes(of: &pal.entries) { e in
                let colors = e.bindMemory(to: liq_color.self)
                for k in 0..<Int(pal.count) {
                    let c = colors[k]
                    if c.a < 128, transparent == nil { transparent = k }
                    palette.append(GifColorType(Red: c.r, Green: c.g, Blue: c.b))
                }
            }
            snapToModes(pixels: px, indices: &indices, palette: &palette, transparent: transparent)
            return QuantizedFrame(indices: indices, palette: palette, transparent: transparent)
        }
    }

    /// libimagequant works in its own gamma and precision, so a flat colour can come back off by
    /// one (#F2F2F7 as #F1F1F7). Each palette entry becomes the most frequent source colour of the
    /// pixels mapped to it when that colour is at least half of them, and every pixel of such a
    /// colour is mapped to that entry: large flat areas keep their exact colour.
    static func snapToModes(pixels px: [UInt8], indices: inout [UInt8], palette: inout [GifColorType], transparent: Int?) {
        @inline(__always) func key(_ p: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
            UInt32(p[i]) | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2]) << 16 | UInt32(p[i + 3]) << 24
        }
        var histogram: [UInt32: Int] = [:]
        var clusterSize = [Int](repeating: 0, count: 256)
        var best = [(key: UInt32, count: Int)](repeating: (0, 0), count: 256)
        px.withUnsafeBufferPointer { p in
            // Runs of one colour are counted at once (flat UI: long runs).
            var i = 0
            while i < p.count {
                let k = key(p, i); var j = i + 4
                while j < p.count && key(p, j) == k { j += 4 }
                histogram[k, default: 0] += (j - i) / 4
                i = j
            }
            var last: UInt32 = 0, lastIndex = -1
            for n in 0..<indices.count {
                let k = key(p, n * 4), idx = Int(indices[n])
                clusterSize[idx] += 1
                if k == last && idx == lastIndex { continue }
                last = k; lastIndex = idx
                let c = histogram[k] ?? 0
                if c > best[idx].count { best[idx] = (k, c) }
            }
        }
        var snapped: [UInt32: UInt8] = [:]
        for idx in 0..<palette.count where idx != transparent {
            let b = best[idx]
            guard b.count > 0, b.key >> 24 == 255, 2 * min(b.count, clusterSize[idx]) >= clusterSize[idx] else { continue }
            guard snapped[b.key] == nil else { continue }
            palette[idx] = GifColorType(Red: UInt8(b.key & 0xFF), Green: UInt8((b.key >> 8) & 0xFF), Blue: UInt8((b.key >> 16) & 0xFF))
            snapped[b.key] = UInt8(idx)
        }
        guard !snapped.isEmpty else { return }
        px.withUnsafeBufferPointer { p in
            var last: UInt32 = 0, lastIndex: UInt8? = nil
            for n in 0..<indices.count {
                let k = key(p, n * 4)
                if k != last || n == 0 { last = k; lastIndex = snapped[k] }
                if let s = lastIndex { indices[n] = s }
            }
        }
    }
}
