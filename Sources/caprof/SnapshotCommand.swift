import ArgumentParser
import AssetImport
import SystemSupport
import LayerModel
import Pipeline
import Raster
import Render
import Report
import SceneFormat

/// `caprof snapshot`: golden-frame checks. Renders each scene at chosen times, as `caprof render
/// --time T` renders them, and compares each frame with its golden PNG by `PerceptualComparison`.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Fail a CI job when scenes look different: compare frames at chosen times with golden PNGs.",
        discussion: """
        Each SCENE (a directory stands for its scene files, as for `caprof profile`) is rendered \
        at its times, exactly as `caprof render SCENE --time T` renders it (the same bytes), and \
        each frame is compared with its golden PNG. Times: --times T,T,… (seconds), else the \
        scene file's own "snapshots": {"times": […]}, else 0, ¼, ½, ¾ of the scene's timeline and its end, the timeline's duration itself (the span `render \
        --frames START:` renders: timeline.duration, else the animations' natural duration capped \
        at 10 s). Give the scene a timeline.duration, or --times, when a change of an animation's \
        timing should fail at the same times rather than change them. --progress P,P,… gives the \
        times as shares of the timeline instead (0…1: P × its duration; for a Lottie animation \
        frame ip + P·(op − ip)). --markers also checks the start of every marker a scene has (a \
        Lottie animation's "markers"; those before scene time 0 are skipped), besides the other \
        times. --animation ID picks the animation of .lottie packages (the key stays the \
        package's path: check one animation per goldens directory).

        Goldens are keyed by the scene's path relative to the current directory and the time in \
        milliseconds: GOLDENS/Examples/motion.json@500ms.png (directories mirrored). Run from \
        the same directory when recording and checking (the repository root in CI); a scene \
        outside it is refused. With --shard I/N each job checks its own scenes (round-robin on \
        the byte-sorted paths, as `caprof profile --shard`).

        The rule is lottie-ios's snapshot tests' (swift-snapshot-testing's perceptualPrecision): \
        per pixel the CIE ΔE 1994 between golden and frame, each composited over white and over \
        black, the larger; a pixel passes at ΔE ≤ 3; a frame passes when at least --precision \
        (default 0.985; a scene's "snapshots": {"precision": P} wins for that scene) of its pixels pass. A failing frame gets a diff image, golden | actual | \
        heat map of ΔE side by side, written atomically into --diffs (default: snapshot-diffs \
        beside the goldens directory) under the golden's key; a frame that passes removes its \
        old diff image.

        --record renders the frames and writes the goldens (atomically; a scene whose frames do \
        not all render keeps its old goldens) and exits 0 (1 when a scene failed).

        Output (stdout, or atomically to -o FILE): text (a line per frame: pass or fail, the share \
        of failing pixels, max ΔE, where, the diff image; then a summary), json, markdown (for \
        $GITHUB_STEP_SUMMARY), junit (a testcase per frame, a failure with the diff image's path), \
        github (::error annotations at the scene file) or html (one self-contained page: the \
        failing frames' diff images embedded, every frame in a table; a CI artifact to open).

        Exit codes (the gate's): 0 every frame passes; 2 a frame fails (a visual regression); \
        1 an error: a missing golden (record it with --record), a golden of another size or \
        corrupt, --goldens naming a file, a scene that cannot be loaded or rendered, an output \
        not written; 64 bad usage.
        """)

    @Argument(help: ArgumentHelp("Scene files, or directories of them.", valueName: "scene"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The directory of golden PNGs.", valueName: "dir"))
    var goldens: String

    @Flag(help: "Write the frames as the goldens (created or replaced, atomically) and exit 0.")
    var record = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Scene times in seconds, comma-separated (default: 0, ¼, ½, ¾ of the timeline and its end).", valueName: "T,T,…"),
            transform: { try SnapshotCommand.parseTimes($0) })
    var times: [Double]?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Times as shares of each scene's timeline, comma-separated, 0…1 (P × its duration); instead of --times.", valueName: "P,P,…"),
            transform: { try TimelinePicks.parseShares($0) })
    var progress: [Double]?

    @Flag(help: "Also check the start of every marker of a scene that has markers (a Lottie animation's \"markers\").")
    var markers = false

    @OptionGroup var animationOption: AnimationOption

    @Option(help: ArgumentHelp("The share of pixels that must pass for a frame to pass (0 < P ≤ 1).", valueName: "P"))
    var precision: Double = PerceptualComparison.defaultPrecision

    @Option(help: "Output format: text, json, markdown, junit, github or html.")
    var format: SnapshotFormat = .text

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the output to this file (atomically) instead of stdout; - is stdout.", valueName: "file"))
    var outputArgument: String?
    var output: String? { outputArgument == "-" ? nil : outputArgument }

    @Option(help: ArgumentHelp("Where diff images go (default: snapshot-diffs beside the goldens directory).", valueName: "dir"))
    var diffs: String?

    @Option(help: ArgumentHelp("Check shard I of N of the scenes only (1 ≤ I ≤ N): those whose rank in path order is I − 1 modulo N.",
                               valueName: "I/N"),
            transform: { s in do { return try CatalogShard.parse(s) } catch { throw ValidationError("\(error)") } })
    var shard: CatalogShard?

    @Option(help: "Device pixels per point, overriding canvas.scale (give the same --scale when recording and checking).")
    var scale: Double?

    @Option(help: "Use the Vulkan device whose name contains this text (see `caprof devices`).")
    var device: String?

    @Flag(name: .shortAndLong, help: "No notes on stderr (errors and the output only).")
    var quiet = false

    @OptionGroup var limitOptions: LimitOptions

    /// "0.5,1s,2" → [0.5, 1, 2]; each a finite number of seconds ≥ 0.
    static func parseTimes(_ text: String) throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        guard !parts.isEmpty, !parts.contains(where: \.isEmpty) else {
            throw ValidationError("--times '\(text)': expected seconds separated by commas (0,0.25,1.5)")
        }
        return try parts.map { p in
            let n = p.hasSuffix("s") ? String(p.dropLast()) : String(p)
            guard let v = Double(n), v.isFinite, v >= 0, v <= FrameRange.maxTime, n.first != "+" else {
                throw ValidationError("--times: '\(p)' is not a time in seconds ≥ 0 (expected seconds separated by commas: 0,0.25,1.5)")
            }
            return v
        }
    }

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("no scene given: caprof snapshot SCENE… --goldens DIR") }
        if goldens.isEmpty { throw ValidationError("--goldens needs a directory") }
        if !(precision > 0 && precision <= 1) { throw ValidationError("--precision must be in (0, 1] (the share of pixels that must pass; default 0.985)") }
        if let s = scale, !(s > 0 && s <= 16) { throw ValidationError("--scale must be in (0, 16]") }
        if let o = outputArgument, o.isEmpty { throw ValidationError("-o needs a file name") }
        if let d = diffs, d.isEmpty { throw ValidationError("--diffs needs a directory") }
        if let t = times, t.count > FrameRange.maxFrames { throw ValidationError("--times: \(t.count) times; the limit is \(FrameRange.maxFrames) per scene") }
        if times != nil && progress != nil {
            throw ValidationError("--times and --progress cannot be used together: both give the times to check (--times in seconds, --progress as shares of the timeline)")
        }
        if let p = progress, p.count > FrameRange.maxFrames { throw ValidationError("--progress: \(p.count) shares; the limit is \(FrameRange.maxFrames) per scene") }
        if record && diffs != nil { throw ValidationError("--diffs applies to checking; --record writes no diff images") }
    }

    /// An error that stops the run: said on stderr, exit 1.
    struct Stop: Error { var message: String }

    func run() throws {
        let err = Terminal.stderr
        let report: SnapshotReport
        do {
            report = try snapshot(err)
        } catch let e as ValidationError {
            throw e
        } catch let e as Stop {
            err.error("error: \(e.message)")
            throw ExitCode(1)
        } catch let e as CatalogInputs.Failure {
            err.error("\(e.path): error: \(e.message)")
            throw ExitCode(1)
        } catch {
            err.error(GateCommand.describe(error))
            throw ExitCode(1)
        }
        do {
            try write(report, err)
        } catch {
            err.error(GateCommand.describe(error))
            throw ExitCode(1)
        }
        for f in report.frames where f.status == .error {
            let m = f.message ?? ""
            err.error(m.hasPrefix(f.scene + ":") ? m : "\(f.scene): error: \(m)")
        }
        if report.record && report.errors == 0 && !quiet {
            err.write("\(err.green("recorded")) \(SnapshotReport.count(report.recorded, "golden")) of \(SnapshotReport.count(report.scenes, "scene")) into \(goldens)")
        }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }

    func write(_ report: SnapshotReport, _ err: Terminal) throws {
        let text: String
        switch format {
        case .text: text = report.text(colors: output == nil && Terminal.stdout.colors)
        case .json: text = try report.json()
        case .markdown: text = report.markdown()
        case .junit: text = report.junit()
        case .github: text = report.github()
        case .html: text = report.html()
        }
        if let o = output {
            try ProfileCommand.writeAtomically(Data(text.utf8), to: o)
            if !quiet { err.write("\(err.green("wrote")) \(o) \(err.dim("(\(format.rawValue))"))") }
        } else {
            StandardStreams.writeOut(Data(text.utf8))
        }
    }

    /// A command line to record the goldens of `scene` (at `time` only, when given: the other
    /// frames' goldens are left alone).
    func recordHint(_ scene: String, time: Double? = nil) -> String {
        let list = time.map { [$0] } ?? times
        func csv(_ v: [Double]) -> String { v.map { String(cFormat: "%g", $0) }.joined(separator: ",") }
        var picks = list.map { " --times " + csv($0) } ?? progress.map { " --progress " + csv($0) } ?? ""
        if time == nil && markers { picks += " --markers" }
        if let a = animationOption.animation { picks += " --animation " + Self.shellQuoted(a) }
        return "caprof snapshot \(scene) --goldens \(goldens)\(picks)\(scale.map { " --scale \(String(cFormat: "%g", $0))" } ?? "") --record"
    }

    /// A word for a shell command line: as is when plain, else in single quotes.
    static func shellQuoted(_ s: String) -> String {
        let plain = !s.isEmpty && s.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || "-_./:@%+,=".unicodeScalars.contains($0) }
        return plain ? s : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    func snapshot(_ err: Terminal) throws -> SnapshotReport {
        if let status = FileStatus(path: goldens), !status.isDirectory {
            throw Stop(message: "--goldens \(goldens) is a file, not a directory: name the directory the golden PNGs are kept in")
        }
        let all = try CatalogInputs.scenes(inputs)
        let positions = shard.map { $0.select(all) } ?? Array(all.indices)
        let picked = positions.map { all[$0] }
        // Keys first: a scene without a key is refused before anything is written or rendered.
        var keys: [String] = []
        for p in picked {
            do { keys.append(try SnapshotKeys.relativePath(p)) } catch {
                throw ValidationError("\(p) is outside the current directory: goldens are keyed by the scene's path relative to it; run caprof snapshot from a directory that holds the scenes")
            }
        }
        if let o = output { try ProfileCommand.checkWritable(o) }
        let diffDir = diffs ?? SnapshotKeys.defaultDiffDirectory(goldens: goldens)
        if let s = FileStatus(path: diffDir), !s.isDirectory, !record {
            throw Stop(message: "cannot write diff images into \(diffDir): it exists and is not a directory (choose another with --diffs DIR)")
        }
        // The goldens directory: there, or (recording) created.
        if !FileStatus.isDirectory(goldens) {
            if record {
                do { try Directories.create(goldens) } catch { throw Stop(message: "cannot create the goldens directory \(goldens): \(error)") }
            } else {
                throw Stop(message: "no goldens directory \(goldens): record the goldens first with `\(recordHint(inputs.joined(separator: " ")))`")
            }
        }
        if let s = shard, !quiet {
            err.write(err.dim("shard \(s): \(SnapshotReport.count(picked.count, "scene")) of \(all.count) (round-robin on the sorted paths)"))
        }
        let limits = try limitOptions.resolved()
        var report = SnapshotReport(goldens: goldens, record: record, precision: precision,
                                    pixelThreshold: PerceptualComparison.defaultPixelThreshold,
                                    shard: shard?.description, scenes: picked.count, frames: [])
        for (path, key) in zip(picked, keys) {
            report.frames += try snapshotScene(path, key: key, limits: limits, diffDir: diffDir)
        }
        return report
    }

    /// The frames of one scene; a scene that cannot be loaded or rendered is one error entry.
    /// Errors that are not the scene's (no Vulkan device) stop the run.
    func snapshotScene(_ path: String, key: String, limits: ActiveLimits, diffDir: String) throws -> [SnapshotReport.Frame] {
        func sceneError(_ error: Error, time: Double? = nil) throws -> [SnapshotReport.Frame] {
            if CaprofExit.code(for: error) == CaprofExit.unavailable { throw error }
            var message = GateCommand.describe(error)
            if message.hasPrefix("error: ") { message.removeFirst(7) }
            return [SnapshotReport.Frame(scene: path, time: time, status: .error, message: message)]
        }
        let animated: AnimatedScene
        let renderer: SceneRenderer
        let doc: SceneDocument
        do {
            doc = try AssetLoader.load(path: path, states: StateSelection(), animation: animationOption.animation, limits: limits.decoding)
            if let s = scale {
                var c = doc.scene.canvas; c.scale = s
                if c.pixelWidth > Canvas.maxPixelSide || c.pixelHeight > Canvas.maxPixelSide || c.pixelWidth < 1 || c.pixelHeight < 1 {
                    throw Stop(message: "--scale \(s) makes the canvas \(c.pixelWidth)×\(c.pixelHeight) pixels; each side must be 1…\(Canvas.maxPixelSide)")
                }
            }
            try HostMemory.check(doc.scene, scale: scale, bytesPerPixel: HostMemory.drawnBytesPerPixel)
            animated = AnimatedScene(doc, imageLimits: limits.images)
            // A fresh renderer per scene, as `caprof render` has: the same bytes.
            renderer = try SceneRenderer(preferredDevice: device)
        } catch let e as Stop {
            return [SnapshotReport.Frame(scene: path, status: .error, message: e.message)]
        } catch {
            return try sceneError(error)
        }
        let d = animated.duration
        // --times, else the scene's own list, else ¼ steps of its timeline.
        let own = doc.snapshots
        if progress != nil && !(d > 0 && d.isFinite) {
            return [SnapshotReport.Frame(scene: path, status: .error,
                                         message: "--progress: the scene has no duration (a still scene: nothing animates and it has no timeline.duration); give --times in seconds instead")]
        }
        var chosen = times ?? progress.map { $0.map { $0 * d } } ?? own?.times ?? (d > 0 ? [0, d / 4, d / 2, 3 * d / 4, d] : [0])
        // --markers: every marker's start too (one before the timeline's start is not a frame).
        if markers { chosen += doc.markers.map(\.start).filter { $0 >= 0 && $0 <= FrameRange.maxTime } }
        // The scene's precision wins over --precision, which is the default for scenes without one.
        let precision = own?.precision ?? self.precision
        // One frame per key (times within a microsecond are one frame).
        var seenKeys = Set<String>()
        chosen = chosen.filter { seenKeys.insert(SnapshotKeys.milliseconds($0)).inserted }

        func entry(_ t: Double, _ frame: SceneRenderer.Frame) -> SnapshotReport.Frame {
            let golden = SnapshotKeys.join(goldens, SnapshotKeys.key(scene: key, time: t))
            var entry = SnapshotReport.Frame(scene: path, time: t, golden: golden, status: .error,
                                             width: frame.width, height: frame.height, precision: precision)
            if record {
                entry.status = .recorded
                entry.message = recordGolden(frame, to: golden, precision: precision, &entry)
            } else {
                check(frame, golden: golden, diff: SnapshotKeys.join(diffDir, SnapshotKeys.key(scene: key, time: t)), precision: precision, &entry)
            }
            return entry
        }
        // Checking: each frame compared as it is rendered. Recording: every frame rendered first,
        // so a scene whose frames do not all render records nothing.
        var out: [SnapshotReport.Frame] = []
        var rendered: [(time: Double, frame: SceneRenderer.Frame)] = []
        for t in chosen {
            let frame: SceneRenderer.Frame
            do {
                frame = try renderer.render(animated, at: t, scale: scale)
            } catch {
                return try out + sceneError(error, time: t)
            }
            if record { rendered.append((t, frame)) } else { out.append(entry(t, frame)) }
        }
        for (t, frame) in rendered { out.append(entry(t, frame)) }
        return out
    }
}
