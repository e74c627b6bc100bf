import LayerModel

/// Scene time → presentation tree (reference §4.1–4.2): the model tree as the scene's transactions
/// have changed it by time t, with every animation that contributes at t applied in the order it
/// was added. Pure and deterministic: time is a parameter, never the wall clock.
///
/// Built once per scene: the file's state at time 0, then one `ModelEpoch` per transaction, each
/// with its implicit animations resolved (`TransactionReplay`). `presentation(at:)` then only
/// looks up the epoch and walks the animated part of its tree.
public struct PresentationTimeline: Sendable {
    public let scene: Scene
    let epochs: [ModelEpoch]
    /// What the evaluator read but does not apply, with source locations.
    public let warnings: [Unsupported]
    /// When the last finite animation or transaction ends (scene seconds); nil when something
    /// runs forever; 0 when nothing animates.
    public let naturalDuration: Double?

    public init(scene: Scene, animations: [LayerID: [AnimationSpec]] = [:], transactions: [TransactionSpec] = []) {
        self.scene = scene
        var replay = TransactionReplay(scene: scene, animations: animations)
        for tx in transactions.sorted(by: { $0.time < $1.time }) { replay.commit(tx) }
        epochs = replay.epochs
        warnings = replay.warnings
        naturalDuration = replay.naturalDuration(transactions: transactions)
    }

    /// The presentation tree at scene time `time` (seconds). Layer ids are the scene's; layers
    /// inserted by transactions get ids after the scene's largest, in transaction order; the
    /// previous state shown during a CATransition has negative ids (−(id + 1)).
    public func presentation(at time: Double) -> Layer {
        epoch(at: time).present(at: time)
    }

    /// The layers an animation animates at `time`, and those it moves (`ModelEpoch.animatedLayers`):
    /// what the profiler calls mid-animation.
    public func animatedLayers(at time: Double) -> (animating: Set<LayerID>, moving: Set<LayerID>) {
        epoch(at: time).animatedLayers(at: time)
    }

    /// The model tree at `time` (the transactions' changes, no animations).
    public func model(at time: Double) -> Layer { epoch(at: time).root }

    /// The epoch in force at `time`: a transaction at exactly `time` has been committed.
    func epoch(at time: Double) -> ModelEpoch {
        var lo = 0, hi = epochs.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if epochs[mid].time <= time { lo = mid } else { hi = mid - 1 }
        }
        return epochs[lo]
    }

    /// The span of scene time a whole-timeline run samples (scene-format.md `timeline.duration`):
    /// the scene's duration, else `naturalDuration` capped at 10 s (10 s when something is infinite).
    public var duration: Double {
        if let d = scene.timeline.duration { return d }
        return min(naturalDuration ?? PresentationTimeline.durationCap, PresentationTimeline.durationCap)
    }
    public static let durationCap = 10.0

    /// The frame times of [start, end) at `fps`: t_i = i / fps for every frame index i with
    /// start ≤ t_i < end (at least the frame at `start` when the span is empty, so a static scene
    /// gives one frame). Frame i of a sequence is always at i / fps, whatever the range.
    public static func frameTimes(from start: Double, to end: Double, fps: Double) -> [(index: Int, time: Double)] {
        let first = max(Int((start * fps - 1e-9).rounded(.up)), 0)
        var out: [(Int, Double)] = []
        var i = first
        while Double(i) / fps < end - 1e-9 { out.append((i, Double(i) / fps)); i += 1 }
        if out.isEmpty { out.append((first, Double(first) / fps)) }
        return out
    }
}
