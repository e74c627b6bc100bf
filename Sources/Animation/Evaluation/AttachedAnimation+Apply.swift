import Geometry
import LayerModel

extension AttachedAnimation {
    /// Whether the animation affects the layer at `layerTime` (its fill rules, and for top-level
    /// animations removal on completion), and its timing state there.
    @inline(__always) func contributingState(at layerTime: Double, topLevel: Bool) -> TimingState? {
        let st = timing.state(parentTime: layerTime)
        guard st.contributes else { return nil }
        // removedOnCompletion: the animation is gone once its active duration has passed (§3.1),
        // so a forwards fill shows only with removedOnCompletion = NO (§3.3's classic gotcha).
        if topLevel && removedOnCompletion && st.phase == .after { return nil }
        return st
    }

    /// Applies the animation to `layer`, which holds the model values plus every earlier
    /// animation's effect (reference §4.2). `layerTime` is the layer's local time (for a group's
    /// children: the group's basic local time). Transitions are applied by the tree walk, not here.
    func apply(to layer: inout Layer, layerTime: Double, topLevel: Bool = true) {
        switch kind {
        case .transition: return
        case .group(let children):
            guard let st = contributingState(at: layerTime, topLevel: topLevel) else { return }
            // Children run in the group's time space: their parent time is the group's basic
            // local time, after the group's own timing function (SMIL's reading; reference §4.6,
            // §10.14). They are clipped to the group's active interval by the guard above.
            let groupTime = curve(st.progress) * timing.duration
            for child in children { child.apply(to: &layer, layerTime: groupTime, topLevel: false) }
        case .property(let anim):
            guard let st = contributingState(at: layerTime, topLevel: topLevel) else { return }
            anim.apply(to: &layer, state: st, animation: self)
        }
    }

    /// The transition's progress at `layerTime` (startProgress…endProgress), nil when it has no effect.
    func transitionProgress(at layerTime: Double) -> Double? {
        guard case .transition(let spec, _) = kind,
              let st = contributingState(at: layerTime, topLevel: true) else { return nil }
        return spec.startProgress + (spec.endProgress - spec.startProgress) * curve(st.progress)
    }
}

extension PropertyAnimation {
    func apply(to layer: inout Layer, state st: TimingState, animation a: AttachedAnimation) {
        if let slot = transformSlot, let f = keyPath.field {
            let m = layer[keyPath: slot]
            guard let base = TransformField.read(f, of: m) else { return }
            var rotation: Double?
            let result = self.result(base: base, state: st, animation: a, rotation: &rotation)
            guard let updated = TransformField.write(f, result, into: m) else { return }
            layer[keyPath: slot] = updated
            if let angle = rotation { layer.transform = Transform3D.rotation(angle, 0, 0, 1) * layer.transform }
            return
        }
        let whole = property.get(layer)
        let base: AnimationValue
        if let f = keyPath.field {
            guard let v = whole.field(f) else { return }
            base = v
        } else {
            base = whole
        }
        var rotation: Double?
        let result = self.result(base: base, state: st, animation: a, rotation: &rotation)
        if let f = keyPath.field {
            guard let updated = whole.setting(f, to: result) else { return }
            _ = property.set(&layer, updated)
        } else {
            _ = property.set(&layer, result)
        }
        if let angle = rotation {
            // rotationMode: the layer turns to the path's tangent. Composed before the layer's own
            // transform (rotate about the anchor first, then the transform): our reading of §4.4.
            layer.transform = Transform3D.rotation(angle, 0, 0, 1) * layer.transform
        }
    }

    /// The value the animation writes at this state, given the underlying value `base`
    /// (model + earlier animations): from/to/by or keyframes, cumulative, additive.
    private func result(base: AnimationValue, state st: TimingState, animation a: AttachedAnimation,
                        rotation: inout Double?) -> AnimationValue {
        let p: Double
        switch source {
        case .spring(let spring, _, _, _):
            // The spring is evaluated at seconds of local animation time, not stretched to the
            // duration (§4.5). A timing function, if set, warps that time (§10.20: our choice).
            p = spring.progress(at: a.curve(st.progress) * a.timing.duration)
        default:
            p = a.curve(st.progress)
        }
        var v = value(at: p, base: base, rotation: &rotation)
        if cumulative && st.iteration > 0 {
            // SMIL: V_k(p) = k·V(1) + V(p) (reference §4.2, §10.12).
            var ignored: Double?
            let end = value(at: 1, base: base, rotation: &ignored)
            v = ValueInterpolation.add(ValueInterpolation.accumulate(end, count: st.iteration), v)
        }
        return additive ? ValueInterpolation.add(base, v) : v
    }

    /// The animation's value at progress `p` (may lie outside 0…1 for springs and overshooting
    /// curves) given the underlying value `base` (model + earlier animations, re-read every frame).
    func value(at p: Double, base: AnimationValue, rotation: inout Double?) -> AnimationValue {
        switch source {
        case .basic(let from, let to, let by), .spring(_, let from, let to, let by):
            let (start, end) = endpoints(from: from, to: to, by: by, base: base)
            return ValueInterpolation.interpolate(start, end, p)
        case .keyframe(let sampler, let mode):
            let s = sampler.value(at: p)
            if mode != nil { rotation = s.rotation }
            return s.value
        }
    }

    /// CABasicAnimation's from/to/by table (reference §4.3). `base` is live: changing the model
    /// during the animation retargets it. With no values the start is the presentation value
    /// captured when the animation was added (what implicit animations rely on).
    func endpoints(from: AnimationValue?, to: AnimationValue?, by: AnimationValue?,
                   base: AnimationValue) -> (AnimationValue, AnimationValue) {
        switch (from, to, by) {
        case (let f?, let t?, _): return (f, t)          // from+to (+by ignored: undefined in CA, §10.13)
        case (let f?, nil, let b?): return (f, ValueInterpolation.add(f, b))
        case (nil, let t?, let b?): return (ValueInterpolation.subtract(t, b), t)
        case (let f?, nil, nil): return (f, base)
        case (nil, let t?, nil): return (base, t)
        case (nil, nil, let b?): return (base, ValueInterpolation.add(base, b))
        case (nil, nil, nil): return (captured ?? base, base)
        }
    }
}
