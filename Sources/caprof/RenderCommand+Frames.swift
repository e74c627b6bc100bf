import ArgumentParser
import SystemSupport
import Dispatch
import Pipeline
import Plan
import Raster

/// `caprof render --frames`: a sequence of frames into a directory, and the contact sheet.
extension RenderCommand {
    /// Frame files are `frame-` + the frame index zero-padded to 5 digits (more when the largest
    /// index needs them) + `.png`: names sort in time order, and a frame keeps its name whatever
    /// the range it was rendered in (frame i is at i / fps).
    static func frameFileName(index: Int, lastIndex: Int) -> String {
        let digits = max(5, String(lastIndex).count)
        let n = String(index)
        return "frame-" + String(repeating: "0", count: max(0, digits - n.count)) + n + ".png"
    }

    func renderSequence(_ animated: AnimatedScene, range: FrameRange, loadTime: UInt64, start t0: UInt64) throws {
        let err = Terminal.stderr
        let fps = self.fps ?? animated.fps
        let list = try range.frames(fps: fps, duration: animated.duration, limit: try limitOptions.resolved().decoding.framesPerRun)
        var canvas = animated.canvas
        if let s = scale { canvas.scale = s }

        // Everything that can be refused is refused before the first frame is rendered.
        var contactSheet: ContactSheet?
        if let sheetPath = sheet {
            let labels = list.map { ContactSheet.Label(time: String(cFormat: "%.3fs", $0.time), frame: "\($0.index)f") }
            do {
                contactSheet = try ContactSheet(frameWidth: canvas.pixelWidth, frameHeight: canvas.pixelHeight,
                                                labels: labels, columns: sheetColumns,
                                                title: sheetTitle(list.count, fps: fps, width: canvas.pixelWidth, height: canvas.pixelHeight))
            } catch let e as ContactSheet.TooLarge {
                throw ValidationError("--sheet: \(e)")
            }
            try checkParentDirectory(of: sheetPath)
        }
        try makeOutputDirectory(output)

        let renderer = try sequenceRenderer(animated, loadTime: loadTime)
        var warnings = Warnings(animated, scene: scene)
        let progress = ProgressBar(total: list.count, terminal: err, enabled: !quiet && err.isTerminal)
        let last = list.last!.index
        let dir = URL(fileURLWithPath: output)
        var size = (0, 0), draws = 0, calls = 0, culled = 0, regions = 0, flattened = 0
        var cacheUse: [FrameCacheUse: Int] = [:]     // the frame cache: frames reused, redrawn in part
        var retainedPasses = 0                       // offscreen results taken from the previous frame
        var partialPasses = 0                        // and passes redrawn there only in part
        let encoder = FrameEncoder(sheet: contactSheet, compression: compression)
        do {
            for (n, f) in list.enumerated() {
                let frame = try renderer.render(animated, at: f.time, scale: scale)
                warnings.add(frame.plan.unsupported)
                size = (frame.width, frame.height); draws += frame.plan.items.count
                cacheUse[frame.stats.frameCache, default: 0] += 1
                retainedPasses += frame.stats.retainedPasses
                partialPasses += frame.stats.partialPasses
                calls += frame.stats.drawCalls; culled += frame.plan.execution.culledItems
                regions += frame.plan.execution.flattenedRegions; flattened += frame.plan.execution.flattenedItems
                try encoder.wait()                      // frame n − 1 written (or its error)
                progress.update(done: n)
                let path = dir.appendingPathComponent(Self.frameFileName(index: f.index, lastIndex: last)).path
                encoder.submit(frame, slot: n, path: path)
            }
            try encoder.wait()
            progress.update(done: list.count)
            progress.finish()
        } catch {
            try? encoder.wait()     // never exit with a frame half-written to its temporary file
            progress.finish()
            throw error
        }
        renderer.record(\.png, nanoseconds: encoder.encodeNanoseconds)
        if let sheetPath = sheet { try encoder.writeSheet(to: sheetPath) }
        guard !quiet else { return }
        for w in warnings.lines { err.warning(w) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        let first = Self.frameFileName(index: list.first!.index, lastIndex: last)
        let names = list.count == 1 ? first : "\(first) … \(Self.frameFileName(index: last, lastIndex: last))"
        let t = renderer.timings.averaged(over: list.count)
        func ms(_ ns: UInt64) -> String { String(cFormat: "%.1f", Double(ns) / 1e6) }
        let perFrame = "per frame: evaluate \(ms(t.evaluate)), images \(ms(t.decodeImages)), plan \(ms(t.plan)), raster \(ms(t.rasterize)) (\(renderer.content.totalRasterized) rasterised in all), render \(ms(t.render)), png \(ms(t.png)) ms\(reusedRows(encoder))"
        var rate = String(cFormat: "%.2f s, %.1f frames/s", seconds, Double(list.count) / seconds)
        if list.count > 1 {
            let copied = encoder.copied > 0 ? ", \(encoder.copied) PNG\(encoder.copied == 1 ? "" : "s") copied" : ""
            rate += "; frame cache: \(cacheUse[.reused] ?? 0) unchanged (reused\(copied)), \(cacheUse[.damaged] ?? 0) redrawn only where damaged"
            if retainedPasses > 0 {
                rate += ", \(retainedPasses) offscreen pass\(retainedPasses == 1 ? "" : "es") taken from the previous frame"
            }
            if partialPasses > 0 {
                rate += ", \(partialPasses) redrawn only where they changed"
            }
        }
        err.write("\(err.green("wrote")) \(list.count) frame\(list.count == 1 ? "" : "s") to \(output) \(err.dim("(\(names), \(size.0)×\(size.1) at \(FrameRange.format(fps)) fps, \(Self.drawCounts(items: draws / list.count, calls: calls / list.count, culled: culled / list.count, flattened: (regions / list.count, flattened / list.count))) each; \(rate); \(perFrame); \(renderer.renderer.deviceName))"))")
        if let sheetPath = sheet, let s = encoder.sheet {
            err.write("\(err.green("wrote")) \(sheetPath) \(err.dim("(contact sheet, \(s.columns)×\(s.rows) thumbnails of \(s.thumbnailWidth)×\(s.thumbnailHeight), \(s.width)×\(s.height), \(ms(encoder.sheetNanoseconds)) ms)"))")
        }
    }

    /// ", N % of PNG rows reused" when the band encoder kept unchanged rows' compressed bytes.
    func reusedRows(_ encoder: FrameEncoder) -> String {
        let (encoded, reused) = encoder.bands
        guard reused > 0 else { return "" }
        return String(cFormat: " (%.0f %% of PNG rows reused)", 100 * Double(reused) / Double(encoded + reused))
    }

    func sheetTitle(_ count: Int, fps: Double, width: Int, height: Int) -> String {
        let name = URL(fileURLWithPath: scene).lastPathComponent
        return "\(name) · \(count) frame\(count == 1 ? "" : "s") at \(FrameRange.format(fps)) fps · \(width)×\(height)"
    }

    /// Creates the frames directory (and its parents); a path that exists and is not a directory,
    /// or one that cannot be created, is an output error (73) before anything is rendered.
    func makeOutputDirectory(_ path: String) throws {
        if let status = FileStatus(path: path) {
            if !status.isDirectory { throw OutputError(message: "cannot write frames into \(path): it exists and is not a directory") }
            return
        }
        do {
            try Directories.create(path)
        } catch {
            throw OutputError(message: "cannot create the frames directory \(path): \(error)")
        }
    }

    func checkParentDirectory(of file: String) throws {
        let parent = URL(fileURLWithPath: file).deletingLastPathComponent().path
        if !FileStatus.isDirectory(parent) {
            throw OutputError(message: "cannot write \(file): no directory \(parent)")
        }
    }

}

/// An output that cannot be written (exit 73), found before or while rendering.
struct OutputError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension RenderCommand {
    /// The renderer of a frame sequence (PNG frames or an animated preview): the raster cache's
    /// limits set, host memory checked again now that the driver is up (its threads and
    /// reservations count against ulimit -v), the load time recorded.
    func sequenceRenderer(_ animated: AnimatedScene, loadTime: UInt64) throws -> SceneRenderer {
        let renderer = try SceneRenderer(preferredDevice: device)
        renderer.setRasterCacheLimits(maxIdleSeconds: rasterCache.idleMilliseconds / 1000, maxScreens: rasterCache.screens)
        try HostMemory.check(animated.document.scene, scale: scale, bytesPerPixel: HostMemory.drawnBytesPerPixel, driverStarted: true)
        renderer.record(\.load, nanoseconds: loadTime)
        return renderer
    }
}
