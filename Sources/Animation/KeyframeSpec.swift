import Geometry

/// CAKeyframeAnimation's fields (reference §4.4). Counts are not cross-checked here: Core Animation
/// ignores inappropriate keyTimes arrays, and evaluation does the same.
public struct KeyframeSpec: Equatable, Sendable {
    /// Typed by the animation's key path.
    public var values: [AnimationValue]?
    /// Fractions of the duration, each in [0, 1] and ≥ the previous.
    public var keyTimes: [Double]?
    /// One per segment.
    public var timingFunctions: [TimingFunctionSpec]?
    public var calculationMode: CalculationMode = .linear
    /// Overrides `values` (point key paths only): every non-move point is a keyframe.
    public var path: Path?
    public var rotationMode: RotationMode?
    /// Kochanek–Bartels parameters, one per keyframe, each in [−1, 1].
    public var tensionValues: [Double]?
    public var continuityValues: [Double]?
    public var biasValues: [Double]?
    public init() {}
}
