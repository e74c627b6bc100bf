import AssetImport
import SystemSupport
import Dispatch
import Gate
import Pipeline
import Profile
import SceneFormat

/// Profiles the scenes `caprof gate` was given (or reads their reports) into measurements: plan
/// only unless a gpuMilliseconds rule applies to a scene; as many runs as its timing rules ask
/// for. Scenes without timing rules are profiled two at a time (both cores); timed ones alone.
struct GateMeasure {
    var budget: Budget
    var noGPU: Bool
    var device: String?
    var quiet: Bool
    var err: Terminal
    var limits = ActiveLimits()
    /// `--animation ID`: the animation of each .lottie package measured.
    var animation: String? = nil

    /// What was measured, in input order, and the scenes that could not be (a scene that fails to
    /// load or profile becomes an error entry; the others are still measured).
    struct Outcome {
        var measured: [GateEvaluation.Measured]
        var failures: [(position: Int, scene: String, failure: SceneFailure)]
        var seconds: [String: Double]
    }

    /// A scene's failure as the gate reports it: the message a single run prints, with its place.
    static func failure(_ error: Error) -> SceneFailure {
        var f = SceneFailure(message: GateCommand.describe(error))
        if let e = error as? SceneError { f.line = e.location.line; f.column = e.location.column }
        if let e = error as? SceneImages.Failure { f.line = e.source.location.line; f.column = e.source.location.column }
        return f
    }

    func measure(_ inputs: [GateInputs.Input]) throws -> Outcome {
        // Reports, grouped by scene (several reports of a scene are several runs).
        var order: [String] = []
        var catalogFailures: [String: SceneFailure] = [:]
        var reports: [String: [ProfileReport]] = [:]
        var scenes: [String] = []
        for i in inputs {
            switch i {
            case .scene(let p):
                let k = ScenePattern.normalize(p)
                if reports[k] != nil || scenes.contains(k) { continue }
                order.append(k); scenes.append(p)
            case .failure(let scene, let f):
                let k = ScenePattern.normalize(scene)
                if !order.contains(k) { order.append(k) }
                catalogFailures[k] = f
            case .report(let r, _):
                let k = ScenePattern.normalize(r.scene.file)
                if scenes.contains(where: { ScenePattern.normalize($0) == k }) { continue }
                if reports[k] == nil { order.append(k) }
                reports[k, default: []].append(r)
            }
        }
        var measured: [String: SceneMeasurement] = [:]
        for (k, rs) in reports { measured[k] = SceneMeasurement(reports: rs, timing: budget.measuresTime(for: k)) }

        let untimed = scenes.filter { !budget.measuresTime(for: ScenePattern.normalize($0)) }
        let timed = scenes.filter { budget.measuresTime(for: ScenePattern.normalize($0)) }
        // Untimed scenes: plan only, in parallel (deterministic whatever the order).
        let lock = Lock()
        var failed: [String: SceneFailure] = catalogFailures
        var seconds: [String: Double] = [:]
        DispatchQueue.concurrentPerform(iterations: untimed.count) { n in
            let path = untimed[n], k = ScenePattern.normalize(path)
            let t0 = DispatchTime.now().uptimeNanoseconds
            let r = Result { try Self.profile(path, runs: 1, renderer: nil, timing: false, limits: limits, animation: animation) }
            let s = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            lock.lock()
            switch r {
            case .success(let m): measured[k] = m
            case .failure(let e): failed[k] = Self.failure(e)
            }
            seconds[k] = s
            lock.unlock()
        }
        // Timed scenes: one at a time, drawn on the GPU only when a GPU timing rule applies.
        var renderer: SceneRenderer?
        for path in timed {
            let k = ScenePattern.normalize(path)
            let gpu = budget.needsGPU(for: k) && !noGPU
            if gpu && renderer == nil { renderer = try SceneRenderer(preferredDevice: device) }
            let runs = budget.runs(for: k)
            if !quiet { err.write(err.dim("\(path): \(runs) runs (timing rules)\(gpu ? " on \(renderer!.renderer.deviceName)" : ", plan only")")) }
            let t0 = DispatchTime.now().uptimeNanoseconds
            do {
                measured[k] = try Self.profile(path, runs: runs, renderer: gpu ? renderer : nil, timing: true, limits: limits, animation: animation)
            } catch let e as SceneError {
                failed[k] = Self.failure(e)
            } catch let e as SceneImages.Failure {
                failed[k] = Self.failure(e)
            }
            seconds[k] = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        }
        var out = Outcome(measured: [], failures: [], seconds: seconds)
        for k in order {
            if let m = measured[k] { out.measured.append((scene: k, measurement: m)) }
            else if let f = failed[k] { out.failures.append((position: out.measured.count + out.failures.count, scene: k, failure: f)) }
        }
        return out
    }

    /// `runs` profiles of the scene's whole timeline at its own fps.
    static func profile(_ path: String, runs: Int, renderer: SceneRenderer?, timing: Bool, limits: ActiveLimits,
                        animation: String? = nil) throws -> SceneMeasurement {
        // Scenes are measured on worker threads: give each the stack a maximum-depth tree needs.
        try LargeStack.run { try profileOnThisStack(path, runs: runs, renderer: renderer, timing: timing, limits: limits, animation: animation) }
    }

    private static func profileOnThisStack(_ path: String, runs: Int, renderer: SceneRenderer?, timing: Bool, limits: ActiveLimits,
                                           animation: String?) throws -> SceneMeasurement {
        let animated = try limits.load(path, drawn: renderer != nil, animation: animation)
        let frames = try FrameRange(start: nil, end: nil).frames(fps: animated.fps, duration: animated.duration, limit: limits.decoding.framesPerRun)
        let runner = ProfileRunner(scene: animated, renderer: renderer)
        var reports: [ProfileReport] = []
        for _ in 0..<max(1, runs) {
            reports.append(try runner.run(frames: frames, fps: animated.fps, file: path, toolVersion: Caprof.configuration.version).report)
        }
        return SceneMeasurement(reports: reports, timing: timing)
    }
}
