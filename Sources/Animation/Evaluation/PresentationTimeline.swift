import LayerModel

/// Scene time → presentation tree (reference §4.1–4.2): the model tree as the scene's transactions
/// have changed it by time t, with every animation that contributes at t applied in the order it
/// was added. Pure and deterministic: time is a parameter, never the wall clock.
///
/// (Evaluation in progress: this first version returns the model tree; the media-timing model,
/// animations and transactions are being wired in.)
public struct PresentationTimeline: Sendable {
    public let scene: Scene
    public let animations: [LayerID: [AnimationSpec]]
    public let transactions: [TransactionSpec]
    /// What the evaluator read but does not apply, with source locations.
    public private(set) var warnings: [Unsupported] = []

    public init(scene: Scene, animations: [LayerID: [AnimationSpec]] = [:], transactions: [TransactionSpec] = []) {
        self.scene = scene; self.animations = animations; self.transactions = transactions
    }

    /// The presentation tree at scene time `time` (seconds). Layer ids are the scene's; layers
    /// inserted by transactions get ids after the scene's largest, in transaction order.
    public func presentation(at time: Double) -> Layer {
        scene.root
    }

    /// When the last finite animation or transaction ends (scene seconds); nil when something
    /// runs forever; 0 when nothing animates.
    public var naturalDuration: Double? { 0 }

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
        let first = Int((start * fps - 1e-9).rounded(.up))
        var out: [(Int, Double)] = []
        var i = max(first, 0)
        while Double(i) / fps < end - 1e-9 { out.append((i, Double(i) / fps)); i += 1 }
        if out.isEmpty { out.append((max(first, 0), Double(max(first, 0)) / fps)) }
        return out
    }
}
