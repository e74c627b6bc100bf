import Geometry
import LayerModel
import Animation

/// The scene format's structural limits (`SceneLimits`), checked in one place over a decoded
/// scene, whatever it was read from: a scene file, a `.caar` archive, a `.ca` package or `.caml`
/// file. The importers and the scene decoder also stop early while reading (so a hostile file is
/// refused before it is built), but what they produce always passes through here, so `caprof
/// convert` never writes a scene that `caprof render` refuses, and every format meets the same
/// limits with the same messages and exit code (65, `limitExceeded`).
///
/// Checked: layers and tree depth, `instanceCount`, the layer instances a frame expands to once
/// replicators are expanded (at the largest `instanceCount` the file sets or animates to, nested
/// replicators multiplying, summed over the whole tree), emitter cells and the particles alive at
/// once over the whole frame (each emitter counted once per replicator instance it is in), path
/// elements per path and in all, animations, keyframes per animation, other arrays, filters per
/// list and text length.
public struct SceneLimitCheck {
    let document: SceneDocument
    let limits: DecodingLimits
    var layers = 0
    var instances = 0
    var particles = 0.0
    var pathElements = 0
    var animationCount = 0
    /// The replicators above the layer being checked, outermost first, with the count each is
    /// taken at.
    var replicators: [(layer: Layer, count: Int)] = []
    /// The animations of the tree being walked: the scene's, or an inserted subtree's (keyed by
    /// its own preorder ids).
    var animations: [LayerID: [AnimationSpec]]
    /// `instanceCount` values transactions set or animate to, by layer name.
    var transactionCounts: [String: Double] = [:]
    /// Each named layer's depth and how many times it is drawn, for the subtrees transactions
    /// insert under it.
    var named: [String: (depth: Int, replication: Int)] = [:]
    /// Where the walk stands: the root's pointer, then a sublayer index per level (-1: the mask).
    var base = "/root"
    var scope = Scope.everything
    /// Whether transactions insert layers (only then are named layers' depths kept).
    var inserts = false
    var steps: [Int] = []

    init(document: SceneDocument, limits: DecodingLimits) {
        self.document = document; self.limits = limits; animations = document.animations
        inserts = document.transactions.contains { !$0.insert.isEmpty }
        for t in document.transactions {
            for c in t.set where c.keyPath.keyPath == "instanceCount" {
                if case .number(let n) = c.value, n.isFinite { transactionCounts[c.layer] = max(transactionCounts[c.layer] ?? 0, n) }
            }
            for a in t.add {
                let n = Self.largestAnimated(a.animation, model: 0)
                if n > 0 { transactionCounts[a.layer] = max(transactionCounts[a.layer] ?? 0, n) }
            }
        }
    }

    /// Throws the first limit the document passes, at the layer (or animation) where it does.
    /// What a caller has already checked as it read the file.
    public enum Scope: Sendable {
        /// Every limit (imports: the importers stop early only on layers, depth and animations).
        case everything
        /// What only the whole tree shows: layers and depth, replicated instances, particles,
        /// instance counts, text length and animations' values. The scene decoder checks the rest
        /// (paths, arrays, filters, emitter cells) where it reads them, at their JSON pointers,
        /// and reading them again for every layer cost 0.2 µs a layer (a tenth of decoding).
        case expansion
    }

    /// `rootPointer` names the root where a layer has no line of its own (an archive's layers:
    /// `/rootLayer`). The walk recurses once per level, and stops past `SceneLimits.maxLayerDepth`
    /// before going deeper, as the decoders do.
    public static func check(_ document: SceneDocument, limits: DecodingLimits = .standard, rootPointer: String = "/root",
                             scope: Scope = .everything) throws {
        var c = SceneLimitCheck(document: document, limits: limits)
        c.scope = scope
        c.base = rootPointer
        try c.visit(document.scene.root, depth: 1, replication: 1)
        // Layers transactions insert count as the tree's do, drawn as often as their parent.
        for (t, transaction) in document.transactions.enumerated() {
            for (i, insertion) in transaction.insert.enumerated() {
                let parent = c.named[insertion.parent] ?? (depth: 1, replication: 1)
                c.animations = insertion.animations
                c.base = "/transactions/\(t)/insert/\(i)/layer"
                try c.visit(insertion.layer, depth: parent.depth + 1, replication: parent.replication)
            }
        }
    }

    mutating func visit(_ layer: Layer, depth: Int, replication: Int) throws {
        layers += 1
        if layers > limits.layers { throw failure(layer, SceneLimits.Message.layers(limits.layers)) }
        if depth > SceneLimits.maxLayerDepth { throw failure(layer, SceneLimits.Message.depth) }
        instances += replication
        if instances > SceneLimits.maxReplicatedLayers { throw failure(layer, replicatedMessage()) }
        try checkContent(layer)
        if inserts, let name = layer.name, named[name] == nil { named[name] = (depth, replication) }
        if !animations.isEmpty, let specs = animations[layer.id] { for spec in specs { try checkAnimation(spec, on: layer) } }
        if layer.layerClass == .emitter {
            try checkCells(layer.emitter.emitterCells, layer)
            let n = EmitterSimulation.estimatedParticles(layer.emitter)
            particles += n.isFinite ? n * Double(replication) : .infinity
            if !(particles <= Double(SceneLimits.maxEmitterParticles)) {
                throw failure(layer, SceneLimits.Message.particles(particles, replicated: replication > 1))
            }
        }
        if let mask = layer.mask {
            steps.append(-1)
            try visit(mask, depth: depth + 1, replication: replication)
            steps.removeLast()
        }
        var inner = replication
        if layer.layerClass == .replicator {
            let count = largestInstanceCount(layer)
            replicators.append((layer, count))
            inner = replication * max(count, 1) > SceneLimits.maxReplicatedLayers ? SceneLimits.maxReplicatedLayers + 1 : replication * max(count, 1)
            if count == 0 { inner = 0 }
        }
        // By index: `enumerated()` copied each 336-byte layer (retaining its boxes).
        let subs = layer.sublayers
        for i in subs.indices {
            steps.append(i)
            try visit(subs[i], depth: depth + 1, replication: inner)
            steps.removeLast()
        }
        if layer.layerClass == .replicator { replicators.removeLast() }
    }

    /// The largest `instanceCount` the replicator shows: its own, or any value an animation or a
    /// transaction sets it to (from, to, by added to the model value, keyframes), clamped as the
    /// evaluation clamps it. A cumulative or additive animation of it counts as the limit.
    func largestInstanceCount(_ layer: Layer) -> Int {
        let model = Double(layer.replicator.instanceCount)
        var n = model
        for spec in animations[layer.id] ?? [] { n = max(n, Self.largestAnimated(spec, model: model)) }
        if let name = layer.name, let t = transactionCounts[name] { n = max(n, t) }
        return Int(min(max(n.rounded(.down), 0), Double(SceneLimits.maxInstanceCount)))
    }

    /// The largest `instanceCount` an animation (or its group's children) takes it to; 0 when it
    /// does not animate it.
    static func largestAnimated(_ spec: AnimationSpec, model: Double) -> Double {
        var n = 0.0
        func take(_ v: AnimationValue?) { if case .number(let x)? = v, x.isFinite { n = max(n, x) } }
        if spec.keyPath?.keyPath == "instanceCount" {
            if spec.cumulative || spec.additive { n = Double(SceneLimits.maxInstanceCount) }
            take(spec.fromValue); take(spec.toValue)
            if case .number(let by)? = spec.byValue, by.isFinite { n = max(n, model + by) }
            for v in spec.keyframes?.values ?? [] { take(v) }
        }
        for c in spec.animations { n = max(n, largestAnimated(c, model: model)) }
        return n
    }

    func replicatedMessage() -> String {
        let chain = replicators.map { r in
            let name = r.layer.name.map { "'\($0)'" } ?? "a CAReplicatorLayer"
            let line = r.layer.location.map { $0.line > 0 ? " (line \($0.line))" : "" } ?? ""
            return "\(name)\(line) × \(r.count)"
        }
        return SceneLimits.Message.replicated(chain: chain)
    }

    /// Each class's own content first (read only where the class has it: each read of a subclass
    /// property copies its struct), then what every layer may hold.
    mutating func checkContent(_ layer: Layer) throws {
        switch layer.layerClass {
        case .replicator where layer.replicator.instanceCount > SceneLimits.maxInstanceCount:
            throw failure(layer, SceneLimits.Message.instanceCount(layer.replicator.instanceCount))
        case .text:
            if let s = layer.text.string { try checkText(s, layer) }
        default:
            break
        }
        guard scope == .everything else { return }
        switch layer.layerClass {
        case .shape:
            let shape = layer.shape
            if let p = shape.path { try count(p, layer, "path") }
            if let n = shape.lineDashPattern?.count, n > SceneLimits.maxArrayElements {
                throw failure(layer, SceneLimits.Message.array("lineDashPattern", n))
            }
        case .gradient:
            let g = layer.gradient
            for (key, n) in [("colors", g.colors?.count ?? 0), ("locations", g.locations?.count ?? 0)] where n > SceneLimits.maxArrayElements {
                throw failure(layer, SceneLimits.Message.array(key, n))
            }
        default:
            break
        }
        if let p = layer.shadowPath { try count(p, layer, "shadowPath") }
        if layer.filters.count > SceneLimits.maxFiltersPerList {
            throw failure(layer, SceneLimits.Message.filters("filters", layer.filters.count))
        }
        if layer.backgroundFilters.count > SceneLimits.maxFiltersPerList {
            throw failure(layer, SceneLimits.Message.filters("backgroundFilters", layer.backgroundFilters.count))
        }
    }

    func checkText(_ s: String, _ layer: Layer) throws {
        // Counted in UTF-8 bytes, which a String holds natively (O(1)), then in characters only
        // when that is over: the limit is on characters.
        guard s.utf8.count > SceneLimits.maxTextLength else { return }
        let n = s.unicodeScalars.count
        if n > SceneLimits.maxTextLength { throw failure(layer, SceneLimits.Message.text(n)) }
    }

    mutating func count(_ path: Path, _ layer: Layer, _ key: String) throws {
        if path.elements.count > SceneLimits.maxPathElements {
            throw failure(layer, SceneLimits.Message.pathElements(key, path.elements.count))
        }
        pathElements += path.elements.count
        if pathElements > SceneLimits.maxTotalPathElements { throw failure(layer, SceneLimits.Message.totalPathElements) }
    }

    mutating func checkAnimation(_ spec: AnimationSpec, on layer: Layer) throws {
        animationCount += 1
        let at = spec.location.line > 0 ? spec.location : place(layer)
        func fail(_ message: String) -> SceneError { SceneError(.limitExceeded, at: at, message) }
        if animationCount > SceneLimits.maxAnimations { throw fail(SceneLimits.Message.animations) }
        if let k = spec.keyframes {
            for (what, n) in [("values", k.values?.count ?? 0), ("keyTimes", k.keyTimes?.count ?? 0),
                              ("timingFunctions", k.timingFunctions?.count ?? 0), ("path", k.path?.elements.count ?? 0),
                              ("tensionValues", k.tensionValues?.count ?? 0), ("continuityValues", k.continuityValues?.count ?? 0),
                              ("biasValues", k.biasValues?.count ?? 0)] where n > SceneLimits.maxKeyframes {
                throw fail(SceneLimits.Message.keyframes(what, n))
            }
            if let p = k.path {
                pathElements += p.elements.count
                if pathElements > SceneLimits.maxTotalPathElements { throw fail(SceneLimits.Message.totalPathElements) }
            }
        }
        let values = [spec.fromValue, spec.toValue, spec.byValue] + (spec.keyframes?.values ?? []).map { Optional($0) }
        for case let v? in values {
            switch v {
            case .string(let s) where s.utf8.count > SceneLimits.maxTextLength && s.unicodeScalars.count > SceneLimits.maxTextLength:
                throw fail(SceneLimits.Message.text(s.unicodeScalars.count))
            case .path(let p):
                if p.elements.count > SceneLimits.maxPathElements { throw fail(SceneLimits.Message.pathElements("an animation value", p.elements.count)) }
                pathElements += p.elements.count
                if pathElements > SceneLimits.maxTotalPathElements { throw fail(SceneLimits.Message.totalPathElements) }
            case .numberArray(let a) where a.count > SceneLimits.maxArrayElements:
                throw fail(SceneLimits.Message.array("an animation value", a.count))
            case .colorArray(let a) where a.count > SceneLimits.maxArrayElements:
                throw fail(SceneLimits.Message.array("an animation value", a.count))
            default: break
            }
        }
        for child in spec.animations { try checkAnimation(child, on: layer) }
    }

    func checkCells(_ cells: [EmitterCell], _ layer: Layer) throws {
        var count = 0
        func walk(_ cells: [EmitterCell], depth: Int) throws {
            for cell in cells {
                count += 1
                if count > SceneLimits.maxEmitterCells { throw failure(layer, SceneLimits.Message.emitterCells) }
                if depth > SceneLimits.maxEmitterCellDepth { throw failure(layer, SceneLimits.Message.emitterCellDepth) }
                try walk(cell.emitterCells, depth: depth + 1)
            }
        }
        try walk(cells, depth: 1)
    }

    /// The layer's own place (a scene file's pointer and line, a CAML element's line); for an
    /// archive's layers, which have no line, the file and the layer's index path.
    func place(_ layer: Layer) -> SourceLocation {
        if let l = layer.location { return l }
        return SourceLocation(file: document.scene.sourceFile, pointer: pointer, line: 0, column: 0)
    }

    /// The JSON pointer (or archive path) of the layer being checked, made only when a limit is
    /// passed: building one per layer cost more than the rest of the walk.
    var pointer: String {
        base + steps.map { $0 < 0 ? "/mask" : "/sublayers/\($0)" }.joined()
    }

    func failure(_ layer: Layer, _ message: String) -> SceneError {
        SceneError(.limitExceeded, at: place(layer), message)
    }
}
