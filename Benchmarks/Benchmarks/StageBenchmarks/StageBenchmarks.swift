import Benchmark
import Foundation
import LayerModel
import Pipeline
import Plan
import Profile
import Raster
import Render
import SceneFormat

/// Each stage of caprof's pipeline on its own, per scene (the four examples and two
/// synthetic scenes of 1,000 and 10,000 small layers, see `SyntheticScene`):
/// - `decode`: `SceneDecoder.load` (read + parse + validate the JSON file);
/// - `evaluate`: `PresentationTimeline.presentation(at:)`, a different time each iteration;
/// - `plan`: `FramePlanner.plan` of one presentation tree;
/// - `rasterise`: decoding the scene's images into bitmaps (`SceneImages` with a fresh
///   `ImageLoader`). Image decoding is all caprof rasterises on the CPU today: shapes and text
///   are not rasterised yet (the plan reports them as unsupported);
/// - `composite`: `Renderer.render` of the prepared plan on Vulkan (lavapipe here), textures
///   resident (uploaded by a first render in setup), readback included;
/// - `encode PNG (fast|small)`: the composited frame through `PNGCodec`'s two presets.
/// Everything a stage needs is prepared once per process (ordo-one/benchmark may call a closure
/// once per sample) and outside the measurement. Counters are custom metrics recorded every
/// iteration: draw items, offscreen passes and blended pixels from the plan and its analysis,
/// draw calls and uploaded bytes from `RenderStats`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], warmupIterations: 1,
                                           maxDuration: .seconds(10), maxIterations: 30)
    let planMetrics = [BenchmarkMetric.wallClock, .mallocCountTotal, Counters.items, Counters.offscreenPasses, Counters.blendedPixels]
    let compositeMetrics = [BenchmarkMetric.wallClock, Counters.items, Counters.drawCalls, Counters.blendedPixels, Counters.uploadedBytes]

    for name in StageScenes.names {
        Benchmark("decode \(name)", configuration: .init(metrics: [.wallClock, .mallocCountTotal, Counters.layers])) { benchmark in
            let f = try StageFixture.get(name)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let doc = try SceneDecoder.load(path: f.path)
                benchmark.measurement(Counters.layers, f.layers)
                blackHole(doc)
            }
        }

        Benchmark("evaluate \(name)", configuration: .init(metrics: [.wallClock, .mallocCountTotal],
                                                           maxIterations: 200)) { benchmark in
            let f = try StageFixture.get(name)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                f.evaluations += 1
                blackHole(f.scene.presentation(at: Double(f.evaluations % 60) / 60))
            }
        }

        Benchmark("plan \(name)", configuration: .init(metrics: planMetrics, maxIterations: 100)) { benchmark in
            let f = try StageFixture.get(name)
            let planner = FramePlanner(canvas: f.scene.canvas, images: f.images.table)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let plan = planner.plan(root: f.tree)
                benchmark.measurement(Counters.items, plan.items.count)
                benchmark.measurement(Counters.offscreenPasses, plan.offscreenPasses.count)
                benchmark.measurement(Counters.blendedPixels, f.counters.blendedPixels)
                blackHole(plan)
            }
        }

        Benchmark("rasterise \(name) (image decode)", configuration: .init(metrics: [.wallClock, Counters.images, Counters.decodedBytes])) { benchmark in
            let f = try StageFixture.get(name)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let images = try SceneImages(root: f.tree, loader: ImageLoader())
                benchmark.measurement(Counters.images, images.bitmaps.count)
                benchmark.measurement(Counters.decodedBytes, images.bitmaps.values.reduce(0) { $0 + $1.pixels.count })
                blackHole(images)
            }
        }

        Benchmark("composite \(name)", configuration: .init(metrics: compositeMetrics)) { benchmark in
            let f = try StageFixture.get(name)
            let renderer = try StageFixture.renderer.get()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let out = try renderer.render(f.plan, images: f.images.bitmaps)
                benchmark.measurement(Counters.items, out.stats.items)
                benchmark.measurement(Counters.drawCalls, out.stats.drawCalls)
                benchmark.measurement(Counters.blendedPixels, f.counters.blendedPixels)
                benchmark.measurement(Counters.uploadedBytes, out.stats.uploadedBytes)
                blackHole(out)
            }
        }

        for preset in PNGCodec.Compression.allCases {
            Benchmark("encode PNG (\(preset.rawValue)) \(name)",
                      configuration: .init(metrics: [.wallClock, Counters.pngBytes], maxIterations: 15)) { benchmark in
                let f = try StageFixture.get(name)
                let frame = f.frame
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    let png = try PNGCodec.encode(premultiplied: frame.pixels, width: frame.width, height: frame.height,
                                                  compression: preset)
                    benchmark.measurement(Counters.pngBytes, png.count)
                    blackHole(png)
                }
            }
        }
    }
}

/// The counters, as custom metrics (one value per iteration; deterministic for a given scene).
enum Counters {
    static func metric(_ name: String) -> BenchmarkMetric {
        .custom(name, polarity: .prefersSmaller, useScalingFactor: false)
    }
    static let layers = metric("layers")
    static let items = metric("draw items")
    static let drawCalls = metric("draw calls")
    static let offscreenPasses = metric("offscreen passes")
    static let blendedPixels = metric("blended pixels")
    static let uploadedBytes = metric("uploaded bytes")
    static let images = metric("images decoded")
    static let decodedBytes = metric("decoded bytes")
    static let pngBytes = metric("PNG bytes")
}

enum StageScenes {
    static let examples = ["cards", "flip3d", "gravity", "motion"]
    static let synthetic = [1_000, 10_000]
    static var names: [String] { examples + synthetic.map { "synthetic-\($0)" } }

    static func path(_ name: String) throws -> String {
        if let n = synthetic.first(where: { "synthetic-\($0)" == name }) { return try SyntheticScene.path(layers: n) }
        // Benchmarks/Benchmarks/StageBenchmarks/this file → repository root/Examples
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("Examples/\(name).json").path
    }
}

/// One scene prepared for every stage, once per process: decoded, its presentation at 0.5 s,
/// images decoded, planned, analysed (for blended pixels), and drawn once by the shared renderer
/// (so its textures are resident when `composite` is measured).
final class StageFixture {
    let path: String
    let scene: AnimatedScene
    let layers: Int
    let tree: Layer
    let images: SceneImages
    let plan: FramePlan
    let counters: FrameCounters
    let frame: RenderedFrame
    /// Frames evaluated so far (each evaluation takes the next time).
    var evaluations = 0

    /// One Vulkan renderer for every scene of the process, as a long-running renderer would be.
    static let renderer = Result { try Renderer() }
    nonisolated(unsafe) private static var made: [String: Result<StageFixture, Error>] = [:]

    static func get(_ name: String) throws -> StageFixture {
        if let r = made[name] { return try r.get() }
        let r = Result { try StageFixture(name) }
        made[name] = r
        return try r.get()
    }

    private init(_ name: String) throws {
        path = try StageScenes.path(name)
        scene = AnimatedScene(try SceneDecoder.load(path: path))
        var n = 0
        scene.document.scene.root.forEach { _ in n += 1 }
        layers = n
        tree = scene.presentation(at: 0.5)
        images = try SceneImages(root: tree)
        plan = FramePlanner(canvas: scene.canvas, images: images.table).plan(root: tree)
        counters = FrameAnalyzer(canvasScale: scene.canvas.scale).analyze(plan, tree: tree, index: 0, time: 0.5).counters
        frame = try Self.renderer.get().render(plan, images: images.bitmaps)
    }
}

/// A deterministic synthetic scene of N small layers (24×24 pt, scattered over an iPhone-sized
/// canvas at 3×) in containers of 100: every other layer shows one of 16 72×72 px PNG images, the
/// rest are solid colours (a quarter of them with rounded corners); a third are at opacity 0.9,
/// and every tenth has a running animation (opacity, rotation or position). Written once per
/// process under the temporary directory.
enum SyntheticScene {
    nonisolated(unsafe) private static var paths: [Int: String] = [:]

    static func path(layers n: Int) throws -> String {
        if let p = paths[n] { return p }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-bench-synthetic-\(n)-\(getpid())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("assets"), withIntermediateDirectories: true)
        for k in 0..<16 {
            try PNGCodec.write(premultiplied: image(seed: k), width: 72, height: 72,
                               to: dir.appendingPathComponent("assets/img-\(k).png").path)
        }
        var containers: [String] = []
        for c in 0..<(n + 99) / 100 {
            var leaves: [String] = []
            for i in c * 100..<min(n, c * 100 + 100) {
                var props = ["\"frame\": [\((i * 37) % 366), \((i * 53) % 820), 24, 24]"]
                if i % 2 == 0 {
                    props.append("\"contents\": \"assets/img-\((i / 2) % 16).png\"")
                } else {
                    let r = (i * 67) % 256, g = (i * 131) % 256, b = (i * 29) % 256
                    props.append(String(format: "\"backgroundColor\": \"#%02X%02X%02X\"", r, g, b))
                    if i % 4 == 1 { props.append("\"cornerRadius\": 6") }
                }
                if i % 3 == 0 { props.append("\"opacity\": 0.9") }
                if i % 10 == 0 {
                    let anim: String
                    switch (i / 10) % 3 {
                    case 0: anim = #"{ "class": "CABasicAnimation", "key": "a", "keyPath": "opacity", "fromValue": 1, "toValue": 0.5, "duration": 1, "autoreverses": true, "repeatCount": "infinity" }"#
                    case 1: anim = #"{ "class": "CABasicAnimation", "key": "a", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.283185307179586, "duration": 1, "repeatCount": "infinity" }"#
                    default: anim = #"{ "class": "CABasicAnimation", "key": "a", "keyPath": "position.x", "fromValue": 20, "toValue": 370, "duration": 1, "timingFunction": "easeInEaseOut" }"#
                    }
                    props.append("\"animations\": [\(anim)]")
                }
                leaves.append("{ \(props.joined(separator: ", ")) }")
            }
            containers.append("{ \"name\": \"group-\(c)\", \"frame\": [0, 0, 390, 844], \"sublayers\": [\n      \(leaves.joined(separator: ",\n      "))] }")
        }
        let json = """
        {
          "caprof": 1,
          "canvas": { "width": 390, "height": 844, "scale": 3, "backgroundColor": "#FFFFFF" },
          "root": { "name": "root", "bounds": [0, 0, 390, 844], "position": [195, 422], "sublayers": [
            \(containers.joined(separator: ",\n    "))] }
        }
        """
        let path = dir.appendingPathComponent("synthetic-\(n).json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        paths[n] = path
        return path
    }

    /// A 72×72 premultiplied pattern, different per seed, half of it translucent.
    static func image(seed: Int) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: 72 * 72 * 4)
        for y in 0..<72 { for x in 0..<72 {
            let i = (y * 72 + x) * 4
            let a = (x / 12 + y / 12 + seed) % 2 == 0 ? 255 : 160
            px[i] = UInt8(((x * 3 + seed * 16) & 0xFF) * a / 255)
            px[i + 1] = UInt8(((y * 3 + seed * 8) & 0xFF) * a / 255)
            px[i + 2] = UInt8(((seed * 15) & 0xFF) * a / 255)
            px[i + 3] = UInt8(a)
        } }
        return px
    }
}
