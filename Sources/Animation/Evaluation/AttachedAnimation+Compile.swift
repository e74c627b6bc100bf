import LayerModel

/// What `add(_:forKey:)` knows when it resolves an animation's defaults (reference §3.2, §3.4, §7.1).
struct AttachContext {
    /// The layer's local time when the animation is added: a `beginTime` of 0 becomes this.
    var layerTime: Double
    /// Duration for animations with duration ≤ 0: the transaction's, else 0.25 s.
    var defaultDuration: Double = 0.25
    /// A transaction's `animationTimingFunction`, assigned to every animation it adds (§7.1).
    var timingFunctionOverride: TimingFunctionSpec?
    /// The layer's presentation just before the add (for `prev → base` and transition snapshots).
    var presentation: Layer
    /// The layer's previous rendered subtree for a CATransition (nil: nothing was on screen yet).
    var snapshot: Layer?
}

extension AttachedAnimation {
    /// Resolves a spec as Core Animation's `add(_:forKey:)` would: a copy with its duration,
    /// beginTime and timing function settled.
    static func attach(_ spec: AnimationSpec, context c: AttachContext) -> AttachedAnimation {
        compile(spec, context: c, groupDuration: nil)
    }

    private static func compile(_ spec: AnimationSpec, context c: AttachContext, groupDuration: Double?) -> AttachedAnimation {
        let spring = spec.spring.map { s -> SpringSolver in
            let d: Double? = { if case .seconds(let v) = spec.duration, v > 0 { return v }; return nil }()
            return SpringSolver(spec: s, duration: d ?? groupDuration ?? c.defaultDuration)
        }
        let duration: Double
        switch spec.duration {
        case .settlingDuration:
            duration = spring?.settlingDuration ?? c.defaultDuration
        case .seconds(let d) where d > 0:
            duration = d
        case .seconds:
            if let s = spring, case .perceptual = spec.spring?.parameters {
                duration = s.settlingDuration          // init(perceptualDuration:bounce:) sets it (§4.5)
            } else if let g = groupDuration {
                duration = g                           // a group child spans the group (§4.6, §10.14: our choice)
            } else {
                duration = c.defaultDuration           // §3.4
            }
        }
        var timing = MediaTiming(spec: spec, duration: duration)
        if groupDuration == nil && spec.beginTime == 0 { timing.beginTime = c.layerTime }   // "now" (§3.2)
        let tfSpec = groupDuration == nil ? (c.timingFunctionOverride ?? spec.timingFunction) : spec.timingFunction
        let tf = tfSpec.map(TimingFunction.init)

        let kind: Kind
        switch spec.animationClass {
        case .group:
            kind = .group(spec.animations.map { compile($0, context: c, groupDuration: duration) })
        case .transition:
            kind = .transition(spec.transition ?? TransitionSpec(), snapshot: c.snapshot)
        case .basic, .spring, .keyframe:
            guard let kp = spec.keyPath else {
                // The decoder requires keyPath; an animation without one animates nothing.
                kind = .group([])
                break
            }
            let source: PropertyAnimation.Source
            if let s = spring {
                source = .spring(s, from: spec.fromValue, to: spec.toValue, by: spec.byValue)
            } else if spec.animationClass == .keyframe, let k = spec.keyframes {
                source = .keyframe(KeyframeSampler(spec: k, valueType: kp.valueType), rotationMode: k.rotationMode)
            } else {
                source = .basic(from: spec.fromValue, to: spec.toValue, by: spec.byValue)
            }
            let captured: AnimationValue? = spec.fromValue == nil && spec.toValue == nil && spec.byValue == nil
                ? c.presentation.value(forKeyPath: kp) : nil
            kind = .property(PropertyAnimation(keyPath: kp, property: kp.layerProperty, additive: spec.additive,
                                               cumulative: spec.cumulative, source: source, captured: captured))
        }
        return AttachedAnimation(key: spec.animationClass == .transition ? (spec.key ?? "transition") : spec.key,
                                 timing: timing, removedOnCompletion: spec.removedOnCompletion,
                                 timingFunction: tf, kind: kind, location: spec.location)
    }
}
