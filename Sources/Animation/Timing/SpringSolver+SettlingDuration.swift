import Geometry

extension SpringSolver {
    /// The settling ε UIKit solves for (reference §4.5 "UIKit mapping").
    public static let uiKitSettlingEpsilon = 0.001

    /// UIKit's `animate(withDuration:…usingSpringWithDamping:initialSpringVelocity:…)` (§4.5): mass 1,
    /// the given velocity, and the stiffness and damping for which a spring of damping ratio ζ
    /// settles to within ε = 0.001 at `settlingDuration`. Like SwiftUI's
    /// `Spring(settlingDuration:dampingRatio:)`, the duration is clamped to [0.01, 10] s and ζ to
    /// (0, 1] (ζ ≤ 0 or NaN becomes 0.001, ζ > 1 becomes 1). UIKit's private routine is unconfirmed
    /// (§10 item 18): this is our own solve of the same problem.
    ///
    /// With mass 1, k = ω0² and c = 2ζω0, so only ω0 is unknown. We solve g(ω0) = 0 for
    /// - ζ < 1, with s = √(1−ζ²) and B = (ζω0 − v0)/(ω0·s): Core Animation's own envelope bound
    ///   (`durationForEpsilon`), so the result's `settlingDuration` is exactly the duration:
    ///   g(ω0) = ζ·ω0·D − ln((1 + |B|)/ε);
    /// - ζ = 1: the critically damped x(D) = ε through its bound |x(t)| ≤ (1 + |ω0 − v0|·t)·e^(−ω0·t)
    ///   (equal to |x| when ω0 ≥ v0), which makes g strictly increasing, so the root is unique:
    ///   g(ω0) = ω0·D − ln((1 + |ω0 − v0|·D)/ε).
    ///   `settlingDuration` then samples every 0.1 s (§4.5), so it reads D rounded up to a sample.
    /// g < 0 as ω0 → 0 and g → ∞ as ω0 → ∞; Newton steps on g, kept inside a bracket that shrinks
    /// by bisection whenever a step would leave it, find the root to ~1e-14 relative.
    public init(settlingDuration duration: Double, dampingRatio ratio: Double, initialVelocity: Double = 0) {
        let d = duration.isNaN ? MediaTiming.defaultDuration : min(max(duration, 0.01), 10)
        let zeta = ratio.isNaN || ratio <= 0 ? 0.001 : min(max(ratio, 0.001), 1)
        let v0 = initialVelocity.isFinite ? initialVelocity : 0
        let omega0 = Self.naturalFrequency(settlingDuration: d, dampingRatio: zeta,
                                           initialVelocity: v0, epsilon: Self.uiKitSettlingEpsilon)
        self.init(mass: 1, stiffness: omega0 * omega0, damping: 2 * zeta * omega0,
                  initialVelocity: v0, allowsOverdamping: false)
    }

    /// The ω0 solving g(ω0) = 0 above; `zeta` in (0, 1], `d` > 0.
    static func naturalFrequency(settlingDuration d: Double, dampingRatio zeta: Double,
                                 initialVelocity v0: Double, epsilon: Double) -> Double {
        let logInverseEpsilon = -log(epsilon)
        let s = (1 - zeta * zeta).squareRoot()
        // g and g′ at ω.
        func g(_ w: Double) -> (value: Double, slope: Double) {
            if zeta < 1 {
                let b = (zeta * w - v0) / (w * s)
                let dAbsB = (b < 0 ? -1.0 : 1.0) * v0 / (w * w * s)       // d|B|/dω
                let absB = abs(b)
                return (zeta * w * d - log1p(absB) - logInverseEpsilon, zeta * d - dAbsB / (1 + absB))
            } else {
                let a = abs(w - v0) * d
                let dA = (w < v0 ? -1.0 : 1.0) * d
                return (w * d - log1p(a) - logInverseEpsilon, d - dA / (1 + a))
            }
        }
        // Initial guess: the exact root for v0 = 0 (underdamped), or close to it (critical, where
        // y − ln(1 + y) = ln(1/ε) has y ≈ ln(1/ε) + ln(1 + ln(1/ε))).
        let guess = zeta < 1
            ? (logInverseEpsilon + log1p(zeta / s)) / (zeta * d)
            : (logInverseEpsilon + log1p(logInverseEpsilon)) / d
        // Bracket [lo, hi] with g(lo) < 0 < g(hi).
        var lo = guess, hi = guess
        for _ in 0..<2100 where g(lo).value >= 0 { lo *= 0.5 }
        for _ in 0..<2100 where g(hi).value <= 0 { hi *= 2 }
        var w = guess
        for _ in 0..<200 {
            let (value, slope) = g(w)
            if value == 0 { return w }
            if value < 0 { lo = w } else { hi = w }
            var next = w - value / slope
            if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }   // also catches slope 0 / NaN
            if abs(next - w) <= 1e-14 * w { return next }
            w = next
        }
        return w
    }
}
