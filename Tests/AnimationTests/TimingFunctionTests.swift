import XCTest
@testable import Animation

final class TimingFunctionTests: XCTestCase {
    private let named: [TimingFunctionName] = [.default, .easeIn, .easeOut, .easeInEaseOut]

    /// Reference §9.2 [calc]: every value of the table, to 1e-5.
    func testReferenceTableNinePointTwo() {
        let xs = [0.10, 0.25, 0.50, 0.75, 0.90]
        let expected: [TimingFunctionName: [Double]] = [
            .default: [0.094796, 0.408511, 0.802403, 0.960459, 0.994316],
            .easeIn: [0.017027, 0.093465, 0.315357, 0.621862, 0.839428],
            .easeOut: [0.160572, 0.378138, 0.684643, 0.906535, 0.982973],
            .easeInEaseOut: [0.019722, 0.129162, 0.500000, 0.870838, 0.980278],
        ]
        for (name, ys) in expected {
            let f = TimingFunction(.named(name))
            for (x, y) in zip(xs, ys) {
                XCTAssertEqual(f(x), y, accuracy: 1e-5, "\(name) at \(x)")
            }
        }
    }

    /// Every named curve starts at exactly 0 and ends at exactly 1 (P0 = (0,0), P3 = (1,1), §6.1).
    func testNamedCurveEndpointsAreExact() {
        for name in TimingFunctionName.allCases {
            let f = TimingFunction(.named(name))
            XCTAssertEqual(f(0), 0, "\(name)")
            XCTAssertEqual(f(1), 1, "\(name)")
        }
    }

    /// Progress is clamped to [0, 1] before the curve (§6.2 step 4 is not needed for CA); NaN → 0.
    func testInputIsClamped() {
        let f = TimingFunction(.named(.default))
        XCTAssertEqual(f(-0.5), 0)
        XCTAssertEqual(f(1.5), 1)
        XCTAssertEqual(f(.nan), 0)
        XCTAssertEqual(f(-.infinity), 0)
        XCTAssertEqual(f(.infinity), 1)
    }

    /// `linear` is the identity, and so is any curve whose control points lie on the diagonal.
    func testLinearIsIdentity() {
        let diagonal = TimingFunction(c1x: 0.2, c1y: 0.2, c2x: 0.7, c2y: 0.7)
        XCTAssertTrue(TimingFunction.linear.isLinear)
        XCTAssertTrue(diagonal.isLinear)
        for x in stride(from: 0.0, through: 1.0, by: 0.05) {
            XCTAssertEqual(TimingFunction.linear(x), x, accuracy: 1e-15)
            XCTAssertEqual(diagonal(x), x, accuracy: 1e-15)
        }
        XCTAssertEqual(TimingFunction(.named(.linear)), TimingFunction.linear)
    }

    /// easeOut's control points are easeIn's rotated by 180° about (0.5, 0.5), so
    /// easeOut(x) = 1 − easeIn(1 − x); easeInEaseOut is its own rotation: f(0.5) = 0.5 (§6.1).
    func testSymmetries() {
        let easeIn = TimingFunction(.named(.easeIn)), easeOut = TimingFunction(.named(.easeOut))
        let easeInOut = TimingFunction(.named(.easeInEaseOut))
        for x in stride(from: 0.0, through: 1.0, by: 0.01) {
            XCTAssertEqual(easeOut(x), 1 - easeIn(1 - x), accuracy: 1e-10, "x = \(x)")
            XCTAssertEqual(easeInOut(x), 1 - easeInOut(1 - x), accuracy: 1e-10, "x = \(x)")
        }
        XCTAssertEqual(easeInOut(0.5), 0.5, accuracy: 1e-12)
    }

    /// Overshooting control points (y outside [0, 1], allowed by §6.1). With c1x = 1/3 and c2x = 2/3,
    /// X(s) = s exactly (cx = 1, bx = 0, ax = 0), so y(x) = Y(x), by hand: c1y = −0.5, c2y = 1.5 give
    /// cy = −1.5, by = 3·(1.5 + 0.5) + 1.5 = 7.5, ay = 1 + 1.5 − 7.5 = −5, Y(s) = −5s³ + 7.5s² − 1.5s.
    func testOvershootingControlPoints() {
        let f = TimingFunction(c1x: 1.0 / 3, c1y: -0.5, c2x: 2.0 / 3, c2y: 1.5)
        XCTAssertEqual(f(0.1), -0.005 + 0.075 - 0.15, accuracy: 1e-10)      // −0.08: below 0
        XCTAssertEqual(f(0.5), -0.625 + 1.875 - 0.75, accuracy: 1e-10)      // 0.5
        XCTAssertEqual(f(0.9), -3.645 + 6.075 - 1.35, accuracy: 1e-10)      // 1.08: above 1
        XCTAssertEqual(f(0), 0)
        XCTAssertEqual(f(1), 1)
    }

    /// The solver inverts X: for parameters s, X(s) and Y(s) are computed here from the Bézier
    /// polynomials of §6.2, and f(X(s)) must give Y(s) — far more precisely than CA's 1e-5. The
    /// curves include a flat X′ in the middle ((1,0),(0,1): X′(0.5) = 0, Newton's worst case) and
    /// steep ends.
    func testSolverInvertsTheCurve() {
        let curves: [(Double, Double, Double, Double)] = [
            (0.25, 0.1, 0.25, 1), (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1),
            (1, 0, 0, 1), (0, 1, 1, 0), (0.9, -0.4, 0.1, 1.4), (0.05, 0.9, 0.95, 0.1), (1, 1, 1, 1), (0, 0, 0, 0),
        ]
        for (p1x, p1y, p2x, p2y) in curves {
            let f = TimingFunction(c1x: p1x, c1y: p1y, c2x: p2x, c2y: p2y)
            func bezier(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
                // (1−s)³·0 + 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³·1
                3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
            }
            for i in 0...200 {
                let s = Double(i) / 200
                let x = bezier(p1x, p2x, s), y = bezier(p1y, p2y, s)
                XCTAssertEqual(f(x), y, accuracy: 1e-7, "curve \((p1x, p1y, p2x, p2y)) s = \(s)")
            }
        }
    }

    /// Control-point x outside [0, 1] is clamped, keeping X monotonic (§6.1: "x should stay in [0,1]").
    func testControlPointXIsClamped() {
        let f = TimingFunction(c1x: -0.5, c1y: 0.3, c2x: 1.5, c2y: 0.7)
        XCTAssertEqual(f.c1x, 0)
        XCTAssertEqual(f.c2x, 1)
        XCTAssertEqual(f, TimingFunction(c1x: 0, c1y: 0.3, c2x: 1, c2y: 0.7))
        var previous = -Double.infinity
        for i in 0...100 {
            let y = f(Double(i) / 100)
            XCTAssertGreaterThanOrEqual(y, previous)
            previous = y
        }
    }

    /// The spec's control points are the ones the function uses (default = (0.25,0.1),(0.25,1), §6.1).
    func testInitFromSpec() {
        let f = TimingFunction(.named(.default))
        XCTAssertEqual(f, TimingFunction(c1x: 0.25, c1y: 0.1, c2x: 0.25, c2y: 1))
        XCTAssertEqual(TimingFunction(.controlPoints(0.42, 0, 0.58, 1)), TimingFunction(.named(.easeInEaseOut)))
        XCTAssertNotEqual(f, TimingFunction.linear)
    }
}
