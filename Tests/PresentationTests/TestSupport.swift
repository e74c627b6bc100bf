import Foundation
import LayerModel
import Animation
import SceneFormat

/// A scene around one layer (JSON text) under a root named "root", with its transactions, decoded
/// (images resolve against Examples/) and turned into its presentation timeline.
func sceneTimeline(_ layer: String, transactions: String = "[]") throws -> PresentationTimeline {
    let json = #"{"caprof": 1, "canvas": {"width": 100, "height": 100}, "root": {"name": "root", "sublayers": ["# + layer + #"]}, "transactions": "# + transactions + "}"
    let examples = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path
    let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "scene.json", baseDirectory: examples)
    return PresentationTimeline(scene: doc.scene, animations: doc.animations, transactions: doc.transactions)
}

/// The first layer named `name` in `root`'s subtree (preorder).
func find(_ name: String, _ root: Layer) -> Layer? {
    var found: Layer?
    root.forEach { if found == nil && $0.name == name { found = $0 } }
    return found
}
