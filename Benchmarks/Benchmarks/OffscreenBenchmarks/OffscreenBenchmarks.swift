import Benchmark
import Foundation
import LayerModel
import Pipeline
import Plan
import Raster
import SceneFormat

/// Offscreen passes, on the canvas of an iPhone (390×844 pt at 3×, 1170×2532 px):
/// - 20 cards with shadows: without shadowPath (content offscreen, blurred) versus with a
///   shadowPath (one analytic item each, no pass);
/// - a layer clipped by a mask layer versus the same layer clipped by masksToBounds + cornerRadius;
/// - a shouldRasterize subtree of 30 layers: a cache hit (the bitmap from the previous frame is
///   drawn) versus a miss (rendered again every frame);
/// - a full-screen layer under a variableBlur of 20 pt (60 px) whose mask ramps from transparent at
///   the top to opaque at the bottom versus the same layer under a gaussianBlur of 20 pt.
/// Each comparison is measured interleaved, frame pair by frame pair (alternating which goes
/// first), and records the ratio of the pair's times, which cancels the VM's drift; the single
/// benchmarks give the absolute times of one run.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], warmupIterations: 1,
                                           maxDuration: .seconds(20), maxIterations: 12)

    for (name, fixture) in [("shadows, 20 cards, without shadowPath", OffscreenFixture.shadowsPathless),
                            ("shadows, 20 cards, with shadowPath", OffscreenFixture.shadowsWithPath),
                            ("clip, mask layer", OffscreenFixture.masked),
                            ("clip, masksToBounds + cornerRadius", OffscreenFixture.cornerRadius),
                            ("rasterize, 30 layers, hit", OffscreenFixture.rasterHit),
                            ("rasterize, 30 layers, miss", OffscreenFixture.rasterMiss),
                            ("filter, variableBlur 20 pt, full screen", OffscreenFixture.variableBlur),
                            ("filter, gaussianBlur 20 pt, full screen", OffscreenFixture.gaussianBlur)] {
        Benchmark("offscreen.\(name)", configuration: .init(metrics: [.wallClock, GPUTime.metric])) { benchmark in
            let f = try fixture.get()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { GPUTime.record(try f.frame(), in: benchmark) }
        }
    }

    for (name, a, b) in [("shadow.pathless-over-path", OffscreenFixture.shadowsPathless, OffscreenFixture.shadowsWithPath),
                         ("clip.mask-over-corner-radius", OffscreenFixture.masked, OffscreenFixture.cornerRadius),
                         ("rasterize.miss-over-hit", OffscreenFixture.rasterMiss, OffscreenFixture.rasterHit),
                         ("filter.variable-over-gaussian", OffscreenFixture.variableBlur, OffscreenFixture.gaussianBlur)] {
        Benchmark("offscreen.ratio.\(name)",
                  configuration: .init(metrics: [.wallClock] + Pair.metrics, warmupIterations: 1,
                                       maxDuration: .seconds(30), maxIterations: 16)) { benchmark in
            let x = try a.get(), y = try b.get()
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations {
                let first = i % 2 == 0
                var gx: UInt64 = 0, gy: UInt64 = 0
                if first { gx = try x.frame(); gy = try y.frame() } else { gy = try y.frame(); gx = try x.frame() }
                Pair.record(gx, gy, in: benchmark)
            }
        }
    }
    blendModeBenchmarks()
}

/// GPU time per frame (timestamps around the command buffer) as a custom metric, in µs.
enum GPUTime {
    static let metric = BenchmarkMetric.custom("GPU frame (µs)", polarity: .prefersSmaller, useScalingFactor: false)
    static func record(_ ns: UInt64, in b: Benchmark) { b.measurement(metric, Int(ns / 1000)) }
}

/// The GPU-time ratio of a frame pair (first ÷ second, per mille) and both times.
enum Pair {
    static let ratio = BenchmarkMetric.custom("GPU ratio (‰)", polarity: .prefersSmaller, useScalingFactor: false)
    static let first = BenchmarkMetric.custom("first GPU (µs)", polarity: .prefersSmaller, useScalingFactor: false)
    static let second = BenchmarkMetric.custom("second GPU (µs)", polarity: .prefersSmaller, useScalingFactor: false)
    static let metrics = [ratio, first, second]
    static func record(_ a: UInt64, _ b: UInt64, in bench: Benchmark) {
        bench.measurement(ratio, Int((Double(a) / Double(max(b, 1)) * 1000).rounded()))
        bench.measurement(first, Int(a / 1000))
        bench.measurement(second, Int(b / 1000))
    }
}

/// A scene planned once (or, for the raster cache, per frame with the cache's state) and drawn by
/// one renderer per process; `frame()` draws it and returns the frame's GPU nanoseconds.
final class OffscreenFixture: @unchecked Sendable {
    let renderer: SceneRenderer
    let scene: AnimatedScene
    let images: SceneImages
    let tree: Layer
    var plan: FramePlan
    /// nil: the plan is fixed; else the cache the next frame is planned with.
    var cache: RasterCache?
    let freshCacheEachFrame: Bool
    var time = 0.0

    init(json: String, cache: Bool = false, freshCacheEachFrame: Bool = false) throws {
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "bench.json", baseDirectory: "/")
        scene = AnimatedScene(doc)
        renderer = try SceneRenderer()
        renderer.renderer.frameCacheEnabled = false   // every iteration draws the frame (a static one would be reused)
        tree = scene.presentation(at: 0)
        images = try scene.images(for: tree)
        var c = RasterCache()
        plan = FramePlanner(canvas: scene.canvas, images: images.table).plan(root: tree, rasterCache: &c, time: 0)
        self.cache = cache ? c : nil
        self.freshCacheEachFrame = freshCacheEachFrame
        _ = try renderer.renderer.render(plan, images: images.bitmaps)   // pipelines built, textures resident
    }

    func frame() throws -> UInt64 {
        if var c = cache {
            time += 1.0 / 60
            if freshCacheEachFrame { c = RasterCache() }
            plan = FramePlanner(canvas: scene.canvas, images: images.table).plan(root: tree, rasterCache: &c, time: time)
            cache = c
        }
        return try renderer.renderer.render(plan, images: images.bitmaps).stats.gpuNanoseconds ?? 0
    }

    static func canvas(_ sublayers: [String]) -> String {
        """
        {"caprof": 1, "canvas": {"width": 390, "height": 844, "scale": 3, "backgroundColor": "#F2F2F7"},
         "root": {"frame": [0, 0, 390, 844], "sublayers": [\(sublayers.joined(separator: ",\n"))]}}
        """
    }

    static func cards(path: Bool) -> String {
        canvas((0..<20).map { i in
            let x = 15 + Double(i % 2) * 185, y = 20 + Double(i / 2) * 80
            let p = path ? ##", "shadowPath": {"roundedRect": [0, 0, 175, 64], "cornerRadius": 12}"## : ""
            return ##"{"frame": [\##(x), \##(y), 175, 64], "backgroundColor": "#FFFFFF", "cornerRadius": 12, "shadowOpacity": 0.25, "shadowRadius": 8, "shadowOffset": [0, 4]\##(p)}"##
        })
    }

    static func clipped(mask: Bool) -> String {
        let children = (0..<4).map { i in ##"{"frame": [\##(i * 60), \##(i * 60), 150, 150], "backgroundColor": [\##(Double(i) / 4), 0.5, 0.8, 1]}"## }
            .joined(separator: ",")
        let clip = mask ? ##""mask": {"frame": [0, 0, 340, 340], "cornerRadius": 60, "backgroundColor": "black"}"##
                        : ##""masksToBounds": true, "cornerRadius": 60"##
        return canvas([##"{"frame": [25, 200, 340, 340], "backgroundColor": "#FF9500", \##(clip), "sublayers": [\##(children)]}"##])
    }

    static var rasterized: String {
        let leaves = (0..<29).map { i in
            ##"{"frame": [\##(10 + (i % 5) * 64), \##(10 + (i / 5) * 64), 56, 56], "backgroundColor": [0.2, \##(Double(i) / 29), 0.9, 1], "cornerRadius": 10}"##
        }.joined(separator: ",")
        return canvas([##"{"frame": [35, 200, 330, 400], "backgroundColor": "#FFFFFF", "cornerRadius": 16, "shouldRasterize": true, "rasterizationScale": 3, "sublayers": [\##(leaves)]}"##])
    }

    /// 24 stripes over a colour, full screen, under `filter` (a 1×16 mask image whose alpha ramps
    /// 0 … 1 from top to bottom, for variableBlur).
    static func filtered(_ filter: String) -> String {
        let stripes = (0..<24).map { i in ##"{"frame": [\##(i * 16), 0, 8, 844], "backgroundColor": "#1C1C1E"}"## }.joined(separator: ",")
        return canvas([##"{"frame": [0, 0, 390, 844], "backgroundColor": "#FFD60A", "filters": [\##(filter)], "sublayers": [\##(stripes)]}"##])
    }
    static let ramp = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAQCAYAAADXnxW3AAAAMklEQVR4AWNggAJBEK0EIoxBhAuICAURaSCiHER0gIiZIGIViNgNIs6AiLsg4h2I+A8AwjgH+et3uNYAAAAASUVORK5CYII="

    static let shadowsPathless = Result { try OffscreenFixture(json: cards(path: false)) }
    static let shadowsWithPath = Result { try OffscreenFixture(json: cards(path: true)) }
    static let masked = Result { try OffscreenFixture(json: clipped(mask: true)) }
    static let cornerRadius = Result { try OffscreenFixture(json: clipped(mask: false)) }
    static let rasterHit = Result { try OffscreenFixture(json: rasterized, cache: true) }
    static let rasterMiss = Result { try OffscreenFixture(json: rasterized, cache: true, freshCacheEachFrame: true) }
    static let variableBlur = Result {
        try OffscreenFixture(json: filtered(##"{"type": "variableBlur", "inputRadius": 20, "inputMaskImage": "\##(ramp)"}"##))
    }
    static let gaussianBlur = Result { try OffscreenFixture(json: filtered(##"{"type": "gaussianBlur", "inputRadius": 20}"##)) }
}
