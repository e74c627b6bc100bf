import SystemSupport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// CAML states and state transitions (LKState / LKStateTransition, the CAStateController model):
/// a state is a list of changes to the base tree, inheriting those of the state it is `basedOn`
/// (applied first; later writes win). `--state S` shows the tree in S. `--transition A:B` shows the
/// tree in B with, for every value that differs between A and B, the animation of the transition
/// element that names it (the most specific transition wins: A→B, then A→*, *→B, *→*), its missing
/// from/to filled with the A and B values, as the state controller fills them. A value with no
/// transition element changes at once.
struct StateMachine {
    let ctx: ImportContext
    let reader: CAMLTreeReader
    let states: [XMLNode]
    let transitions: [XMLNode]

    /// The states by name (the first of a name wins, as a state controller's lookup finds it),
    /// so a `basedOn` chain is followed in linear time.
    let statesByName: [String: XMLNode]
    /// Longest `basedOn` chain followed: real packages base a state on one or two others, and a
    /// chain of 20,000 took 7 s to resolve when each link was looked up by a linear search.
    static let maxChainLength = 256

    init(ctx: ImportContext, reader: CAMLTreeReader, states: [XMLNode], transitions: [XMLNode]) {
        self.ctx = ctx; self.reader = reader; self.states = states; self.transitions = transitions
        var byName: [String: XMLNode] = [:]
        for s in states { if let n = s["name"], byName[n] == nil { byName[n] = s } }
        statesByName = byName
    }

    var stateNames: [String] { states.compactMap { $0["name"] } }

    private func state(named name: String) throws -> XMLNode {
        if let s = statesByName[name] { return s }
        let names = stateNames.isEmpty ? "it has no states" : "its states are " + stateNames.map { "'\($0)'" }.joined(separator: ", ")
        throw SceneError(.invalidValue, at: ctx.place("", line: 0, column: 0), "no state '\(name)' in this file; \(names)",
                         suggestion: Suggestion.nearest(to: name, among: stateNames))
    }

    /// The set-value and element changes of a state, its `basedOn` chain first (cycle-safe; a
    /// chain longer than `maxChainLength` is refused at the state where it passes it).
    func elements(of name: String) throws -> [XMLNode] {
        var chain: [XMLNode] = []
        var seen = Set<String>()
        var current: String? = name
        while let n = current, seen.insert(n).inserted {
            let s = try state(named: n)
            if chain.count == Self.maxChainLength {
                throw SceneError(.limitExceeded, at: reader.nodes.place(s),
                                 "state '\(name)' is based on a chain of more than \(Self.maxChainLength) states (LKState basedOn); the limit is \(Self.maxChainLength)")
            }
            chain.append(s)
            current = s["basedOn"]
        }
        return chain.reversed().flatMap { $0.child("elements")?.children ?? [] }
    }

    mutating func apply(_ selection: StateSelection, to root: inout Layer) throws {
        if let s = selection.state {
            try applyState(s, to: &root)
        } else if let t = selection.transition {
            var from = root
            try applyState(t.from, to: &from)
            try applyState(t.to, to: &root)
            try animateTransition(from: t.from, to: t.to, fromTree: from, toTree: &root)
        }
    }

    private func applyState(_ name: String, to root: inout Layer) throws {
        for e in try elements(of: name) { change(e, in: &root) }
    }

    /// One state element applied to the tree.
    private func change(_ e: XMLNode, in root: inout Layer) {
        let at = reader.nodes.place(e)
        guard let target = e["targetId"], let id = reader.ids[target] else {
            ctx.warn("\(e.name) targets '\(e["targetId"] ?? "")', which is not a layer id in this file; it is ignored", at: at)
            return
        }
        switch e.name {
        case "LKStateSetValue":
            guard let keyPath = e["keyPath"] ?? e["key"], let kp = KeyPathTable.resolve(keyPath) else {
                ctx.warn("LKStateSetValue of '\(e["keyPath"] ?? "")' is not supported; it is ignored", at: at)
                return
            }
            guard let node = e.child("value"), let raw = reader.nodes.value(node, hint: kp.valueType),
                  let v = ValueTyping.typed(raw, as: kp.valueType, nullable: kp.field == nil && kp.layerProperty.nullable) else {
                ctx.warn("LKStateSetValue of '\(keyPath)' has no value of type \(kp.valueType.summary); it is ignored", at: at)
                return
            }
            let ok = LayerTreeEdit.modify(id, in: &root) { layer in
                if let owner = kp.layerProperty.layerClass, owner != layer.layerClass { return false }
                return layer.setValue(v, forKeyPath: kp)
            }
            if !ok { ctx.warn("LKStateSetValue of '\(keyPath)' could not be applied to layer '\(target)'", at: at) }
        case "LKStateAddElement":
            guard (e["keyPath"] ?? "sublayers") == "sublayers", let obj = e.children.first(where: { $0.name != "value" }) else {
                ctx.warn("LKStateAddElement of '\(e["keyPath"] ?? "")' is not supported (only sublayers); it is ignored", at: at)
                return
            }
            do {
                // `<object type="CALayer">` or a class element: the reader takes `type` first.
                let added = try reader.layer(obj, depth: 2)
                let ok = LayerTreeEdit.modify(id, in: &root) { $0.sublayers.append(added); return true }
                if !ok { ctx.warn("LKStateAddElement could not find layer '\(target)'", at: at) }
            } catch {
                ctx.warn("LKStateAddElement: \(error)", at: at)
            }
        case "LKStateRemoveElement":
            guard (e["keyPath"] ?? "sublayers") == "sublayers" else {
                ctx.warn("LKStateRemoveElement of '\(e["keyPath"] ?? "")' is not supported (only sublayers); it is ignored", at: at)
                return
            }
            let objectId = e["objectId"] ?? e.children.first?["id"]
            guard let oid = objectId, let remove = reader.ids[oid] else {
                ctx.warn("LKStateRemoveElement names no known layer; it is ignored", at: at)
                return
            }
            _ = LayerTreeEdit.modify(id, in: &root) { layer in
                layer.sublayers.removeAll { $0.id == remove }
                return true
            }
        case "LKStateRemoveAnimation":
            if let key = e["key"] { ctx.pendingAnimations[id]?.removeAll { $0.key == key } }
        default:
            ctx.warn("state element <\(e.name)> is not supported; it is ignored", at: at)
        }
    }

    /// The transition node for from → to, most specific first.
    private func transition(from: String, to: String) -> XMLNode? {
        for (f, t) in [(from, to), (from, "*"), ("*", to), ("*", "*")] {
            if let n = transitions.first(where: { $0["fromState"] == f && $0["toState"] == t }) { return n }
        }
        return nil
    }

    private mutating func animateTransition(from: String, to: String, fromTree: Layer, toTree: inout Layer) throws {
        guard let tr = transition(from: from, to: to) else {
            ctx.warn("no state transition from '\(from)' to '\(to)' (nor a wildcard one): the values change at once", at: ctx.place(""))
            return
        }
        for e in tr.child("elements")?.children ?? [] where e.name == "LKStateTransitionElement" {
            let at = reader.nodes.place(e)
            guard let target = e["targetId"], let id = reader.ids[target], let key = e["key"] ?? e["keyPath"],
                  let kp = KeyPathTable.resolve(key), let node = e.children.first else {
                ctx.warn("LKStateTransitionElement for '\(e["key"] ?? e["keyPath"] ?? "")' on '\(e["targetId"] ?? "")' is not supported; it is ignored", at: at)
                continue
            }
            guard let before = LayerTreeEdit.find(id, in: fromTree)?.value(forKeyPath: kp),
                  let after = LayerTreeEdit.find(id, in: toTree)?.value(forKeyPath: kp), before != after else { continue }
            let cls = reader.classes[id] ?? .layer
            guard var spec = reader.animation(node, key: key, layerClass: cls, keyPathOverride: key) else { continue }
            if spec.keyPath == nil { spec.keyPath = kp }
            if spec.fromValue == nil && spec.byValue == nil { spec.fromValue = before }
            if spec.toValue == nil && spec.byValue == nil { spec.toValue = after }
            ctx.pendingAnimations[id, default: []].append(spec)
        }
    }
}

/// Finding and editing a layer by its provisional id in a tree (masks included).
enum LayerTreeEdit {
    static func find(_ id: Int, in l: Layer) -> Layer? {
        if l.id == id { return l }
        if let m = l.mask, let f = find(id, in: m) { return f }
        for s in l.sublayers { if let f = find(id, in: s) { return f } }
        return nil
    }

    /// Runs `body` on the layer with `id`; false when there is none or `body` refuses.
    @discardableResult
    static func modify(_ id: Int, in l: inout Layer, _ body: (inout Layer) -> Bool) -> Bool {
        if l.id == id { return body(&l) }
        if var m = l.mask, find(id, in: m) != nil {
            let r = modify(id, in: &m, body); l.mask = m; return r
        }
        for i in l.sublayers.indices where find(id, in: l.sublayers[i]) != nil {
            return modify(id, in: &l.sublayers[i], body)
        }
        return false
    }
}
