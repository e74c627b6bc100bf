import Dispatch
import SystemSupport
import Pipeline
import Raster

/// Writes the frames of a sequence on a background queue, one frame in flight: frame N's PNG (and
/// its contact-sheet thumbnail) is encoded while frame N + 1 is evaluated, planned and rendered.
/// PNG encoding is single-threaded CPU work and rendering cards.json on lavapipe keeps about one of
/// the two cores busy, so the overlap hides most of the encode time: 30 frames of
/// `Examples/cards.json` took 1.9 s instead of 2.1–2.2 s (release, 2 cores, other work running).
///
/// `wait()` before each submit keeps one frame in flight, rethrows the previous write's error
/// (so nothing is written after a failure), and makes the sheet safe to read from the caller.
///
/// A frame the frame cache reused (`FrameCacheUse.reused`: its plan is the previous frame's, so
/// are its pixels) is not encoded again: the previous frame's PNG is copied, the same bytes, for
/// about a millisecond instead of ~30 ms of zlib per full-screen frame (a still stretch of an
/// animation is most of its frames).
final class FrameEncoder: @unchecked Sendable {
    // Touched only on `queue`, or by the caller after `wait()` (the group orders the accesses).
    private(set) var sheet: ContactSheet?
    private(set) var encodeNanoseconds: UInt64 = 0
    private(set) var sheetNanoseconds: UInt64 = 0
    private(set) var written = 0
    /// Frames whose PNG was copied from the frame before (reused frames).
    private(set) var copied = 0
    /// The PNG written for the last frame, which a reused frame copies.
    private var lastPath: String?
    private var failure: Error?

    /// `fast` frames go through one band encoder, which reuses the compressed rows that did not
    /// change since the frame before (touched only on `queue`).
    private let bandEncoder: PNGBandEncoder?
    private let queue = DispatchQueue(label: "caprof.frame-encoder")
    private let group = DispatchGroup()
    let compression: PNGCodec.Compression

    init(sheet: ContactSheet?, compression: PNGCodec.Compression) {
        self.sheet = sheet; self.compression = compression
        bandEncoder = compression == .fast ? PNGBandEncoder(keepsBands: true) : nil
    }

    /// Bands of rows compressed and reused (after the last `wait()`).
    var bands: (encoded: Int, reused: Int) { (bandEncoder?.encodedBands ?? 0, bandEncoder?.reusedBands ?? 0) }

    /// Queues frame `slot` for writing to `path` (and into the sheet, begun at the first frame).
    func submit(_ frame: SceneRenderer.Frame, slot: Int, path: String) {
        let pixels = frame.pixels, width = frame.width, height = frame.height
        let reused = frame.stats.frameCache == .reused
        queue.async(group: group) { [self] in
            guard failure == nil else { return }
            do {
                let t0 = DispatchTime.now().uptimeNanoseconds
                if reused, let previous = lastPath, let bytes = FileManager.default.contents(atPath: previous) {
                    try Self.writeCopy(bytes, to: path)
                    copied += 1
                } else if let bandEncoder {
                    try bandEncoder.write(premultiplied: pixels, width: width, height: height, to: path)
                } else {
                    try PNGCodec.write(premultiplied: pixels, width: width, height: height, to: path, compression: compression)
                }
                // A special file (-o /dev/null/…) cannot be read back: the next frame encodes.
                lastPath = FileStatus(path: path)?.isRegularFile == true ? path : nil
                let t1 = DispatchTime.now().uptimeNanoseconds
                encodeNanoseconds += t1 - t0
                written += 1
                if sheet != nil {
                    if sheet!.pixels.isEmpty { sheet!.begin() }
                    sheet!.add(frame: pixels, slot: slot)
                    sheetNanoseconds += DispatchTime.now().uptimeNanoseconds - t1
                }
            } catch {
                failure = error
            }
        }
    }

    private static func writeCopy(_ bytes: Data, to path: String) throws {
        do {
            try AtomicFile.write(bytes, to: path)
        } catch let e as AtomicFileError {
            throw PNGError(kind: .io, message: "cannot write \(path): \(e.reason)")
        }
    }

    /// Waits for the frame in flight; rethrows the first write error.
    func wait() throws {
        group.wait()
        if let e = failure { throw e }
    }

    /// Writes the sheet (after the last `wait()`).
    func writeSheet(to path: String) throws {
        guard let s = sheet else { return }
        let t0 = DispatchTime.now().uptimeNanoseconds
        try PNGCodec.write(premultiplied: s.pixels, width: s.width, height: s.height, to: path, compression: compression)
        sheetNanoseconds += DispatchTime.now().uptimeNanoseconds - t0
    }
}
