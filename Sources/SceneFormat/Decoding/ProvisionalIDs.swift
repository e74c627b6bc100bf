import Animation
import LayerModel

/// Layers get provisional ids while a scene is read (animations wait under them); once the tree
/// is whole, `Scene.assignIDs` numbers it in preorder (a mask right after its owner). Shared by the
/// scene-file decoder and the asset importers.
public enum ProvisionalIDs {
    /// Renumbers `root` into `Scene.assignIDs` order and returns the animations pending under the
    /// provisional ids, keyed by the final ones.
    public static func renumber(_ root: inout Layer, pending: [Int: [AnimationSpec]]) -> [LayerID: [AnimationSpec]] {
        var provisional: [Int] = []
        root.forEach { provisional.append($0.id) }
        var scene = Scene(canvas: Canvas(width: 1, height: 1), root: root)
        scene.assignIDs()
        root = scene.root
        var result: [LayerID: [AnimationSpec]] = [:]
        for (final, old) in provisional.enumerated() {
            if let specs = pending[old], !specs.isEmpty { result[final] = specs }
        }
        return result
    }
}
