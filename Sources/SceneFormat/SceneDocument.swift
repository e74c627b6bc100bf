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

    public init(scene: Scene, animations: [LayerID: [AnimationSpec]] = [:], transactions: [TransactionSpec] = [],
                warnings: [Unsupported] = []) {
        self.scene = scene; self.animations = animations; self.transactions = transactions; self.warnings = warnings
    }
}
