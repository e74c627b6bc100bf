import Benchmark
import Foundation
import Geometry
import LayerModel
import Plan
import Raster
import Render

/// The composite path's shading speed: occlusion culling, coverage levels, batching (the plan's `CanvasExecution`):
/// - the 16 full-screen layers with the top one opaque: everything beneath is culled by the plan,
///   and the top layer is drawn with blending off; interleaved with the minimal Vulkan peer
///   drawing the ordinary 16-layer stack (target ≤ 0.12×);
/// - 200 semi-transparent rotated rounded rectangles (circular corners), 1170×2532: coverage
///   levels and the interior / edge / corner split (target ≤ 0.3× caprof before it);
/// - 10,000 small solid layers at fractional positions, a quarter rounded, a third translucent,
///   every 25th rotated: one instanced draw (target ≤ 10 draw calls, ≤ 0.4× before).
/// Each fixture is planned once and drawn once (pipelines built) before measuring.
func shadingBenchmarks() {
    let drawCalls = BenchmarkMetric.custom("draw calls", polarity: .prefersSmaller, useScalingFactor: false)
    let config = Benchmark.Configuration(metrics: [.wallClock, drawCalls], warmupIterations: 1,
                                         maxDuration: .seconds(20), maxIterations: 12)

    Benchmark("composite 16 full-screen image layers, top layer opaque (culled beneath)", configuration: config) { benchmark in
        let f = try ShadingFixture.opaqueTop.get()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let frame = try f.renderer.render(f.plan, images: f.images)
            benchmark.measurement(drawCalls, frame.stats.drawCalls)
        }
    }

    Benchmark("composite.ratio.caprof-opaque-top-over-peer.identity-16",
              configuration: .init(metrics: [.wallClock] + PairedFrames.metrics, warmupIterations: 1,
                                   maxDuration: .seconds(30), maxIterations: 20)) { benchmark in
        let c = try ShadingFixture.opaqueTop.get()
        let peer = try PeerFixture.shared.get()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            peer.pairs += 1
            let pair = try PairedFrames.measure(caprofFirst: peer.pairs % 2 == 0,
                                                caprof: { blackHole(try c.renderer.render(c.plan, images: c.images)) },
                                                peer: { blackHole(try peer.peer.frame()) })
            pair.record(in: benchmark)
        }
    }

    Benchmark("composite 200 rotated rounded rectangles at 50 %", configuration: config) { benchmark in
        let f = try ShadingFixture.roundedRects.get()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let frame = try f.renderer.render(f.plan, images: f.images)
            benchmark.measurement(drawCalls, frame.stats.drawCalls)
        }
    }

    Benchmark("composite 10,000 small layers at fractional positions", configuration: config) { benchmark in
        let f = try ShadingFixture.smallLayers.get()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let frame = try f.renderer.render(f.plan, images: f.images)
            benchmark.measurement(drawCalls, frame.stats.drawCalls)
        }
    }

    Benchmark("plan 10,000 small layers at fractional positions", configuration: .init(metrics: [.wallClock], maxIterations: 30)) { benchmark in
        let f = try ShadingFixture.smallLayers.get()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(f.planner.plan(root: f.root)) }
    }
}

/// A scene planned and drawn once by a renderer of its own (textures resident, pipelines built).
final class ShadingFixture {
    let renderer: Renderer, planner: FramePlanner, root: Layer, plan: FramePlan, images: [UInt64: Bitmap]

    static let canvas = Canvas(width: 390, height: 844, scale: 3, backgroundColor: .white)
    static let opaqueTop = Result { try ShadingFixture(ShadingScenes.opaqueTop()) }
    static let roundedRects = Result { try ShadingFixture(ShadingScenes.roundedRects(), [:], [:]) }
    static let smallLayers = Result { try ShadingFixture(ShadingScenes.smallLayers(), [:], [:]) }

    private convenience init(_ scene: (Layer, ImageTable, [UInt64: Bitmap])) throws {
        try self.init(scene.0, scene.1, scene.2)
    }

    private init(_ root: Layer, _ table: ImageTable, _ images: [UInt64: Bitmap]) throws {
        var scene = Scene(canvas: Self.canvas, root: root); scene.assignIDs()
        self.root = scene.root
        planner = FramePlanner(canvas: Self.canvas, images: table)
        plan = planner.plan(root: scene.root)
        self.images = images
        renderer = try Renderer()
        _ = try renderer.render(plan, images: images)
    }
}

enum ShadingScenes {
    /// The 16-layer identity stack with its top layer's image made opaque and its opacity 1.
    static func opaqueTop() -> (Layer, ImageTable, [UInt64: Bitmap]) {
        var root = Layer(); root.setFrame(Rect(0, 0, 390, 844))
        var table: ImageTable = [:]
        var bitmaps: [UInt64: Bitmap] = [:]
        for i in 0..<16 {
            var bmp = FullScreenStack.bitmaps[i]
            if i == 15 {
                var px = bmp.pixels
                for p in stride(from: 0, to: px.count, by: 4) { px[p + 3] = 255 }   // colours ≤ alpha stay valid
                bmp = Bitmap(width: bmp.width, height: bmp.height, pixels: px)
            }
            let origin = ImageSource.Origin.file("/synthetic/opaque-top-\(i).png")
            table[origin] = ImageInfo(key: bmp.contentHash, width: bmp.width, height: bmp.height, isOpaque: i == 15)
            bitmaps[bmp.contentHash] = bmp
            var l = Layer(); l.setFrame(Rect(0, 0, 390, 844)); l.opacity = i == 15 ? 1 : 0.8; l.contentsScale = 3
            l.contents = ImageSource(origin: origin, location: SourceLocation(file: "bench", pointer: "", line: 1, column: 1))
            root.sublayers.append(l)
        }
        return (root, table, bitmaps)
    }

    /// 200 rounded rectangles (60–180 × 40–130 pt, radius 8–24, circular), each turned −44.5…44.5°,
    /// colour at alpha 0.5, scattered over the canvas deterministically.
    static func roundedRects() -> Layer {
        var root = Layer(); root.setFrame(Rect(0, 0, 390, 844))
        for i in 0..<200 {
            var l = Layer()
            l.bounds = Rect(0, 0, Double(60 + (i * 13) % 120), Double(40 + (i * 29) % 90))
            l.position = Point(Double((i * 37) % 300 + 45), Double((i * 53) % 760 + 40))
            l.transform = .rotation(Double((i * 17) % 90 - 45) * .pi / 180 + 0.5 * .pi / 180, 0, 0, 1)
            l.backgroundColor = Color(Double((i * 67) % 256) / 255, Double((i * 131) % 256) / 255, Double((i * 29) % 256) / 255, 128.0 / 255)
            l.cornerRadius = Double(8 + (i % 5) * 4)
            root.sublayers.append(l)
        }
        return root
    }

    /// 10,000 solid 24 × 24 pt layers at fractional positions in containers of 100: a quarter with
    /// cornerRadius 6, a third at opacity 0.9, every 25th turned 10°.
    static func smallLayers() -> Layer {
        var root = Layer(); root.setFrame(Rect(0, 0, 390, 844))
        for c in 0..<100 {
            var group = Layer(); group.setFrame(Rect(0, 0, 390, 844))
            for i in c * 100..<c * 100 + 100 {
                var l = Layer()
                l.setFrame(Rect(Double((i * 37) % 366) + 0.3, Double((i * 53) % 820) + 0.6, 24, 24))
                l.backgroundColor = Color(Double((i * 67) % 256) / 255, Double((i * 131) % 256) / 255, Double((i * 29) % 256) / 255)
                if i % 4 == 1 { l.cornerRadius = 6 }
                if i % 3 == 0 { l.opacity = 0.9 }
                if i % 25 == 0 { l.transform = .rotation(10 * .pi / 180, 0, 0, 1) }
                group.sublayers.append(l)
            }
            root.sublayers.append(group)
        }
        return root
    }
}
