import Animation
import Benchmark
import Foundation
import Pipeline
import SceneFormat

/// Profiling overhead, per example scene, over 2 s at 60 fps (120 frames):
/// - `render`: evaluate + plan + draw every frame on Vulkan (what `caprof render --frames` does
///   before encoding), the baseline;
/// - `profile`: the same frames through the profiler (evaluate + plan + analyse + draw), so
///   profile ÷ render − 1 is the profiling overhead (target ≤ 20 %);
/// - `profile --no-gpu`: plan and analyse only.
/// One iteration is the whole 2 s; textures stay resident across iterations, as in a long run.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock], warmupIterations: 1,
                                           maxDuration: .seconds(30), maxIterations: 5)
    let frames = PresentationTimeline.frameTimes(from: 0, to: 2, fps: 60)

    for name in ExampleScenes.names {
        Benchmark("\(name): render 2 s at 60 fps") { benchmark in
            let scene = AnimatedScene(try SceneDecoder.load(path: ExampleScenes.path(name)))
            let renderer = try SceneRenderer()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                for f in frames { blackHole(try renderer.render(scene, at: f.time)) }
            }
        }
        Benchmark("\(name): profile 2 s at 60 fps") { benchmark in
            let scene = AnimatedScene(try SceneDecoder.load(path: ExampleScenes.path(name)))
            let runner = ProfileRunner(scene: scene, renderer: try SceneRenderer())
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try runner.run(frames: frames, fps: 60, file: name, toolVersion: "bench"))
            }
        }
        Benchmark("\(name): profile --no-gpu 2 s at 60 fps") { benchmark in
            let scene = AnimatedScene(try SceneDecoder.load(path: ExampleScenes.path(name)))
            let runner = ProfileRunner(scene: scene, renderer: nil)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try runner.run(frames: frames, fps: 60, file: name, toolVersion: "bench"))
            }
        }
    }
}

enum ExampleScenes {
    static let names = ["cards", "flip3d", "gravity", "motion"]
    static func path(_ name: String) -> String {
        // Benchmarks/Benchmarks/ProfileBenchmarks/this file → repository root/Examples
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("Examples/\(name).json").path
    }
}
