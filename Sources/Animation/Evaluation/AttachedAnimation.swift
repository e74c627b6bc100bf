import Geometry
import LayerModel

/// An animation as `add(_:forKey:)` leaves it on a layer: the spec with every default resolved
/// (duration, beginTime, transaction timing function) and what per-frame evaluation needs
/// precomputed (timing curve, spring, keyframe sampler, the key path's table entry). Built once
/// when the animation is added; evaluated every frame without allocation for scalar values.
/// A class: the per-frame walk iterates these lists, and a reference costs one retain where a
/// struct of this size would be copied.
final class AttachedAnimation: Sendable {
    /// `add(_:forKey:)`'s key (a later animation with the same key replaces this one).
    let key: String?
    let timing: MediaTiming
    /// Only honoured for top-level animations; a group's children ignore theirs (reference §3.5).
    let removedOnCompletion: Bool
    /// nil = linear pacing.
    let timingFunction: TimingFunction?
    let kind: Kind
    /// Where the animation is written (for warnings).
    let location: SourceLocation

    /// Whether the animation can move its layer on the screen (what `misaligned.*` findings care
    /// about): a property animation of geometry, a group holding one, or a transition (its
    /// states may slide in; a snapshot is shown while it runs).
    var movesGeometry: Bool {
        switch kind {
        case .property(let p): return Self.geometryProperties.contains(p.keyPath.property)
        case .group(let children): return children.contains { $0.movesGeometry }
        case .transition: return true
        }
    }
    static let geometryProperties: Set<String> = ["position", "bounds", "anchorPoint", "anchorPointZ", "zPosition", "transform",
                                                  "sublayerTransform", "contentsRect", "contentsCenter", "contentsScale"]

    enum Kind: Sendable {
        case property(PropertyAnimation)
        /// CAAnimationGroup: children timed in the group's basic local time (reference §4.6).
        case group([AttachedAnimation])
        /// CATransition: the layer's previous state (nil = nothing was on screen) gives way to the new.
        indirect case transition(TransitionSpec, snapshot: Layer?)
    }

    init(key: String?, timing: MediaTiming, removedOnCompletion: Bool, timingFunction: TimingFunction?,
         kind: Kind, location: SourceLocation) {
        self.key = key; self.timing = timing; self.removedOnCompletion = removedOnCompletion
        self.timingFunction = timingFunction; self.kind = kind; self.location = location
    }

    /// The progress the animation's own timing function gives at normalised time `u`.
    @inline(__always) func curve(_ u: Double) -> Double { timingFunction.map { $0(u) } ?? u }

    /// When the animation stops changing the layer, in the layer's local time (nil = never:
    /// infinite repeat or a frozen speed 0). A forwards fill that is not removed holds its end
    /// value after this, which no longer changes anything frame to frame.
    var endInLayerTime: Double? {
        let end = timing.endTimeInParent
        return end.isFinite ? end : nil
    }
}

/// A CAPropertyAnimation subclass (basic, spring, keyframe) bound to its key path. A class for
/// the same reason as `AttachedAnimation`: matching `.property(let a)` then costs a retain.
final class PropertyAnimation: Sendable {
    let keyPath: ResolvedKeyPath
    let property: LayerProperty
    let additive: Bool
    let cumulative: Bool
    let source: Source
    /// The presentation value of the key path when the animation was added: the start of the
    /// `prev → base` row of the from/to/by table (no from, to or by: implicit animations).
    let captured: AnimationValue?

    /// For sub-fields of a transform property (`transform.rotation.z`, `transform.scale` …): the
    /// matrix itself, read and written without boxing it into an `AnimationValue` (the common
    /// spin and pulse animations then allocate nothing per frame).
    let transformSlot: (WritableKeyPath<Layer, Transform3D> & Sendable)?

    init(keyPath: ResolvedKeyPath, property: LayerProperty, additive: Bool, cumulative: Bool,
         source: Source, captured: AnimationValue?) {
        self.keyPath = keyPath; self.property = property; self.additive = additive
        self.cumulative = cumulative; self.source = source; self.captured = captured
        switch (keyPath.property, keyPath.field) {
        case ("transform", _?): transformSlot = \Layer.transform
        case ("sublayerTransform", _?): transformSlot = \Layer.sublayerTransform
        case ("instanceTransform", _?): transformSlot = \Layer.replicator.instanceTransform
        default: transformSlot = nil
        }
    }

    enum Source: Sendable {
        /// CABasicAnimation (and the value part of CASpringAnimation): from/to/by.
        case basic(from: AnimationValue?, to: AnimationValue?, by: AnimationValue?)
        /// CASpringAnimation: progress is the spring's displacement at the local time in seconds.
        case spring(SpringSolver, from: AnimationValue?, to: AnimationValue?, by: AnimationValue?)
        /// CAKeyframeAnimation.
        case keyframe(KeyframeSampler, rotationMode: RotationMode?)
    }
}
