import Benchmark
import Foundation
import LayerModel
import Pipeline
import Plan
import Raster
import SceneFormat

/// Layer content, on the canvas of an iPhone (390×844 pt at 3×, 1170×2532 px), each
/// frame through `SceneRenderer` (evaluate, plan, rasterise what changed, upload, draw, read back):
/// - 200 semi-transparent rotated rounded rectangles as CALayers (cornerRadius) and as
///   CAShapeLayers (roundedRect paths): static (shape textures cached) and with the paths
///   animating (every shape rasterised and uploaded every frame); interleaved ratio shape ÷ layer;
/// - a 300×300 pt `strokeEnd` draw-on at 3×: the CPU rasterisation and the upload per frame;
/// - a replicator of 10,000 instances and an emitter of 5,000 live particles: draw calls and frame time;
/// - a screen of 40 text labels: their first layout + rasterisation, and a frame once cached;
/// - a 300 pt star's shadow from its shadowPath (static and morphing) and without one (the
///   layer's alpha blurred offscreen every frame); interleaved ratio shadowPath ÷ path-less.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], warmupIterations: 1,
                                           maxDuration: .seconds(20), maxIterations: 12)

    for (name, fixture) in [("200 rounded rects as CALayers", ContentFixture.layers),
                            ("200 rounded rects as CAShapeLayers, static", ContentFixture.shapes),
                            ("200 rounded rects as CAShapeLayers, paths animating", ContentFixture.morphing),
                            ("strokeEnd draw-on 300x300 pt at 3x", ContentFixture.drawOn),
                            ("replicator, 10000 instances", ContentFixture.replicated),
                            ("emitter, 5000 live particles", ContentFixture.emitter),
                            ("40 text labels, cached", ContentFixture.labels),
                            ("star shadowPath 300x300 pt, static", ContentFixture.starShadowPath),
                            ("star shadow without shadowPath 300x300 pt", ContentFixture.starPathless),
                            ("star shadowPath 300x300 pt, morphing", ContentFixture.starShadowPathMorphing)] {
        Benchmark("content.\(name)", configuration: .init(metrics: [.wallClock] + FrameMetrics.all)) { benchmark in
            let f = try fixture.get()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { FrameMetrics.record(try f.frame(), f, in: benchmark) }
        }
    }

    // First use of 40 labels: Pango layout and cairo rasterisation of every label (what the first
    // frame showing them pays before its upload).
    Benchmark("content.40 text labels, first layout + rasterisation",
              configuration: .init(metrics: [.wallClock, FrameMetrics.rasterized])) { benchmark in
        let f = try ContentFixture.labels.get()
        let requests = try f.renderer.render(f.scene, at: 0).plan.rasterRequests
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for r in requests { blackHole(try ContentRasterizer.rasterize(r)) }
            benchmark.measurement(FrameMetrics.rasterized, requests.count)
        }
    }

    for (name, a, b) in [("shapes-over-layers.static", ContentFixture.shapes, ContentFixture.layers),
                         ("star-shadowPath-over-pathless", ContentFixture.starShadowPath, ContentFixture.starPathless),
                         ("shapes-over-layers.animating", ContentFixture.morphing, ContentFixture.layers)] {
        Benchmark("content.ratio.\(name)",
                  configuration: .init(metrics: [.wallClock, Pair.ratio], warmupIterations: 1,
                                       maxDuration: .seconds(30), maxIterations: 16)) { benchmark in
            let x = try a.get(), y = try b.get()
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations {
                var tx: UInt64 = 0, ty: UInt64 = 0
                func timed(_ f: ContentFixture) throws -> UInt64 {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try f.frame()
                    return DispatchTime.now().uptimeNanoseconds - start
                }
                if i % 2 == 0 { tx = try timed(x); ty = try timed(y) } else { ty = try timed(y); tx = try timed(x) }
                benchmark.measurement(Pair.ratio, Int((Double(tx) / Double(max(ty, 1)) * 1000).rounded()))
            }
        }
    }
}

/// Per-frame counters: draw calls, GPU time, CPU rasterisation and upload.
enum FrameMetrics {
    static let gpu = BenchmarkMetric.custom("GPU frame (µs)", polarity: .prefersSmaller, useScalingFactor: false)
    static let drawCalls = BenchmarkMetric.custom("draw calls", polarity: .prefersSmaller, useScalingFactor: false)
    static let raster = BenchmarkMetric.custom("CPU raster (µs)", polarity: .prefersSmaller, useScalingFactor: false)
    static let upload = BenchmarkMetric.custom("CPU upload (µs)", polarity: .prefersSmaller, useScalingFactor: false)
    static let uploaded = BenchmarkMetric.custom("uploaded (KiB)", polarity: .prefersSmaller, useScalingFactor: false)
    static let rasterized = BenchmarkMetric.custom("rasterised", polarity: .prefersSmaller, useScalingFactor: false)
    static let all = [gpu, drawCalls, raster, upload, uploaded]
    static func record(_ frame: SceneRenderer.Frame, _ f: ContentFixture, in b: Benchmark) {
        b.measurement(gpu, Int((frame.stats.gpuNanoseconds ?? 0) / 1000))
        b.measurement(drawCalls, frame.stats.drawCalls)
        b.measurement(raster, Int(f.renderer.content.lastStats.nanoseconds / 1000))
        b.measurement(upload, Int(frame.stats.cpuUploadNanoseconds / 1000))
        b.measurement(uploaded, frame.stats.uploadedBytes / 1024)
    }
}

enum Pair {
    static let ratio = BenchmarkMetric.custom("time ratio (‰)", polarity: .prefersSmaller, useScalingFactor: false)
}

/// A scene drawn by one renderer per process, frame after frame at 60 fps (so animations advance
/// and cached content stays cached).
final class ContentFixture: @unchecked Sendable {
    let renderer: SceneRenderer
    let scene: AnimatedScene
    var time = 0.0

    init(json: String) throws {
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "bench.json", baseDirectory: "/")
        scene = AnimatedScene(doc)
        renderer = try SceneRenderer()
        // Every frame drawn: the frame cache would reuse a static frame (not drawing it at all),
        // and these measure what drawing the content costs.
        renderer.renderer.frameCacheEnabled = false
        _ = try renderer.render(scene, at: 0)   // pipelines built, textures resident
    }

    func frame() throws -> SceneRenderer.Frame {
        time += 1.0 / 60
        return try renderer.render(scene, at: time)
    }

    static func canvas(_ sublayers: [String], duration: Double = 100) -> String {
        """
        {"caprof": 1, "canvas": {"width": 390, "height": 844, "scale": 3, "backgroundColor": "#FFFFFF"},
         "timeline": {"duration": \(duration), "fps": 60},
         "root": {"frame": [0, 0, 390, 844], "sublayers": [\(sublayers.joined(separator: ",\n"))]}}
        """
    }

    /// 200 rounded rectangles (60×40 pt, radius 10), 10 columns × 20 rows, each rotated by a few
    /// degrees, colour alpha 0.6.
    static func roundedRects(shape: Bool, animating: Bool = false) -> String {
        canvas((0..<200).map { i in
            let x = 8 + Double(i % 10) * 38, y = 10 + Double(i / 10) * 41
            let angle = Double(i % 7 - 3) * 4
            let colour = "[\(Double(i % 5) / 5), 0.4, \(1 - Double(i % 3) / 3), 0.6]"
            if !shape {
                return ##"{"frame": [\##(x), \##(y), 60, 40], "transform": "rotate(\##(angle)deg)", "backgroundColor": \##(colour), "cornerRadius": 10}"##
            }
            let anim = animating
                ? ##", "animations": [{"class": "CABasicAnimation", "keyPath": "path", "fromValue": {"roundedRect": [0, 0, 60, 40], "cornerRadius": 10}, "toValue": {"roundedRect": [0, 0, 60, 40], "cornerRadius": 20}, "duration": 1, "autoreverses": true, "repeatCount": "infinity"}]"##
                : ""
            return ##"{"class": "CAShapeLayer", "frame": [\##(x), \##(y), 60, 40], "transform": "rotate(\##(angle)deg)", "path": {"roundedRect": [0, 0, 60, 40], "cornerRadius": 10}, "fillColor": \##(colour)\##(anim)}"##
        })
    }

    static var drawOnScene: String {
        canvas([##"{"class": "CAShapeLayer", "frame": [45, 272, 300, 300], "path": {"ellipseIn": [10, 10, 280, 280]}, "fillColor": null, "strokeColor": "#30D158", "lineWidth": 16, "lineCap": "round", "animations": [{"class": "CABasicAnimation", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 100}]}"##])
    }

    /// 100 × 100 = 10,000 instances: a replicator of 100 rows, each a replicator of 100 dots.
    static var replicatorScene: String {
        canvas([##"{"class": "CAReplicatorLayer", "frame": [5, 10, 380, 800], "instanceCount": 100, "instanceTransform": "translate(0, 8)", "sublayers": [{"class": "CAReplicatorLayer", "frame": [0, 0, 380, 8], "instanceCount": 100, "instanceTransform": "translate(3.8, 0)", "instanceColor": "#0A84FF", "instanceRedOffset": 0.005, "sublayers": [{"frame": [0, 0, 3, 6], "backgroundColor": "white"}]}]}"##])
    }

    /// One cell, birthRate 5000 × lifetime 1 s: 5,000 particles alive from 1 s on (the fixture's
    /// frames run from 1/60 s: the first second fills up, as an app's would).
    static var emitterScene: String {
        let spark = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Examples/assets/spark.png").standardized.path
        return canvas([##"{"class": "CAEmitterLayer", "frame": [0, 0, 390, 844], "emitterPosition": [195, 422], "emitterCells": [{"contents": "\##(spark)", "birthRate": 5000, "lifetime": 1, "velocity": 150, "velocityRange": 60, "emissionRange": 6.283185307179586, "spin": 2, "spinRange": 4, "scale": 1.5, "color": [1, 0.6, 0.2, 1], "alphaSpeed": -0.8}]}"##])
    }

    /// 40 labels of different strings, 2 columns × 20 rows, 15 pt.
    static var labelsScene: String {
        canvas((0..<40).map { i in
            let x = 10 + Double(i % 2) * 190, y = 20 + Double(i / 2) * 40
            return ##"{"class": "CATextLayer", "frame": [\##(x), \##(y), 180, 30], "string": "Setting number \##(i + 1): on", "font": ".AppleSystemUIFont", "fontSize": 15, "foregroundColor": "black"}"##
        })
    }

    /// A 300×300 pt star (a CAShapeLayer) casting a shadow of radius 8 pt (σ = 24 px at 3×): with
    /// the star as its shadowPath (filled and blurred on the CPU once, then one textured item a
    /// frame), without (content offscreen and three blur passes every frame), and with the
    /// shadowPath morphing (filled and blurred on the CPU every frame).
    static func star(_ r: Double) -> String {
        let points = (0..<10).map { i -> String in
            let a = Double(i) * Double.pi / 5 - Double.pi / 2, rr = i % 2 == 0 ? r : r * 0.45
            return "\(150 + rr * cos(a)) \(150 + rr * sin(a))"
        }
        return "M " + points.joined(separator: " L ") + " Z"
    }
    static func starScene(shadowPath: Bool, morphing: Bool = false) -> String {
        let path = star(150)
        let shadow = shadowPath ? ##", "shadowPath": "\##(path)""## : ""
        let anim = morphing
            ? ##", "animations": [{"class": "CABasicAnimation", "keyPath": "shadowPath", "fromValue": "\##(path)", "toValue": "\##(star(130))", "duration": 1, "autoreverses": true, "repeatCount": "infinity"}]"##
            : ""
        return canvas([##"{"class": "CAShapeLayer", "frame": [45, 272, 300, 300], "path": "\##(path)", "fillColor": "#FFCC00", "shadowOpacity": 0.5, "shadowRadius": 8, "shadowOffset": [0, 6]\##(shadow)\##(anim)}"##])
    }

    static let starShadowPath = Result { try ContentFixture(json: starScene(shadowPath: true)) }
    static let starPathless = Result { try ContentFixture(json: starScene(shadowPath: false)) }
    static let starShadowPathMorphing = Result { try ContentFixture(json: starScene(shadowPath: true, morphing: true)) }
    static let layers = Result { try ContentFixture(json: roundedRects(shape: false)) }
    static let shapes = Result { try ContentFixture(json: roundedRects(shape: true)) }
    static let morphing = Result { try ContentFixture(json: roundedRects(shape: true, animating: true)) }
    static let drawOn = Result { try ContentFixture(json: drawOnScene) }
    static let replicated = Result { try ContentFixture(json: replicatorScene) }
    static let labels = Result { try ContentFixture(json: labelsScene) }
    static let emitter = Result { try ContentFixture(json: emitterScene) }
}
