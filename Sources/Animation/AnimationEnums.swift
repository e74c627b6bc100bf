/// Core Animation's animation constants, spelled as the scene format spells them.

/// The Core Animation class of an animation (`"class"` in a scene file).
public enum AnimationClass: String, CaseIterable, Sendable {
    case basic = "CABasicAnimation"
    case keyframe = "CAKeyframeAnimation"
    case spring = "CASpringAnimation"
    case group = "CAAnimationGroup"
    case transition = "CATransition"

    /// CAPropertyAnimation subclasses: they have `keyPath`, `additive`, `cumulative`.
    public var isPropertyAnimation: Bool { self == .basic || self == .keyframe || self == .spring }
}

/// CAMediaTiming fillMode (reference §3.1); default `removed`.
public enum FillMode: String, CaseIterable, Sendable {
    case removed, forwards, backwards, both
}

/// CAKeyframeAnimation calculationMode (reference §4.4); default `linear`.
public enum CalculationMode: String, CaseIterable, Sendable {
    case linear, discrete, paced, cubic, cubicPaced
}

/// CAKeyframeAnimation rotationMode: turn the layer along a keyframe `path`'s tangent.
public enum RotationMode: String, CaseIterable, Sendable {
    case auto = "auto"
    /// The tangent angle plus π.
    case autoReverse
}

/// CATransition type (the public ones; reference §4.7).
public enum TransitionType: String, CaseIterable, Sendable {
    case fade, moveIn, push, reveal
}

/// CATransition subtype: the edge the motion starts from.
public enum TransitionSubtype: String, CaseIterable, Sendable {
    case fromLeft, fromRight, fromTop, fromBottom
}
