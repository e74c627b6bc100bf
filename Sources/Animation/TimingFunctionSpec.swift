/// CAMediaTimingFunction's named curves (reference §6.1).
public enum TimingFunctionName: String, CaseIterable, Sendable {
    /// The curve of implicit animations (= CSS `ease`).
    case `default`
    case linear, easeIn, easeOut, easeInEaseOut
}

/// A CAMediaTimingFunction: a named curve or a cubic Bézier from (0,0) to (1,1) with two control points.
public enum TimingFunctionSpec: Hashable, Sendable {
    case named(TimingFunctionName)
    /// `[c1x, c1y, c2x, c2y]`.
    case controlPoints(Double, Double, Double, Double)

    /// The control points c1 and c2 (values checked against Apple by GNUstep-tests; reference §6.1).
    public var controlPoints: (c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        switch self {
        case .controlPoints(let a, let b, let c, let d): return (a, b, c, d)
        case .named(.default): return (0.25, 0.1, 0.25, 1)
        case .named(.linear): return (0, 0, 1, 1)
        case .named(.easeIn): return (0.42, 0, 1, 1)
        case .named(.easeOut): return (0, 0, 0.58, 1)
        case .named(.easeInEaseOut): return (0.42, 0, 0.58, 1)
        }
    }
}
