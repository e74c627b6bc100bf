import ArgumentParser
import AssetImport
import SystemSupport
import Pipeline
import Profile
import Raster
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
        --marker NAME takes the segment of one of a Lottie animation's markers (with --frames, \
        START and END count from the marker's start and END is clipped to its end); --animation ID \
        the animation of a .lottie package. \
        Output, to stdout or atomically to -o FILE: text, a terminal summary (colours on a \
        terminal unless NO_COLOR is set); json, the versioned report (`caprof profile --schema` \
        prints its JSON Schema); html, one self-contained page (frame strip, overlays, per-frame \
        charts, findings, layer tree) to open in a browser; markdown, for CI step summaries \
        ($GITHUB_STEP_SUMMARY); trace, Chrome Trace Event JSON for ui.perfetto.dev (frames and \
        stages as nested slices on a synthetic timeline, frames back to back; counters per frame).

        Overlays: --overlays DIR writes six PNGs per frame, named frame-NNNNN-KIND.png: blended \
        (Color Blended Layers: red blended, green opaque, orange only at antialiased edges), \
        misaligned (Color Misaligned Images: magenta off the pixel grid, yellow scaled), overdraw \
        (Android's GPU overdraw: blue 1×, green 2×, pink 3×, red 4×+ overdrawn), offscreen (Color \
        Offscreen-Rendered Yellow), raster-cache (Color Hits Green and Misses Red) and \
        updated-regions (Flash Updated Regions: yellow where the frame changed), over the rendered \
        frame dimmed (with --no-gpu, over a neutral dark background). They show the worst frame \
        (the most pixels shaded; ties: the most blended, then the earliest) unless --overlay-frame \
        N asks for others; the HTML \
        report embeds the same overlays.

        Catalogs: given a directory (its *.json scene files, sorted, not recursive; reports and \
        other caprof outputs skipped), several scenes, or --shard I/N, each scene is profiled as \
        alone and reported in catalog order (the arguments' order), then totals: text, one block \
        per scene and a totals line; json, {"caprofCatalog": 1, "scenes": [report…], "totals": \
        {…}} (`caprof profile --catalog-schema` prints its JSON Schema; one scene file alone \
        keeps the plain report); markdown, a row per scene and a total row. html and trace \
        describe one scene and are refused for a catalog. With --no-gpu scenes are profiled \
        concurrently (one per core); drawn on Vulkan, one at a time. --shard I/N takes shard I of \
        N: the scenes whose rank in byte-sorted path order is I − 1 modulo N (disjoint shards \
        whose union is the catalog); `caprof gate` merges the shards' JSON catalogs into one \
        decision (Sources/Gate/README.md, "Catalogs and shards").
        """)

    @Argument(help: ArgumentHelp("The scene file (caprof scene JSON) or Core Animation asset (.caar, .ca, .caml); or several, or directories of them: a catalog.",
                                 valueName: "scene"))
    var scenes: [String] = []

    /// The one scene of a single-scene run (nil for a catalog).
    var scene: String? { isCatalog ? nil : scenes.first }

    @Option(help: "Output format: text (a summary), json (the full report), html (a page to open), markdown (CI summaries) or trace (Perfetto).")
    var format: ReportFormat = .text

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the report to this file (atomically) instead of stdout; - is stdout.", valueName: "file"))
    var outputArgument: String?
    /// The file to write, nil for standard output (no -o, or `-o -` as Unix tools spell it).
    var output: String? { outputArgument == "-" ? nil : outputArgument }

    @Option(help: ArgumentHelp("Write the six overlays (blended, misaligned, overdraw, offscreen, raster-cache, updated-regions) as PNGs into this directory (created if missing).",
                               valueName: "dir"))
    var overlays: String?

    @Option(name: .customLong("overlay-frame"),
            help: ArgumentHelp("Show this frame in the overlays instead of the worst one (a frame number; repeat for several).",
                               valueName: "n"))
    var overlayFrames: [Int] = []

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

    @OptionGroup var stateOptions: StateOptions

    @OptionGroup var animationOption: AnimationOption

    @Option(help: ArgumentHelp("Profile only the segment of this marker of the animation (Lottie \"markers\"); with --frames, START and END count from its start.",
                               valueName: "name"))
    var marker: String?

    @Flag(name: .shortAndLong, help: "No warnings and no progress bar (errors and the report only).")
    var quiet = false

    @Flag(name: .customLong("no-savings"),
          help: "Do not measure what each finding's fix saves (no Fix first list; each finding's worst frame is otherwise planned again with its fix).")
    var noSavings = false

    @OptionGroup var rasterCache: RasterCacheOptions

    @Flag(help: "Print the JSON Schema of the JSON report and exit.")
    var schema = false

    @Flag(name: .customLong("catalog-schema"), help: "Print the JSON Schema of the catalog JSON report (several scenes, a directory, --shard) and exit.")
    var catalogSchema = false

    @Option(help: ArgumentHelp("Profile shard I of N of the catalog only (1 ≤ I ≤ N): the scenes whose rank in path order is I − 1 modulo N.",
                               valueName: "I/N"),
            transform: { s in do { return try CatalogShard.parse(s) } catch { throw ValidationError("\(error)") } })
    var shard: CatalogShard?

    static let maxFPS = 1000.0

    func validate() throws {
        if schema || catalogSchema { return }
        if scenes.isEmpty { throw ValidationError("missing the scene file: caprof profile SCENE (see --help)") }
        if isCatalog && !stateOptions.selection.isEmpty {
            throw ValidationError("--state and --transition apply to one .ca package or .caml file, not to a catalog")
        }
        if isCatalog && animationOption.animation != nil {
            throw ValidationError("--animation picks the animation of one .lottie package, not of a catalog")
        }
        if isCatalog && marker != nil {
            throw ValidationError("--marker picks a segment of one animation's timeline, not of a catalog")
        }
        if let m = marker, m.isEmpty { throw ValidationError("--marker needs a marker's name") }
        if isCatalog { try validateCatalog() }
        if let f = fps, !(f > 0 && f <= Self.maxFPS) { throw ValidationError("--fps must be in (0, \(Int(Self.maxFPS))]") }
        if let o = output, o.isEmpty { throw ValidationError("-o needs a file name") }
        if noGPU && device != nil { throw ValidationError("--device picks the Vulkan device to draw on; --no-gpu draws nothing") }
        if let d = overlays, d.isEmpty { throw ValidationError("--overlays needs a directory") }
        if !overlayFrames.isEmpty && overlays == nil && format != .html {
            throw ValidationError("--overlay-frame picks the frame of the overlays: add --overlays DIR or --format html")
        }
        if let n = overlayFrames.first(where: { $0 < 0 }) { throw ValidationError("--overlay-frame \(n): frame numbers start at 0") }
    }

    /// Frames of the strip in the HTML report (evenly spaced over the run).
    static let stripFrames = 12

    @OptionGroup var limitOptions: LimitOptions

    func run() throws {
        if schema { print(ReportSchema.jsonSchema); return }
        if catalogSchema { StandardStreams.writeOut(Data(ReportSchema.catalogSchema.utf8)); return }
        let err = Terminal.stderr
        if isCatalog { return try runCatalog(err) }
        guard let scene else { return }
        do {
            let limits = try limitOptions.resolved()
            let animated = try limits.load(scene, drawn: !noGPU, states: stateOptions.selection, animation: animationOption.animation)
            let fps = self.fps ?? animated.fps
            var range = frames ?? FrameRange(start: nil, end: nil)
            if let name = marker {
                let m = try TimelinePicks.marker(name, in: animated.document, scene: scene)
                range = try TimelinePicks.segment(m, relative: frames, fps: fps)
            }
            let list = try range.frames(fps: fps, duration: animated.duration, limit: limits.decoding.framesPerRun)
            if let o = output { try Self.checkWritable(o) }
            let times = Dictionary(list.map { ($0.index, $0.time) }, uniquingKeysWith: { a, _ in a })
            if let n = overlayFrames.first(where: { times[$0] == nil }) {
                let span = list.isEmpty ? "none" : "\(list.first!.index)–\(list.last!.index)"
                throw ValidationError("--overlay-frame \(n) is not among the frames profiled (\(span))")
            }
            if let d = overlays { try Self.prepareDirectory(d) }
            let renderer = noGPU ? nil : try SceneRenderer(preferredDevice: device)
            // Again now that the driver is up: its threads and reservations count against ulimit -v.
            if renderer != nil { try HostMemory.check(animated.document.scene, bytesPerPixel: HostMemory.drawnBytesPerPixel, driverStarted: true) }
            let progress = ProgressBar(total: list.count, terminal: err, enabled: !quiet && list.count > 1 && err.isTerminal)
            let runner = ProfileRunner(scene: animated, renderer: renderer)
            runner.rasterCacheLimits = rasterCache.cache
            runner.measuresSavings = !noSavings
            // The strip's frames, and every `step`-th frame for the animated preview beside it.
            let strip = Set(ProfileRunner.evenlySpaced(list.map(\.index), count: Self.stripFrames))
            let step = max(1, (list.count + Self.previewFrames - 1) / Self.previewFrames)
            let previewFrames = list.count > 1 ? stride(from: 0, to: list.count, by: step).map { list[$0].index } : []
            let thumbnails = format == .html && renderer != nil
                ? ProfileRunner.ThumbnailRequest(frames: strip.union(previewFrames),
                                                 maxWidth: Self.thumbnailBox.width, maxHeight: Self.thumbnailBox.height)
                : nil
            let run: ProfileRunner.Run
            do {
                run = try runner.run(frames: list, fps: fps, file: scene, toolVersion: Caprof.configuration.version,
                                     thumbnails: thumbnails) { progress.update(done: $0) }
                progress.finish()
            } catch {
                progress.finish()
                throw error
            }
            // Overlays: the worst frame unless others were asked for, drawn again after the run.
            var overlaySets: [ProfileRunner.OverlayFrame] = []
            if overlays != nil || format == .html {
                var seen = Set<Int>()
                let picks = overlayFrames.isEmpty ? [run.report.totals.worstFrame].compactMap { $0 } : overlayFrames.filter { seen.insert($0).inserted }
                let order = list.map(\.index)
                for n in picks {
                    let earlier = order.prefix { $0 != n }.compactMap { times[$0] }
                    overlaySets.append(try runner.overlays(frame: n, time: times[n]!, earlierTimes: earlier))
                }
            }
            if let dir = overlays {
                var names: [String] = []
                for set in overlaySets {
                    for image in set.overlays.images {
                        let name = FrameOverlays.fileName(frame: set.overlays.frame, kind: image.kind)
                        try PNGCodec.write(premultiplied: image.pixels, width: image.width, height: image.height,
                                           to: URL(fileURLWithPath: dir).appendingPathComponent(name).path, compression: .small)
                        names.append(name)
                    }
                }
                if !quiet {
                    let over = noGPU ? "over a neutral background (--no-gpu)" : "over the rendered frame"
                    let which = overlayFrames.isEmpty ? "the worst frame" : "as asked"
                    let frames = overlaySets.map { String($0.overlays.frame) }.joined(separator: ", ")
                    err.write("\(err.green("wrote")) \(names.count) overlays into \(dir) \(err.dim("(frame \(frames), \(which), \(over))"))")
                }
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
            case .html:
                let html = try Self.htmlReport(run: run, strip: strip, preview: (previewFrames, fps / Double(step), step),
                                               overlays: overlaySets, asked: !overlayFrames.isEmpty,
                                               layers: LayerOutline(animated.document.scene.root))
                text = Data(html.render(run.report).utf8)
            case .markdown: text = Data(MarkdownReport().render(run.report).utf8)
            case .trace: text = Data(TraceReport().render(run.report).utf8)
            }
            if let o = output {
                try Self.writeAtomically(text, to: o)
                if !quiet { err.write("\(err.green("wrote")) \(o) \(err.dim("(\(format.rawValue), \(Self.count(run.report.findings.count, "finding")), \(Self.count(list.count, "frame")))"))") }
            } else {
                StandardStreams.writeOut(text)
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

    /// The most frames of the HTML report's animated preview: every k-th profiled frame, k the
    /// smallest that keeps to it (60 frames of 400 × 300 px are about 0.3–0.8 MB of GIF).
    static let previewFrames = 60

    /// The profiled range as a looping GIF of the kept thumbnails (`frames`, in order), for the
    /// HTML report; nil for a single frame.
    static func previewAnimation(_ thumbnails: [ProfileRunner.Thumbnail], frames: [Int], fps: Double, step: Int) throws -> HTMLReport.Animation? {
        let byFrame = Dictionary(thumbnails.map { ($0.frame, $0.bitmap) }, uniquingKeysWith: { a, _ in a })
        let bitmaps = frames.compactMap { byFrame[$0] }
        guard bitmaps.count > 1, let first = bitmaps.first, bitmaps.allSatisfy({ $0.width == first.width && $0.height == first.height }) else { return nil }
        let data = try AnimatedPreview.gif(bitmaps, fps: fps)
        return HTMLReport.Animation(data: data, mime: "image/gif", width: first.width, height: first.height,
                                    frames: bitmaps.count, fps: fps, step: step)
    }

    /// The box frame-strip thumbnails fit in, in pixels (shown 150 CSS px tall: sharp at 2×).
    static let thumbnailBox = (width: 400, height: 300)

    /// The HTML report's images: thumbnails (plus the overlay frames', so the strip shows them)
    /// and overlays, encoded as PNG.
    static func htmlReport(run: ProfileRunner.Run, strip: Set<Int>, preview: (frames: [Int], fps: Double, step: Int),
                           overlays: [ProfileRunner.OverlayFrame], asked: Bool,
                           layers: LayerOutline) throws -> HTMLReport {
        func image(_ b: Bitmap) throws -> HTMLReport.Image {
            HTMLReport.Image(png: try PNGCodec.encode(premultiplied: b.pixels, width: b.width, height: b.height, compression: .small),
                             width: b.width, height: b.height)
        }
        let animation = try Self.previewAnimation(run.thumbnails, frames: preview.frames, fps: preview.fps, step: preview.step)
        var thumbs = run.thumbnails.filter { strip.contains($0.frame) }.map { ($0.frame, $0.time, $0.bitmap) }
        for o in overlays {
            guard let frame = o.rendered, !thumbs.contains(where: { $0.0 == o.overlays.frame }) else { continue }
            let size = ProfileRunner.fit(width: frame.width, height: frame.height, maxWidth: thumbnailBox.width, maxHeight: thumbnailBox.height)
            let small = size == (frame.width, frame.height) ? frame : frame.downscaled(toWidth: size.0, height: size.1)
            thumbs.append((o.overlays.frame, o.overlays.time, small))
        }
        thumbs.sort { $0.0 < $1.0 }
        let sets = try overlays.map { o -> HTMLReport.FrameOverlaySet in
            let panels = try o.overlays.images.map { i in
                HTMLReport.Panel(kind: i.kind, image: try image(Bitmap(width: i.width, height: i.height, pixels: i.pixels)),
                                 legendPixels: i.legendPixels)
            }
            return HTMLReport.FrameOverlaySet(frame: o.overlays.frame, time: o.overlays.time,
                                              reason: asked ? "asked for (--overlay-frame)" : "the worst frame: the most pixels shaded",
                                              background: o.overlays.background, rendered: try o.rendered.map(image), panels: panels)
        }
        return HTMLReport(thumbnails: try thumbs.map { HTMLReport.Thumbnail(frame: $0.0, time: $0.1, image: try image($0.2)) },
                          preview: animation, overlays: sets, layers: layers)
    }

    /// Creates the overlays directory if missing and refuses one that is not a writable directory.
    static func prepareDirectory(_ path: String) throws {
        if let status = FileStatus(path: path) {
            guard status.isDirectory else { throw ReportWriteError(message: "cannot write overlays into \(path): not a directory") }
        } else {
            do { try Directories.create(path) }
            catch { throw ReportWriteError(message: "cannot create \(path): \(error)") }
        }
        guard FileManager.default.isWritableFile(atPath: path) else {
            throw ReportWriteError(message: "cannot write overlays into \(path): not writable")
        }
    }

    /// Why a report could not be written.
    struct ReportWriteError: Error { var message: String }

    /// Refuses early (before minutes of profiling) an output whose directory is missing or not writable.
    static func checkWritable(_ path: String) throws {
        if AtomicFile.writesInPlace(path) {
            guard FileManager.default.isWritableFile(atPath: path) else {
                throw ReportWriteError(message: "cannot write \(path): not writable")
            }
            return
        }
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileStatus.isDirectory(dir) else {
            throw ReportWriteError(message: "cannot write \(path): directory \(dir) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: dir) else {
            throw ReportWriteError(message: "cannot write \(path): directory \(dir) is not writable")
        }
    }

    /// Writes a temporary file beside `path`, then renames it over `path`: readers see the old
    /// file or the whole new one, never a part. A special file (/dev/null) is written in place.
    static func writeAtomically(_ data: Data, to path: String) throws {
        do {
            try AtomicFile.write(data, to: path)
        } catch {
            throw ReportWriteError(message: "cannot write \(path): \(error)")
        }
    }
}

extension ReportFormat: ExpressibleByArgument {}
