import LayerModel
import Animation
import SceneFormat

/// State shared while one Lottie animation is imported: the file, warnings with their places,
/// provisional layer ids with the animations waiting under them, and the counters the scene
/// format's limits are checked against as the tree grows.
final class LottieContext {
    let file: String
    let limits: DecodingLimits
    /// Frames per second of the root composition (`fr`): every keyframe time is divided by it.
    let frameRate: Double
    var warnings: [(message: String, place: SourceLocation, layer: Int?)] = []
    var pendingAnimations: [Int: [AnimationSpec]] = [:]
    var nextProvisionalID = 0
    var layerCount = 0
    var animationCount = 0
    var keyframeCount = 0
    var images = ImageInterner()
    /// `fonts.list`: a font's name (`fName`, what text documents name) → its family (`fFamily`).
    var fontFamilies: [String: String] = [:]

    init(file: String, frameRate: Double, limits: DecodingLimits) {
        self.file = file; self.frameRate = frameRate; self.limits = limits
    }

    func place(_ v: JSONValue) -> SourceLocation {
        SourceLocation(file: file, pointer: v.pointer, line: v.line, column: v.column)
    }

    func error(_ v: JSONValue, _ message: String, kind: SceneError.Kind = .invalidValue) -> SceneError {
        SceneError(kind, at: place(v), message)
    }

    /// Something the file asks for that the device does not show (or shows otherwise): a warning
    /// at its place, about the layer (provisional id) when there is one. Never silent.
    func warn(_ message: String, at v: JSONValue, layer: Int? = nil) {
        warnings.append((message, place(v), layer))
    }

    /// A new layer: a provisional id, counted against the layer and depth limits.
    func newLayer(at v: JSONValue, depth: Int) throws -> Layer {
        layerCount += 1
        if layerCount > limits.layers { throw error(v, SceneLimits.Message.layers(limits.layers), kind: .limitExceeded) }
        if depth > SceneLimits.maxLayerDepth { throw error(v, SceneLimits.Message.depth, kind: .limitExceeded) }
        var layer = Layer()
        layer.id = nextProvisionalID
        nextProvisionalID += 1
        layer.location = place(v)
        return layer
    }

    func add(_ spec: AnimationSpec, to layer: Layer, at v: JSONValue) throws {
        animationCount += 1
        if animationCount > SceneLimits.maxAnimations { throw error(v, SceneLimits.Message.animations, kind: .limitExceeded) }
        pendingAnimations[layer.id, default: []].append(spec)
    }
}
