import Geometry
import LayerModel
import Animation

/// Decodes `transactions` and checks every layer they name: the name must exist when the
/// transaction runs (in the file's tree or inserted earlier), be unique, and not have been removed.
///
/// Transactions are returned sorted by `time` (stable for equal times). Within one transaction the
/// parts act in this order: `insert`, `set`, `add`, `remove`, `removeLayers` — so a transaction can
/// insert a layer and configure it.
struct TransactionDecoder {
    static let keys = ["time", "animationDuration", "animationTimingFunction", "disableActions",
                       "set", "add", "remove", "insert", "removeLayers"]

    /// A named layer and what transactions need to know about it.
    struct NamedLayer {
        var layerClass: LayerClass
        var location: SourceLocation?
        var depth: Int
        var removedAt: Double?
    }

    let ctx: DecodingContext
    private var registry: [String: [NamedLayer]] = [:]

    /// Registers the names of the scene's tree, as `ctx` has read it (`ctx.namedLayers`).
    init(ctx: DecodingContext) {
        self.ctx = ctx
        for (name, layer) in ctx.namedLayers { registry[name, default: []].append(layer) }
        // Core Animation does not require unique names (and imported files repeat them), so the
        // file's own tree may repeat one; it is said, not silent: reports show those layers under
        // one name, and a transaction cannot refer to them.
        for (name, layers) in registry.sorted(by: { $0.key < $1.key }) where layers.count > 1 {
            ctx.warnings.append(Unsupported(feature: "\(layers.count) layers are named \(Echo.quoted(name)) (at \(Self.places(layers))): reports show them under one name and a transaction cannot refer to them by it",
                                            location: layers[0].location))
        }
    }

    /// "3:5, 9:7, … and 12 more": where layers are written, at most five.
    static func places(_ layers: [NamedLayer]) -> String {
        let shown = layers.prefix(5).compactMap { $0.location.map { "\($0.line):\($0.column)" } }.joined(separator: ", ")
        return layers.count > 5 ? shown + " and \(layers.count - 5) more" : shown
    }

    private mutating func register(_ layer: Layer, depth: Int) {
        if let n = layer.name {
            registry[n, default: []].append(NamedLayer(layerClass: layer.layerClass, location: layer.location, depth: depth))
        }
        if let m = layer.mask { register(m, depth: depth + 1) }
        for s in layer.sublayers { register(s, depth: depth + 1) }
    }

    /// The most memory the model copies of a scene's transactions may take, estimated before any
    /// is made: each transaction keeps a model tree of its own, sharing every layer it does not
    /// change, but copying the sublayers arrays along the path to each layer it changes, plus
    /// the evaluator's per-layer tables (`ModelEpoch`).
    static let maxModelCopyBytes = 1 << 30

    /// Per layer name, the layers copied when a transaction changes that layer: the sublayers
    /// arrays of its ancestors (a mask is its owner's one slot).
    static func copyCosts(_ root: Layer) -> [String: Int] {
        var out: [String: Int] = [:]
        func visit(_ l: Layer, _ cost: Int) {
            if let n = l.name { out[n] = max(out[n] ?? 0, cost) }
            if let m = l.mask { visit(m, cost + 1) }
            for s in l.sublayers { visit(s, cost + l.sublayers.count) }
        }
        visit(root, 1)
        return out
    }

    /// The estimate `maxModelCopyBytes` bounds: per transaction, the costliest path it changes
    /// (paths from one transaction share their copies) and the per-layer tables.
    static func modelCopyBytes(_ transactions: [TransactionSpec], root: Layer) -> Int {
        guard !transactions.isEmpty else { return 0 }
        let costs = copyCosts(root)
        let layers = root.subtreeCount
        let perLayerTables = 17   // ModelEpoch: a Bool, an array header and an Int per layer
        var bytes = 0
        for t in transactions {
            let names = t.set.map(\.layer) + t.add.map(\.layer) + t.remove.map(\.layer) + t.insert.map(\.parent) + t.removeLayers.map(\.name)
            let path = names.map { costs[$0] ?? 1 }.max() ?? 0
            bytes += path * MemoryLayout<Layer>.stride + layers * perLayerTables
            if bytes > Int.max / 4 { break }
        }
        return bytes
    }

    mutating func decode(_ v: JSONValue, root: Layer) throws -> [TransactionSpec] {
        let specs = try decode(v)
        let bytes = Self.modelCopyBytes(specs, root: root)
        if bytes > Self.maxModelCopyBytes {
            func mib(_ b: Int) -> Int { b >> 20 }
            throw ctx.limit(v, "these \(specs.count) transactions would keep about \(mib(bytes)) MiB of model copies (each copies the sublayers arrays along the path to each layer it changes); the limit is \(mib(Self.maxModelCopyBytes)) MiB: put the layers a transaction changes under containers with fewer siblings, or use fewer transactions")
        }
        return specs
    }

    mutating func decode(_ v: JSONValue) throws -> [TransactionSpec] {
        guard let items = v.array else { throw ctx.typeMismatch(v, expected: "an array of transactions") }
        if items.count > SceneLimits.maxTransactions {
            throw ctx.limit(v, "\(items.count) transactions; the limit is \(SceneLimits.maxTransactions)")
        }
        var timed: [(time: Double, reader: ObjectReader)] = []
        for item in items {
            let r = try ObjectReader(item, ctx, owner: "a transaction", expected: "a transaction (an object)")
            try r.rejectUnknownKeys(Self.keys)
            timed.append((try ctx.number(try r.required("time"), domain: .nonNegative, what: "time"), r))
        }
        // Stable: equal times keep file order.
        let order = timed.indices.sorted { (timed[$0].time, $0) < (timed[$1].time, $1) }
        return try order.map { try decodeOne(timed[$0].reader, time: timed[$0].time) }
    }

    private mutating func decodeOne(_ r: ObjectReader, time: Double) throws -> TransactionSpec {
        var t = TransactionSpec(time: time, location: ctx.location(r.object))
        if let v = r["animationDuration"] { t.animationDuration = try ctx.number(v, domain: .nonNegative, what: "animationDuration") }
        if let v = r["animationTimingFunction"] { t.animationTimingFunction = try ctx.timingFunction(v) }
        if let v = r["disableActions"] { t.disableActions = try ctx.bool(v) }

        for item in try entries(r, "insert", ["parent", "index", "layer"], "an insertion {\"parent\", \"index\", \"layer\"}") {
            let parent = try resolve(try item.required("parent"), time: time)
            let index = try ctx.integer(try item.required("index"), domain: .nonNegative, what: "index")
            var layer = try LayerDecoder(ctx: ctx).decode(try item.required("layer"), depth: parent.depth + 1, replication: 1)
            let animations = ctx.takeAnimations(renumbering: &layer)
            try refuseTakenNames(layer, item.object)
            register(layer, depth: parent.depth + 1)
            t.insert.append(LayerInsertion(parent: try ctx.string(item["parent"]!), index: index, layer: layer,
                                           animations: animations, location: ctx.location(item.object)))
        }
        for item in try entries(r, "set", ["layer", "keyPath", "value"], "a change {\"layer\", \"keyPath\", \"value\"}") {
            let target = try resolve(try item.required("layer"), time: time)
            let keyPath = try AnimationDecoder(ctx: ctx, layerClass: target.layerClass)
                .resolveKeyPath(try item.required("keyPath"), forAnimation: false)
            let v = try item.required("value")
            let value: AnimationValue
            if keyPath.field == nil {
                value = try ctx.propertyValue(v, keyPath.layerProperty)
            } else {
                value = try ctx.value(v, as: keyPath.valueType, nullable: false, domain: nil, name: keyPath.keyPath)
            }
            t.set.append(PropertyChange(layer: try ctx.string(item["layer"]!), keyPath: keyPath, value: value,
                                        location: ctx.location(item.object)))
        }
        for item in try entries(r, "add", ["layer", "animation"], "an addition {\"layer\", \"animation\"}") {
            let target = try resolve(try item.required("layer"), time: time)
            let animation = try AnimationDecoder(ctx: ctx, layerClass: target.layerClass).decode(try item.required("animation"))
            t.add.append(AnimationAddition(layer: try ctx.string(item["layer"]!), animation: animation, location: ctx.location(item.object)))
        }
        for item in try entries(r, "remove", ["layer", "key"], "a removal {\"layer\", \"key\"}") {
            _ = try resolve(try item.required("layer"), time: time)
            t.remove.append(AnimationRemoval(layer: try ctx.string(item["layer"]!), key: try ctx.string(try item.required("key")),
                                             location: ctx.location(item.object)))
        }
        if let v = r["removeLayers"] {
            guard let names = v.array else { throw ctx.typeMismatch(v, expected: "an array of layer names") }
            for n in names {
                _ = try resolve(n, time: time)
                let name = try ctx.string(n)
                t.removeLayers.append(LayerReference(name: name, location: ctx.location(n)))
                registry[name]![0].removedAt = time
            }
        }
        return t
    }

    /// The objects of one of a transaction's arrays, each checked for its keys.
    private func entries(_ r: ObjectReader, _ key: String, _ keys: [String], _ expected: String) throws -> [ObjectReader] {
        guard let v = r[key] else { return [] }
        guard let items = v.array else { throw ctx.typeMismatch(v, expected: "an array of \(expected.dropFirst(expected.hasPrefix("an ") ? 3 : 2))s") }
        return try items.map { item in
            let e = try ObjectReader(item, ctx, owner: "\(key) entry", expected: expected)
            try e.rejectUnknownKeys(keys)
            return e
        }
    }

    /// An inserted layer may not take the name of a layer present then: later transactions (and
    /// the reader) could no longer tell them apart, e.g. a second layer named like the root.
    private func refuseTakenNames(_ layer: Layer, _ at: JSONValue) throws {
        var error: SceneError?
        layer.forEach { l in
            guard error == nil, let n = l.name, let taken = registry[n]?.first(where: { $0.removedAt == nil }) else { return }
            let place = taken.location.map { " (at \($0.line):\($0.column))" } ?? ""
            error = SceneError(.invalidValue, at: l.location ?? ctx.location(at),
                               "the inserted layer is named \(Echo.quoted(n)), the name of a layer already present\(place); names a transaction inserts must be new")
        }
        if let error { throw error }
    }

    /// The layer a transaction names, which must be unique and present at `time`.
    private func resolve(_ v: JSONValue, time: Double) throws -> NamedLayer {
        let name = try ctx.string(v)
        guard let found = registry[name] else {
            throw ctx.error(.unresolvedReference, v, "no layer named \(Echo.quoted(name))",
                            suggestion: Suggestion.nearest(to: name, among: registry.keys.sorted()))
        }
        guard found.count == 1 else {
            throw ctx.error(.unresolvedReference, v, "layer name \(Echo.quoted(name)) is not unique (\(found.count) layers, at \(Self.places(found))); a name a transaction refers to must be unique")
        }
        if let removed = found[0].removedAt {
            throw ctx.error(.unresolvedReference, v, "layer \(Echo.quoted(name)) was removed by the transaction at \(display(removed)) s")
        }
        return found[0]
    }
}
