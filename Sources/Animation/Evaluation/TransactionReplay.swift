import LayerModel

/// Replays a scene's timeline into model epochs: the file's layers and animations at time 0, then
/// each transaction as Core Animation would commit it (scene-format.md "Transactions", reference §7).
///
/// Within one transaction the parts apply in the order the format lists them: `set`, `add`,
/// `remove`, `insert`, `removeLayers` (our choice; Core Animation applies calls in program order).
/// Decisions where Core Animation is silent or differs by platform (docs/decisions.md, "Animation decisions"):
/// - a layer gets implicit animations only if it was on screen before the transaction (layers
///   of the file at time 0 and inserted layers are first committed by their own transaction, §4.1);
/// - inserting and removing layers adds no implicit transition (iOS shows them at once);
/// - setting a property to its current value adds nothing (§7.2).
struct TransactionReplay {
    private(set) var epochs: [ModelEpoch]
    private(set) var warnings: [Unsupported] = []
    private var nextID: LayerID

    init(scene: Scene, animations: [LayerID: [AnimationSpec]]) {
        var e = ModelEpoch(time: -.infinity, root: scene.root)
        nextID = scene.root.maxID + 1
        let paths = scene.root.indexPathsByID
        let times = scene.root.localTimesByID(sceneTime: 0)
        for id in animations.keys.sorted() {
            guard let path = paths[id], let layer = scene.root.layer(at: path[...]) else { continue }
            let c = AttachContext(layerTime: times[id]?.time ?? 0, presentation: layer)
            for spec in animations[id] ?? [] {
                warnings += Self.unapplied(in: spec)
                e.attach(.attach(spec, context: c), to: id)
            }
        }
        e.reindex()
        epochs = [e]
    }

    mutating func commit(_ tx: TransactionSpec) {
        let previous = epochs[epochs.count - 1]
        let before = previous.present(at: tx.time)
        var e = previous
        e.time = tx.time
        let onScreenBefore = tx.time > 0 ? Set(previous.root.subtreeIDs) : []

        func context(_ path: [Int], _ id: LayerID, snapshot: Bool) -> AttachContext {
            let presented = before.indexPath(where: { $0.id == id }).flatMap { before.layer(at: $0[...]) }
            return AttachContext(layerTime: e.root.localTime(at: path, sceneTime: tx.time),
                                 defaultDuration: tx.animationDuration,
                                 timingFunctionOverride: tx.animationTimingFunction,
                                 presentation: presented ?? e.root.layer(at: path[...]) ?? Layer(),
                                 snapshot: snapshot ? presented?.relabelled(TransitionRendering.snapshotID) : nil)
        }

        for change in tx.set {
            guard let path = e.root.indexPath(where: { $0.name == change.layer }),
                  let layer = e.root.layer(at: path[...]) else { continue }
            let prop = change.keyPath.layerProperty
            let old = prop.get(layer)
            e.root.modify(at: path[...]) { $0.setValue(change.value, forKeyPath: change.keyPath) }
            guard let updated = e.root.layer(at: path[...]) else { continue }
            guard prop.get(updated) != old, !tx.disableActions, prop.animatable,
                  onScreenBefore.contains(layer.id) else { continue }
            switch prop.implicitAction {
            case .none:
                continue
            case .basic:
                // The default action: a CABasicAnimation for the property's key, from the
                // presentation value to the (live) model value, with the transaction's duration
                // and timing function, else the `default` curve (§7.2).
                var spec = AnimationSpec(animationClass: .basic, location: change.location)
                spec.key = prop.name
                spec.keyPath = KeyPathTable.resolve(prop.name)
                spec.timingFunction = .named(.default)
                e.attach(.attach(spec, context: context(path, layer.id, snapshot: false)), to: layer.id)
            case .fade:
                // `contents` fades: a CATransition from the previous rendered state (§7.2).
                var spec = AnimationSpec(animationClass: .transition, location: change.location)
                spec.key = "transition"
                spec.timingFunction = .named(.default)
                e.attach(.attach(spec, context: context(path, layer.id, snapshot: true)), to: layer.id)
            }
        }
        for addition in tx.add {
            guard let path = e.root.indexPath(where: { $0.name == addition.layer }),
                  let id = e.root.layer(at: path[...])?.id else { continue }
            let isTransition = addition.animation.animationClass == .transition
            warnings += Self.unapplied(in: addition.animation)
            e.attach(.attach(addition.animation, context: context(path, id, snapshot: isTransition)), to: id)
        }
        for removal in tx.remove {
            guard let path = e.root.indexPath(where: { $0.name == removal.layer }),
                  let id = e.root.layer(at: path[...])?.id else { continue }
            e.removeAnimation(key: removal.key, from: id)
        }
        for insertion in tx.insert {
            guard let parentPath = e.root.indexPath(where: { $0.name == insertion.parent }) else { continue }
            // Ids continue after every id used so far; the insertion's animations are keyed by
            // preorder index within the inserted subtree (0 = the inserted layer).
            let base = nextID
            let layer = insertion.layer.relabelled { base + $0 }
            nextID = base + insertion.layer.subtreeIDs.count
            var index = 0
            e.root.modify(at: parentPath[...]) { parent in
                index = min(max(insertion.index, 0), parent.sublayers.count)
                parent.sublayers.insert(layer, at: index)
            }
            for (local, specs) in insertion.animations.sorted(by: { $0.key < $1.key }) {
                let id = base + local
                guard let path = e.root.indexPath(where: { $0.id == id }),
                      let l = e.root.layer(at: path[...]) else { continue }
                let c = AttachContext(layerTime: e.root.localTime(at: path, sceneTime: tx.time),
                                      defaultDuration: tx.animationDuration,
                                      timingFunctionOverride: tx.animationTimingFunction, presentation: l)
                for spec in specs {
                    warnings += Self.unapplied(in: spec)
                    e.attach(.attach(spec, context: c), to: id)
                }
            }
        }
        for reference in tx.removeLayers {
            guard let path = e.root.indexPath(where: { $0.name == reference.name }), !path.isEmpty,
                  let removed = e.root.layer(at: path[...]) else { continue }
            for id in removed.subtreeIDs { e.attachments[id] = nil }
            let last = path[path.count - 1]
            e.root.modify(at: path.dropLast()) { parent in
                if last == -1 { parent.mask = nil } else { parent.sublayers.remove(at: last) }
            }
        }
        e.reindex()
        epochs.append(e)
    }

    /// What evaluation reads but does not apply in `spec`: a CATransition inside a group (the
    /// previous-state snapshot is taken only for transitions added to a layer directly).
    static func unapplied(in spec: AnimationSpec, inGroup: Bool = false) -> [Unsupported] {
        if inGroup && spec.animationClass == .transition {
            return [Unsupported(feature: "a CATransition inside a CAAnimationGroup is not applied (add it to the layer directly)",
                                location: spec.location)]
        }
        return spec.animations.flatMap { unapplied(in: $0, inGroup: true) }
    }

    /// When the last finite animation or transaction ends, in scene time; nil when an animation
    /// runs forever. Animations in a paused subtree (speed 0 somewhere above) never change and
    /// do not extend the timeline.
    func naturalDuration(transactions: [TransactionSpec]) -> Double? {
        var end = transactions.map(\.time).max() ?? 0
        for e in epochs {
            let paths = e.root.indexPathsByID
            for (id, list) in e.attachments where !list.isEmpty {
                guard let path = paths[id] else { continue }
                let chain = e.root.chain(to: path[...])
                if chain.contains(where: { $0.speed == 0 }) { continue }
                for a in list {
                    guard let local = a.endInLayerTime else { return nil }
                    // Invert each layer's t_local = (t_parent − beginTime)·speed + timeOffset.
                    let scene = chain.reversed().reduce(local) { t, l in (t - l.timeOffset) / l.speed + l.beginTime }
                    end = max(end, scene)
                }
            }
        }
        return end
    }
}
