import XCTest
@testable import Animation
import Geometry
import LayerModel

/// CAKeyframeAnimation sampling (reference §4.4). Every expected value is computed by hand in the
/// comment next to it.
final class KeyframeSamplerTests: XCTestCase {

    private func spec(_ values: [AnimationValue], mode: CalculationMode = .linear, keyTimes: [Double]? = nil,
                      timing: [TimingFunctionSpec]? = nil) -> KeyframeSpec {
        var s = KeyframeSpec()
        s.values = values; s.calculationMode = mode; s.keyTimes = keyTimes; s.timingFunctions = timing
        return s
    }
    private func numbers(_ xs: [Double]) -> [AnimationValue] { xs.map { .number($0) } }
    private func num(_ s: KeyframeSampler, _ p: Double, file: StaticString = #filePath, line: UInt = #line) -> Double {
        guard case .number(let x) = s.value(at: p).value else { XCTFail("not a number", file: file, line: line); return .nan }
        return x
    }
    private func pt(_ s: KeyframeSampler, _ p: Double, file: StaticString = #filePath, line: UInt = #line) -> Point {
        guard case .point(let x) = s.value(at: p).value else { XCTFail("not a point", file: file, line: line); return Point(.nan, .nan) }
        return x
    }
    private func assertPoint(_ a: Point, _ x: Double, _ y: Double, _ tol: Double = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.x, x, accuracy: tol, file: file, line: line)
        XCTAssertEqual(a.y, y, accuracy: tol, file: file, line: line)
    }

    // MARK: linear and keyTimes

    func testLinearDefaultSpacing() {
        // [0, 10, 30] at key times 0, ½, 1.
        let s = KeyframeSampler(spec: spec(numbers([0, 10, 30])), valueType: .number)
        XCTAssertEqual(num(s, 0.25), 5, accuracy: 1e-12)
        XCTAssertEqual(num(s, 0.75), 20, accuracy: 1e-12)
        XCTAssertEqual(num(s, 1), 30)
        XCTAssertEqual(num(s, 0), 0)
    }

    func testLinearWithKeyTimes() {
        // key times 0, 0.8, 1: 0.4 is half of segment 0 (5); 0.9 is half of segment 1 (20).
        let s = KeyframeSampler(spec: spec(numbers([0, 10, 30]), keyTimes: [0, 0.8, 1]), valueType: .number)
        XCTAssertEqual(num(s, 0.4), 5, accuracy: 1e-12)
        XCTAssertEqual(num(s, 0.9), 20, accuracy: 1e-12)
    }

    func testInvalidKeyTimesAreIgnored() {
        // Each of these breaks one §4.4 rule; all fall back to 0, ½, 1, so p = ¼ gives 5.
        for bad: [Double] in [[0, 0.5], [0, 0.7, 0.6, 1], [0, 0.7, 0.6], [0.1, 0.5, 1], [0, 0.5, 0.9], [0, 1.2, 1], [-0.1, 0.5, 1]] {
            let s = KeyframeSampler(spec: spec(numbers([0, 10, 30]), keyTimes: bad), valueType: .number)
            XCTAssertEqual(num(s, 0.25), 5, accuracy: 1e-12, "\(bad)")
        }
    }

    func testRepeatedKeyTimeJumps() {
        // 0, ½, ½, 1 over [0, 10, 20, 30]: at ½ the value is already 20 (segment 2 starts), just
        // before it 10.
        let s = KeyframeSampler(spec: spec(numbers([0, 10, 20, 30]), keyTimes: [0, 0.5, 0.5, 1]), valueType: .number)
        XCTAssertEqual(num(s, 0.5), 20, accuracy: 1e-12)
        XCTAssertEqual(num(s, 0.4999999), 10, accuracy: 1e-5)
        XCTAssertEqual(num(s, 0.75), 25, accuracy: 1e-12)
    }

    func testPerSegmentTimingFunctions() {
        // Segment 0 eased in: local ½ → easeIn(½) = 0.315357 (reference §9.2) → 3.15357;
        // segment 1 linear: local ½ → 15.
        let s = KeyframeSampler(spec: spec(numbers([0, 10, 20]), timing: [.named(.easeIn), .named(.linear)]), valueType: .number)
        XCTAssertEqual(num(s, 0.25), 3.15357, accuracy: 1e-5)
        XCTAssertEqual(num(s, 0.75), 15, accuracy: 1e-12)
        // A missing entry is linear.
        let short = KeyframeSampler(spec: spec(numbers([0, 10, 20]), timing: [.named(.easeIn)]), valueType: .number)
        XCTAssertEqual(num(short, 0.75), 15, accuracy: 1e-12)
    }

    func testExtrapolatesOutsideZeroOne() {
        let s = KeyframeSampler(spec: spec(numbers([0, 10])), valueType: .number)
        XCTAssertEqual(num(s, -0.5), -5, accuracy: 1e-12)
        XCTAssertEqual(num(s, 1.5), 15, accuracy: 1e-12)
    }

    func testSingleAndNoValues() {
        let one = KeyframeSampler(spec: spec(numbers([7])), valueType: .number)
        XCTAssertEqual(num(one, 0.3), 7)
        let none = KeyframeSampler(spec: spec([]), valueType: .number)
        XCTAssertTrue(none.isEmpty)
        XCTAssertEqual(none.value(at: 0.5).value, .null)
    }

    func testTransformAndColorKeyframes() {
        // identity → 90° → 180° about z: ¼ is 45°, ¾ is 135° (each segment a quarter turn).
        let t = KeyframeSampler(spec: spec([.transform(.identity), .transform(.rotation(.pi / 2, 0, 0, 1)),
                                            .transform(.rotation(.pi, 0, 0, 1))]), valueType: .transform)
        guard case .transform(let q) = t.value(at: 0.25).value, case .transform(let tq) = t.value(at: 0.75).value else { return XCTFail() }
        XCTAssertTrue(q.isClose(to: .rotation(.pi / 4, 0, 0, 1), tolerance: 1e-12))
        XCTAssertTrue(tq.isClose(to: .rotation(0.75 * .pi, 0, 0, 1), tolerance: 1e-12))
        // Colours in cubic mode fall back to linear: red → blue at ½ of segment 0.
        let c = KeyframeSampler(spec: spec([.color(Color(1, 0, 0)), .color(Color(0, 0, 1)), .color(Color(0, 1, 0))], mode: .cubic),
                                valueType: .color)
        XCTAssertEqual(c.value(at: 0.25).value, .color(Color(0.5, 0, 0.5)))
    }

    // MARK: discrete

    func testDiscreteDefaultSpacing() {
        // Three values, default key times i/3: [0, ⅓) → 1, [⅓, ⅔) → 2, [⅔, 1] → 3.
        let s = KeyframeSampler(spec: spec(numbers([1, 2, 3]), mode: .discrete), valueType: .number)
        XCTAssertEqual(num(s, 0), 1)
        XCTAssertEqual(num(s, 0.3), 1)
        XCTAssertEqual(num(s, 0.34), 2)
        XCTAssertEqual(num(s, 0.7), 3)
        XCTAssertEqual(num(s, 1), 3)
        XCTAssertEqual(num(s, -0.1), 1)
        XCTAssertEqual(num(s, 1.5), 3)
    }

    func testDiscreteWithKeyTimes() {
        // n + 1 = 4 key times: value i holds on [tᵢ, tᵢ₊₁).
        let s = KeyframeSampler(spec: spec(numbers([1, 2, 3]), mode: .discrete, keyTimes: [0, 0.1, 0.2, 1]), valueType: .number)
        XCTAssertEqual(num(s, 0.05), 1)
        XCTAssertEqual(num(s, 0.15), 2)
        XCTAssertEqual(num(s, 0.5), 3)
        // n key times is not valid for discrete: default spacing again (0.5 → value 2).
        let n = KeyframeSampler(spec: spec(numbers([1, 2, 3]), mode: .discrete, keyTimes: [0, 0.1, 1]), valueType: .number)
        XCTAssertEqual(num(n, 0.5), 2)
    }

    // MARK: paced

    func testPacedPolylineWithUnequalLengths() {
        // (0,0) → (30,0) → (30,10): lengths 30 and 10, key times 0, ¾, 1. keyTimes and timing
        // functions are ignored.
        var sp = spec([.point(Point(0, 0)), .point(Point(30, 0)), .point(Point(30, 10))], mode: .paced,
                      keyTimes: [0, 0.1, 1], timing: [.named(.easeIn), .named(.easeIn)])
        sp.calculationMode = .paced
        let s = KeyframeSampler(spec: sp, valueType: .point)
        assertPoint(pt(s, 0.5), 20, 0)        // ⅔ of segment 0
        assertPoint(pt(s, 0.75), 30, 0)
        assertPoint(pt(s, 0.875), 30, 5)      // ½ of segment 1
    }

    func testPacedNumbers() {
        // 0 → 10 → 5: distances 10 and 5, key times 0, ⅔, 1; 0.8 is 0.4 into segment 1 → 8.
        let s = KeyframeSampler(spec: spec(numbers([0, 10, 5]), mode: .paced), valueType: .number)
        XCTAssertEqual(num(s, 0.8), 8, accuracy: 1e-12)
        // All equal: uniform spacing, constant value.
        XCTAssertEqual(num(KeyframeSampler(spec: spec(numbers([4, 4, 4]), mode: .paced), valueType: .number), 0.3), 4)
    }

    // MARK: cubic (Kochanek–Bartels)

    func testCatmullRomMidpoint() {
        // P = (0,0), (10,0), (10,10), (0,10), key times 0, ⅓, ⅔, 1.
        // Segment 1 at s = ½ (p = ½): D₁ = (P₂ − P₀)/2 = (5, 5), D₂ = (P₃ − P₁)/2 = (−5, 5);
        // Hermite weights at ½: h00 = h01 = ½, h10 = ⅛, h11 = −⅛, so
        // H = ½P₁ + ⅛D₁ + ½P₂ − ⅛D₂ = (5,0) + (0.625,0.625) + (5,5) − (−0.625,0.625) = (11.25, 5):
        // the curve bulges outward (x > 10) between the two right-hand corners.
        let pts: [AnimationValue] = [.point(Point(0, 0)), .point(Point(10, 0)), .point(Point(10, 10)), .point(Point(0, 10))]
        let s = KeyframeSampler(spec: spec(pts, mode: .cubic), valueType: .point)
        assertPoint(pt(s, 0.5), 11.25, 5)
        // Segment 0 at s = ½ (p = ⅙), end point duplicated: D₀ = (P₁ − P₀)/2 = (5, 0);
        // H = ½P₀ + ⅛D₀ + ½P₁ − ⅛D₁ = (0.625, 0) + (5, 0) − (0.625, 0.625) = (5, −0.625).
        assertPoint(pt(s, 1.0 / 6), 5, -0.625)
        // The keyframes themselves are hit.
        assertPoint(pt(s, 1.0 / 3), 10, 0)
    }

    func testTensionOneIsLinearIsh() {
        // T = 1 zeroes every tangent: H(s) = (2s³−3s²+1)Pᵢ + (−2s³+3s²)Pᵢ₊₁. [0, 10, 20]:
        // midpoints are exact (p = ¼ → 5), but s = ¼ gives 0.15625 · 10 = 1.5625 (linear: 2.5).
        var sp = spec(numbers([0, 10, 20]), mode: .cubic)
        sp.tensionValues = [1, 1, 1]
        let s = KeyframeSampler(spec: sp, valueType: .number)
        XCTAssertEqual(num(s, 0.25), 5, accuracy: 1e-12)
        XCTAssertEqual(num(s, 0.125), 1.5625, accuracy: 1e-12)
    }

    func testNonUniformKeyTimesScaleTangents() {
        // [0, 10, 20] at 0, ¼, 1: Δt₀ = ¼, Δt₁ = ¾. D₁ = (20 − 0)/2 = 10, outgoing × 2·¾/1 = 15,
        // incoming × 2·¼/1 = 5; D₂⁻ = (20 − 10)/2 = 5. Segment 1 at s = ½ (p = 0.625):
        // ½·10 + ⅛·15 + ½·20 − ⅛·5 = 16.25 (unscaled tangents would give 15.625).
        let s = KeyframeSampler(spec: spec(numbers([0, 10, 20]), mode: .cubic, keyTimes: [0, 0.25, 1]), valueType: .number)
        XCTAssertEqual(num(s, 0.625), 16.25, accuracy: 1e-12)
    }

    func testBias() {
        // [0, 10, 30], B₁ = 1: D₁⁺ = D₁⁻ = (1)(2)(1)/2 · (P₁ − P₀) = 10. D₀⁺ = 5, D₂⁻ = (30 − 10)/2 = 10.
        // Segment 0 at ½: ⅛·5 + ½·10 − ⅛·10 = 4.375; segment 1 at ½: ½·10 + ⅛·10 + ½·30 − ⅛·10 = 20.
        var sp = spec(numbers([0, 10, 30]), mode: .cubic)
        sp.biasValues = [0, 1, 0]
        let s = KeyframeSampler(spec: sp, valueType: .number)
        XCTAssertEqual(num(s, 0.25), 4.375, accuracy: 1e-12)
        XCTAssertEqual(num(s, 0.75), 20, accuracy: 1e-12)
    }

    func testCubicPacedMovesAtConstantSpeed() {
        // [0, 10, 20, 30]: the Catmull-Rom spline is monotonic (segment 0 is −5s³ + 10s² + 5s,
        // derivative > 0), so constant speed along it means value = 30p. The arc length is sampled,
        // hence the tolerance.
        let s = KeyframeSampler(spec: spec(numbers([0, 10, 20, 30]), mode: .cubicPaced), valueType: .number)
        for p in [0.1, 0.5, 0.9] { XCTAssertEqual(num(s, p), 30 * p, accuracy: 0.01, "p = \(p)") }
        XCTAssertEqual(num(s, 1), 30, accuracy: 1e-9)
    }

    // MARK: path

    private static let k = 0.5522847498307936

    /// (0,0) → (100,0) straight, then a quarter circle about (100,100) to (200,100).
    private func lineAndQuarter() -> Path {
        let k = Self.k * 100
        return Path([.move(Point(0, 0)), .line(Point(100, 0)),
                     .cubic(Point(100 + k, 0), Point(200, 100 - k), Point(200, 100))])
    }

    func testPathLinearFollowsSegments() {
        var sp = KeyframeSpec()
        sp.path = lineAndQuarter(); sp.rotationMode = .auto
        let s = KeyframeSampler(spec: sp, valueType: .point)
        XCTAssertEqual(s.keyframeCount, 3)
        // p = ¼: half of the line → (50, 0), heading along +x (angle 0).
        assertPoint(pt(s, 0.25), 50, 0)
        XCTAssertEqual(s.value(at: 0.25).rotation!, 0, accuracy: 1e-12)
        // p = ¾: the cubic at s = ½ = ⅛p₀ + ⅜c₁ + ⅜c₂ + ⅛p₁ = (170.7107, 29.2893), the 45° point of
        // the circle; the derivative there is (108.58, 108.58): heading π/4 (y down).
        assertPoint(pt(s, 0.75), 170.71068, 29.28932, 1e-4)
        XCTAssertEqual(s.value(at: 0.75).rotation!, .pi / 4, accuracy: 1e-12)
        assertPoint(pt(s, 1), 200, 100)
    }

    func testPathPacedByArcLength() {
        // Length ≈ 100 + 50π = 257.08 (the kappa cubic is within 1e-3 of the circle's length).
        // p = 50/257.08 is the middle of the line; p = ½ is 128.54 along: 28.54 into the arc, angle
        // 0.2854 rad from the top, so (100 + 100 sin 0.2854, 100 − 100 cos 0.2854) = (128.16, 4.05).
        var sp = KeyframeSpec()
        sp.path = lineAndQuarter(); sp.calculationMode = .paced
        let s = KeyframeSampler(spec: sp, valueType: .point)
        let total = 100 + 50 * Double.pi
        assertPoint(pt(s, 50 / total), 50, 0, 0.05)
        assertPoint(pt(s, 100 / total), 100, 0, 0.05)
        assertPoint(pt(s, 0.5), 128.16, 4.05, 0.05)
        XCTAssertNil(s.value(at: 0.5).rotation)
    }

    func testRotationModeOnADiagonal() {
        var sp = KeyframeSpec()
        sp.path = Path([.move(Point(0, 0)), .line(Point(10, 10))])
        sp.rotationMode = .auto
        let auto = KeyframeSampler(spec: sp, valueType: .point)
        assertPoint(pt(auto, 0.5), 5, 5)
        XCTAssertEqual(auto.value(at: 0.5).rotation!, .pi / 4, accuracy: 1e-12)
        sp.rotationMode = .autoReverse
        let reverse = KeyframeSampler(spec: sp, valueType: .point)
        XCTAssertEqual(reverse.value(at: 0.5).rotation!, .pi / 4 + .pi, accuracy: 1e-12)
        // No rotation without a path.
        var values = spec([.point(.zero), .point(Point(10, 10))]); values.rotationMode = .auto
        XCTAssertNil(KeyframeSampler(spec: values, valueType: .point).value(at: 0.5).rotation)
    }

    func testPathDiscreteAndMoves() {
        // Discrete over the keyframe points (0,0), (10,0), (10,10): ½ is in [⅓, ⅔) → (10, 0).
        var sp = KeyframeSpec()
        sp.path = Path([.move(Point(0, 0)), .line(Point(10, 0)), .line(Point(10, 10))])
        sp.calculationMode = .discrete
        assertPoint(pt(KeyframeSampler(spec: sp, valueType: .point), 0.5), 10, 0)
        // A move-to starts the next segment elsewhere: two segments, each half the time.
        var jump = KeyframeSpec()
        jump.path = Path([.move(Point(0, 0)), .line(Point(10, 0)), .move(Point(20, 0)), .line(Point(30, 0))])
        let j = KeyframeSampler(spec: jump, valueType: .point)
        assertPoint(pt(j, 0.25), 5, 0)
        assertPoint(pt(j, 0.75), 25, 0)
    }

    func testDegenerateTangentUsesTheNextControlPoint() {
        // c1 on p0: the derivative vanishes at s = 0; the direction is c2 − p0 = (10, 10), i.e. π/4.
        var sp = KeyframeSpec()
        sp.path = Path([.move(Point(0, 0)), .cubic(Point(0, 0), Point(10, 10), Point(20, 10))])
        sp.rotationMode = .auto; sp.calculationMode = .discrete
        XCTAssertEqual(KeyframeSampler(spec: sp, valueType: .point).value(at: 0.1).rotation!, .pi / 4, accuracy: 1e-12)
    }

    func testSingularTransformKeyframeSwitchesAtTheSegmentEnd() {
        // identity → scale 0 → identity: segment 0 cannot be decomposed, so it holds identity until
        // its end (p = ½), as `ValueInterpolation` does for a basic animation.
        let s = KeyframeSampler(spec: spec([.transform(.identity), .transform(.scale(0, 0, 1)), .transform(.identity)]),
                                valueType: .transform)
        XCTAssertEqual(s.value(at: 0.25).value, .transform(.identity))
        XCTAssertEqual(s.value(at: 0.5).value, .transform(.scale(0, 0, 1)))
        XCTAssertEqual(s.value(at: 0.75).value, .transform(.scale(0, 0, 1)))
    }

    func testPathOverridesValuesOnlyForPoints() {
        var sp = spec([.point(Point(1, 1)), .point(Point(3, 3))])
        sp.path = Path([.move(Point(0, 0)), .line(Point(10, 0))])
        assertPoint(pt(KeyframeSampler(spec: sp, valueType: .point), 0.5), 5, 0)
        var numbersSpec = spec(numbers([0, 10]))
        numbersSpec.path = Path([.move(Point(0, 0)), .line(Point(10, 0))])
        XCTAssertEqual(num(KeyframeSampler(spec: numbersSpec, valueType: .number), 0.5), 5)
    }
}
