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
        for (id, list) in attachments where id >= 0 && id < count { lists[id] = list }
        func visit(_ l: Layer) -> Bool {
            var any = l.id >= 0 && l.id < count && !lists[l.id].isEmpty
            if let m = l.mask, visit(m) { any = true }
            for s in l.sublayers where visit(s) { any = true }
            if any && l.id >= 0 && l.id < count { flags[l.id] = true }
            return any
        }
        _ = visit(root)
        animated = flags
        stacks = lists
    }

    @inline(__always) private func isAnimated(_ id: LayerID) -> Bool {
        id >= 0 && id < animated.count && animated[id]
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
        var i = 0
        while i < layer.sublayers.count {
            if let states = present(&layer.sublayers[i], parentTime: t) {
                layer.sublayers.replaceSubrange(i...i, with: states)
                i += states.count
            } else {
                i += 1
            }
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
}
