/// The limits a scene must stay within (design.md §2 "Limits"). A hostile file is refused with a
/// `limitExceeded` error before it can exhaust memory or time. The canvas limit is
/// `Canvas.maxPixelSide` (16384 device pixels per side).
public enum SceneLimits {
    /// Largest scene file read, checked before reading it.
    public static let maxFileBytes = 64 << 20
    /// Deepest nesting of JSON arrays and objects (a layer level takes two: object and `sublayers`).
    public static let maxJSONDepth = 1024
    /// Most JSON values in one file (bounds the parsed tree's memory to a few hundred MB).
    public static let maxJSONValues = 4_000_000
    /// Most layers in the scene, counting masks and layers inserted by transactions.
    public static let maxLayers = 100_000
    /// Deepest layer tree (the root is depth 1; a mask is one level below its owner).
    public static let maxLayerDepth = 256
    /// Most elements in one path (after arcs become cubics).
    public static let maxPathElements = 100_000
    /// Most path elements in the whole scene.
    public static let maxTotalPathElements = 2_000_000
    /// Most keyframes (`values`, `keyTimes`, … entries) in one keyframe animation.
    public static let maxKeyframes = 10_000
    /// Largest `instanceCount` of one replicator.
    public static let maxInstanceCount = 10_000
    /// Most layer instances once nested replicators are expanded (the product of their counts).
    public static let maxReplicatedLayers = 1_000_000
    /// Longest `data:` URI, in characters (about 12 MiB of PNG).
    public static let maxDataURICharacters = 16 << 20
    /// Most elements in other arrays (gradient `colors`/`locations`, `lineDashPattern`, `timingFunctions`).
    public static let maxArrayElements = 10_000
    /// Most filters in one `filters` or `backgroundFilters` list (each can be a pass of its own).
    public static let maxFiltersPerList = 64
    /// Most animations in the scene (nested group children included).
    public static let maxAnimations = 100_000
    /// Most transactions.
    public static let maxTransactions = 10_000
    /// Most emitter cells in one CAEmitterLayer (`emitterCells`, nested cells included).
    public static let maxEmitterCells = 1_000
    /// Most particles alive at once in one emitter layer (Σ birthRate × lifetime over its cells,
    /// times the layer's birthRate and lifetime): the emitter's expansion, as `maxReplicatedLayers`
    /// bounds the replicator's.
    public static let maxEmitterParticles = 100_000
    /// Deepest nesting of emitter sub-cells (a particle emitting particles emitting …): the
    /// simulation's `EmitterSimulation.maxDepth`.
    public static let maxEmitterCellDepth = 8
    /// Most frames one run evaluates (the scene's own timeline, duration × fps, or a `--frames`
    /// range): the same limit for the decoder and every command.
    public static let maxFrames = 10_000
}

/// The limits a user may legitimately need to raise for a big but honest scene (`--limit NAME=VALUE`
/// in every command); the others in `SceneLimits` are structural and fixed.
public struct DecodingLimits: Sendable, Equatable {
    /// Largest scene file read (`SceneLimits.maxFileBytes`).
    public var fileBytes = SceneLimits.maxFileBytes
    /// Most layers (`SceneLimits.maxLayers`).
    public var layers = SceneLimits.maxLayers
    /// Most emitter cells in one CAEmitterLayer (`emitterCells`, nested cells included).
    public static let maxEmitterCells = 1_000
    /// Most particles alive at once in one emitter layer (Σ birthRate × lifetime over its cells,
    /// times the layer's birthRate and lifetime): the emitter's expansion, as `maxReplicatedLayers`
    /// bounds the replicator's.
    public static let maxEmitterParticles = 100_000
    /// Most frames one run evaluates (`SceneLimits.maxFrames`).
    public var framesPerRun = SceneLimits.maxFrames
    public init() {}
    public static let standard = DecodingLimits()
}
