import SystemSupport
import LayerModel
import Animation

/// State shared while one scene file is decoded: where it is (for messages and relative image
/// paths), the canvas scale (for defaults), counters for `SceneLimits`, and collected warnings.
final class DecodingContext {
    let file: String
    let baseDirectory: String
    let limits: DecodingLimits
    var canvasScale: Double = 1
    /// Whether the scene has a layer whose expansion only the whole tree shows (a replicator, an
    /// emitter or a text layer), for `SceneLimitCheck`.
    var expands = false
    var layerCount = 0
    var pathElementCount = 0
    var animationCount = 0
    var warnings: [Unsupported] = []
    /// Animations of decoded layers, keyed by the provisional id the layer decoder gave the layer.
    var pendingAnimations: [Int: [AnimationSpec]] = [:]
    var nextProvisionalID = 0
    /// Named layers as they were read (preorder, a mask before the sublayers): the transaction
    /// decoder registers the scene's tree from this list rather than walking it again (reading each
    /// layer's name back out of its cold box missed the cache: ≈ 1/20 of decoding 10,000 layers).
    var namedLayers: [(name: String, layer: TransactionDecoder.NamedLayer)] = []
    /// Image paths as written → their checked absolute path: a file shown by many layers is
    /// resolved and checked once (a file system call each; most of decoding a scene of many
    /// image layers).
    var checkedImagePaths: [String: String] = [:]
    /// Equal data URIs share one array (see `ImageInterner`).
    var images = ImageInterner()
    /// Mistakes in the layer tree read past so far (see `readOn(after:)`).
    private(set) var mistakes: [SceneError] = []
    /// Set once the collected mistakes were thrown: an enclosing layer rethrows them as they are.
    private var stopped = false

    /// Reads on past a mistake in one key, layer or animation of the layer tree, when the rest of
    /// the file can still be read without it: kept, and thrown with the others at the end of the
    /// tree (`throwMistakes`). A limit, an unreadable file or the `maxReported`-th mistake stops
    /// decoding at once, with every mistake found so far.
    func readOn(after error: Error) throws {
        guard !stopped, let e = error as? SceneError else { throw error }
        mistakes.append(e)
        let recoverable: Set<SceneError.Kind> = [.unknownKey, .wrongType, .outOfRange, .invalidValue, .missingKey, .missingFile]
        if !recoverable.contains(e.kind) || mistakes.count >= SceneError.maxReported {
            try throwMistakes(stoppedEarly: recoverable.contains(e.kind))
        }
    }

    /// Throws the mistakes read past, the first carrying the others (nothing when there are none).
    func throwMistakes(stoppedEarly: Bool = false) throws {
        guard var first = mistakes.first else { return }
        first.more = Array(mistakes.dropFirst())
        first.moreNotReported = stoppedEarly
        stopped = true
        throw first
    }

    init(file: String, baseDirectory: String, limits: DecodingLimits = .standard) {
        self.file = file; self.baseDirectory = baseDirectory; self.limits = limits
    }

    /// The pointer is spelled only if it is read (a message shows it): every layer and image keeps
    /// its location, and spelling them all was ≈ 1/6 of decoding a 10,000-layer scene.
    func location(_ v: JSONValue) -> SourceLocation {
        SourceLocation(file: file, pointer: v.pointerSpeller, line: v.line, column: v.column)
    }
    /// Where a member's key is written (unknown-key errors point at the key, not the value).
    func keyLocation(_ m: JSONMember) -> SourceLocation {
        SourceLocation(file: file, pointer: m.value.pointerSpeller, line: m.keyLine, column: m.keyColumn)
    }

    func error(_ kind: SceneError.Kind, _ v: JSONValue, _ message: String,
               expected: String? = nil, suggestion: String? = nil) -> SceneError {
        SceneError(kind, at: location(v), message, expected: expected, suggestion: suggestion)
    }

    /// "expected a point [x, y], found a string".
    func typeMismatch(_ v: JSONValue, expected: String) -> SceneError {
        SceneError(.wrongType, at: location(v), "expected \(expected), found \(v.typeDescription)", expected: expected)
    }

    func limit(_ v: JSONValue, _ message: String) -> SceneError {
        SceneError(.limitExceeded, at: location(v), message)
    }
}
