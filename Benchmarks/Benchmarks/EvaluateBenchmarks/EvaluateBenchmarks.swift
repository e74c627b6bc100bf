import Animation
import Benchmark
import Geometry
import LayerModel

/// Presentation evaluation: evaluate the presentation tree of an N-layer scene with N running
/// animations (target ≤ 5 ms per frame at N = 10,000 on the 2-core VM), and how it scales from
/// 100 to 100,000 layers. The tree is N leaves in containers of 100 under the root; each leaf has
/// one animation, cycling through the common kinds (a basic position move on easeInEaseOut, a
/// three-value opacity keyframe, a forever-repeating transform.rotation.z, a spring on bounds).
/// Each iteration evaluates a different time, as a frame loop does.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .peakMemoryResident],
                                           warmupIterations: 2, maxDuration: .seconds(10), maxIterations: 200)

    for n in [100, 1_000, 10_000, 100_000] {
        Benchmark("evaluate presentation, \(n) layers, \(n) animations",
                  configuration: .init(maxIterations: n >= 100_000 ? 20 : 200)) { benchmark in
            // ordo-one/benchmark may call this closure once per sample: build the timeline once
            // per process and evaluate one frame first, so samples measure the frame loop of a
            // running animation (warm memory), not the first frame after building.
            let timeline = AnimatedGrid.cached(leaves: n)
            blackHole(timeline.presentation(at: 0.5))
            var frame = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                frame += 1
                blackHole(timeline.presentation(at: Double(frame % 60) / 60))
            }
        }
    }

    Benchmark("build timeline (attach animations), 10000 layers", configuration: .init(maxIterations: 20)) { benchmark in
        let (scene, animations) = AnimatedGrid.scene(leaves: 10_000)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(PresentationTimeline(scene: scene, animations: animations))
        }
    }
}

enum AnimatedGrid {
    nonisolated(unsafe) private static var timelines: [Int: PresentationTimeline] = [:]
    /// Benchmarks run one at a time on one thread: a plain cache is enough.
    static func cached(leaves n: Int) -> PresentationTimeline {
        if let t = timelines[n] { return t }
        let t = timeline(leaves: n)
        timelines[n] = t
        return t
    }

    static func timeline(leaves n: Int) -> PresentationTimeline {
        let (scene, animations) = scene(leaves: n)
        return PresentationTimeline(scene: scene, animations: animations)
    }

    static func scene(leaves n: Int) -> (Scene, [LayerID: [AnimationSpec]]) {
        var root = Layer()
        root.bounds = Rect(0, 0, 390, 844)
        root.position = Point(195, 422)
        var remaining = n
        while remaining > 0 {
            var container = Layer()
            container.bounds = Rect(0, 0, 390, 844)
            container.position = Point(195, 422)
            for i in 0..<min(100, remaining) {
                var leaf = Layer()
                leaf.bounds = Rect(0, 0, 20, 20)
                leaf.position = Point(Double(i % 10) * 39 + 10, Double(i / 10) * 80 + 10)
                leaf.backgroundColor = Color(0.2, 0.5, 0.9)
                container.sublayers.append(leaf)
            }
            remaining -= container.sublayers.count
            root.sublayers.append(container)
        }
        var scene = Scene(canvas: Canvas(width: 390, height: 844, scale: 3), root: root)
        scene.assignIDs()
        var animations: [LayerID: [AnimationSpec]] = [:]
        var k = 0
        scene.root.forEach { layer in
            guard layer.sublayers.isEmpty, layer.id != 0 else { return }
            animations[layer.id] = [spec(kind: k)]
            k += 1
        }
        return (scene, animations)
    }

    private static func spec(kind: Int) -> AnimationSpec {
        let here = SourceLocation(file: "bench", pointer: "", line: 0, column: 0)
        switch kind % 4 {
        case 0:
            var a = AnimationSpec(animationClass: .basic, location: here)
            a.keyPath = KeyPathTable.resolve("position")
            a.fromValue = .point(Point(0, 0)); a.toValue = .point(Point(300, 600))
            a.duration = .seconds(1); a.timingFunction = .named(.easeInEaseOut)
            return a
        case 1:
            var a = AnimationSpec(animationClass: .keyframe, location: here)
            a.keyPath = KeyPathTable.resolve("opacity")
            a.keyframes?.values = [.number(0), .number(1), .number(0.3)]
            a.duration = .seconds(1)
            return a
        case 2:
            var a = AnimationSpec(animationClass: .basic, location: here)
            a.keyPath = KeyPathTable.resolve("transform.rotation.z")
            a.fromValue = .number(0); a.toValue = .number(2 * Double.pi)
            a.duration = .seconds(1); a.repeatCount = .infinity
            return a
        default:
            var a = AnimationSpec(animationClass: .spring, location: here)
            a.keyPath = KeyPathTable.resolve("bounds")
            a.fromValue = .rect(Rect(0, 0, 20, 20)); a.toValue = .rect(Rect(0, 0, 40, 30))
            a.duration = .settlingDuration
            return a
        }
    }
}
