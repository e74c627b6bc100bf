/// A CAMediaTimingFunction ready to evaluate: the cubic Bézier from (0,0) to (1,1) with control
/// points c1 and c2, solved for y(x) (reference §6).
///
/// Evaluation follows WebKit's `UnitBezier` (reference §6.2): the curve is X(s), Y(s) in the
/// parameter s; y(x) means finding s with X(s) = x, then returning Y(s). We start from 11 samples of
/// X taken once at init (a bracket [s_i, s_i+1] and a linear guess inside it), refine with Newton,
/// and fall back to bisection on the bracket. The tolerance in x is 1e-12, far below the 1e-5 Core
/// Animation itself uses, so any two correct solvers agree in tests. A call allocates nothing: it
/// runs for every animation on every frame.
public struct TimingFunction: Sendable, Equatable {
    /// The control points, with c1x and c2x clamped to [0, 1] so that X(s) is monotonic and y(x)
    /// has exactly one answer (reference §6.1: "x should stay in [0,1]"; y may overshoot).
    public let c1x: Double, c1y: Double, c2x: Double, c2y: Double
    /// y(x) = x: both control points on the diagonal (this includes the named `linear`).
    public let isLinear: Bool

    // Polynomial coefficients, X(s) = ((ax·s + bx)·s + cx)·s (reference §6.2), same for Y.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double
    /// X(i/10) for i = 0…10: fixed storage (a tuple), so neither init nor a call allocates.
    private let samples: (Double, Double, Double, Double, Double, Double,
                          Double, Double, Double, Double, Double)

    /// Tolerance on |X(s) − x| at which the parameter is accepted.
    private static let tolerance = 1e-12
    private static let sampleCount = 11
    private static let sampleStep = 0.1

    public init(c1x: Double, c1y: Double, c2x: Double, c2y: Double) {
        let c1x = Self.clampUnit(c1x), c2x = Self.clampUnit(c2x)
        self.c1x = c1x; self.c1y = c1y; self.c2x = c2x; self.c2y = c2y
        isLinear = c1x == c1y && c2x == c2y
        cx = 3 * c1x; bx = 3 * (c2x - c1x) - cx; ax = 1 - cx - bx
        cy = 3 * c1y; by = 3 * (c2y - c1y) - cy; ay = 1 - cy - by
        let (a, b, c) = (ax, bx, cx)
        func x(_ s: Double) -> Double { ((a * s + b) * s + c) * s }
        samples = (x(0), x(0.1), x(0.2), x(0.3), x(0.4), x(0.5), x(0.6), x(0.7), x(0.8), x(0.9), x(1))
    }

    public init(_ spec: TimingFunctionSpec) {
        let p = spec.controlPoints
        self.init(c1x: p.c1x, c1y: p.c1y, c2x: p.c2x, c2y: p.c2y)
    }

    /// CAAnimation's pacing when `timingFunction` is nil (reference §6.1).
    public static let linear = TimingFunction(.named(.linear))

    /// The eased progress for linear progress `x`. `x` is clamped to [0, 1] (Core Animation clamps
    /// progress, reference §6.2 step 4), and the ends are exact: f(0) = 0, f(1) = 1.
    @inline(__always)
    public func callAsFunction(_ x: Double) -> Double {
        guard x > 0 else { return 0 }        // also NaN → 0
        guard x < 1 else { return 1 }
        if isLinear { return x }
        let s = solveParameter(x)
        return ((ay * s + by) * s + cy) * s
    }

    /// The curve parameter s in [0, 1] with X(s) = x, for x in (0, 1).
    private func solveParameter(_ x: Double) -> Double {
        // 1. Bracket from the samples: the last i with X(s_i) ≤ x (X is monotonic).
        var lo = 0.0, hi = 1.0, xLo = 0.0, xHi = 1.0
        withUnsafeBytes(of: samples) { raw in
            var i = 1
            while i < Self.sampleCount - 1 && raw.load(fromByteOffset: i * 8, as: Double.self) <= x { i += 1 }
            // Now X(s_{i-1}) ≤ x < X(s_i) (or i is the last interval).
            xLo = raw.load(fromByteOffset: (i - 1) * 8, as: Double.self)
            xHi = raw.load(fromByteOffset: i * 8, as: Double.self)
            lo = Double(i - 1) * Self.sampleStep
            hi = Double(i) * Self.sampleStep
        }
        // Linear guess inside the bracket.
        var s = xHi > xLo ? lo + (x - xLo) / (xHi - xLo) * (hi - lo) : lo
        // 2. Newton (quadratic convergence from a good guess: a few steps suffice).
        for _ in 0..<8 {
            let error = sampleX(s) - x
            if abs(error) < Self.tolerance { return s }
            let slope = sampleDerivativeX(s)
            if abs(slope) < 1e-7 { break }
            s -= error / slope
            if s < lo || s > hi { break }   // left the bracket: let bisection decide
        }
        // 3. Bisection on the bracket (always converges since X is monotonic).
        s = 0.5 * (lo + hi)
        for _ in 0..<64 {
            let value = sampleX(s)
            if abs(value - x) < Self.tolerance { break }
            if value < x { lo = s } else { hi = s }
            s = 0.5 * (lo + hi)
        }
        return s
    }

    @inline(__always) private func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    @inline(__always) private func sampleDerivativeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    @inline(__always) private static func clampUnit(_ v: Double) -> Double {
        v.isNaN ? 0 : min(max(v, 0), 1)
    }

    /// Two timing functions are equal when their (clamped) control points are: everything else
    /// is derived from them.
    public static func == (a: TimingFunction, b: TimingFunction) -> Bool {
        a.c1x == b.c1x && a.c1y == b.c1y && a.c2x == b.c2x && a.c2y == b.c2y
    }
}
