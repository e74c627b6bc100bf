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

    static func root(frameRate: Double, inPoint: Double) -> LottieClock {
        LottieClock(secondsPerFrame: 1 / frameRate, offset: -inPoint / frameRate)
    }

    func time(_ frame: Double) -> Double { frame * secondsPerFrame + offset }
    func frame(_ time: Double) -> Double { (time - offset) / secondsPerFrame }

    /// The clock of a precomposition shown by a layer with start time `st` and stretch `sr`.
    func precomposition(startTime st: Double, stretch sr: Double) -> LottieClock {
        LottieClock(secondsPerFrame: secondsPerFrame * sr, offset: offset + st * secondsPerFrame)
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
