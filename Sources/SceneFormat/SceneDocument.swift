import LayerModel
import Animation

/// Everything a scene file holds: the model tree on its canvas, the animations added to its layers
/// at time 0, the transactions of its timeline, and what was read but has no effect.
public struct SceneDocument: Sendable {
    /// `sourceFile` set, ids assigned (`Scene.assignIDs`).
    public var scene: Scene
    /// Per layer, in the order of the file (the order of `add(_:forKey:)` calls).
    public var animations: [LayerID: [AnimationSpec]]
    /// Sorted by time (file order for equal times).
    public var transactions: [TransactionSpec]
    public var warnings: [Unsupported]
    /// The scene's own golden-frame settings (`"snapshots"`), read by `caprof snapshot`.
    public var snapshots: SnapshotSettings?
    /// Named points and segments of the timeline, in the file's order (a Lottie animation's
    /// `markers`; empty for other sources).
    public var markers: [TimelineMarker] = []

    public init(scene: Scene, animations: [LayerID: [AnimationSpec]] = [:], transactions: [TransactionSpec] = [],
                warnings: [Unsupported] = []) {
        self.scene = scene; self.animations = animations; self.transactions = transactions; self.warnings = warnings
    }
}

/// A scene file's `"snapshots"`: the times `caprof snapshot` checks and the share of pixels that
/// must pass. Not part of the layer tree: nothing drawn or profiled depends on it.
public struct SnapshotSettings: Sendable, Equatable {
    /// Scene times in seconds, in the file's order; nil = the command's default times.
    public var times: [Double]?
    /// In (0, 1]; nil = the command's `--precision`.
    public var precision: Double?
    public init(times: [Double]? = nil, precision: Double? = nil) { self.times = times; self.precision = precision }
}
