import Raster
import SystemSupport

/// `caprof render --frames A:B -o preview.gif|.apng|.webp`: one animated file instead of a directory.
///
/// - Frames are box-filtered down to at most `--max-width` pixels wide (default 480, aspect kept;
///   never enlarged), then converted to straight alpha.
/// - GIF: each frame gets its own (local) palette of at most 256 colours. A frame with at most 256
///   distinct colours keeps them exactly (flat UI colours stay flat, whatever the quantiser would
///   do); a frame with more is quantised by libimagequant without dithering unless `--dither`.
///   GIF has 1-bit transparency: a pixel with alpha < 128 becomes the frame's one transparent
///   index, every other pixel is drawn opaque. A frame after the first is the bounding box of the
///   pixels that changed (1×1 when none did), drawn over the frame before, unless it makes an
///   opaque pixel transparent: then it covers the canvas and the frame before is disposed to the
///   background (`GIFPreviewWriter.add`).
///   Delays are centiseconds, accumulated (frame i ends at round((i + 1) · 100 / fps) cs) so the
///   total duration is right; browsers show delays under 2 cs as 10 cs, so above 50 fps a GIF
///   plays slower in them (APNG does not have this limit).
/// - APNG: chunks written here (Debian's libpng has no APNG support), zlib through CPNGShim's
///   deflater. Each frame after the first is the bounding box of the pixels that changed since the
///   frame before, drawn with APNG_BLEND_OP_SOURCE over a kept (APNG_DISPOSE_OP_NONE) canvas; an
///   unchanged frame is a 1×1 region repeating its pixel.
/// - WebP: libwebp's WebPAnimEncoder, every frame lossless with full alpha; the encoder picks each
///   frame's changed rectangle and merges a frame identical to the one before into it. Timestamps
///   are milliseconds, accumulated like GIF's delays (`WebPPreviewWriter`).
/// - `--loop N`: play N times; 0 (default) loops forever.
enum PreviewFormat: String {
    case gif, apng, webp

    /// The animated format an output path asks for by its extension (.gif, .apng, .webp), nil otherwise.
    init?(path: String) {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        switch ext {
        case "gif": self = .gif
        case "apng": self = .apng
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The format's name in messages.
    var name: String {
        switch self {
        case .gif: return "GIF"
        case .apng: return "APNG"
        case .webp: return "WebP"
        }
    }

    /// The most frames one animated file holds: a preview is for a reviewer watching seconds of
    /// motion, and every frame stays in a browser's memory (1,000 frames of 480×480 RGBA: 0.9 GB).
    static let maxFrames = 1000
    static let defaultMaxWidth = 480

    /// The preview's size for a `width`×`height` frame: at most `maxWidth` wide, aspect kept.
    static func size(width: Int, height: Int, maxWidth: Int) -> (width: Int, height: Int) {
        guard width > maxWidth else { return (width, height) }
        let h = Int((Double(height) * Double(maxWidth) / Double(width)).rounded())
        return (maxWidth, max(1, min(height, h)))
    }

    /// Frame durations in `unitsPerSecond` units at `fps`, accumulated so frame i ends at
    /// round((i + 1) · unitsPerSecond / fps) units: the total stays right, no frame lasts 0.
    static func delays(count: Int, fps: Double, unitsPerSecond: Double) -> [Int] {
        var out: [Int] = [], previous = 0
        for i in 0..<count {
            let end = Int((Double(i + 1) * unitsPerSecond / fps).rounded())
            out.append(max(1, end - previous))
            previous = max(end, previous + 1)
        }
        return out
    }

    /// Premultiplied frame pixels → the preview's straight-alpha pixels at `size`.
    static func prepare(_ pixels: [UInt8], width: Int, height: Int, to size: (width: Int, height: Int)) -> [UInt8] {
        var px = size == (width, height) ? pixels
            : boxDownscale(pixels, width: width, height: height, toWidth: size.width, toHeight: size.height)
        unpremultiply(&px)
        return px
    }
}

/// Why an animated preview could not be written (an output error, exit 73).
struct PreviewError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

protocol PreviewWriter: AnyObject {
    /// Appends the next frame: straight RGBA of the preview's size.
    func add(_ pixels: [UInt8]) throws
    /// Ends the file (the descriptor stays open for its owner to close).
    func finish() throws
}

/// Animated previews made in memory (the HTML report's, beside its frame strip).
enum AnimatedPreview {
    /// `bitmaps` (premultiplied, one size) as a GIF looping forever at `fps`, encoded through a
    /// temporary file (giflib writes to a descriptor) that is removed before returning.
    static func gif(_ bitmaps: [Bitmap], fps: Double) throws -> [UInt8] {
        guard let first = bitmaps.first else { return [] }
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory.appendingPathComponent("caprof-preview-XXXXXX.gif")).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard fd >= 0 else { throw PreviewError(message: "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))") }
        let path = String(cString: template)
        defer { close(fd); unlink(path) }
        let writer = try GIFPreviewWriter(fd: fd, width: first.width, height: first.height,
                                          delays: PreviewFormat.delays(count: bitmaps.count, fps: fps, unitsPerSecond: 100),
                                          plays: 0, dither: false)
        for b in bitmaps {
            try writer.add(PreviewFormat.prepare(b.pixels, width: b.width, height: b.height, to: (first.width, first.height)))
        }
        try writer.finish()
        guard let size = FileStatus(path: path)?.size, let bytes = FileBytes.read(path: path, upTo: size + 1, expected: size) else {
            throw PreviewError(message: "cannot read back the preview written to \(path)")
        }
        return bytes
    }
}
