import LayerModel

/// The observations of one frame, as the aggregation needs them.
public struct FrameObservations: Sendable {
    public var index: Int
    public var observations: [Observation]
    /// Entries for the layers the observations name.
    public var layers: [LayerDirectory.Entry]
    /// Of the layers the observations name, those an animation animates in this frame, and those
    /// it moves (`FrameAnalysis.animatingLayers`, `movingLayers`); nil when unknown (then the
    /// run's first and last frames count as rest). Only observed layers are kept: a run keeps
    /// these for every frame.
    public var animating: Set<LayerID>?
    public var moving: Set<LayerID>?
    public init(index: Int, observations: [Observation], layers: [LayerDirectory.Entry],
                animating: Set<LayerID>? = nil, moving: Set<LayerID>? = nil) {
        self.index = index; self.observations = observations; self.layers = layers
        self.animating = animating; self.moving = moving
    }
    public init(_ a: FrameAnalysis) {
        let observed = Set(a.observations.map(\.layer))
        self.init(index: a.index, observations: a.observations, layers: a.layers,
                  animating: a.animatingLayers.map { $0.intersection(observed) },
                  moving: a.movingLayers.map { $0.intersection(observed) })
    }

    /// Whether an animation moves (for misalignment) or animates (for the rest) `layer` in this
    /// frame. A transition's snapshot (a negative id) exists only while the transition runs.
    func inMotion(_ layer: LayerID, misalignment: Bool) -> Bool {
        layer < 0 || ((misalignment ? moving : animating)?.contains(layer) ?? false)
    }
}

/// Frames → findings: one finding per (id, layer), pure.
public enum FindingAggregator {
    /// - Parameters:
    ///   - frames: per frame, what was raised (any order).
    ///   - canvasPixels: device pixels of the canvas (for the share and the severity).
    ///   - canvasScale: for the explanations and fixes.
    ///   - runFrames: the first and last frame numbers of the run (for at-rest vs mid-animation).
    /// - Returns: findings ordered by severity (high first), then pixels (most first), then id and layer.
    public static func aggregate(_ frames: [FrameObservations], canvasPixels: Int, canvasScale: Double,
                                 runFrames: ClosedRange<Int>) -> [Finding] {
        struct Key: Hashable { var id: FindingID; var layer: LayerID }
        struct Acc { var frames: [Int] = []; var total = 0; var max = -1; var worst = 0; var evidence = Evidence(); var entry: LayerDirectory.Entry?
                     var gpu: UInt64?; var gpuWorst: UInt64?; var cpu: UInt64?; var cpuWorst: UInt64?; var screen: Int?
                     /// raster-cache.miss: how often each reason occurred, and its evidence.
                     var reasons: [String: (count: Int, evidence: Evidence)] = [:] }
        var acc: [Key: Acc] = [:]
        let motionKnown = !frames.isEmpty && frames.allSatisfy { $0.animating != nil && $0.moving != nil }
        var byIndex: [Int: FrameObservations] = [:]
        for f in frames { byIndex[f.index] = f }
        for f in frames.sorted(by: { $0.index < $1.index }) {
            var entries: [LayerID: LayerDirectory.Entry] = [:]
            for e in f.layers { entries[e.id] = e }
            for o in f.observations {
                let k = Key(id: o.id, layer: o.layer)
                var a = acc[k] ?? Acc()
                a.frames.append(f.index)
                a.total += o.pixels
                if let p = o.screenPixels { a.screen = Swift.max(a.screen ?? 0, p) }
                if let g = o.gpuNanoseconds { a.gpu = (a.gpu ?? 0) + g; a.gpuWorst = Swift.max(a.gpuWorst ?? 0, g) }
                if let c = o.cpuNanoseconds { a.cpu = (a.cpu ?? 0) + c; a.cpuWorst = Swift.max(a.cpuWorst ?? 0, c) }
                if let inv = o.evidence.invalidation {
                    let key = inv.kind + "|" + (inv.property ?? "") + "|" + String(inv.layer ?? 0)
                    a.reasons[key] = ((a.reasons[key]?.count ?? 0) + 1, a.reasons[key]?.evidence ?? o.evidence)
                }
                if o.pixels > a.max {
                    a.max = o.pixels; a.worst = f.index; a.evidence = o.evidence
                    a.entry = entries[o.layer] ?? a.entry
                }
                acc[k] = a
            }
        }
        var out: [Finding] = []
        for (k, a) in acc {
            let entry = a.entry ?? LayerDirectory.Entry(id: k.layer, name: nil, indexPath: [], location: nil, backgroundAlpha: 0,
                                                        borderAlpha: 0, contentsScale: canvasScale, shouldRasterize: false,
                                                        rasterizationScale: canvasScale, hasSublayers: false, subtree: [])
            // Offscreen findings: the share of the screen their results cover (their pixels, the
            // texels rendered offscreen, can exceed the canvas).
            let onScreen = a.screen.map { Swift.min($0, canvasPixels) } ?? a.max
            let share = canvasPixels > 0 ? Swift.min(Double(onScreen) / Double(canvasPixels), 1) : 0
            // At rest: seen in a frame where no animation moves the layer. Without that knowledge,
            // the run's first and last frames stand for rest.
            let atRest: Bool
            if motionKnown {
                let misalignment = k.id == .misalignedSubpixel || k.id == .misalignedScaled
                atRest = a.frames.contains { !(byIndex[$0]?.inMotion(k.layer, misalignment: misalignment) ?? false) }
            } else {
                atRest = a.frames.contains(runFrames.lowerBound) || a.frames.contains(runFrames.upperBound)
            }
            let phase: FindingPhase = atRest ? .atRest : .midAnimation
            var evidence = a.evidence
            // A cache that misses every frame is explained by its most frequent reason (the first
            // frame's "first use" is the least interesting one).
            if let common = a.reasons.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) {
                evidence = common.value.evidence
            }
            var advice = FindingAdvice.advise(k.id, evidence, layer: entry, canvasScale: canvasScale)
            var severity = Severity(canvasShare: share)
            if isCapped(k.id, phase) {
                // Misaligned only while it moves: nothing to fix at rest (a layer resting off the
                // grid is the one to fix). After its last frame the finding is gone for the rest
                // of the run: the layer is on the grid from there on, whether or not it still moves.
                severity = .low
                let last = a.frames.max() ?? runFrames.upperBound
                advice = FindingAdvice.whileMoving(k.id, advice, alignedFrom: last < runFrames.upperBound ? last + 1 : nil,
                                                   lastFrame: runFrames.upperBound)
            }
            var finding = Finding(id: k.id, severity: severity, layer: LayerRef(entry),
                                  phase: phase, frames: FrameRun.runs(a.frames),
                                  frameCount: Set(a.frames).count, worstFrame: a.worst, maxPixels: a.max, totalPixels: a.total,
                                  canvasShare: share, explanation: advice.explanation, fix: advice.fix, evidence: evidence)
            finding.gpuNanoseconds = a.gpu
            finding.maxGPUNanoseconds = a.gpuWorst
            finding.cpuNanoseconds = a.cpu
            finding.maxCPUNanoseconds = a.cpuWorst
            out.append(finding)
        }
        return ordered(out)
    }

    /// Findings whose severity is at most low: misalignment seen only mid-animation (a card
    /// sliding in on a spring crosses fractional positions by nature).
    static func isCapped(_ id: FindingID, _ phase: FindingPhase) -> Bool {
        phase == .midAnimation && (id == .misalignedSubpixel || id == .misalignedScaled)
    }

    /// What caprof does not draw first (every other figure is read in its light), then severity
    /// (high first), then pixels (most first), then id and layer.
    public static func ordered(_ out: [Finding]) -> [Finding] {
        out.sorted {
            if ($0.id == .unsupported) != ($1.id == .unsupported) { return $0.id == .unsupported }
            if $0.severity != $1.severity { return $0.severity > $1.severity }
            if $0.maxPixels != $1.maxPixels { return $0.maxPixels > $1.maxPixels }
            if $0.id != $1.id { return $0.id < $1.id }
            return $0.layer.id < $1.layer.id
        }
    }
}
