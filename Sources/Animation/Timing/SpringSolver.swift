import Geometry

/// CASpringAnimation's damped oscillator (reference §4.5): the progress of a unit displacement
/// x(0) = 1, x'(0) = −v₀ towards 0, progress(t) = 1 − x(t), with t in seconds of local animation
/// time (the spring is never stretched to the animation's duration).
///
/// Three regimes, exactly as §4.5 writes them: underdamped (ζ < 1); critically damped (ζ = 1, and
/// also ζ > 1 unless `allowsOverdamping`, which Core Animation then treats as critical with decay
/// ω0); overdamped (ζ > 1 with `allowsOverdamping`). The derived constants are computed once in
/// `init`, so `progress(at:)` is a handful of flops and one `exp`.
public struct SpringSolver: Sendable, Equatable {
    /// After §4.5's invalid-value handling: mass ≤ 0 → 1, stiffness ≤ 0 → 100, damping < 0 → 10
    /// (NaN counts as invalid too, and so does an infinite mass; an infinite stiffness is an
    /// instant spring).
    public let mass: Double
    public let stiffness: Double
    public let damping: Double
    /// Fractions of the from→to distance per second; positive = towards the target.
    public let initialVelocity: Double
    public let allowsOverdamping: Bool

    private enum Regime: Sendable, Equatable {
        /// Infinite stiffness (a perceptual duration ≤ 0): at the target for any t > 0.
        case instant
        case underdamped(decay: Double, omegaD: Double, b: Double)
        case critical(omega0: Double)
        case overdamped(r1: Double, r2: Double, c1: Double, c2: Double)
    }
    private let regime: Regime

    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
                initialVelocity: Double = 0, allowsOverdamping: Bool = false) {
        let m = mass > 0 && mass.isFinite ? mass : 1
        let k = stiffness > 0 ? stiffness : 100
        let c = damping >= 0 ? damping : 10
        let v0 = initialVelocity.isFinite ? initialVelocity : 0
        self.mass = m; self.stiffness = k; self.damping = c
        self.initialVelocity = v0; self.allowsOverdamping = allowsOverdamping

        let omega0 = (k / m).squareRoot()
        let zeta = c / (2 * (k * m).squareRoot())
        if !omega0.isFinite {
            regime = .instant
        } else if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            let decay = zeta * omega0
            regime = .underdamped(decay: decay, omegaD: omegaD, b: (decay - v0) / omegaD)
        } else if zeta == 1 || !allowsOverdamping || zeta.isNaN {
            regime = .critical(omega0: omega0)
        } else {
            // r1,2 = −ω0(ζ ∓ √(ζ²−1)); r1 in the cancellation-free form ω0/(ζ + √(ζ²−1)).
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega0 / (zeta + root)
            let r2 = -omega0 * (zeta + root)
            let c2 = r2.isFinite ? (-v0 - r1) / (r2 - r1) : 0
            regime = .overdamped(r1: r1, r2: r2, c1: 1 - c2, c2: c2)
        }
    }

    /// `CASpringAnimation`'s spring as the scene described it. `duration` (the animation's, in
    /// seconds) is only read by `.dampingRatio`, UIKit's `usingSpringWithDamping:`, which solves
    /// for it (nil there means Core Animation's default 0.25 s, §3.4).
    public init(spec: SpringSpec, duration: Double?) {
        switch spec.parameters {
        case .physical(let m, let k, let c, let overdamping):
            self.init(mass: m, stiffness: k, damping: c, initialVelocity: spec.initialVelocity,
                      allowsOverdamping: overdamping)
        case .perceptual(let p, let bounce):
            self.init(perceptualDuration: p, bounce: bounce, initialVelocity: spec.initialVelocity)
        case .dampingRatio(let ratio):
            self.init(settlingDuration: duration ?? MediaTiming.defaultDuration, dampingRatio: ratio,
                      initialVelocity: spec.initialVelocity)
        }
    }

    /// iOS 17's `init(perceptualDuration:bounce:)` (§4.5): mass 1, stiffness (2π/P)² (∞ when
    /// P ≤ 0, an instant spring), ζ from the bounce, damping ζ·4π/P, overdamping allowed.
    public init(perceptualDuration p: Double, bounce: Double, initialVelocity: Double = 0) {
        let zeta = Self.dampingRatio(forBounce: bounce)
        let k = p > 0 ? (2 * Double.pi / p) * (2 * Double.pi / p) : .infinity
        let c = p > 0 ? zeta * 4 * Double.pi / p : 0
        self.init(mass: 1, stiffness: k, damping: c, initialVelocity: initialVelocity, allowsOverdamping: true)
    }

    /// ζ for a perceptual bounce (§4.5): 1 − b for b ≥ 0, 1/(1 + b) for b < 0.
    public static func dampingRatio(forBounce b: Double) -> Double {
        b >= 0 ? 1 - b : 1 / (1 + b)
    }

    /// The bounce that reads back for damping ratio ζ (§4.5): 1 − ζ if ζ ≤ 1, else 1/ζ − 1.
    public static func bounce(forDampingRatio zeta: Double) -> Double {
        zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    /// ω0 = √(k/m), rad/s.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// ζ = c / (2√(km)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }
    /// Read-back of §4.5: 2π√(m/k).
    public var perceptualDuration: Double { 2 * Double.pi * (mass / stiffness).squareRoot() }
    /// Read-back of §4.5, with ζ computed as P·c/(4πm).
    public var bounce: Double {
        Self.bounce(forDampingRatio: perceptualDuration * damping / (4 * Double.pi * mass))
    }

    /// 1 − x(t): 0 at t = 0, → 1 as the spring settles, above 1 while it overshoots. Time before 0
    /// counts as 0 (a spring has no history).
    public func progress(at t: Double) -> Double { 1 - displacement(at: t) }

    /// x(t), the remaining fraction of the distance (§4.5's formulas).
    @inline(__always)
    private func displacement(at t: Double) -> Double {
        guard t > 0 else { return 1 }
        switch regime {
        case .instant:
            return 0
        case .underdamped(let decay, let omegaD, let b):
            return exp(-decay * t) * (cos(omegaD * t) + b * sin(omegaD * t))
        case .critical(let omega0):
            return (1 + (omega0 - initialVelocity) * t) * exp(-omega0 * t)
        case .overdamped(let r1, let r2, let c1, let c2):
            return c1 * exp(r1 * t) + (c2 == 0 ? 0 : c2 * exp(r2 * t))
        }
    }

    /// Core Animation's `settlingDuration`: `durationForEpsilon(0.001)` (§4.5).
    public var settlingDuration: Double { durationForEpsilon(0.001) }

    /// FLT_MAX, Core Animation's cap on a settling duration.
    public static let maximumDuration = Double(Float.greatestFiniteMagnitude)

    /// When the spring has settled to within `epsilon` of the target (§4.5), in local seconds,
    /// divided by |speed| (speed 0 ⇒ FLT_MAX), capped at FLT_MAX. `epsilon` is clamped to ≥ 1e-6.
    /// - underdamped: the decay-envelope bound max(0, ln((|A|+|B|)/ε)/(ζω0)), A = 1,
    ///   B = (ζω0 − v0)/ωd; no decay (ζ = 0) ⇒ never (FLT_MAX);
    /// - critically/over-damped: samples at t = 0, 0.1, 0.2, … (a running sum, as Core Animation
    ///   steps) and returns the earliest sample after which |x| stayed below ε for more than 1 s.
    ///   A spring that has not settled after 10⁶ samples (10⁵ s) counts as never settling.
    public func durationForEpsilon(_ epsilon: Double, speed: Double = 1) -> Double {
        let eps = max(epsilon, 1e-6)
        let local: Double
        switch regime {
        case .instant:
            local = 0
        case .underdamped(let decay, _, let b):
            local = decay > 0 ? max(0, log((1 + abs(b)) / eps) / decay) : .infinity
        case .critical, .overdamped:
            local = sampledSettlingTime(epsilon: eps)
        }
        guard speed != 0, !speed.isNaN else { return Self.maximumDuration }
        let scaled = local / abs(speed)
        return scaled.isNaN ? Self.maximumDuration : min(scaled, Self.maximumDuration)
    }

    /// §4.5's sampling rule for the non-oscillating regimes.
    private func sampledSettlingTime(epsilon: Double) -> Double {
        var t = 0.0
        var candidate: Double? = nil
        for _ in 0..<1_000_000 {
            if abs(displacement(at: t)) < epsilon {
                if let start = candidate {
                    if t - start > 1.0 { return start }
                } else {
                    candidate = t
                }
            } else {
                candidate = nil
            }
            t += 0.1
        }
        return .infinity
    }
}
