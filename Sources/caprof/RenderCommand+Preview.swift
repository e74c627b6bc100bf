import ArgumentParser
import SystemSupport
import Dispatch
import Pipeline
import Raster

/// `caprof render --frames A:B -o preview.gif|.apng|.webp`: the frames as one animated file
/// (`PreviewFormat` says how), written atomically, with the frame sequence's progress bar.
extension RenderCommand {
    func renderPreview(_ format: PreviewFormat, _ animated: AnimatedScene, range: FrameRange, loadTime: UInt64, start t0: UInt64) throws {
        let err = Terminal.stderr
        let fps = self.fps ?? animated.fps
        let list = try range.frames(fps: fps, duration: animated.duration, limit: try limitOptions.resolved().decoding.framesPerRun)
        if list.count > PreviewFormat.maxFrames {
            let a = list.first!.time, b = list.last!.time + 1 / fps
            throw ValidationError("--frames/--fps: \(FrameRange.format(a))…\(FrameRange.format(b)) s at \(FrameRange.format(fps)) fps is \(list.count) frames; an animated \(format.name) holds at most \(PreviewFormat.maxFrames) (lower --fps, shorten the range, or write the frames to a directory)")
        }
        var canvas = animated.canvas
        if let s = scale { canvas.scale = s }
        let size = PreviewFormat.size(width: canvas.pixelWidth, height: canvas.pixelHeight, maxWidth: maxWidth ?? PreviewFormat.defaultMaxWidth)
        try checkParentDirectory(of: output)
        if FileStatus(path: output)?.isDirectory == true {
            throw OutputError(message: "cannot write \(output): it is a directory")
        }

        let renderer = try sequenceRenderer(animated, loadTime: loadTime)
        var warnings = Warnings(animated, scene: scene)
        let progress = ProgressBar(total: list.count, terminal: err, enabled: !quiet && err.isTerminal)
        var encodeNanoseconds: UInt64 = 0     // on the encoder's queue, in all
        var waitNanoseconds: UInt64 = 0       // the render loop waiting for it: time beyond rendering
        var detail = ""
        let plays = loop ?? 0
        do {
            try AtomicFile.write(to: output, descriptor: { fd in
                let writer: PreviewWriter
                switch format {
                case .gif:
                    writer = try GIFPreviewWriter(fd: fd, width: size.width, height: size.height,
                                                  delays: PreviewFormat.delays(count: list.count, fps: fps, unitsPerSecond: 100),
                                                  plays: plays, dither: dither)
                case .apng:
                    writer = try APNGPreviewWriter(fd: fd, width: size.width, height: size.height, frameCount: list.count,
                                                   fps: fps, plays: plays, zlibLevel: compression.zlibLevel)
                case .webp:
                    writer = try WebPPreviewWriter(fd: fd, width: size.width, height: size.height, frameCount: list.count,
                                                   fps: fps, plays: plays)
                }
                // Frame n is downscaled, quantised and written on `queue` while frame n + 1 renders
                // (one frame in flight, as FrameEncoder does for PNGs).
                let queue = DispatchQueue(label: "caprof.preview-encoder")
                let group = DispatchGroup()
                let state = PreviewEncoderState()
                func waitForEncoder() throws {
                    let w0 = DispatchTime.now().uptimeNanoseconds
                    group.wait()
                    waitNanoseconds += DispatchTime.now().uptimeNanoseconds - w0
                    if let e = state.failure { throw e }
                }
                do {
                    for (n, f) in list.enumerated() {
                        let frame = try renderer.render(animated, at: f.time, scale: scale)
                        warnings.add(frame.plan.unsupported)
                        try waitForEncoder()
                        progress.update(done: n)
                        let pixels = frame.pixels, width = frame.width, height = frame.height
                        queue.async(group: group) {
                            guard state.failure == nil else { return }
                            let e0 = DispatchTime.now().uptimeNanoseconds
                            do {
                                try writer.add(PreviewFormat.prepare(pixels, width: width, height: height, to: size))
                            } catch {
                                state.failure = error
                            }
                            state.nanoseconds += DispatchTime.now().uptimeNanoseconds - e0
                        }
                    }
                    try waitForEncoder()
                } catch {
                    group.wait()        // nothing writes to the file after the error
                    throw error
                }
                progress.update(done: list.count)
                let e0 = DispatchTime.now().uptimeNanoseconds
                try writer.finish()
                let finish = DispatchTime.now().uptimeNanoseconds - e0
                encodeNanoseconds = state.nanoseconds + finish
                waitNanoseconds += finish
                if let g = writer as? GIFPreviewWriter {
                    detail = "\(g.partialFrames) frame\(g.partialFrames == 1 ? "" : "s") as changed regions; palettes: \(g.exactFrames) in exact colours, \(g.quantizedFrames) quantised\(dither ? " with dithering" : "")"
                } else if let a = writer as? APNGPreviewWriter {
                    detail = "\(a.partialFrames) frame\(a.partialFrames == 1 ? "" : "s") as changed regions, \(a.unchangedFrames) unchanged"
                } else if let w = writer as? WebPPreviewWriter {
                    detail = "lossless, \(w.unchangedFrames) unchanged frame\(w.unchangedFrames == 1 ? "" : "s") merged into the one before"
                }
            })
            progress.finish()
        } catch let e as AtomicFileError {
            progress.finish()
            throw OutputError(message: "cannot write \(output): \(e.reason)")
        } catch let e as PreviewError {
            progress.finish()
            throw OutputError(message: "cannot write \(output): \(e.message)")
        } catch {
            progress.finish()
            throw error
        }
        guard !quiet else { return }
        for w in warnings.lines { err.warning(w) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        let bytes = FileStatus(path: output).map { Int($0.size) } ?? 0
        let kib = String(cFormat: "%.1f KiB", Double(bytes) / 1024)
        let looping = plays == 0 ? "loops forever" : "plays \(plays) time\(plays == 1 ? "" : "s")"
        let encoding = String(cFormat: "encoding %.0f ms (%.1f ms per frame) beside rendering, %.0f ms", Double(encodeNanoseconds) / 1e6, Double(encodeNanoseconds) / 1e6 / Double(list.count), Double(waitNanoseconds) / 1e6)
        err.write("\(err.green("wrote")) \(output) \(err.dim("(\(format.name), \(list.count) frame\(list.count == 1 ? "" : "s"), \(size.width)×\(size.height) at \(FrameRange.format(fps)) fps, \(looping), \(kib); \(detail); \(String(cFormat: "%.2f s", seconds)) in all, \(encoding) beyond rendering; \(renderer.renderer.deviceName))"))")
    }
}

/// What the encoder's queue reports to the render loop (read after `DispatchGroup.wait`).
private final class PreviewEncoderState: @unchecked Sendable {
    var failure: Error?
    var nanoseconds: UInt64 = 0
}
