import Geometry
import LayerModel

/// CAReplicatorLayer instances in the presentation tree (reference §2.3; design.md: the
/// presentation tree has "replicas expanded"), so the planner draws them as ordinary layers.
///
/// Instance k (0 ≤ k < instanceCount) of the replicator's sublayers becomes one container, in
/// increasing k (later instances on top):
/// - **Geometry**: the container is a `CATransformLayer` with the replicator's bounds, anchored at
///   their centre C and placed there, with `transform = instanceTransformᵏ`; so each of its points
///   maps by Tr(−C)·instanceTransformᵏ·Tr(C), the transform about the replicator's centre.
///   A transform layer neither flattens nor draws, so the replicator's own `preservesDepth`
///   still decides flattening, as in Core Animation.
/// - **Time**: the copies in instance k are evaluated at the replicator's time − k·instanceDelay.
/// - **Colour**: Cₖ = instanceColor + k·(red, green, blue, alpha offsets), each clamped to 0…1,
///   multiplies the instance: its alpha becomes the container's opacity (a transform layer applies
///   opacity to each sublayer separately, i.e. no group, as a per-draw colour multiply does); its
///   RGB multiplies every colour of the copied layers (background, border, shadow, shape fill and
///   stroke, text, gradient colours) and tints `contents` images (`Layer.contentsTint`, a
///   per-draw multiply in the image shader).
/// - Nested replicators multiply: an inner replicator is expanded inside each outer instance, and
///   the outer tint multiplies the inner instances' colours again.
///
/// `instanceCount` may animate; it is clamped to `maxInstanceCount` (the scene-file limit of
/// `SceneLimits.maxInstanceCount`), and further so that one replicator's expansion stays within
/// `maxExpandedLayers` layers (the file limit `SceneLimits.maxReplicatedLayers`, which bounds scenes
/// at rest), so an animated count can never exhaust memory.
enum ReplicatorExpansion {
    static let maxInstanceCount = 10_000
    /// Mirrors `SceneLimits.maxReplicatedLayers` (Animation does not depend on SceneFormat; a test
    /// keeps the two equal).
    static let maxExpandedLayers = 100_000
    /// Instance containers' ids: above every scene id (ids are dense from 0) and below the id of
    /// the presentation root's transition container (Int.max / 2).
    static let containerIDBase = Int.max / 4

    /// How many layers `layers` become once expanded (nested replicators at their current counts),
    /// saturating just above `maxExpandedLayers`.
    static func expandedSize(_ layers: [Layer]) -> Int {
        var n = 0
        for l in layers {
            let inner = expandedSize(l.sublayers)
            let copies = l.layerClass == .replicator ? min(max(l.replicator.instanceCount, 0), maxInstanceCount) : 1
            n += 1 + (l.layerClass == .replicator ? copies * (inner + 1) : inner)
            if n > maxExpandedLayers { return maxExpandedLayers + 1 }
        }
        return n
    }

    /// The number of instances a replicator expands to now.
    static func count(_ replicator: Layer) -> Int {
        let asked = min(max(replicator.replicator.instanceCount, 0), maxInstanceCount)
        guard asked > 0 else { return 0 }
        let perInstance = expandedSize(replicator.sublayers) + 1
        return min(asked, max(1, maxExpandedLayers / perInstance))
    }

    /// The colour multiplier of instance `k`, clamped per component.
    static func instanceColor(_ r: ReplicatorProperties, _ k: Int) -> Color {
        let base = r.instanceColor ?? .white
        let kd = Double(k)
        func c(_ v: Double) -> Double { min(max(v, 0), 1) }
        return Color(c(base.red + kd * r.instanceRedOffset), c(base.green + kd * r.instanceGreenOffset),
                     c(base.blue + kd * r.instanceBlueOffset), c(base.alpha + kd * r.instanceAlphaOffset))
    }

    /// The container of instance `k`, holding `copies` (already evaluated at their instance's time).
    static func container(for replicator: Layer, instance k: Int, power: Transform3D, copies: [Layer]) -> Layer {
        var c = Layer(.transform)
        // Its own id (the profiler's layer directory is keyed by id): containers draw nothing, so
        // nothing is ever attributed to it; the copies keep their model ids, so every instance of a
        // layer is reported as that layer.
        c.id = containerIDBase + replicator.id
        let b = replicator.bounds
        c.bounds = b
        c.anchorPoint = Point(0.5, 0.5)
        c.position = Point(b.midX, b.midY)
        c.transform = power
        let tint = instanceColor(replicator.replicator, k)
        c.opacity = tint.alpha
        var subs = copies
        if tint.red < 1 || tint.green < 1 || tint.blue < 1 {
            for i in subs.indices { multiplyColors(&subs[i], tint) }
        }
        c.sublayers = subs
        return c
    }

    /// Multiplies every colour of `layer`'s subtree (masks excluded: they draw only alpha) by `t`'s RGB.
    static func multiplyColors(_ layer: inout Layer, _ t: Color) {
        func m(_ c: Color?) -> Color? { c.map { Color($0.red * t.red, $0.green * t.green, $0.blue * t.blue, $0.alpha) } }
        if layer.backgroundColor != nil { layer.backgroundColor = m(layer.backgroundColor) }
        if layer.borderWidth > 0 { layer.borderColor = m(layer.borderColor) }
        if layer.shadowOpacity > 0 { layer.shadowColor = m(layer.shadowColor) }
        if layer.contents != nil { layer.contentsTint = m(layer.contentsTint)! }
        switch layer.layerClass {
        case .shape:
            layer.shape.fillColor = m(layer.shape.fillColor)
            layer.shape.strokeColor = m(layer.shape.strokeColor)
        case .text: layer.text.foregroundColor = m(layer.text.foregroundColor)
        case .gradient: layer.gradient.colors = layer.gradient.colors?.map { m($0)! }
        default: break
        }
        for i in layer.sublayers.indices { multiplyColors(&layer.sublayers[i], t) }
    }
}
