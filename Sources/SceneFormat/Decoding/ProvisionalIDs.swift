import Animation
import LayerModel

/// Layers get provisional ids while a scene is read (animations wait under them); once the tree
/// is whole, `Scene.assignIDs` numbers it in preorder (a mask right after its owner). Shared by the
/// scene-file decoder and the asset importers.
public enum ProvisionalIDs {
    /// Renumbers `root` into `Scene.assignIDs` order and returns the animations pending under the
    /// provisional ids, keyed by the final ones.
    public static func renumber(_ root: inout Layer, pending: [Int: [AnimationSpec]]) -> [LayerID: [AnimationSpec]] {
        // Most scenes have no animations: then the old ids are not needed.
        var provisional: [Int] = []
        if !pending.isEmpty { root.forEach { provisional.append($0.id) } }
        // The tree is moved into the scene and back, not copied: numbering a copy made every
        // sublayer array copy-on-write (a copy of the whole tree, ≈ 1/30 of decoding 10,000 layers).
        var scene = Scene(canvas: Canvas(width: 1, height: 1), root: Layer())
        swap(&scene.root, &root)
        scene.assignIDs()
        swap(&scene.root, &root)
        var result: [LayerID: [AnimationSpec]] = [:]
        for (final, old) in provisional.enumerated() {
            if let specs = pending[old], !specs.isEmpty { result[final] = specs }
        }
        return result
    }
}
