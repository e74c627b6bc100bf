import SystemSupport

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
    /// Most layer instances a frame holds once replicators are expanded: each layer counted once
    /// per instance of every replicator above it (nested replicators multiply), at the largest
    /// `instanceCount` the file sets or animates to, summed over the tree. As many as a scene may
    /// have layers: 4,900 × 100 nested instances (490,000) took 5 s and 1.2 GB a frame.
    public static let maxReplicatedLayers = 100_000
    /// Longest text (`string` of a CATextLayer, or a value animating it), in Unicode scalars: a
    /// 30 MB string took Pango about 3 minutes and 2.2 GB to lay out.
    public static let maxTextLength = 100_000
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
    /// Most particles alive at once in a frame (Σ birthRate × lifetime over an emitter layer's
    /// cells, times the layer's birthRate and lifetime, summed over the emitter layers, each
    /// counted once per replicator instance it is in): the emitters' expansion, as
    /// `maxReplicatedLayers` bounds the replicators'.
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

extension SceneLimits {
    /// The words each limit is refused with, the same wherever it is checked (the scene decoder,
    /// the asset importers, `SceneLimitCheck`).
    public enum Message {
        public static func layers(_ limit: Int) -> String { "more than \(limit) layers (raise it with --limit layers=N)" }
        public static let depth = "layer tree deeper than \(SceneLimits.maxLayerDepth) levels"
        public static func instanceCount(_ n: Int) -> String {
            "instanceCount \(n) is over the limit of \(SceneLimits.maxInstanceCount)"
        }
        /// `chain`: the replicators above the layer where the count passed, outermost first, each
        /// with the count it was taken at ("'grid' (line 4) × 4900").
        public static func replicated(chain: [String]) -> String {
            let through = chain.isEmpty ? "" : " (this layer is drawn once per instance of \(chain.joined(separator: " inside "))\(chain.count > 1 ? ": nested replicators multiply" : ""))"
            return "more than \(SceneLimits.maxReplicatedLayers) layer instances once replicators are expanded\(through)"
        }
        public static func particles(_ n: Double, replicated: Bool) -> String {
            // Past 10^15 as a power of ten: Int(n) traps beyond Int.max (a birthRate of 1e300).
            let shown = !n.isFinite ? "an unbounded number of" : n < 1e15 ? String(Int(n.rounded())) : "10^\(Int(log10(n).rounded(.down)))"
            return "about \(shown) particles alive at once (Σ birthRate × lifetime over the cells, times the layer's birthRate and lifetime\(replicated ? ", once per replicator instance" : ""), over every emitter layer) is over the limit of \(SceneLimits.maxEmitterParticles)"
        }
        public static let emitterCells = "more than \(SceneLimits.maxEmitterCells) emitter cells in one CAEmitterLayer, sub-cells included"
        public static let emitterCellDepth = "emitter cells nested deeper than \(SceneLimits.maxEmitterCellDepth) levels"
        public static func keyframes(_ what: String, _ n: Int) -> String {
            "\(what) has \(n) keyframes; the limit is \(SceneLimits.maxKeyframes)"
        }
        public static let animations = "more than \(SceneLimits.maxAnimations) animations"
        public static func pathElements(_ what: String, _ n: Int) -> String {
            "\(what) has \(n) elements; the limit is \(SceneLimits.maxPathElements)"
        }
        public static let totalPathElements = "the scene's paths have more than \(SceneLimits.maxTotalPathElements) elements in all"
        public static func array(_ what: String, _ n: Int) -> String { "\(what) has \(n) entries; the limit is \(SceneLimits.maxArrayElements)" }
        public static func filters(_ key: String, _ n: Int) -> String {
            "\(n) filters in \(key); the limit is \(SceneLimits.maxFiltersPerList)"
        }
        public static func text(_ n: Int) -> String {
            "the text is \(n) characters; the limit is \(SceneLimits.maxTextLength)"
        }
    }
}
