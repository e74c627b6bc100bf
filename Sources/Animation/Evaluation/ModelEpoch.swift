import Dispatch
import Geometry
import LayerModel

/// The model tree and the animations attached to its layers, valid from `time` until the next
/// transaction. A scene's timeline is a sorted list of these: the file's state from time 0, then
/// one per transaction (transactions change the model only at their time).
struct ModelEpoch: Sendable {
    var time: Double
    var root: Layer
    /// Per layer, in the order added (the order animations apply, reference §4.2).
    var attachments: [LayerID: [AttachedAnimation]] = [:]
    /// Indexed by layer id (ids are dense, from 0): whether the layer's subtree (itself included)
    /// carries an animation. The walk copies and evaluates only these; everything else is the
    /// model layer itself (shared, not copied). Arrays, not sets: two lookups per layer per frame.
    private var animated: [Bool] = []
    /// Indexed by layer id: `attachments` frozen for the walk.
    private var stacks: [[AttachedAnimation]] = []
    /// Indexed by layer id: animations in the layer's subtree (it included), to split the walk.
    private var weights: [Int] = []
    /// Subtrees with at least this many animations are walked on two threads (the walk is pure:
    /// each thread evaluates its own sublayers, in place, and the results join in order).
    static let concurrentWalkThreshold = 2048

    init(time: Double, root: Layer) { self.time = time; self.root = root }

    /// Adds an animation as `add(_:forKey:)` does: an existing animation with the same key is
    /// removed first, and the new one applies after every other (§3.4; position §10.19: ours).
    mutating func attach(_ a: AttachedAnimation, to id: LayerID) {
        var list = attachments[id] ?? []
        if let k = a.key { list.removeAll { $0.key == k } }
        list.append(a)
        attachments[id] = list
    }

    mutating func removeAnimation(key: String, from id: LayerID) {
        attachments[id]?.removeAll { $0.key == key }
    }

    /// Recomputes the walk's tables after the tree or the attachments changed.
    mutating func reindex() {
        let count = max(root.maxID, attachments.keys.max() ?? 0) + 1
        var flags = [Bool](repeating: false, count: count)
        var lists = [[AttachedAnimation]](repeating: [], count: count)
        var sums = [Int](repeating: 0, count: count)
        for (id, list) in attachments where id >= 0 && id < count { lists[id] = list }
        // A replicator is walked even without animations: its instances are expanded in the
        // presentation tree (`ReplicatorExpansion`).
        func visit(_ l: Layer) -> (animations: Int, replicates: Bool) {
            let valid = l.id >= 0 && l.id < count
            var n = valid ? lists[l.id].count : 0
            var rep = l.layerClass == .replicator || l.layerClass == .emitter   // emitters: particles at t
            if let m = l.mask { let v = visit(m); n += v.animations; rep = rep || v.replicates }
            for s in l.sublayers { let v = visit(s); n += v.animations; rep = rep || v.replicates }
            if valid { flags[l.id] = n > 0 || rep; sums[l.id] = n }
            return (n, rep)
        }
        _ = visit(root)
        animated = flags
        stacks = lists
        weights = sums
    }

    @inline(__always) private func isAnimated(_ id: LayerID) -> Bool {
        id >= 0 && id < animated.count && animated[id]
    }

    /// The layers animated at `sceneTime`: those with an animation of their own inside its active
    /// interval (a finished animation that fills forwards holds still, and so does a layer frozen
    /// by speed 0), with every layer under them. `moving` keeps those whose animation changes
    /// geometry (`AttachedAnimation.movesGeometry`: position, bounds, transforms, contentsRect …),
    /// which is what can move a layer on and off the pixel grid; an opacity or colour animation
    /// animates a layer without moving it.
    /// One walk, computing each layer's local time on the way down, and none below a layer whose
    /// subtree carries no animation (`weights`) unless an ancestor is animated (then the whole
    /// subtree is): a large static tree with a few animated layers costs a walk of their paths.
    func animatedLayers(at sceneTime: Double) -> (animating: Set<LayerID>, moving: Set<LayerID>) {
        guard attachments.values.contains(where: { !$0.isEmpty }) else { return ([], []) }
        var animating = Set<LayerID>(), moving = Set<LayerID>()
        func visit(_ l: Layer, _ parentTime: Double, _ frozen: Bool, _ a: Bool, _ m: Bool) {
            let valid = l.id >= 0 && l.id < weights.count
            if !a, !valid || weights[l.id] == 0 { return }   // nothing animated here or below
            let t = MediaTiming.layerLocalTime(parentTime: parentTime, beginTime: l.beginTime,
                                               speed: l.speed, timeOffset: l.timeOffset)
            let frozen = frozen || l.speed == 0
            var a = a, m = m
            if valid, !frozen {
                for x in stacks[l.id] where x.timing.state(parentTime: t).phase == .active {
                    a = true
                    if x.movesGeometry { m = true; break }
                }
            }
            if a { animating.insert(l.id) }
            if m { moving.insert(l.id) }
            if let mask = l.mask { visit(mask, t, frozen, a, m) }
            for s in l.sublayers { visit(s, t, frozen, a, m) }
        }
        visit(root, sceneTime, false, false, false)
        return (animating, moving)
    }

    /// The presentation tree at scene time `sceneTime` (reference §4.2).
    func present(at sceneTime: Double) -> Layer {
        var root = self.root
        guard let states = present(&root, parentTime: sceneTime) else { return root }
        // A transition on the root shows two states: hold them in a container with the
        // canvas's coordinate space (anchor at the origin, no transform).
        var container = Layer()
        container.id = Int.max / 2          // not a scene layer; ids are never this large
        container.anchorPoint = .zero
        container.sublayers = states
        return container
    }

    /// Evaluates `layer` (a copy of the model layer) in place, and its animated descendants.
    /// Unanimated subtrees are not touched, so they stay shared with the model. Returns the
    /// layers that replace it when a CATransition shows its previous state beside it.
    private func present(_ layer: inout Layer, parentTime: Double) -> [Layer]? {
        guard isAnimated(layer.id) else { return nil }
        let t = MediaTiming.layerLocalTime(parentTime: parentTime, beginTime: layer.beginTime,
                                           speed: layer.speed, timeOffset: layer.timeOffset)
        let anims = stacks[layer.id]
        for a in anims { a.apply(to: &layer, layerTime: t) }
        if layer.layerClass == .emitter { layer.particles = EmitterSimulation.particles(layer.emitter, time: t) }
        if layer.layerClass == .replicator {
            expandReplicas(&layer, parentTime: t)
        } else if weights[layer.id] >= Self.concurrentWalkThreshold && layer.sublayers.count >= 2 {
            presentSublayersConcurrently(&layer, parentTime: t)
        } else {
            presentSublayers(&layer, parentTime: t)
        }
        if var m = layer.mask, isAnimated(m.id) {
            let states = present(&m, parentTime: t)
            layer.mask = states?.last ?? m
        }
        for a in anims {
            if case .transition(let spec, let snapshot) = a.kind, let p = a.transitionProgress(at: t) {
                var out: [Layer] = []
                TransitionRendering.apply(spec, progress: p, old: snapshot, new: layer, into: &out)
                return out
            }
        }
        return nil
    }

    /// Replaces a replicator's sublayers by one container per instance (`ReplicatorExpansion`),
    /// instance k's copies evaluated at t − k·instanceDelay (once for all when the delay is 0).
    private func expandReplicas(_ layer: inout Layer, parentTime t: Double) {
        let r = layer.replicator
        let count = ReplicatorExpansion.count(layer)
        let model = layer.sublayers
        var shared: [Layer]?
        var out: [Layer] = []
        out.reserveCapacity(count)
        var power = Transform3D.identity
        for k in 0..<count {
            let copies: [Layer]
            if let s = shared {
                copies = s
            } else {
                var holder = Layer()
                holder.sublayers = model
                presentSublayers(&holder, parentTime: t - Double(k) * r.instanceDelay)
                copies = holder.sublayers
                if r.instanceDelay == 0 { shared = copies }
            }
            out.append(ReplicatorExpansion.container(for: layer, instance: k, power: power, copies: copies))
            power = power * r.instanceTransform
        }
        layer.sublayers = out
    }

    private func presentSublayers(_ layer: inout Layer, parentTime t: Double) {
        var i = 0
        while i < layer.sublayers.count {
            if let states = present(&layer.sublayers[i], parentTime: t) {
                layer.sublayers.replaceSubrange(i...i, with: states)
                i += states.count
            } else {
                i += 1
            }
        }
    }

    /// Splits the sublayers into two runs of about equal animation weight and walks them on two
    /// threads; replacements (CATransition states) are spliced in afterwards, in order.
    private func presentSublayersConcurrently(_ layer: inout Layer, parentTime t: Double) {
        let n = layer.sublayers.count
        var split = 0, acc = 0
        let half = weights[layer.id] / 2
        while split < n - 1 && acc < half {
            let id = layer.sublayers[split].id
            acc += id >= 0 && id < weights.count ? weights[id] : 0
            split += 1
        }
        var replacements = [[Layer]?](repeating: nil, count: n)
        let ranges = [0..<split, split..<n]
        layer.sublayers.withUnsafeMutableBufferPointer { subs in
            replacements.withUnsafeMutableBufferPointer { reps in
                DispatchQueue.concurrentPerform(iterations: 2) { part in
                    for i in ranges[part] { reps[i] = present(&subs[i], parentTime: t) }
                }
            }
        }
        guard replacements.contains(where: { $0 != nil }) else { return }
        var joined: [Layer] = []
        joined.reserveCapacity(n + 1)
        for i in 0..<n {
            if let r = replacements[i] { joined.append(contentsOf: r) } else { joined.append(layer.sublayers[i]) }
        }
        layer.sublayers = joined
    }
}
