import ArgumentParser
import AssetImport
import SystemSupport
import LayerModel
import Pipeline
import Raster
import Render
import Report
import SceneFormat

/// Reading, checking and recording one frame's golden PNG, and writing its diff image.
extension SnapshotCommand {
    /// What a golden would decode to: the frame's premultiplied pixels through straight alpha and
    /// back, as the PNG writer and reader round them.
    static func asDecoded(_ frame: SceneRenderer.Frame) -> Bitmap {
        var px = frame.pixels
        unpremultiply(&px)
        premultiply(&px)
        return Bitmap(width: frame.width, height: frame.height, pixels: px)
    }

    /// Reads a golden of the frame's size; the error message says what is wrong and how to fix it.
    func readGolden(_ golden: String, scene: String, time: Double, frame: SceneRenderer.Frame) -> Result<Bitmap, Stop> {
        guard let status = FileStatus(path: golden) else {
            return .failure(Stop(message: "no golden \(golden)\(otherTimes(of: golden)): record it with `\(recordHint(scene, time: time))`"))
        }
        guard status.isRegularFile, let bytes = FileBytes.read(path: golden, upTo: Int.max, expected: status.size) else {
            return .failure(Stop(message: "cannot read the golden \(golden): it is not a readable regular file"))
        }
        func corrupt(_ error: Error) -> Result<Bitmap, Stop> {
            let why = (error as? PNGError)?.message ?? "\(error)"
            return .failure(Stop(message: "the golden \(golden) is not a valid PNG (\(why)): restore it from version control, or re-record it with `\(recordHint(scene, time: time))`"))
        }
        do {
            // The size from the header first: a golden of another size is not decoded.
            let (w, h) = try PNGCodec.size(of: bytes)
            guard w == frame.width, h == frame.height else {
                return .failure(Stop(message: "the golden \(golden) is \(w)×\(h) pixels but the frame is \(frame.width)×\(frame.height) (the canvas size or scale changed?): if that is intended, re-record it with `\(recordHint(scene, time: time))`"))
            }
            // A golden is a frame: as large as the canvas.
            var limits = ImageLimits.standard
            limits.maxSide = max(limits.maxSide, w, h)
            limits.maxDecodedBytes = max(limits.maxDecodedBytes, w * h * 4)
            return .success(try PNGCodec.decode(bytes, limits: limits))
        } catch {
            return corrupt(error)
        }
    }

    /// " (the scene has goldens at 0, 250 ms: …)" when the scene has goldens at other times: its
    /// default times moved because its timeline's duration changed.
    func otherTimes(of golden: String) -> String {
        let url = URL(fileURLWithPath: golden)
        let name = url.lastPathComponent
        guard let at = name.lastIndex(of: "@") else { return "" }
        let prefix = String(name[...at])
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        let ms = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix("ms.png") }
            .compactMap { Double($0.dropFirst(prefix.count).dropLast(6)) }.sorted()
        guard !ms.isEmpty else { return "" }
        let list = ms.map { String(cFormat: "%g", $0) }.joined(separator: ", ")
        return " (the scene has goldens at \(list) ms: if its timeline's duration changed, its default times moved with it; give the scene a timeline.duration, or --times)"
    }

    func check(_ frame: SceneRenderer.Frame, golden: String, diff: String, precision: Double, _ entry: inout SnapshotReport.Frame) {
        let reference: Bitmap
        switch readGolden(golden, scene: entry.scene, time: entry.time ?? 0, frame: frame) {
        case .failure(let e): entry.message = e.message; return
        case .success(let b): reference = b
        }
        let actual = Self.asDecoded(frame)
        let result = PerceptualComparison.compare(reference, actual, recordDeltaE: true)
        entry.failingPixels = result.failingPixels
        entry.failingShare = 1 - result.passingShare
        entry.maxDeltaE = result.maxDeltaE
        entry.failingBounds = result.failingBounds.map { .init(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        if result.passes(precision: precision) {
            entry.status = .pass
            if FileStatus.isRegularFile(diff) { unlink(diff) }   // an old diff no longer shows anything
            return
        }
        entry.status = .fail
        let image = SnapshotDiffImage.make(golden: reference, actual: actual, result: result)
        do {
            try Directories.create(URL(fileURLWithPath: diff).deletingLastPathComponent().path)
            try PNGCodec.write(premultiplied: image.pixels, width: image.width, height: image.height, to: diff)
            entry.diff = diff
        } catch {
            entry.status = .error
            entry.message = "the frame fails (\(SnapshotReport.percent(entry.failingShare ?? 0)) of pixels over ΔE 3, max ΔE \(String(cFormat: "%.2f", result.maxDeltaE))) and its diff image \(diff) could not be written: \(error)"
        }
    }

    /// Writes the golden atomically; returns what became of the old one (or sets an error).
    func recordGolden(_ frame: SceneRenderer.Frame, to golden: String, precision: Double, _ entry: inout SnapshotReport.Frame) -> String? {
        var note = "new golden \(golden)"
        if let s = FileStatus(path: golden) {
            if s.isDirectory {
                entry.status = .error
                return "cannot write the golden \(golden): it is a directory"
            }
            if case .success(let old) = readGolden(golden, scene: entry.scene, time: entry.time ?? 0, frame: frame) {
                let r = PerceptualComparison.compare(old, Self.asDecoded(frame))
                note = r.failingPixels == 0 && r.maxDeltaE == 0 ? "\(golden) unchanged"
                    : r.passes(precision: precision) ? "\(golden) replaced (it passed: \(SnapshotReport.percent(1 - r.passingShare)) of pixels over ΔE 3)"
                    : "\(golden) replaced (it failed: \(SnapshotReport.percent(1 - r.passingShare)) of pixels over ΔE 3)"
            } else {
                note = "\(golden) replaced"
            }
        }
        do {
            try Directories.create(URL(fileURLWithPath: golden).deletingLastPathComponent().path)
            try PNGCodec.write(premultiplied: frame.pixels, width: frame.width, height: frame.height, to: golden)
        } catch {
            entry.status = .error
            return "cannot write the golden \(golden): \(error)"
        }
        return note
    }
}
