/// An animation's CAMediaTiming, resolved: maps its parent's time to the progress inside the
/// current iteration (reference §3.2–§3.3). Everything is a pure function of the parent time.
///
/// Decisions where the reference is silent (§3.3, §10 item 13), each tested:
/// - **repeatDuration and repeatCount both set** (Apple: undefined): `repeatDuration` wins, exactly
///   as §3.3's formula for AD is written (SMIL would take the smaller of the two).
/// - **Negative speed** plays the active interval backwards: it still starts at `beginTime` and
///   lasts AD/|speed| in parent time, but the active time runs from AD down to 0 (so the first
///   frame shows the end value, and fills swap: `backwards` holds the value at AD, `forwards` the
///   value at 0). With an infinite AD there is no end to start from, and the active time is simply
///   τ = (t_parent − beginTime)·speed (negative), wrapped into iterations like any other time.
/// - Negative or NaN `repeatCount`/`repeatDuration` count as 0 (the `> 0` tests of §3.3).
/// - `removedOnCompletion` is not here: removal is the caller's business (`TimingState.contributes`
///   says what the fill mode alone allows).
public struct MediaTiming: Sendable, Equatable {
    /// Start, in the parent's time space (a layer's, or a group's basic local time).
    public var beginTime: Double
    /// One forward pass d, in seconds of local time: already resolved (§3.4, springs'
    /// settlingDuration), finite and > 0.
    public var duration: Double
    public var speed: Double
    /// Added to the active local time and not scaled by `speed` (§3.3).
    public var timeOffset: Double
    /// May be fractional; `.infinity` repeats forever; 0 = one iteration (§3.4).
    public var repeatCount: Double
    /// Total active time; `.infinity` allowed; takes precedence over `repeatCount`.
    public var repeatDuration: Double
    public var autoreverses: Bool
    public var fillMode: FillMode

    /// The duration used when the one given is not a finite positive number (§3.4's default). The
    /// caller normally resolves it first; this only keeps a hostile value from producing NaNs.
    public static let defaultDuration = 0.25

    public init(beginTime: Double = 0, duration: Double, speed: Double = 1, timeOffset: Double = 0,
                repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
                fillMode: FillMode = .removed) {
        self.beginTime = beginTime
        self.duration = duration > 0 && duration.isFinite ? duration : Self.defaultDuration
        self.speed = speed
        self.timeOffset = timeOffset
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.fillMode = fillMode
    }

    /// The timing of `spec` with its duration already resolved (the spec's own may be 0 or
    /// `settlingDuration`, which need the transaction or the spring to resolve).
    public init(spec: AnimationSpec, duration: Double) {
        self.init(beginTime: spec.beginTime, duration: duration, speed: spec.speed,
                  timeOffset: spec.timeOffset, repeatCount: spec.repeatCount,
                  repeatDuration: spec.repeatDuration, autoreverses: spec.autoreverses,
                  fillMode: spec.fillMode)
    }

    /// D_iter: one iteration, doubled by `autoreverses` (forward + backward pass, §3.3).
    public var iterationDuration: Double { autoreverses ? 2 * duration : duration }

    /// AD, the active duration in local time (§3.3): `repeatDuration` if > 0, else
    /// `repeatCount · D_iter` if > 0 (∞ for an infinite count), else one iteration.
    public var activeDuration: Double {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return repeatCount * iterationDuration }
        return iterationDuration
    }

    /// When the animation stops changing, in parent time: beginTime + AD/|speed|. Infinite when it
    /// never ends (infinite AD) or is frozen (speed 0).
    public var endTimeInParent: Double {
        let ad = activeDuration
        guard speed != 0, !speed.isNaN, ad.isFinite else { return .infinity }
        return beginTime + ad / abs(speed)
    }

    /// Where the animation is at `parentTime` (reference §3.3, step by step):
    /// τ = (t_parent − beginTime)·speed → phase → τ clamped to [0, AD] outside the active interval →
    /// t = τ + timeOffset → iteration k and position w → end-on-a-boundary rule → autoreverse mirror.
    public func state(parentTime: Double) -> TimingState {
        let ad = activeDuration
        let dIter = iterationDuration
        let d = duration

        // Elapsed active time and phase. Speed 0 freezes at τ = 0 (so at timeOffset), active; a NaN
        // speed (hostile input) is treated the same.
        let phase: TimingState.Phase
        var tau: Double
        if speed == 0 || speed.isNaN {
            tau = 0
            phase = ad > 0 ? .active : .after
        } else if speed > 0 || !ad.isFinite {
            tau = (parentTime - beginTime) * speed
            let elapsed = speed > 0 ? tau : -tau      // ≥ 0 once begun, whichever the direction
            if elapsed < 0 { phase = .before; tau = 0 }
            else if elapsed >= ad { phase = .after; tau = ad }
            else { phase = .active }
        } else {
            // Negative speed, finite AD: play [0, AD] from its end (see the type's comment).
            let elapsed = (parentTime - beginTime) * -speed
            if elapsed < 0 { phase = .before; tau = ad }
            else if elapsed >= ad { phase = .after; tau = 0 }
            else { phase = .active; tau = ad - elapsed }
        }

        // Local time with timeOffset, wrapped into iterations.
        let t = tau + timeOffset
        var k = (t / dIter).rounded(.down)
        var w = t - k * dIter
        // Rounding can leave w a hair outside [0, D_iter): move it to the neighbouring iteration.
        if w < 0 { k -= 1; w += dIter } else if w >= dIter { k += 1; w -= dIter }
        // Ending exactly on an iteration boundary shows the end of that iteration, not the start
        // of the next (§3.3). "Ending" = τ is at AD (the after phase for a positive speed).
        if tau == ad && w == 0 && t > 0 { w = dIter; k -= 1 }

        // Autoreverse mirror, before any timing function (§3.3).
        var u = w <= d ? w / d : (2 * d - w) / d
        if !(u >= 0) { u = 0 } else if u > 1 { u = 1 }   // NaN from hostile input → 0

        let contributes: Bool
        switch phase {
        case .active: contributes = true
        case .before: contributes = fillMode == .backwards || fillMode == .both
        case .after: contributes = fillMode == .forwards || fillMode == .both
        }
        return TimingState(phase: phase, contributes: contributes, iteration: Self.saturatingInt(k),
                           progress: u, localTime: u * d)
    }

    /// t = (t_parent − beginTime)·speed + timeOffset: a layer's (or any infinite-duration timed
    /// object's) local time, applied once per ancestor from the root down (§3.2). Layers never
    /// wrap or end, so stage 2 (`state`) does not apply to them.
    @inline(__always)
    public static func layerLocalTime(parentTime: Double, beginTime: Double, speed: Double, timeOffset: Double) -> Double {
        // Speed 0 is the pause idiom: frozen at timeOffset, whatever the parent time (even ±∞).
        speed == 0 ? timeOffset : (parentTime - beginTime) * speed + timeOffset
    }

    /// Int(x) traps outside Int's range or on NaN; an iteration index from a hostile time must not.
    @inline(__always)
    private static func saturatingInt(_ x: Double) -> Int {
        if x.isNaN { return 0 }
        if x >= 9.2e18 { return Int.max }
        if x <= -9.2e18 { return Int.min }
        return Int(x)
    }
}

/// The result of `MediaTiming.state(parentTime:)`: where an animation is, and whether it shows.
public struct TimingState: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Before `beginTime` (τ < 0).
        case before
        /// Inside the active interval [0, AD).
        case active
        /// At or after the end of the active interval (τ ≥ AD).
        case after
    }
    public var phase: Phase
    /// Whether the animation has an effect at this time by the fill rules alone: always while
    /// active, `backwards`/`both` before, `forwards`/`both` after. `removedOnCompletion` is the
    /// caller's to apply on top.
    public var contributes: Bool
    /// The iteration index k (what `cumulative` multiplies, §4.3 / §10 item 12).
    public var iteration: Int
    /// u in [0, 1] inside the current iteration, mirrored on the way back of an autoreversing
    /// animation, before any timing function. Outside the active interval this is the filled value
    /// (τ = 0 before, τ = AD after), also when `contributes` is false.
    public var progress: Double
    /// u·duration: seconds into the current iteration, which springs (that run in seconds, §4.5) and
    /// a group's children (timed in the group's basic local time, §3.2) need.
    public var localTime: Double

    public init(phase: Phase, contributes: Bool, iteration: Int, progress: Double, localTime: Double) {
        self.phase = phase; self.contributes = contributes; self.iteration = iteration
        self.progress = progress; self.localTime = localTime
    }
}
