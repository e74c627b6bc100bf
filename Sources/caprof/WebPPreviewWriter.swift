import CWebP
import SystemSupport

/// An animated WebP through libwebp's WebPAnimEncoder: every frame lossless (flat UI colours and
/// alpha exact), the encoder choosing each frame's changed sub-rectangle, blending and disposal
/// itself; a frame identical to the one before lengthens that one instead of adding an ANMF.
/// The file is assembled in memory by `finish`, then written to the descriptor.
final class WebPPreviewWriter: PreviewWriter {
    let fd: Int32, width: Int, height: Int
    /// Each frame's start in ms, and the animation's end: accumulated, so the total is exact.
    let timestamps: [Int]
    private var encoder: OpaquePointer?
    private var config = WebPConfig()
    private var index = 0
    private var previous: [UInt8]?
    /// Frames identical to the frame before (merged into it by the encoder).
    private(set) var unchangedFrames = 0

    /// `plays`: WebP's ANIM loop count is the number of times the animation plays, 0 forever
    /// (RFC 9649; Chromium and gif2webp read it so), the same as `--loop`.
    init(fd: Int32, width: Int, height: Int, frameCount: Int, fps: Double, plays: Int) throws {
        self.fd = fd; self.width = width; self.height = height
        var t = 0, stamps = [0]
        for d in PreviewFormat.delays(count: frameCount, fps: fps, unitsPerSecond: 1000) { t += d; stamps.append(t) }
        timestamps = stamps
        guard width <= Int(WEBP_MAX_DIMENSION), height <= Int(WEBP_MAX_DIMENSION) else {
            throw PreviewError(message: "a WebP is at most \(WEBP_MAX_DIMENSION) pixels a side (lower --max-width)")
        }
        guard WebPConfigInit(&config) != 0 else { throw PreviewError(message: "libwebp: version mismatch") }
        config.lossless = 1
        config.quality = 75               // lossless: effort (libwebp's default)
        config.method = 4
        guard WebPValidateConfig(&config) != 0 else { throw PreviewError(message: "libwebp: invalid configuration") }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw PreviewError(message: "libwebpmux: version mismatch") }
        options.anim_params.loop_count = Int32(plays)
        options.anim_params.bgcolor = 0x0000_0000    // transparent: a hint only, canvases start cleared
        // kmin/kmax: libwebp's defaults (key frames as the encoder sees fit).
        guard let enc = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
            throw PreviewError(message: "libwebpmux: cannot create an animation encoder (out of memory?)")
        }
        encoder = enc
    }

    deinit {
        if let enc = encoder { WebPAnimEncoderDelete(enc) }
    }

    func add(_ pixels: [UInt8]) throws {
        guard let enc = encoder, index < timestamps.count - 1 else { throw PreviewError(message: "more frames than announced") }
        precondition(pixels.count == width * height * 4)
        if let p = previous, p == pixels { unchangedFrames += 1 }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw PreviewError(message: "libwebp: version mismatch") }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 1
        picture.width = Int32(width); picture.height = Int32(height)
        let imported = pixels.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(width * 4)) }
        guard imported != 0 else { throw PreviewError(message: "libwebp: out of memory for a \(width)×\(height) frame") }
        guard WebPAnimEncoderAdd(enc, &picture, Int32(timestamps[index]), &config) != 0 else {
            throw PreviewError(message: "libwebp: frame \(index): \(Self.error(enc, picture: picture))")
        }
        previous = pixels
        index += 1
    }

    func finish() throws {
        guard let enc = encoder else { throw PreviewError(message: "the WebP was already finished") }
        defer { WebPAnimEncoderDelete(enc); encoder = nil }
        // The last frame's end (a NULL frame), then the whole file.
        guard WebPAnimEncoderAdd(enc, nil, Int32(timestamps[index]), nil) != 0 else {
            throw PreviewError(message: "libwebp: \(Self.error(enc, picture: nil))")
        }
        var data = WebPData()
        WebPDataInit(&data)
        defer { WebPDataClear(&data) }
        guard WebPAnimEncoderAssemble(enc, &data) != 0, let bytes = data.bytes else {
            throw PreviewError(message: "libwebp: cannot assemble the animation: \(Self.error(enc, picture: nil))")
        }
        let buffer = UnsafeBufferPointer(start: bytes, count: data.size)
        guard StandardStreams.write(buffer, to: fd) else { throw PreviewError(message: String(cString: strerror(errno))) }
    }

    private static func error(_ enc: OpaquePointer, picture: WebPPicture?) -> String {
        if let p = picture, p.error_code != VP8_ENC_OK { return "encoder error \(p.error_code.rawValue)" }
        if let s = WebPAnimEncoderGetError(enc), s.pointee != 0 { return String(cString: s) }
        return "unknown error"
    }
}
