import Geometry
import LayerModel
import Animation

/// Decodes a layer object: `class`, `name`, the properties of `KeyPathTable` (subclass properties
/// only on their class), `frame`, `mask`, `sublayers` and `animations`.
struct LayerDecoder {
    /// Keys of a layer object that are not properties in `KeyPathTable`, with their schema tooltips.
    static let structuralKeys: [(key: String, summary: String)] = [
        ("class", "The Core Animation class: CALayer (default), CAShapeLayer, CAGradientLayer, CATextLayer, CAReplicatorLayer, CATransformLayer or CAEmitterLayer."),
        ("name", "Names the layer in reports and transactions; a name a transaction refers to must be unique."),
        ("frame", "Convenience [x, y, width, height], applied as setFrame: after the other geometry and before the transform (sets bounds.size and position)."),
        ("mask", "A layer whose alpha masks this layer (in this layer's coordinate space). A hidden mask, or one at opacity 0, hides the layer."),
        ("sublayers", "Sublayers, back to front."),
        ("animations", "Animations, applied in this order (as add(_:forKey:) calls would be)."),
        ("filters", "Filters applied to the layer and its sublayers, in order: objects {\"type\": \"gaussianBlur\", \"name\": \"blur\", \"inputRadius\": 10}."),
        ("backgroundFilters", "Filters applied to what lies beneath the layer, inside its shape, before its background is drawn."),
    ]
    /// CABackdropLayer's own keys (not key paths in `KeyPathTable`: `scale` is also CAEmitterLayer's).
    static let backdropKeys: [(key: String, summary: String)] = [
        ("scale", "CABackdropLayer: the resolution the backdrop is sampled at, relative to the screen (default 1)."),
        ("groupName", "CABackdropLayer: backdrop layers with the same group name share one capture."),
    ]

    /// Every key a layer of class `cls` accepts.
    static func keys(for cls: LayerClass) -> [String] {
        structuralKeys.map(\.key) + (cls == .backdrop ? backdropKeys.map(\.key) : []) + KeyPathTable.properties.filter { $0.layerClass == nil || $0.layerClass == cls }.map(\.name)
            + (cls == .emitter ? EmitterLayerKeys.keys : [])
    }

    let ctx: DecodingContext

    /// - Parameters:
    ///   - depth: 1 for the root (and for an inserted layer, its parent's depth + 1).
    ///   - replication: how many times the layer is drawn because of replicators above it.
    /// The layer's `id` is provisional (unique in this decoding); its animations wait in
    /// `ctx.pendingAnimations` under that id until ids are assigned.
    func decode(_ v: JSONValue, depth: Int, replication: Int) throws -> Layer {
        let r = try ObjectReader(v, ctx, owner: "a layer", expected: "a layer (an object)")
        let cls: LayerClass = try r["class"].map { try ctx.enumeration($0, LayerClass.self, what: "layer class") } ?? .layer
        ctx.layerCount += 1
        if cls == .replicator || cls == .emitter || cls == .text { ctx.expands = true }
        if ctx.layerCount > ctx.limits.layers {
            throw ctx.limit(v, SceneLimits.Message.layers(ctx.limits.layers))
        }
        if depth > SceneLimits.maxLayerDepth {
            throw ctx.limit(v, SceneLimits.Message.depth)
        }
        // The layer instances replicators expand to are counted over the whole tree, with the
        // counts animations reach, by `SceneLimitCheck` once the scene is read.

        // UIKit gives view layers the screen scale; scene files follow it (scene-format.md "Layers").
        let location = ctx.location(v)
        var layer = Layer(cls, contentsScale: ctx.canvasScale, rasterizationScale: ctx.canvasScale, location: location)
        layer.id = ctx.nextProvisionalID
        ctx.nextProvisionalID += 1

        // The structural values are picked up on this one pass through the members (each later
        // `r[key]` is a linear look of its own) and applied after the properties, as before.
        var frame: JSONValue?, mask: JSONValue?, sublayers: JSONValue?, animations: JSONValue?
        for m in r.members {
          do {
            // The most common keys first: a string switch compares its cases in order, and the
            // keys of a typical layer went through a dozen comparisons each (≈ 1/20 of decoding).
            if m.key == "frame" { frame = m.value; continue }
            if try setCommonKey(m, on: &layer) { continue }
            switch m.key {
            case "class":
                continue
            case "mask":
                mask = m.value
            case "sublayers":
                sublayers = m.value
            case "animations":
                animations = m.value
            case "name":
                let name = try ctx.string(m.value)
                layer.name = name
                ctx.namedLayers.append((name, .init(layerClass: cls, location: location, depth: depth)))
            case "filters":
                layer.filters = try FilterDecoder(ctx: ctx).decodeList(m.value)
            case "backgroundFilters":
                layer.backgroundFilters = try FilterDecoder(ctx: ctx).decodeList(m.value)
            case "scale" where cls == .backdrop:
                layer.backdrop.scale = try ctx.number(m.value, domain: .positive, what: "scale")
            case "groupName" where cls == .backdrop:
                layer.backdrop.groupName = try m.value.isNull ? nil : ctx.string(m.value)
            case "emitterCells" where cls == .emitter, "preservesDepth" where cls == .emitter:
                try EmitterLayerKeys.decode(m, into: &layer, ctx)
            default:
                guard let property = KeyPathTable.property(named: m.key) else {
                    throw SceneError(.unknownKey, at: ctx.keyLocation(m), "unknown key \(Echo.quoted(m.key)) for \(cls.rawValue)",
                                     suggestion: Suggestion.nearest(to: m.key, among: Self.keys(for: cls))   // built only for an error: half the decoding time of 100 000 layers otherwise
                                        ?? Suggestion.nearest(to: m.key, among: KeyPathTable.properties.map(\.name)))
                }
                if let owner = property.layerClass, owner != cls {
                    throw SceneError(.unknownKey, at: ctx.keyLocation(m),
                                     "\(m.key) is a \(owner.rawValue) property; this layer's class is \(cls.rawValue)")
                }
                let value = try ctx.propertyValue(m.value, property)
                guard property.set(&layer, value) else {
                    throw ctx.error(.invalidValue, m.value, "internal error: \(m.key) refused its decoded value")
                }
            }
          } catch {
            // The key is skipped; the layer's other keys are still read and checked.
            try ctx.readOn(after: error)
          }
        }

        if cls == .emitter { try EmitterLayerKeys.check(layer, at: v, ctx) }
        // CALayer's bounds setter standardises a negative size (reference §1 "bounds").
        layer.bounds = layer.bounds.standardized

        // `frame` is read as `layer.frame = f` written before the transform is set (UIKit's usual
        // order): it sets bounds.size and position through the anchor point and ignores the
        // transform. Core Animation only leaves *reading* frame undefined under a transform.
        if let f = frame {
            layer.setFrame(try ctx.rect(f))
        }

        if let m = mask {
            layer.mask = try decode(m, depth: depth + 1, replication: replication)
        }
        if let s = sublayers {
            guard let items = s.arrayElements else { throw ctx.typeMismatch(s, expected: "an array of layers") }
            // Saturating: nested replicators of 10,000 instances each would overflow Int in five levels.
            let childReplication = cls == .replicator
                ? min(replication, SceneLimits.maxReplicatedLayers + 1) * min(max(1, layer.replicator.instanceCount), SceneLimits.maxInstanceCount)
                : replication
            layer.sublayers.reserveCapacity(items.count)
            for item in items {
                do {
                    layer.sublayers.append(try decode(item, depth: depth + 1, replication: childReplication))
                } catch {
                    try ctx.readOn(after: error)   // the sublayer is skipped; its siblings are read
                }
            }
        }
        if let a = animations {
            guard let items = a.array else { throw ctx.typeMismatch(a, expected: "an array of animations") }
            let decoder = AnimationDecoder(ctx: ctx, layerClass: cls)
            var specs: [AnimationSpec] = []
            specs.reserveCapacity(items.count)
            for item in items {
                do { specs.append(try decoder.decode(item)) } catch { try ctx.readOn(after: error) }
            }
            ctx.pendingAnimations[layer.id] = specs
        }
        return layer
    }
}

extension DecodingContext {
    /// A model value of a layer property: typed, nullable and ranged as `KeyPathTable` says, with
    /// the replicator's instance limit on top.
    func propertyValue(_ v: JSONValue, _ property: LayerProperty) throws -> AnimationValue {
        let value = try self.value(v, as: property.valueType, nullable: property.nullable, domain: property.domain, name: property.name)
        if property.name == "instanceCount", let n = value.number, n > Double(SceneLimits.maxInstanceCount) {
            throw limit(v, SceneLimits.Message.instanceCount(Int(n)))
        }
        return value
    }

    /// The animations of the scene's own tree, read first: its layers were numbered as they were
    /// read, from 0 in preorder with a mask right after its owner, which is `Scene.assignIDs`
    /// order, so their ids are final and the tree needs no renumbering walk (two walks over 10,000
    /// layers, ≈ 1/25 of decoding them).
    func takeSceneTreeAnimations() -> [LayerID: [AnimationSpec]] {
        defer { pendingAnimations = [:] }
        return pendingAnimations.filter { !$0.value.isEmpty }
    }

    /// Turns provisional ids into `Scene.assignIDs` order (preorder, a mask right after its owner)
    /// and returns the pending animations under the final ids.
    func takeAnimations(renumbering root: inout Layer) -> [LayerID: [AnimationSpec]] {
        // Only this tree's entries are consumed (a transaction's inserted subtree is taken apart
        // from the scene's own tree).
        var mine: [Int: [AnimationSpec]] = [:]
        if !pendingAnimations.isEmpty { root.forEach { mine[$0.id] = pendingAnimations.removeValue(forKey: $0.id) } }
        return ProvisionalIDs.renumber(&root, pending: mine)
    }
}
