import ArgumentParser
import Foundation
import Pipeline
import Profile
import Report
import SceneFormat

/// `caprof profile` (the default command: `caprof scene.json`): plays the scene's timeline
/// offscreen and says what each frame costs and why, per layer, in Instruments' vocabulary.
struct ProfileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Profile a scene's timeline: blended, misaligned and low-scale layers, offscreen passes, per-frame costs.",
        discussion: """
        Every frame of the timeline (timeline.duration at timeline.fps; one frame for a static \
        scene) is evaluated, planned and analysed; findings are aggregated per layer over the \
        frames they occur in ("frames 12–47"), with the device pixels they cost, why, and the fix. \
        Severity follows the share of the screen a finding costs in its worst frame: high from 25 %, \
        medium from 2 %.

        Each frame is also drawn through Vulkan for its costs (GPU time, uploads, texture memory, \
        draw calls). --no-gpu skips drawing: no Vulkan is touched, and every finding is the same, \
        since findings come from the frame plans alone.

        --frames START:END takes the half-open span [START, END) of scene time, as `caprof render` \
        does: seconds (0.5 or 0.5s) or frame numbers with an f suffix (12f:48f = frames 12…47). \
        Output: a terminal summary (text, colours on a terminal unless NO_COLOR is set) or the JSON \
        report (--format json; `caprof profile --schema` prints its JSON Schema), to stdout or \
        atomically to -o FILE.
        """)

    @Argument(help: "The scene file (caprof scene JSON).")
    var scene: String?

    @Option(help: "Output format: text (a summary) or json (the full report).")
    var format: ReportFormat = .text

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the report to this file (atomically) instead of stdout.", valueName: "file"))
    var output: String?

    @Flag(help: "Plan and analyse only: no Vulkan, no backend costs; the same findings.")
    var noGPU = false

    @Option(help: ArgumentHelp("Profile the frames of [START, END) only (seconds, or frame numbers with an f suffix).",
                               valueName: "START:END"),
            transform: { try FrameRange.parse($0) })
    var frames: FrameRange?

    @Option(help: ArgumentHelp("Frames per second (default: the scene's timeline.fps).", valueName: "fps"))
    var fps: Double?

    @Option(help: "Use the Vulkan device whose name contains this text (see `caprof devices`).")
    var device: String?

    @Flag(name: .shortAndLong, help: "No warnings and no progress bar (errors and the report only).")
    var quiet = false

    @Flag(help: "Print the JSON Schema of the JSON report and exit.")
    var schema = false

    static let maxFPS = 1000.0

    func validate() throws {
        if schema { return }
        if scene == nil { throw ValidationError("missing the scene file: caprof profile SCENE (see --help)") }
        if let f = fps, !(f > 0 && f <= Self.maxFPS) { throw ValidationError("--fps must be in (0, \(Int(Self.maxFPS))]") }
        if let o = output, o.isEmpty { throw ValidationError("-o needs a file name") }
        if noGPU && device != nil { throw ValidationError("--device picks the Vulkan device to draw on; --no-gpu draws nothing") }
    }

    func run() throws {
        if schema { print(ReportSchema.jsonSchema); return }
        guard let scene else { return }
        let err = Terminal.stderr
        do {
            let doc = try SceneDecoder.load(path: scene)
            let animated = AnimatedScene(doc)
            let fps = self.fps ?? animated.fps
            let list = try (frames ?? FrameRange(start: nil, end: nil)).frames(fps: fps, duration: animated.duration)
            if let o = output { try Self.checkWritable(o) }
            let renderer = noGPU ? nil : try SceneRenderer(preferredDevice: device)
            let progress = ProgressBar(total: list.count, terminal: err, enabled: !quiet && list.count > 1 && err.isTerminal)
            let run: ProfileRunner.Run
            do {
                run = try ProfileRunner(scene: animated, renderer: renderer)
                    .run(frames: list, fps: fps, file: scene, toolVersion: Caprof.configuration.version) { progress.update(done: $0) }
                progress.finish()
            } catch {
                progress.finish()
                throw error
            }
            if !quiet {
                for w in run.report.warnings {
                    if let l = w.location { err.warning("\(l.file):\(l.line):\(l.column): warning: \(w.message)") }
                    else { err.warning("\(scene): warning: \(w.message)") }
                }
            }
            let text: Data
            switch format {
            case .json: text = try JSONReport.encode(run.report)
            case .text:
                let colors = output == nil && Terminal.stdout.colors
                text = Data(TextReport(colors: colors).render(run.report).utf8)
            }
            if let o = output {
                try Self.writeAtomically(text, to: o)
                if !quiet { err.write("\(err.green("wrote")) \(o) \(err.dim("(\(format.rawValue), \(Self.count(run.report.findings.count, "finding")), \(Self.count(list.count, "frame")))"))") }
            } else {
                FileHandle.standardOutput.write(text)
            }
        } catch let e as ValidationError {
            throw e
        } catch let e as ReportWriteError {
            err.error("error: \(e.message)")
            throw ExitCode(CaprofExit.cantCreate)
        } catch {
            throw fail(error)
        }
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// Why a report could not be written.
    struct ReportWriteError: Error { var message: String }

    /// Refuses early (before minutes of profiling) an output whose directory is missing or not writable.
    static func checkWritable(_ path: String) throws {
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw ReportWriteError(message: "cannot write \(path): directory \(dir) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: dir) else {
            throw ReportWriteError(message: "cannot write \(path): directory \(dir) is not writable")
        }
    }

    /// Writes a temporary file beside `path`, then renames it over `path`: readers see the old
    /// file or the whole new one, never a part.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let tmp = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: tmp)
            if rename(tmp.path, url.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: tmp)
                throw ReportWriteError(message: "cannot write \(path): \(reason)")
            }
        } catch let e as ReportWriteError {
            throw e
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw ReportWriteError(message: "cannot write \(path): \(error.localizedDescription)")
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}
