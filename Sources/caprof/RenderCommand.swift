import ArgumentParser
import Foundation
import LayerModel
import Pipeline
import Raster
import SceneFormat

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to a PNG through Vulkan (lavapipe when there is no GPU).",
        discussion: """
        The PNG is sRGB, non-premultiplied RGBA, canvas.width × canvas.height points at the canvas \
        scale. It is written atomically: a failure never leaves a half-written file. Features the \
        scene uses that caprof does not draw yet are listed as warnings.
        """)

    @Argument(help: "The scene file (caprof scene JSON).")
    var scene: String

    @Option(name: .shortAndLong, help: "The PNG to write.")
    var output: String

    @Option(help: "Scene time in seconds.")
    var time: Double = 0

    @Option(help: "Device pixels per point, overriding canvas.scale.")
    var scale: Double?

    @Option(help: "PNG compression: fast (zlib 1, no filter) or small (zlib 6, adaptive filters).")
    var compression: PNGCodec.Compression = .fast

    @Option(help: "Use the Vulkan device whose name contains this text (see `caprof devices`).")
    var device: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if time < 0 || !time.isFinite { throw ValidationError("--time must be a finite number of seconds ≥ 0") }
        if let s = scale, !(s > 0 && s <= 16) { throw ValidationError("--scale must be in (0, 16]") }
    }

    func run() throws {
        let err = Terminal.stderr
        do {
            let t0 = DispatchTime.now().uptimeNanoseconds
            var loadTime: UInt64 = 0
            let doc = try StageTimings.measure(&loadTime) { try SceneDecoder.load(path: scene) }
            if let s = scale {
                var c = doc.scene.canvas; c.scale = s
                if c.pixelWidth > Canvas.maxPixelSide || c.pixelHeight > Canvas.maxPixelSide || c.pixelWidth < 1 || c.pixelHeight < 1 {
                    throw ValidationError("--scale \(s) makes the canvas \(c.pixelWidth)×\(c.pixelHeight) pixels; each side must be 1…\(Canvas.maxPixelSide)")
                }
            }
            let renderer = try SceneRenderer(preferredDevice: device)
            let frame = try renderer.render(doc, scale: scale)
            var timings = renderer.timings
            timings.load = loadTime
            try StageTimings.measure(&timings.encode) {
                try PNGCodec.write(premultiplied: frame.pixels, width: frame.width, height: frame.height,
                                   to: output, compression: compression)
            }
            if !quiet {
                for w in doc.warnings + frame.plan.unsupported { err.warning(warningLine(w)) }
                let animated = doc.animations.values.reduce(0) { $0 + $1.count }
                if animated > 0 || !doc.transactions.isEmpty {
                    err.warning("warning: \(scene): \(animated) animation(s) and \(doc.transactions.count) transaction(s) are not evaluated yet; drawing the model tree (time \(time) s)")
                }
                let total = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6
                err.write("\(err.green("wrote")) \(output) \(err.dim("(\(frame.width)×\(frame.height), \(frame.plan.items.count) draws, \(String(format: "%.0f", total)) ms: \(timings.summary); \(renderer.renderer.deviceName))"))")
            }
        } catch let e as ValidationError {
            throw e
        } catch {
            throw fail(error)
        }
    }

    func warningLine(_ u: Unsupported) -> String {
        if let l = u.location { return "\(l.file):\(l.line):\(l.column): warning: \(u.feature)" }
        return "\(scene): warning: \(u.feature)"
    }
}

extension PNGCodec.Compression: ExpressibleByArgument {}
