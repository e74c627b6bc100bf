import XCTest
import Foundation
@testable import Animation

final class SpringSolverTests: XCTestCase {
    // MARK: §9.3 reference vectors

    /// §9.3 "defaults m=1, k=100, c=10, v0=0 → ζ, ω0": 0.5, 10 rad/s.
    func testDefaultsDampingRatioAndFrequency() {
        let spring = SpringSolver()
        XCTAssertEqual(spring.dampingRatio, 0.5)
        XCTAssertEqual(spring.naturalFrequency, 10)
    }

    /// §9.3 "defaults → settlingDuration ≈ 1.472700 s" (envelope bound, underdamped).
    func testDefaultsSettlingDuration() {
        XCTAssertEqual(SpringSolver().settlingDuration, 1.472700, accuracy: 1e-6)
    }

    /// §9.3 "defaults → progress at 0.1 / 0.2 / 0.3 / 0.5 / 1.0 s".
    func testDefaultsProgress() {
        let spring = SpringSolver()
        let expected: [(Double, Double)] = [(0.1, 0.340300), (0.2, 0.849426), (0.3, 1.124355), (0.5, 1.074591), (1.0, 1.002170)]
        for (t, p) in expected {
            XCTAssertEqual(spring.progress(at: t), p, accuracy: 1e-6, "t = \(t)")
        }
    }

    /// §9.3 "m=1, k=100, c=20 (critical) → progress at 0.1 / 0.3 / 0.5 s".
    func testCriticalProgress() {
        let spring = SpringSolver(mass: 1, stiffness: 100, damping: 20)
        XCTAssertEqual(spring.dampingRatio, 1)
        for (t, p) in [(0.1, 0.264241), (0.3, 0.800852), (0.5, 0.959572)] {
            XCTAssertEqual(spring.progress(at: t), p, accuracy: 1e-6, "t = \(t)")
        }
    }

    /// §9.3 "m=1, k=100, c=20 → settlingDuration (0.1 s sampling): 1.0 s (floating sum 0.9999999999999999)".
    func testCriticalSettlingDurationIsTheFloatingSum() {
        XCTAssertEqual(SpringSolver(mass: 1, stiffness: 100, damping: 20).settlingDuration, 0.9999999999999999)
    }

    /// §9.3 "perceptualDuration 0.5, bounce 0.3 → k, c, settling": 157.913670, 17.592919, ≈ 0.862955 s.
    func testPerceptualWithBounce() {
        let spring = SpringSolver(perceptualDuration: 0.5, bounce: 0.3)
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, 157.913670, accuracy: 1e-6)
        XCTAssertEqual(spring.damping, 17.592919, accuracy: 1e-6)
        XCTAssertTrue(spring.allowsOverdamping)
        XCTAssertEqual(spring.settlingDuration, 0.862955, accuracy: 1e-6)
    }

    /// §9.3 "perceptualDuration 0.5, bounce 0 → k, c, settling": 157.913670, 25.132741, 0.8 s
    /// (critical, so sampled every 0.1 s: the running sum 0.7999999999999999).
    func testPerceptualWithoutBounce() {
        let spring = SpringSolver(perceptualDuration: 0.5, bounce: 0)
        XCTAssertEqual(spring.stiffness, 157.913670, accuracy: 1e-6)
        XCTAssertEqual(spring.damping, 25.132741, accuracy: 1e-6)
        XCTAssertEqual(spring.settlingDuration, 0.8, accuracy: 1e-9)
    }

    // MARK: Read-backs and bounce (§4.5)

    func testPerceptualReadBacks() {
        let spring = SpringSolver(perceptualDuration: 0.5, bounce: 0.3)
        XCTAssertEqual(spring.perceptualDuration, 0.5, accuracy: 1e-12)
        XCTAssertEqual(spring.bounce, 0.3, accuracy: 1e-12)
        XCTAssertEqual(spring.dampingRatio, 0.7, accuracy: 1e-12)
        // Negative bounce: ζ = 1/(1 + b) = 2 for b = −0.5; read back as 1/ζ − 1 = −0.5.
        let overdamped = SpringSolver(perceptualDuration: 1, bounce: -0.5)
        XCTAssertEqual(overdamped.dampingRatio, 2, accuracy: 1e-12)
        XCTAssertEqual(overdamped.bounce, -0.5, accuracy: 1e-12)
        XCTAssertEqual(SpringSolver.dampingRatio(forBounce: 0.25), 0.75)
        XCTAssertEqual(SpringSolver.dampingRatio(forBounce: -0.5), 2)
        XCTAssertEqual(SpringSolver.bounce(forDampingRatio: 0.75), 0.25)
        XCTAssertEqual(SpringSolver.bounce(forDampingRatio: 4), -0.75)
        // Defaults: P = 2π√(1/100), ζ = 0.5 ⇒ bounce 0.5.
        XCTAssertEqual(SpringSolver().perceptualDuration, 2 * Double.pi / 10, accuracy: 1e-12)
        XCTAssertEqual(SpringSolver().bounce, 0.5, accuracy: 1e-12)
    }

    /// A perceptual duration ≤ 0 gives infinite stiffness (§4.5): at the target at once.
    func testZeroPerceptualDurationIsInstant() {
        let spring = SpringSolver(perceptualDuration: 0, bounce: 0.2)
        XCTAssertEqual(spring.stiffness, .infinity)
        XCTAssertEqual(spring.progress(at: 0), 0)
        XCTAssertEqual(spring.progress(at: 0.001), 1)
        XCTAssertEqual(spring.settlingDuration, 0)
    }

    // MARK: Validation (§4.5 table)

    func testInvalidValuesAreReplaced() {
        let spring = SpringSolver(mass: 0, stiffness: -5, damping: -1)
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, 100)
        XCTAssertEqual(spring.damping, 10)
        XCTAssertEqual(SpringSolver(mass: -3).mass, 1)
        XCTAssertEqual(SpringSolver(stiffness: 0).stiffness, 100)
        XCTAssertEqual(SpringSolver(damping: 0).damping, 0)                  // 0 is valid (< 0 is not)
        XCTAssertEqual(SpringSolver(mass: .nan, stiffness: .nan, damping: .nan),
                       SpringSolver(mass: 1, stiffness: 100, damping: 10))
    }

    // MARK: Regimes (§4.5)

    /// ζ > 1 without allowsOverdamping is treated as critically damped with decay ω0 (§4.5):
    /// m=1, k=100, c=40 gives ζ = 2 but the same curve as c = 20.
    func testOverdampedWithoutPermissionIsCritical() {
        let strong = SpringSolver(mass: 1, stiffness: 100, damping: 40)
        XCTAssertEqual(strong.dampingRatio, 2)
        XCTAssertEqual(strong.progress(at: 0.1), 0.264241, accuracy: 1e-6)     // §9.3's critical value
        XCTAssertEqual(strong.settlingDuration, 0.9999999999999999)
    }

    /// ζ > 1 with allowsOverdamping: two real exponentials. By hand for m=1, k=100, c=40 (ζ = 2, ω0 = 10):
    /// r1 = −10(2 − √3), r2 = −10(2 + √3), C2 = −r1/(r2 − r1), C1 = 1 − C2.
    func testOverdampedWithPermission() {
        let spring = SpringSolver(mass: 1, stiffness: 100, damping: 40, allowsOverdamping: true)
        let r1 = -10 * (2 - 3.0.squareRoot()), r2 = -10 * (2 + 3.0.squareRoot())
        let c2 = -r1 / (r2 - r1), c1 = 1 - c2
        for t in [0.05, 0.1, 0.5, 1, 2] {
            XCTAssertEqual(spring.progress(at: t), 1 - (c1 * exp(r1 * t) + c2 * exp(r2 * t)), accuracy: 1e-12, "t = \(t)")
        }
        // By hand: C1 = 1.0773503, C2 = −0.0773503, e^(0.1·r1) = 0.7649466, e^(0.1·r2) = 0.0239437:
        // 1 − (1.0773503·0.7649466 − 0.0773503·0.0239437) = 1 − (0.8241154 − 0.0018521) = 0.1777367.
        XCTAssertEqual(spring.progress(at: 0.1), 0.1777367, accuracy: 1e-6)
        // Slow decay |r1| = 2.679…: settles later than the critical spring, by the 0.1 s sampling rule:
        // |x| ≈ C1·e^(r1 t) < 0.001 ⇔ t > ln(1000·C1)/|r1| ≈ 2.606, so the first sample below is 2.7.
        XCTAssertEqual(spring.settlingDuration, 2.7, accuracy: 1e-9)
    }

    /// The initial velocity is the slope of progress at 0 in every regime (x′(0) = −v0, §4.5).
    func testInitialVelocityIsTheInitialSlope() {
        let springs = [
            SpringSolver(initialVelocity: 3),
            SpringSolver(damping: 20, initialVelocity: -2),
            SpringSolver(damping: 40, initialVelocity: 5, allowsOverdamping: true),
        ]
        for spring in springs {
            let h = 1e-7
            XCTAssertEqual(spring.progress(at: h) / h, spring.initialVelocity, accuracy: 1e-3)
        }
    }

    /// progress(0) = 0 and negative times count as 0; the spring converges to 1.
    func testEnds() {
        for spring in [SpringSolver(), SpringSolver(damping: 20), SpringSolver(damping: 40, allowsOverdamping: true)] {
            XCTAssertEqual(spring.progress(at: 0), 0)
            XCTAssertEqual(spring.progress(at: -1), 0)
            XCTAssertEqual(spring.progress(at: 30), 1, accuracy: 1e-9)
        }
    }

    // MARK: durationForEpsilon (§4.5)

    /// Divided by |speed|; speed 0 ⇒ FLT_MAX; ε clamped to ≥ 1e-6; no damping ⇒ never (FLT_MAX).
    func testDurationForEpsilonRules() {
        let spring = SpringSolver()
        XCTAssertEqual(spring.durationForEpsilon(0.001, speed: 2), spring.settlingDuration / 2, accuracy: 1e-12)
        XCTAssertEqual(spring.durationForEpsilon(0.001, speed: -2), spring.settlingDuration / 2, accuracy: 1e-12)
        XCTAssertEqual(spring.durationForEpsilon(0.001, speed: 0), Double(Float.greatestFiniteMagnitude))
        XCTAssertEqual(spring.durationForEpsilon(1e-12), spring.durationForEpsilon(1e-6))
        // Envelope by hand for ε = 0.01: ln((1 + 1/√3)/0.01)/5.
        XCTAssertEqual(spring.durationForEpsilon(0.01), log((1 + 1 / 3.0.squareRoot()) / 0.01) / 5, accuracy: 1e-12)
        // A huge ε: the bound is below 0, so 0.
        XCTAssertEqual(spring.durationForEpsilon(100), 0)
        XCTAssertEqual(SpringSolver(damping: 0).settlingDuration, Double(Float.greatestFiniteMagnitude))
    }

    // MARK: init(spec:duration:)

    func testInitFromSpec() {
        let physical = SpringSolver(spec: SpringSpec(parameters: .physical(mass: 2, stiffness: 50, damping: 3, allowsOverdamping: true),
                                                     initialVelocity: 1.5), duration: nil)
        XCTAssertEqual(physical, SpringSolver(mass: 2, stiffness: 50, damping: 3, initialVelocity: 1.5, allowsOverdamping: true))
        XCTAssertEqual(SpringSolver(spec: SpringSpec(), duration: 3), SpringSolver())
        let perceptual = SpringSolver(spec: SpringSpec(parameters: .perceptual(duration: 0.5, bounce: 0.3)), duration: 9)
        XCTAssertEqual(perceptual, SpringSolver(perceptualDuration: 0.5, bounce: 0.3))
        let uiKit = SpringSolver(spec: SpringSpec(parameters: .dampingRatio(0.6), initialVelocity: 0.5), duration: 0.8)
        XCTAssertEqual(uiKit, SpringSolver(settlingDuration: 0.8, dampingRatio: 0.6, initialVelocity: 0.5))
        XCTAssertEqual(uiKit.initialVelocity, 0.5)
        // No duration: Core Animation's default 0.25 s (§3.4).
        XCTAssertEqual(SpringSolver(spec: SpringSpec(parameters: .dampingRatio(0.6)), duration: nil).settlingDuration,
                       0.25, accuracy: 1e-9)
    }

    // MARK: UIKit's duration + damping ratio (§4.5 "UIKit mapping")

    /// With v0 = 0 the underdamped equation ζ·ω0·D = ln((1 + ζ/√(1−ζ²))/ε) has a closed form; by
    /// hand for ζ = 0.5, D = 1: ω0 = 2·ln((1 + 1/√3)/0.001), k = ω0², c = 2ζω0 = ω0, mass 1.
    func testDampingRatioClosedForm() {
        let spring = SpringSolver(settlingDuration: 1, dampingRatio: 0.5)
        let omega0 = 2 * log((1 + 1 / 3.0.squareRoot()) / 0.001)
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, omega0 * omega0, accuracy: 1e-9)
        XCTAssertEqual(spring.damping, omega0, accuracy: 1e-9)
        XCTAssertEqual(spring.dampingRatio, 0.5, accuracy: 1e-12)
        XCTAssertFalse(spring.allowsOverdamping)
        XCTAssertEqual(spring.settlingDuration, 1, accuracy: 1e-9)
    }

    /// The solved spring's own settlingDuration (the envelope rule) is the requested duration, for
    /// a spread of ratios, durations and initial velocities.
    func testDampingRatioSettlesAtTheRequestedDuration() {
        for zeta in [0.05, 0.2, 0.5, 0.8, 0.95] {
            for duration in [0.01, 0.3, 1, 2.5, 10] {
                for velocity in [0.0, 1, 5, -3] {
                    let spring = SpringSolver(settlingDuration: duration, dampingRatio: zeta, initialVelocity: velocity)
                    let label = "ζ \(zeta), D \(duration), v0 \(velocity)"
                    XCTAssertEqual(spring.dampingRatio, zeta, accuracy: 1e-9, label)
                    XCTAssertEqual(spring.settlingDuration, duration, accuracy: 1e-9 * duration, label)
                }
            }
        }
    }

    /// ζ = 1: the critically damped spring reaches x(D) = 0.001 (by hand: (1 + ω0·D)·e^(−ω0·D) = ε
    /// for v0 = 0); its settlingDuration samples every 0.1 s, so it reads D rounded up to a sample.
    func testCriticalDampingRatio() {
        for duration in [0.25, 0.5, 1, 3] {
            let spring = SpringSolver(settlingDuration: duration, dampingRatio: 1)
            let w = spring.naturalFrequency
            XCTAssertEqual(spring.dampingRatio, 1)
            XCTAssertEqual((1 + w * duration) * exp(-w * duration), 0.001, accuracy: 1e-12)
            XCTAssertGreaterThanOrEqual(spring.settlingDuration, duration - 1e-9)
            XCTAssertLessThanOrEqual(spring.settlingDuration, duration + 0.1 + 1e-9)
        }
        // With a velocity below ω0 the bound is exact: x(D) = ε still.
        let moving = SpringSolver(settlingDuration: 1, dampingRatio: 1, initialVelocity: 2)
        let w = moving.naturalFrequency
        XCTAssertEqual((1 + (w - 2) * 1) * exp(-w), 0.001, accuracy: 1e-12)
    }

    /// Clamps (§4.5 UIKit mapping): duration to [0.01, 10], ratio to (0, 1].
    func testDampingRatioClamps() {
        XCTAssertEqual(SpringSolver(settlingDuration: 20, dampingRatio: 0.5).settlingDuration, 10, accuracy: 1e-8)
        XCTAssertEqual(SpringSolver(settlingDuration: 0, dampingRatio: 0.5).settlingDuration, 0.01, accuracy: 1e-11)
        XCTAssertEqual(SpringSolver(settlingDuration: 1, dampingRatio: 3), SpringSolver(settlingDuration: 1, dampingRatio: 1))
        XCTAssertEqual(SpringSolver(settlingDuration: 1, dampingRatio: 0).dampingRatio, 0.001, accuracy: 1e-12)
        XCTAssertEqual(SpringSolver(settlingDuration: 1, dampingRatio: -1).settlingDuration, 1, accuracy: 1e-9)
    }
}
