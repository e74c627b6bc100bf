import LayerModel

/// CAAnimation.duration: seconds, or CASpringAnimation's `settlingDuration` (springs only).
public enum AnimationDuration: Hashable, Sendable {
    /// 0 means "the transaction's duration, or 0.25 s" (reference §3.4).
    case seconds(Double)
    case settlingDuration
}

/// An animation as the scene describes it: the CAAnimation subclass with its CAMediaTiming and its
/// class's fields. Defaults are Core Animation's (reference §3.1, §4). Evaluation lives elsewhere.
public struct AnimationSpec: Equatable, Sendable {
    public var animationClass: AnimationClass
    /// `add(_:forKey:)`'s key; a later animation with the same key replaces the earlier one.
    public var key: String?

    // CAMediaTiming
    /// 0 = when added; otherwise a time in the layer's (or group's) time space.
    public var beginTime: Double = 0
    public var duration: AnimationDuration = .seconds(0)
    public var speed: Double = 1
    public var timeOffset: Double = 0
    /// May be fractional; `.infinity` repeats forever.
    public var repeatCount: Double = 0
    /// `.infinity` allowed.
    public var repeatDuration: Double = 0
    public var autoreverses = false
    public var fillMode: FillMode = .removed

    // CAAnimation
    public var removedOnCompletion = true
    /// nil = linear pacing.
    public var timingFunction: TimingFunctionSpec?

    // CAPropertyAnimation (basic, keyframe, spring)
    public var keyPath: ResolvedKeyPath?
    public var additive = false
    public var cumulative = false

    // CABasicAnimation and CASpringAnimation: typed by the key path.
    public var fromValue: AnimationValue?
    public var toValue: AnimationValue?
    public var byValue: AnimationValue?

    /// CAKeyframeAnimation only.
    public var keyframes: KeyframeSpec?
    /// CASpringAnimation only.
    public var spring: SpringSpec?
    /// CAAnimationGroup only: children, timed in the group's time space.
    public var animations: [AnimationSpec] = []
    /// CATransition only.
    public var transition: TransitionSpec?

    /// Where the animation object is written.
    public var location: SourceLocation

    public init(animationClass: AnimationClass, location: SourceLocation) {
        self.animationClass = animationClass
        self.location = location
        switch animationClass {
        case .keyframe: keyframes = KeyframeSpec()
        case .spring: spring = SpringSpec()
        case .transition: transition = TransitionSpec()
        case .basic, .group: break
        }
    }
}
