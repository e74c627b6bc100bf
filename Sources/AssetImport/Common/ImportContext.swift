import LayerModel
import Animation
import SceneFormat

/// State shared while one asset is imported: the file, the warnings (each with its place), the
/// layers' provisional ids and their animations, and the counters for `SceneLimits`.
final class ImportContext {
    let file: String
    var warnings: [Unsupported] = []
    var pendingAnimations: [Int: [AnimationSpec]] = [:]
    var nextProvisionalID = 0
    var layerCount = 0
    var animationCount = 0
    /// Equal embedded images share one array (see `ImageInterner`).
    var images = ImageInterner()

    /// The raisable limits (layers) the import stops at as it reads.
    let limits: DecodingLimits

    init(file: String, limits: DecodingLimits = .standard) { self.file = file; self.limits = limits }

    /// A place in an archive: its object path (`/rootLayer/sublayers/1`), no line.
    func place(_ pointer: String) -> SourceLocation {
        SourceLocation(file: file, pointer: pointer, line: 0, column: 0)
    }
    /// A place in an XML file.
    func place(_ pointer: String, line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: file, pointer: pointer, line: line, column: column)
    }

    /// Records something read but not rendered. Archive places have no line: the object path is
    /// put in the text and the warning has no location (reports require line ≥ 1; the CLI prints
    /// `file: warning: /rootLayer/…: …` for them).
    func warn(_ message: String, at place: SourceLocation) {
        if place.line == 0 {
            let text = place.pointer.isEmpty ? message : "\(place.pointer): \(message)"
            warnings.append(Unsupported(feature: text, location: nil))
        } else {
            warnings.append(Unsupported(feature: message, location: place))
        }
    }

    func error(_ message: String, at place: SourceLocation, kind: SceneError.Kind = .invalidValue) -> SceneError {
        SceneError(kind, at: place, message)
    }

    /// Counts one more layer against `SceneLimits.maxLayers`.
    func countLayer(at place: SourceLocation, depth: Int) throws {
        layerCount += 1
        if layerCount > limits.layers {
            throw error(SceneLimits.Message.layers(limits.layers), at: place, kind: .limitExceeded)
        }
        if depth > SceneLimits.maxLayerDepth {
            throw error(SceneLimits.Message.depth, at: place, kind: .limitExceeded)
        }
    }

    func countAnimation(at place: SourceLocation) throws {
        animationCount += 1
        if animationCount > SceneLimits.maxAnimations {
            throw error(SceneLimits.Message.animations, at: place, kind: .limitExceeded)
        }
    }

    /// Gives `layer` a provisional id, unique in this import (final ids come from `Scene.assignIDs`).
    func provisionalID() -> Int {
        defer { nextProvisionalID += 1 }
        return nextProvisionalID
    }

    /// Renumbers provisional ids into `Scene.assignIDs` order and returns the animations under them.
    func takeAnimations(renumbering root: inout Layer) -> [LayerID: [AnimationSpec]] {
        ProvisionalIDs.renumber(&root, pending: pendingAnimations)
    }
}
