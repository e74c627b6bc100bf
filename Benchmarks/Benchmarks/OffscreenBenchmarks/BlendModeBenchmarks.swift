import Benchmark

/// The compositingFilter measurement, on the iPhone canvas (1170×2532 px): content (a
/// full-screen colour and 20 translucent rounded cards) under a full-screen opaque layer composited
/// with multiplyBlendMode (three `filter` passes: the layer flattened, the content drawn again as
/// the destination, the blend; then the result drawn back), with screenBlendMode (a blend state, no
/// pass), and with normal blending. The ratios are measured interleaved, frame pair by frame pair.
func blendModeBenchmarks() {
    for (name, fixture) in [("blend, full-screen multiplyBlendMode over content", BlendModeFixture.multiply),
                            ("blend, full-screen screenBlendMode over content", BlendModeFixture.screen),
                            ("blend, full-screen normalBlendMode over content", BlendModeFixture.normal)] {
        Benchmark("offscreen.\(name)", configuration: .init(metrics: [.wallClock, GPUTime.metric])) { benchmark in
            let f = try fixture.get()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { GPUTime.record(try f.frame(), in: benchmark) }
        }
    }
    for (name, a, b) in [("blend.multiply-over-normal", BlendModeFixture.multiply, BlendModeFixture.normal),
                         ("blend.screen-over-normal", BlendModeFixture.screen, BlendModeFixture.normal)] {
        Benchmark("offscreen.ratio.\(name)",
                  configuration: .init(metrics: [.wallClock] + Pair.metrics, warmupIterations: 1,
                                       maxDuration: .seconds(30), maxIterations: 16)) { benchmark in
            let x = try a.get(), y = try b.get()
            benchmark.startMeasurement()
            for i in benchmark.scaledIterations {
                var gx: UInt64 = 0, gy: UInt64 = 0
                if i % 2 == 0 { gx = try x.frame(); gy = try y.frame() } else { gy = try y.frame(); gx = try x.frame() }
                Pair.record(gx, gy, in: benchmark)
            }
        }
    }
}

enum BlendModeFixture {
    static func scene(_ mode: String) -> String {
        // Solid colours only: the fixture draws with the scene's decoded images (no gradient ramps).
        var layers = [##"{"frame": [0, 0, 390, 844], "backgroundColor": "#1D4ED8"}"##]
        layers += (0..<20).map { i in
            ##"{"frame": [\##(15 + (i % 2) * 185), \##(20 + (i / 2) * 80), 175, 64], "backgroundColor": [1, \##(Double(i) / 20), 0.5, 0.9], "cornerRadius": 12}"##
        }
        layers.append(##"{"frame": [0, 0, 390, 844], "backgroundColor": [1, 0.8, 0.6, 1], "compositingFilter": "\##(mode)"}"##)
        return OffscreenFixture.canvas(layers)
    }
    static let multiply = Result { try OffscreenFixture(json: scene("multiplyBlendMode")) }
    static let screen = Result { try OffscreenFixture(json: scene("screenBlendMode")) }
    static let normal = Result { try OffscreenFixture(json: scene("normalBlendMode")) }
}
