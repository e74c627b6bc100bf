import Geometry
import LayerModel
import Animation
import SceneFormat

/// Maps a composition's frame numbers to scene time. A root composition shows frame
/// `ip + t · fr` at scene time t; a precomposition's layers see their parent's frame F as
/// `(F − st) / sr` (its layer's start time and stretch). Every map is affine, so a keyframe's
/// easing stays the same curve in scene time: keyframes are placed in scene time directly, and
/// no layer needs speed or timeOffset.
struct LottieClock {
    /// Scene seconds per frame of this composition, and the scene time of frame 0.
    var secondsPerFrame: Double
    var offset: Double
    /// A composition under time remapping (`tm`), whose frame is no affine function of scene time:
    /// its frame sampled at every frame of the root timeline. Its properties are sampled there too.
    var remap: Remap?

    struct Remap {
        /// Scene times, one per root frame from 0 to the end, and this composition's frame at each.
        var times: [Double]
        var frames: [Double]
    }

    static func root(frameRate: Double, inPoint: Double) -> LottieClock {
        LottieClock(secondsPerFrame: 1 / frameRate, offset: -inPoint / frameRate)
    }

    func time(_ frame: Double) -> Double { frame * secondsPerFrame + offset }
    func frame(_ time: Double) -> Double { (time - offset) / secondsPerFrame }

    /// The clock of a precomposition shown by a layer with start time `st` and stretch `sr`.
    func precomposition(startTime st: Double, stretch sr: Double) -> LottieClock {
        var c = LottieClock(secondsPerFrame: secondsPerFrame * sr, offset: offset + st * secondsPerFrame)
        if let r = remap { c.remap = Remap(times: r.times, frames: r.frames.map { ($0 - st) / sr }) }
        return c
    }

    /// The clock of a precomposition whose layer remaps time: at its parent's frame F the
    /// precomposition shows frame `tm(F) · fr` (`tm` is in seconds; its keyframes, as every
    /// property's of the layer, are in the parent's frames, and `st` and `sr` no longer apply),
    /// sampled at each frame of the root timeline (`times`).
    func remapped(_ tm: LottieProperty<Double>, frameRate fr: Double, times: [Double]) -> LottieClock {
        var c = self
        let parent = remap?.frames ?? times.map { frame($0) }
        c.remap = Remap(times: times, frames: parent.map { tm.value(at: $0, LottieLerp.number) * fr })
        return c
    }
}

/// Builds the CAKeyframeAnimations lottie-ios's Core Animation engine adds for animated
/// properties: one per key path, its keyframes at their scene times, each segment's easing a
/// timing function (`o` of the keyframe, `i` of the next as its control points), hold keyframes
/// as a jump, filling backwards and forwards so the first and last values hold outside them.
enum LottieAnimator {
    static func animation<V>(_ property: LottieProperty<V>, keyPath: String, clock: LottieClock,
                             _ value: (V) -> AnimationValue, ctx: LottieContext, at v: JSONValue) -> AnimationSpec? {
        guard case .animated(let keys) = property, let resolved = KeyPathTable.resolve(keyPath) else { return nil }
        if let remap = clock.remap {
            // Under time remapping: the value at the composition's frame at every root frame.
            let source = keys[0]
            let samples = zip(remap.times, remap.frames).map { t, f in
                (t, value(property.value(at: f, LottieShapeReader.lerpAny)),
                 LottieKeyframe(frame: f, value: source.value, hold: false, outEase: nil, inEase: nil, spatialOut: nil, spatialIn: nil, source: source.source))
            }
            return keyframes(samples, keyPath: resolved, ctx: ctx, at: v)
        }
        let spec = keyframes(keys.map { (clock.time($0.frame), value($0.value), $0) }, keyPath: resolved, ctx: ctx, at: v)
        return spec
    }

    /// `keys`: scene time, value, and the keyframe the easing comes from.
    static func keyframes<V>(_ keys: [(time: Double, value: AnimationValue, key: LottieKeyframe<V>)], keyPath: ResolvedKeyPath,
                             ctx: LottieContext, at v: JSONValue) -> AnimationSpec? {
        guard keys.count >= 2, let first = keys.first, let last = keys.last, last.time > first.time else { return nil }
        var values: [AnimationValue] = []
        var times: [Double] = []
        var timing: [TimingFunctionSpec] = []
        let begin = first.time, duration = last.time - first.time
        for (i, k) in keys.enumerated() {
            let kt = (k.time - begin) / duration
            if i > 0 {
                let previous = keys[i - 1]
                if previous.key.hold {
                    // Hold: the previous value until this keyframe, then the jump.
                    values.append(previous.value); times.append(kt)
                    timing.append(.named(.linear))
                    timing.append(.named(.linear))
                } else {
                    timing.append(ease(previous.key.outEase, previous.key.inEase))
                }
            }
            values.append(k.value); times.append(kt)
        }
        var spec = AnimationSpec(animationClass: .keyframe, location: ctx.place(v))
        spec.keyPath = keyPath
        spec.key = keyPath.keyPath
        spec.beginTime = begin
        spec.duration = .seconds(duration)
        spec.fillMode = .both
        spec.removedOnCompletion = false
        spec.keyframes?.values = values
        spec.keyframes?.keyTimes = times
        spec.keyframes?.timingFunctions = timing
        return spec
    }

    /// A segment's timing function: the out handle of its first keyframe and the in handle of
    /// its segment (Bodymovin writes both on the first keyframe); linear without handles.
    static func ease(_ out: LottieEase?, _ into: LottieEase?) -> TimingFunctionSpec {
        guard let o = out, let i = into else { return .named(.linear) }
        if o.x == o.y && i.x == i.y { return .named(.linear) }
        return .controlPoints(o.x, o.y, i.x, i.y)
    }
}
