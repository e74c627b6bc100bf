import Geometry
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

    /// Path elements read so far, every keyframe of every path, each time it is read: a
    /// precomposition is read again for every layer that shows it, so a large path in one shown by
    /// many layers (through precompositions of precompositions) was read and held once per use
    /// (a 200 KB file took minutes and gigabytes); refused past the scene format's total.
    var pathElementCount = 0

    func counted(_ path: LottieProperty<Path>, at v: JSONValue) throws -> LottieProperty<Path> {
        switch path {
        case .constant(let p): pathElementCount += p.elements.count
        case .animated(let keys): for k in keys { pathElementCount += k.value.elements.count }
        }
        if pathElementCount > SceneLimits.maxTotalPathElements {
            throw error(v, SceneLimits.Message.totalPathElements, kind: .limitExceeded)
        }
        return path
    }

    /// Bytes of text and numbers of gradient stops read so far, counted as paths are: a text or a
    /// gradient in a precomposition is read again (and held again) for every layer that shows it.
    /// Texts come to at most what a scene file of the size limit could hold; stops to the
    /// keyframes' budget.
    var textBytes = 0
    var gradientStopNumbers = 0

    func countText(_ text: String, at v: JSONValue) throws {
        textBytes += text.utf8.count
        if textBytes > limits.fileBytes {
            throw error(v, "the text layers' texts come to more than \(limits.fileBytes) bytes in all, each counted again for every layer that shows its precomposition; the limit is the file size limit (raise it with --limit file-bytes=N)", kind: .limitExceeded)
        }
    }

    func countGradientStops(_ n: Int, at v: JSONValue) throws {
        gradientStopNumbers += n
        if gradientStopNumbers > 4_000_000 {
            throw error(v, "more than 4,000,000 gradient stop numbers in the animation, each counted again for every layer that shows its precomposition", kind: .limitExceeded)
        }
    }

    func add(_ spec: AnimationSpec, to layer: Layer, at v: JSONValue) throws {
        animationCount += 1
        if animationCount > SceneLimits.maxAnimations { throw error(v, SceneLimits.Message.animations, kind: .limitExceeded) }
        pendingAnimations[layer.id, default: []].append(spec)
    }
}
