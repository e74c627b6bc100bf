import XCTest
@testable import Animation
import Geometry
import LayerModel

/// `ValueInterpolation` (reference §5, §4.2–§4.3). Expected values are hand-computed in the
/// comments; `Transform3D` makers are CATransform3DMake… (reference §0.3, §9.1).
final class ValueInterpolationTests: XCTestCase {
    typealias VI = ValueInterpolation

    // MARK: helpers

    func assertClose(_ a: AnimationValue, _ b: AnimationValue, _ tol: Double = 1e-9,
                     file: StaticString = #filePath, line: UInt = #line) {
        switch (a, b) {
        case (.number(let x), .number(let y)): XCTAssertEqual(x, y, accuracy: tol, file: file, line: line)
        case (.point(let x), .point(let y)):
            XCTAssertEqual(x.x, y.x, accuracy: tol, file: file, line: line); XCTAssertEqual(x.y, y.y, accuracy: tol, file: file, line: line)
        case (.color(let x), .color(let y)):
            for (u, v) in [(x.red, y.red), (x.green, y.green), (x.blue, y.blue), (x.alpha, y.alpha)] {
                XCTAssertEqual(u, v, accuracy: tol, "\(x) vs \(y)", file: file, line: line)
            }
        case (.transform(let x), .transform(let y)):
            XCTAssertTrue(x.isClose(to: y, tolerance: tol), "\(x) vs \(y)", file: file, line: line)
        default: XCTAssertEqual(a, b, file: file, line: line)
        }
    }

    // MARK: numbers, points, sizes, rects (§5.1)

    func testNumbersLerpAndExtrapolate() {
        assertClose(VI.interpolate(.number(10), .number(20), 0.25), .number(12.5))
        assertClose(VI.interpolate(.number(10), .number(20), -0.5), .number(5))      // 10 − 0.5·10
        assertClose(VI.interpolate(.number(10), .number(20), 1.5), .number(25))      // spring overshoot
    }

    func testPointsSizesRectsComponentWise() {
        assertClose(VI.interpolate(.point(Point(0, 0)), .point(Point(10, 20)), 0.5), .point(Point(5, 10)))
        XCTAssertEqual(VI.interpolate(.size(Size(10, 10)), .size(Size(20, 40)), 0.5), .size(Size(15, 25)))
        // (0,0,10,10) → (10,20,30,40): origin and size independently.
        XCTAssertEqual(VI.interpolate(.rect(Rect(0, 0, 10, 10)), .rect(Rect(10, 20, 30, 40)), 0.5), .rect(Rect(5, 10, 20, 25)))
    }

    func testEndpointsAreExact() {
        let a = AnimationValue.transform(Transform3D.rotation(0.3, 1, 2, 3)), b = AnimationValue.transform(.scale(2, 3, 4))
        XCTAssertEqual(VI.interpolate(a, b, 0), a)
        XCTAssertEqual(VI.interpolate(a, b, 1), b)
    }

    // MARK: colours (§5.2)

    func testColorsNonPremultipliedSRGB() {
        // Red opaque → blue half-transparent at ½: (0.5, 0, 0.5, 0.75), components lerped as written.
        assertClose(VI.interpolate(.color(Color(1, 0, 0, 1)), .color(Color(0, 0, 1, 0.5)), 0.5), .color(Color(0.5, 0, 0.5, 0.75)))
        // Clear white → opaque black: non-premultiplied gives grey 0.5 at alpha 0.5 (premultiplied
        // interpolation would give 0 after un-premultiplying).
        assertClose(VI.interpolate(.color(Color(1, 1, 1, 0)), .color(Color(0, 0, 0, 1)), 0.5), .color(Color(0.5, 0.5, 0.5, 0.5)))
    }

    func testNilColorIsClearOfTheOtherRGB() {
        assertClose(VI.interpolate(.null, .color(Color(1, 0, 0, 1)), 0.5), .color(Color(1, 0, 0, 0.5)))
        assertClose(VI.interpolate(.color(Color(0, 1, 0, 1)), .null, 0.25), .color(Color(0, 1, 0, 0.75)))
        XCTAssertEqual(VI.interpolate(.color(Color(0, 1, 0, 1)), .null, 1), .null)
        XCTAssertEqual(VI.interpolate(.null, .null, 0.5), .null)
    }

    // MARK: discrete (§5.1, §10 item 15)

    func testDiscreteSwitchesAtOne() {
        XCTAssertEqual(VI.interpolate(.bool(false), .bool(true), 0.99), .bool(false))
        XCTAssertEqual(VI.interpolate(.bool(false), .bool(true), 1), .bool(true))
        XCTAssertEqual(VI.interpolate(.bool(false), .bool(true), -1), .bool(false))
        XCTAssertEqual(VI.interpolate(.bool(false), .bool(true), 1.2), .bool(true))
        XCTAssertEqual(VI.interpolate(.enumeration("butt"), .enumeration("round"), 0.5), .enumeration("butt"))
        XCTAssertEqual(VI.interpolate(.string("a"), .string("b"), 0.5), .string("a"))
        XCTAssertEqual(VI.interpolate(.cornerMask([]), .cornerMask(.all), 0.999), .cornerMask([]))
        // Mismatched kinds never interpolate.
        XCTAssertEqual(VI.interpolate(.number(1), .point(Point(1, 1)), 0.5), .number(1))
    }

    // MARK: arrays and paths (§5.1, §5.6)

    func testArraysElementWiseWhenCountsMatch() {
        XCTAssertEqual(VI.interpolate(.numberArray([0, 1]), .numberArray([1, 3]), 0.5), .numberArray([0.5, 2]))
        XCTAssertEqual(VI.interpolate(.numberArray([0, 1]), .numberArray([1, 3, 4]), 0.5), .numberArray([0, 1]))
        XCTAssertEqual(VI.interpolate(.colorArray([Color(0, 0, 0, 1)]), .colorArray([Color(1, 1, 1, 1)]), 0.5),
                       .colorArray([Color(0.5, 0.5, 0.5, 1)]))
        XCTAssertEqual(VI.interpolate(.colorArray([Color(0, 0, 0, 1)]), .colorArray([]), 0.5), .colorArray([Color(0, 0, 0, 1)]))
    }

    func testPathsElementWiseWhenStructureMatches() {
        let a = Path([.move(Point(0, 0)), .line(Point(10, 0)), .cubic(Point(1, 1), Point(2, 2), Point(3, 3)), .close])
        let b = Path([.move(Point(0, 10)), .line(Point(20, 10)), .cubic(Point(3, 3), Point(4, 4), Point(5, 5)), .close])
        let mid = Path([.move(Point(0, 5)), .line(Point(15, 5)), .cubic(Point(2, 2), Point(3, 3), Point(4, 4)), .close])
        XCTAssertEqual(VI.interpolate(.path(a), .path(b), 0.5), .path(mid))
        let other = Path([.move(Point(0, 0)), .line(Point(1, 1))])
        XCTAssertEqual(VI.interpolate(.path(a), .path(other), 0.5), .path(a))
        XCTAssertEqual(VI.interpolate(.path(a), .path(other), 1), .path(other))
    }

    // MARK: transforms (§5.3)

    func testTransformTranslationAndRotation() {
        assertClose(VI.interpolate(.transform(.identity), .transform(.translation(100, 50, 0)), 0.3),
                    .transform(.translation(30, 15, 0)))
        assertClose(VI.interpolate(.transform(.identity), .transform(.rotation(.pi / 2, 0, 0, 1)), 0.5),
                    .transform(.rotation(.pi / 4, 0, 0, 1)))
    }

    func testTransformTakesTheShortestArc() {
        // 170° → −170°: 20° through 180°, not 340° through 0 (reference §5.3).
        let a = Transform3D.rotation(170 * .pi / 180, 0, 0, 1), b = Transform3D.rotation(-170 * .pi / 180, 0, 0, 1)
        assertClose(VI.interpolate(.transform(a), .transform(b), 0.5), .transform(.rotation(.pi, 0, 0, 1)))
        // 0 → 2π is no motion at all.
        assertClose(VI.interpolate(.transform(.identity), .transform(.rotation(2 * .pi, 0, 0, 1)), 0.5), .transform(.identity))
    }

    func testSingularTransformSwitchesDiscretely() {
        let zero = Transform3D.scale(0, 0, 1)
        XCTAssertEqual(VI.interpolate(.transform(.identity), .transform(zero), 0.5), .transform(.identity))
        XCTAssertEqual(VI.interpolate(.transform(.identity), .transform(zero), 1), .transform(zero))
        XCTAssertEqual(VI.interpolate(.transform(zero), .transform(.identity), 0.999), .transform(zero))
    }

    func testMirroredTransformFlipsInPlane() {
        // identity → scale(−1, 1): sx goes 1 → −1 with no rotation (our decision; CSS would tip the
        // layer through a half-turn about x). At ¼: scale(0.5, 1, 1); at ¾: scale(−0.5, 1, 1).
        assertClose(VI.interpolate(.transform(.identity), .transform(.scale(-1, 1, 1)), 0.25), .transform(.scale(0.5, 1, 1)))
        assertClose(VI.interpolate(.transform(.identity), .transform(.scale(-1, 1, 1)), 0.75), .transform(.scale(-0.5, 1, 1)))
        assertClose(VI.interpolate(.transform(.scale(1, -2, 1)), .transform(.scale(1, -4, 1)), 0.5), .transform(.scale(1, -3, 1)))
    }

    func testQuaternionConventionMatchesMakeRotation() {
        // Quaternion(angle: θ, axis) ↔ CATransform3DMakeRotation(θ, axis) (reference §0.3, §9.1),
        // both ways.
        let m = Transform3D.rotation(1.1, 1, -2, 0.5)
        let n = Quaternion(angle: 1.1, axisX: 1, -2, 0.5).rotationRows
        let rows = [n.a00, n.a01, n.a02, n.a10, n.a11, n.a12, n.a20, n.a21, n.a22]
        let expected = [m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33]
        for (a, b) in zip(rows, expected) { XCTAssertEqual(a, b, accuracy: 1e-12) }
        let q = Quaternion(rotationRows: n), r = Quaternion(angle: 1.1, axisX: 1, -2, 0.5)
        XCTAssertEqual(abs(q.dot(r)), 1, accuracy: 1e-12)
        XCTAssertEqual(q.angle, 1.1, accuracy: 1e-12)
    }

    func testDecompositionRoundTripsWithPerspectiveAndShear() {
        // A composite with every part: recomposing the decomposition gives the matrix back.
        var m = Transform3D.scale(2, 3, 0.5)
        m = Transform3D.concat(m, Transform3D([1, 0, 0, 0, 0.4, 1, 0, 0, 0.1, 0.2, 1, 0, 0, 0, 0, 1]))
        m = Transform3D.concat(m, .rotation(0.7, 1, 2, 3))
        m = Transform3D.concat(m, .translation(5, -6, 7))
        m = Transform3D.concat(m, .perspective(500))
        let d = DecomposedTransform(m)
        XCTAssertNotNil(d)
        // m44 = t · p + 1 = 7 · (−1/500) + 1 = 0.986; the decomposition works on M / m44 (the same
        // projective transform), so that is what recomposes, and the first row's length 2 reads as
        // 2 / 0.986 while the perspective column stays −1/500.
        XCTAssertEqual(m.m44, 0.986, accuracy: 1e-15)
        let normalised = Transform3D(m.elements.map { $0 / 0.986 })
        XCTAssertTrue(d!.matrix.isClose(to: normalised, tolerance: 1e-12), "\(d!.matrix) vs \(normalised)")
        XCTAssertEqual(d!.scale.x, 2 / 0.986, accuracy: 1e-12)
        XCTAssertEqual(d!.perspective.z, -1.0 / 500, accuracy: 1e-15)
        XCTAssertEqual(d!.translation.z, 7 / 0.986, accuracy: 1e-12)
    }

    // MARK: add / subtract (§4.2, §4.3, §10 item 6)

    func testAddNumbersPointsSizesRectsColors() {
        XCTAssertEqual(VI.add(.number(1), .number(2)), .number(3))
        XCTAssertEqual(VI.add(.point(Point(1, 2)), .point(Point(10, 20))), .point(Point(11, 22)))
        XCTAssertEqual(VI.add(.size(Size(1, 2)), .size(Size(10, 20))), .size(Size(11, 22)))
        XCTAssertEqual(VI.add(.rect(Rect(1, 2, 3, 4)), .rect(Rect(10, 20, 30, 40))), .rect(Rect(11, 22, 33, 44)))
        assertClose(VI.add(.color(Color(0.25, 0.5, 0, 0.5)), .color(Color(0.5, 0.25, 1, 1))), .color(Color(0.75, 0.75, 1, 1.5)))
        assertClose(VI.add(.null, .color(Color(0.5, 0, 0, 1))), .color(Color(0.5, 0, 0, 1)))
        XCTAssertEqual(VI.add(.numberArray([1, 2]), .numberArray([10, 20])), .numberArray([11, 22]))
        // Discrete kinds do not add: the animation's value wins.
        XCTAssertEqual(VI.add(.bool(true), .bool(false)), .bool(false))
    }

    func testAddCommutingTransforms() {
        assertClose(VI.add(.transform(.translation(10, 0, 0)), .transform(.translation(0, 5, 0))), .transform(.translation(10, 5, 0)))
        assertClose(VI.add(.transform(.rotation(0.3, 0, 0, 1)), .transform(.rotation(0.4, 0, 0, 1))), .transform(.rotation(0.7, 0, 0, 1)))
        assertClose(VI.add(.transform(.scale(2, 2, 2)), .transform(.scale(3, 3, 3))), .transform(.scale(6, 6, 6)))
    }

    func testAddNonCommutingTransformAppliesDeltaFirst() {
        // base = rotation 90°, δ = translate (10, 0). add = δ · base: the origin moves to (10, 0)
        // first, then rotates to (0, 10). (base · δ would leave it at (10, 0).)
        let r = VI.add(.transform(.rotation(.pi / 2, 0, 0, 1)), .transform(.translation(10, 0, 0)))
        guard case .transform(let m) = r else { return XCTFail() }
        XCTAssertEqual(m.m41, 0, accuracy: 1e-12)
        XCTAssertEqual(m.m42, 10, accuracy: 1e-12)
    }

    func testSubtractIsTheInverseOfAdd() {
        XCTAssertEqual(VI.subtract(.number(5), .number(2)), .number(3))
        XCTAssertEqual(VI.subtract(.point(Point(5, 5)), .point(Point(1, 2))), .point(Point(4, 3)))
        // a = translate(10, 0) then rotate 90°, b = rotate 90°: b⁻¹ · a is a pure translation by
        // (10, 0) turned 90°, i.e. (0, 10).
        let a = Transform3D.concat(.translation(10, 0, 0), .rotation(.pi / 2, 0, 0, 1))
        let b = Transform3D.rotation(.pi / 2, 0, 0, 1)
        assertClose(VI.subtract(.transform(a), .transform(b)), .transform(.translation(0, 10, 0)))
        assertClose(VI.add(VI.subtract(.transform(a), .transform(b)), .transform(b)), .transform(a))
        assertClose(VI.subtract(.color(Color(1, 1, 1, 1)), .color(Color(0.25, 0.5, 0.75, 1))), .color(Color(0.75, 0.5, 0.25, 0)))
    }

    // MARK: zero

    func testZeroOfEachType() {
        XCTAssertEqual(VI.zero(of: .number), .number(0))
        XCTAssertEqual(VI.zero(of: .integer), .number(0))
        XCTAssertEqual(VI.zero(of: .point), .point(.zero))
        XCTAssertEqual(VI.zero(of: .size), .size(.zero))
        XCTAssertEqual(VI.zero(of: .rect), .rect(.zero))
        XCTAssertEqual(VI.zero(of: .color), .color(Color(0, 0, 0, 0)))
        XCTAssertEqual(VI.zero(of: .transform), .transform(.identity))
        XCTAssertEqual(VI.zero(of: .bool), .bool(false))
        XCTAssertEqual(VI.zero(of: .numberArray), .numberArray([]))
        XCTAssertEqual(VI.zero(of: .path), .null)
        XCTAssertEqual(VI.zero(of: .enumeration(["butt", "round"])), .enumeration("butt"))
    }

    func testZeroLikeKeepsShape() {
        XCTAssertEqual(VI.zero(like: .numberArray([3, 4, 5])), .numberArray([0, 0, 0]))
        let p = Path([.move(Point(1, 2)), .line(Point(3, 4)), .close])
        XCTAssertEqual(VI.zero(like: .path(p)), .path(Path([.move(.zero), .line(.zero), .close])))
        XCTAssertEqual(VI.add(VI.zero(like: .path(p)), .path(p)), .path(p))
        XCTAssertEqual(VI.zero(like: .enumeration("round")), .enumeration("round"))
    }

    // MARK: cumulative (§4.2, §10 item 12)

    func testAccumulate() {
        XCTAssertEqual(VI.accumulate(.number(5), count: 3), .number(15))
        XCTAssertEqual(VI.accumulate(.point(Point(1, 2)), count: 2), .point(Point(2, 4)))
        XCTAssertEqual(VI.accumulate(.number(5), count: 0), .number(0))
        assertClose(VI.accumulate(.color(Color(0.1, 0.2, 0.3, 0.4)), count: 2), .color(Color(0.2, 0.4, 0.6, 0.8)))
        // Rotation π/3 three times is π; translation four times; scale 2 cubed.
        assertClose(VI.accumulate(.transform(.rotation(.pi / 3, 0, 0, 1)), count: 3), .transform(.rotation(.pi, 0, 0, 1)))
        assertClose(VI.accumulate(.transform(.translation(10, 0, 0)), count: 4), .transform(.translation(40, 0, 0)))
        assertClose(VI.accumulate(.transform(.scale(2, 2, 2)), count: 3), .transform(.scale(8, 8, 8)))
        XCTAssertEqual(VI.accumulate(.transform(.scale(2, 2, 2)), count: 0), .transform(.identity))
        XCTAssertEqual(VI.accumulate(.bool(true), count: 2), .bool(false))
        // §4.2's example: rotation 0 → π cumulative, iteration 2 at p = ½ is 2π + π/2.
        let v = VI.add(VI.accumulate(.number(.pi), count: 2), VI.interpolate(.number(0), .number(.pi), 0.5))
        assertClose(v, .number(2.5 * .pi))
    }

    // MARK: distance (paced metric)

    func testDistance() {
        XCTAssertEqual(VI.distance(.number(3), .number(-2)), 5)
        XCTAssertEqual(VI.distance(.point(Point(0, 0)), .point(Point(3, 4))), 5)
        XCTAssertEqual(VI.distance(.size(Size(0, 0)), .size(Size(6, 8))), 10)
        XCTAssertEqual(VI.distance(.rect(Rect(0, 0, 0, 0)), .rect(Rect(1, 1, 1, 1))), 2)
        XCTAssertEqual(VI.distance(.color(Color(0, 0, 0, 0)), .color(Color(1, 1, 1, 1))), 2)
        XCTAssertEqual(VI.distance(.transform(.identity), .transform(.translation(3, 4, 0))), 5, accuracy: 1e-12)
        XCTAssertEqual(VI.distance(.transform(.identity), .transform(.rotation(0.5, 0, 0, 1))), 0.5, accuracy: 1e-12)
        XCTAssertEqual(VI.distance(.bool(true), .bool(true)), 0)
        XCTAssertEqual(VI.distance(.bool(true), .bool(false)), 1)
    }
}
