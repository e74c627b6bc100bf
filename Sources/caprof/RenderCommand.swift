import ArgumentParser
import AssetImport
import SystemSupport
import Dispatch
import LayerModel
import Pipeline
import Plan
import Raster
import SceneFormat

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to a PNG, or a sequence of frames, through Vulkan (lavapipe when there is no GPU).",
        discussion: """
        One frame: the presentation tree at --time (default 0) as a PNG, sRGB, non-premultiplied \
        RGBA, canvas.width × canvas.height points at the canvas scale. \
        --progress P takes the frame at a share of the timeline instead (0…1: scene time P × the \
        timeline's duration; for a Lottie animation frame ip + P·(op − ip)), and --marker NAME the \
        frame at the start of one of a Lottie animation's markers; with --frames, --marker renders \
        the marker's segment: START and END count from its start and END is clipped to its end \
        (`--marker intro --frames 0:` is the whole segment). --animation ID picks the animation of \
        a .lottie package (default: the first in its manifest).

        A sequence: --frames START:END renders the half-open span [START, END) of scene time at \
        --fps (default: the scene's timeline.fps) into the directory given by -o (created if \
        missing), one PNG per frame named frame-NNNNN.png after the frame's index i (its time is \
        i / fps), zero-padded to 5 digits or more when an index needs them. Bounds are seconds \
        (0.5 or 0.5s) or frame numbers with an f suffix (12f); an empty START is 0 and an empty \
        END the scene's timeline duration: `--frames 0:2`, `--frames 1:`, `--frames 12f:48f`. \
        --sheet FILE also writes a contact sheet: every frame as a thumbnail (at most 240 pixels \
        wide) in a grid of --sheet-columns columns (default ⌈√frames⌉), labelled with its time and \
        frame number. A progress bar is shown when stderr is a terminal.

        An animated preview: with --frames, -o x.gif, -o x.apng or -o x.webp writes the frames as one \
        animation (at most 1000 frames) instead of a directory, box-filtered to at most --max-width \
        pixels wide (default 480), looping forever unless --loop N. GIF: a palette per frame, the \
        exact colours when a frame has at most 256, else libimagequant's without dithering (--dither \
        turns it on); alpha < 128 is transparent. APNG: 8-bit RGBA, each frame the region that \
        changed since the frame before. WebP: lossless with full alpha (libwebp).

        Every PNG is written atomically: a failure never leaves a half-written file (frames \
        finished before a failure stay). Features the scene uses that caprof does not draw yet \
        are listed as warnings.
        """)

    @Argument(help: "The scene file (caprof scene JSON), or a Core Animation asset (.caar, .ca, .caml).")
    var scene: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The PNG to write; with --frames, the directory for the frames, or an animated .gif, .apng or .webp.", valueName: "path"))
    var output: String

    // Unconditional: `--time -1` is a value (then refused by validate with a reason), not an
    // unknown option "-1" leaving --time without a value.
    @Option(parsing: .unconditional, help: ArgumentHelp("Scene time in seconds of the one frame to render (default 0).", valueName: "seconds"))
    var time: Double?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The one frame at this share of the timeline, 0…1 (scene time P × the timeline's duration; for a Lottie animation frame ip + P·(op − ip)).",
                               valueName: "P"),
            transform: { try TimelinePicks.parseShare($0) })
    var progress: Double?

    @Option(help: ArgumentHelp("A marker of the animation (Lottie \"markers\"): alone, the frame at its start; with --frames, its segment (bounds count from its start, END clipped to its end; --frames 0: is the whole segment).",
                               valueName: "name"))
    var marker: String?

    @Option(help: ArgumentHelp("Render the frames of [START, END) into the -o directory (seconds, or frame numbers with an f suffix).",
                               valueName: "START:END"),
            transform: { try FrameRange.parse($0) })
    var frames: FrameRange?

    @Option(help: ArgumentHelp("Frames per second for --frames (default: the scene's timeline.fps).", valueName: "fps"))
    var fps: Double?

    @Option(help: ArgumentHelp("With --frames, also write a contact sheet PNG of all frames.", valueName: "file"))
    var sheet: String?

    @Option(help: ArgumentHelp("Columns of the contact sheet (default ⌈√frames⌉).", valueName: "n"))
    var sheetColumns: Int?

    @Option(help: ArgumentHelp("With --frames and -o x.gif, x.apng or x.webp: the animation's largest width in pixels (default 480; box-filtered, aspect kept).", valueName: "px"))
    var maxWidth: Int?

    @Option(help: ArgumentHelp("With --frames and -o x.gif, x.apng or x.webp: play the animation N times (default 0: forever).", valueName: "n"))
    var loop: Int?

    @Flag(help: "With --frames and -o x.gif: dither frames that have more than 256 colours (off by default: flat colours stay flat).")
    var dither = false

    @Option(help: "Device pixels per point, overriding canvas.scale.")
    var scale: Double?

    @Option(help: "PNG compression: fast (zlib 1, no filter) or small (zlib 6, adaptive filters).")
    var compression: PNGCodec.Compression = .fast

    @Option(help: "Use the Vulkan device whose name contains this text (see `caprof devices`).")
    var device: String?

    @OptionGroup var stateOptions: StateOptions

    @OptionGroup var animationOption: AnimationOption

    @OptionGroup var rasterCache: RasterCacheOptions

    @Flag(name: .shortAndLong, help: "Print nothing but errors (no progress bar, no summary).")
    var quiet = false

    static let maxFPS = 1000.0

    func validate() throws {
        if let t = time, t < 0 || !t.isFinite {
            throw ValidationError("--time \(FrameRange.format(t)): scene time starts at 0 (when the file's layers are added); give a finite number of seconds ≥ 0")
        }
        if output == "-" {
            throw ValidationError("-o -: a PNG is binary and is not written to standard output; name a file (or, with --frames, a directory)")
        }
        if let s = scale, !(s > 0 && s <= 16) { throw ValidationError("--scale must be in (0, 16]") }
        if frames != nil && time != nil {
            throw ValidationError("--frames and --time cannot be used together: --time renders one frame, --frames a sequence")
        }
        if progress != nil && time != nil {
            throw ValidationError("--progress and --time cannot be used together: both pick the one frame to render (--progress as a share of the timeline, --time in seconds)")
        }
        if progress != nil && frames != nil {
            throw ValidationError("--progress and --frames cannot be used together: --progress renders one frame, --frames a sequence")
        }
        if progress != nil && marker != nil {
            throw ValidationError("--progress and --marker cannot be used together: both pick the frame to render")
        }
        if marker != nil && time != nil {
            throw ValidationError("--marker and --time cannot be used together: --marker renders the frame at the marker's start (with --frames, its segment)")
        }
        if let m = marker, m.isEmpty { throw ValidationError("--marker needs a marker's name") }
        if frames == nil {
            if fps != nil { throw ValidationError("--fps applies to --frames") }
            if sheet != nil { throw ValidationError("--sheet needs --frames") }
        }
        if let f = fps, !(f > 0 && f <= Self.maxFPS) { throw ValidationError("--fps must be in (0, \(Int(Self.maxFPS))]") }
        if sheetColumns != nil && sheet == nil { throw ValidationError("--sheet-columns applies to --sheet") }
        if let c = sheetColumns, c < 1 { throw ValidationError("--sheet-columns must be ≥ 1") }
        let preview = PreviewFormat(path: output)
        if let p = preview {
            if frames == nil { throw ValidationError("-o \(output): a .\(p.rawValue) is an animation; give --frames START:END (or write a .png)") }
            if sheet != nil { throw ValidationError("--sheet applies to a directory of frames, not to an animated .\(p.rawValue)") }
        } else {
            // A frame is always PNG: a .jpg holding PNG bytes would mislead every tool that reads it.
            let ext = output.split(separator: "/").last.flatMap { $0.contains(".") ? $0.split(separator: ".").last : nil }.map { $0.lowercased() }
            if frames == nil, let ext, Self.otherImageExtensions.contains(ext) {
                throw ValidationError("-o \(output): caprof writes a frame as PNG, not .\(ext); name it .png (or, with --frames, write an animated .gif, .apng or .webp)")
            }
            if maxWidth != nil { throw ValidationError("--max-width applies to an animated preview (-o x.gif, x.apng or x.webp with --frames)") }
            if loop != nil { throw ValidationError("--loop applies to an animated preview (-o x.gif, x.apng or x.webp with --frames)") }
        }
        if dither && preview != .gif { throw ValidationError("--dither applies to an animated GIF (-o x.gif with --frames)") }
        if let w = maxWidth, !(1...Canvas.maxPixelSide).contains(w) { throw ValidationError("--max-width must be in 1…\(Canvas.maxPixelSide)") }
        if let n = loop, !(0...65535).contains(n) { throw ValidationError("--loop must be in 0…65535 (0: forever)") }
    }

    @OptionGroup var limitOptions: LimitOptions

    /// Image formats a user may name for a frame that caprof does not write (PNG only).
    static let otherImageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif", "tif", "tiff", "bmp", "heic", "heif", "avif", "jxl", "ppm"]

    func run() throws {
        do {
            let t0 = DispatchTime.now().uptimeNanoseconds
            var loadTime: UInt64 = 0
            let limits = try limitOptions.resolved()
            let doc = try StageTimings.measure(&loadTime) { try AssetLoader.load(path: scene, states: stateOptions.selection, animation: animationOption.animation, limits: limits.decoding) }
            if let s = scale {
                var c = doc.scene.canvas; c.scale = s
                if c.pixelWidth > Canvas.maxPixelSide || c.pixelHeight > Canvas.maxPixelSide || c.pixelWidth < 1 || c.pixelHeight < 1 {
                    throw ValidationError("--scale \(s) makes the canvas \(c.pixelWidth)×\(c.pixelHeight) pixels; each side must be 1…\(Canvas.maxPixelSide)")
                }
            }
            try HostMemory.check(doc.scene, scale: scale, bytesPerPixel: HostMemory.drawnBytesPerPixel)
            let animated = AnimatedScene(doc, imageLimits: limits.images)
            // --marker: its start, or (with --frames) its segment as an absolute range.
            let picked = try marker.map { try TimelinePicks.marker($0, in: doc, scene: scene) }
            var range = frames
            if let m = picked, frames != nil {
                range = try TimelinePicks.segment(m, relative: frames, fps: fps ?? animated.fps)
            }
            if let range, let format = PreviewFormat(path: output) {
                try renderPreview(format, animated, range: range, loadTime: loadTime, start: t0)
            } else if let range {
                try renderSequence(animated, range: range, loadTime: loadTime, start: t0)
            } else {
                var at = time ?? 0, label = time.map { " at \(FrameRange.format($0)) s" } ?? ""
                if let p = progress {
                    at = try TimelinePicks.time(progress: p, animated, scene: scene)
                    label = " at \(FrameRange.format(at)) s (progress \(FrameRange.format(p)))"
                } else if let m = picked {
                    at = try TimelinePicks.start(of: m)
                    label = " at \(FrameRange.format(at)) s (marker \(TimelinePicks.quote(m.name)))"
                }
                try renderOne(animated, at: at, label: label, loadTime: loadTime, start: t0)
            }
        } catch let e as ValidationError {
            throw e
        } catch let e as OutputError {
            Terminal.stderr.error("error: \(e.message)")
            throw ExitCode(CaprofExit.cantCreate)
        } catch {
            throw fail(error)
        }
    }

    func renderOne(_ animated: AnimatedScene, at time: Double, label at: String, loadTime: UInt64, start t0: UInt64) throws {
        let err = Terminal.stderr
        let renderer = try SceneRenderer(preferredDevice: device)
        // One frame: its textures go before its pixels are copied out (lower peak memory).
        renderer.renderer.releasesTexturesAfterFrame = true
        // Again now that the driver is up: its threads and reservations count against ulimit -v.
        try HostMemory.check(animated.document.scene, scale: scale, bytesPerPixel: HostMemory.drawnBytesPerPixel, driverStarted: true)
        let frame = try renderer.render(animated, at: time, scale: scale)
        renderer.record(\.load, nanoseconds: loadTime)
        let t1 = DispatchTime.now().uptimeNanoseconds
        try PNGCodec.write(premultiplied: frame.pixels, width: frame.width, height: frame.height,
                           to: output, compression: compression)
        renderer.record(\.png, nanoseconds: DispatchTime.now().uptimeNanoseconds - t1)
        if !quiet {
            var warnings = Warnings(animated, scene: scene)
            warnings.add(frame.plan.unsupported)
            for w in warnings.lines { err.warning(w) }
            let total = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
            err.write("\(err.green("wrote")) \(output)\(at) \(err.dim("(\(frame.width)×\(frame.height), \(Self.drawCounts(items: frame.plan.items.count, calls: frame.stats.drawCalls, culled: frame.plan.execution.culledItems, flattened: (frame.plan.execution.flattenedRegions, frame.plan.execution.flattenedItems), stack: (frame.plan.execution.stackDepth, frame.plan.execution.stackVeils, frame.plan.execution.stackByOrder > 0))), \(String(cFormat: "%.0f", total)) ms: \(renderer.timings.summary); \(renderer.renderer.deviceName))"))")
        }
    }
}

extension RenderCommand {
    /// "12 draw items, 3 draw calls, 4 culled": the scene's draws (what Core Animation draws) and
    /// the instanced draw calls caprof made for them, with the items it did not draw because
    /// opaque layers hide them and the items it drew inside flattened regions, each region one
    /// draw (caprof's own savings, not findings).
    /// `stack`: stack culling's K, marked veils and whether a segment was culled by the veils'
    /// order (`CanvasExecutionStats.stackDepth`, `stackVeils`, `stackByOrder`).
    static func drawCounts(items: Int, calls: Int, culled: Int, flattened: (regions: Int, items: Int) = (0, 0),
                           stack: (depth: Int, veils: Int, byOrder: Bool) = (0, 0, false)) -> String {
        func n(_ v: Int, _ noun: String) -> String { "\(v) \(noun)\(v == 1 ? "" : "s")" }
        return "\(n(items, "draw item")), \(n(calls, "draw call"))" + (culled > 0 ? ", \(culled) culled under opaque layers" : "")
            + (flattened.regions > 0 ? ", \(flattened.items) blended in \(n(flattened.regions, "flattened region"))" : "")
            + (stack.veils == 0 ? "" : stack.byOrder ? ", nothing drawn beneath \(stack.veils) translucent layers where their order hides it"
                : stack.depth <= 1 ? ", nothing drawn beneath \(n(stack.veils, "opaque layer"))"
                : ", nothing drawn beneath any \(stack.depth) of \(stack.veils) translucent layers")
    }
}

extension PNGCodec.Compression: ExpressibleByArgument {}
