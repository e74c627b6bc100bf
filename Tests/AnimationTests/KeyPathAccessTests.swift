import XCTest
@testable import Animation
import Geometry
import LayerModel

/// Key-path sub-fields (reference §5.5; Core Animation Programming Guide, "Key-Value Coding
/// Extensions"). Expected transforms are built with CATransform3DMake…/Concat (§0.3).
final class KeyPathAccessTests: XCTestCase {

    private func number(_ v: AnimationValue?, file: StaticString = #filePath, line: UInt = #line) -> Double {
        guard case .number(let x)? = v else { XCTFail("not a number: \(String(describing: v))", file: file, line: line); return .nan }
        return x
    }
    private func transform(_ v: AnimationValue?, file: StaticString = #filePath, line: UInt = #line) -> Transform3D {
        guard case .transform(let m)? = v else { XCTFail("not a transform", file: file, line: line); return .identity }
        return m
    }
    private func kp(_ s: String) -> ResolvedKeyPath { KeyPathTable.resolve(s)! }

    // MARK: points, sizes, rects

    func testPointFields() {
        let p = AnimationValue.point(Point(3, 4))
        XCTAssertEqual(p.field(.x), .number(3))
        XCTAssertEqual(p.field(.y), .number(4))
        XCTAssertEqual(p.setting(.x, to: .number(7)), .point(Point(7, 4)))
        XCTAssertEqual(p.setting(.y, to: .number(8)), .point(Point(3, 8)))
    }

    func testSizeFields() {
        let s = AnimationValue.size(Size(10, 20))
        XCTAssertEqual(s.field(.width), .number(10))
        XCTAssertEqual(s.field(.height), .number(20))
        XCTAssertEqual(s.setting(.width, to: .number(1)), .size(Size(1, 20)))
        XCTAssertEqual(s.setting(.height, to: .number(2)), .size(Size(10, 2)))
    }

    func testRectFields() {
        let r = AnimationValue.rect(Rect(1, 2, 30, 40))
        XCTAssertEqual(r.field(.origin), .point(Point(1, 2)))
        XCTAssertEqual(r.field(.originX), .number(1))
        XCTAssertEqual(r.field(.originY), .number(2))
        XCTAssertEqual(r.field(.size), .size(Size(30, 40)))
        XCTAssertEqual(r.field(.sizeWidth), .number(30))
        XCTAssertEqual(r.field(.sizeHeight), .number(40))
        XCTAssertEqual(r.setting(.origin, to: .point(Point(5, 6))), .rect(Rect(5, 6, 30, 40)))
        XCTAssertEqual(r.setting(.originX, to: .number(9)), .rect(Rect(9, 2, 30, 40)))
        XCTAssertEqual(r.setting(.originY, to: .number(9)), .rect(Rect(1, 9, 30, 40)))
        XCTAssertEqual(r.setting(.size, to: .size(Size(7, 8))), .rect(Rect(1, 2, 7, 8)))
        XCTAssertEqual(r.setting(.sizeWidth, to: .number(9)), .rect(Rect(1, 2, 9, 40)))
        XCTAssertEqual(r.setting(.sizeHeight, to: .number(9)), .rect(Rect(1, 2, 30, 9)))
    }

    func testWrongFieldOrValueTypeIsNil() {
        XCTAssertNil(AnimationValue.point(.zero).field(.width))
        XCTAssertNil(AnimationValue.number(1).field(.x))
        XCTAssertNil(AnimationValue.point(.zero).setting(.x, to: .point(.zero)))
        XCTAssertNil(AnimationValue.rect(.zero).setting(.origin, to: .number(1)))
        XCTAssertNil(AnimationValue.transform(.identity).setting(.translation, to: .number(1)))
        XCTAssertNil(AnimationValue.transform(.identity).setting(.rotationZ, to: .size(.zero)))
    }

    // MARK: transform fields: reading

    func testIdentityReads() {
        let t = AnimationValue.transform(.identity)
        for f: KeyPathField in [.rotationX, .rotationY, .rotationZ, .rotation, .translationX, .translationY, .translationZ] {
            XCTAssertEqual(number(t.field(f)), 0, accuracy: 0, "\(f)")
        }
        for f: KeyPathField in [.scaleX, .scaleY, .scaleZ, .scale, .scaleXY] {
            XCTAssertEqual(number(t.field(f)), 1, accuracy: 0, "\(f)")
        }
        XCTAssertEqual(t.field(.translation), .size(Size(0, 0)))
    }

    func testRotationReadsPerAxis() {
        let z = AnimationValue.transform(.rotation(0.7, 0, 0, 1))
        XCTAssertEqual(number(z.field(.rotationZ)), 0.7, accuracy: 1e-12)
        XCTAssertEqual(number(z.field(.rotation)), 0.7, accuracy: 1e-12)
        XCTAssertEqual(number(z.field(.rotationX)), 0, accuracy: 1e-12)
        XCTAssertEqual(number(z.field(.rotationY)), 0, accuracy: 1e-12)
        XCTAssertEqual(number(AnimationValue.transform(.rotation(0.4, 1, 0, 0)).field(.rotationX)), 0.4, accuracy: 1e-12)
        XCTAssertEqual(number(AnimationValue.transform(.rotation(0.3, 0, 1, 0)).field(.rotationY)), 0.3, accuracy: 1e-12)
        XCTAssertEqual(number(AnimationValue.transform(.rotation(-2.5, 0, 0, 1)).field(.rotationZ)), -2.5, accuracy: 1e-12)
    }

    func testEulerOrderXThenYThenZ() {
        // Rx(0.3) · Ry(0.2) · Rz(0.5) in row-vector order (x acts first) reads back exactly.
        let m = Transform3D.concat(Transform3D.concat(.rotation(0.3, 1, 0, 0), .rotation(0.2, 0, 1, 0)), .rotation(0.5, 0, 0, 1))
        let v = AnimationValue.transform(m)
        XCTAssertEqual(number(v.field(.rotationX)), 0.3, accuracy: 1e-12)
        XCTAssertEqual(number(v.field(.rotationY)), 0.2, accuracy: 1e-12)
        XCTAssertEqual(number(v.field(.rotationZ)), 0.5, accuracy: 1e-12)
    }

    func testScaleReadsAndAverage() {
        let s = AnimationValue.transform(.scale(2, 3, 4))
        XCTAssertEqual(number(s.field(.scaleX)), 2, accuracy: 1e-12)
        XCTAssertEqual(number(s.field(.scaleY)), 3, accuracy: 1e-12)
        XCTAssertEqual(number(s.field(.scaleZ)), 4, accuracy: 1e-12)
        XCTAssertEqual(number(s.field(.scale)), 3, accuracy: 1e-12)      // (2 + 3 + 4) / 3, KVC guide
        XCTAssertEqual(number(s.field(.scaleXY)), 2.5, accuracy: 1e-12)  // (2 + 3) / 2
        // A rotation does not change the scale factors.
        let rs = AnimationValue.transform(Transform3D.concat(.scale(2, 3, 1), .rotation(1, 0, 0, 1)))
        XCTAssertEqual(number(rs.field(.scaleX)), 2, accuracy: 1e-12)
        XCTAssertEqual(number(rs.field(.scaleY)), 3, accuracy: 1e-12)
    }

    func testMirroredScaleReadsNegativeOnTheFlippedAxis() {
        let m = AnimationValue.transform(.scale(-1, 1, 1))
        XCTAssertEqual(number(m.field(.scaleX)), -1, accuracy: 1e-12)
        XCTAssertEqual(number(m.field(.scaleY)), 1, accuracy: 1e-12)
        XCTAssertEqual(number(m.field(.rotationZ)), 0, accuracy: 1e-12)
    }

    func testTranslationReadsAndIsASize() {
        let t = AnimationValue.transform(.translation(10, 20, 30))
        XCTAssertEqual(number(t.field(.translationX)), 10)
        XCTAssertEqual(number(t.field(.translationY)), 20)
        XCTAssertEqual(number(t.field(.translationZ)), 30)
        XCTAssertEqual(t.field(.translation), .size(Size(10, 20)))
    }

    func testZeroScaleStillReads() {
        let z = AnimationValue.transform(.scale(0, 0, 1))
        XCTAssertEqual(number(z.field(.scaleX)), 0)
        XCTAssertEqual(number(z.field(.scaleY)), 0)
        XCTAssertEqual(number(z.field(.scaleZ)), 1, accuracy: 1e-12)
    }

    // MARK: transform fields: writing

    func testWritesOnIdentity() {
        let i = AnimationValue.transform(.identity)
        XCTAssertTrue(transform(i.setting(.rotationZ, to: .number(0.5))).isClose(to: .rotation(0.5, 0, 0, 1), tolerance: 1e-12))
        XCTAssertTrue(transform(i.setting(.rotation, to: .number(-1))).isClose(to: .rotation(-1, 0, 0, 1), tolerance: 1e-12))
        XCTAssertTrue(transform(i.setting(.rotationX, to: .number(0.5))).isClose(to: .rotation(0.5, 1, 0, 0), tolerance: 1e-12))
        XCTAssertTrue(transform(i.setting(.rotationY, to: .number(0.5))).isClose(to: .rotation(0.5, 0, 1, 0), tolerance: 1e-12))
        XCTAssertTrue(transform(i.setting(.scale, to: .number(2))).isClose(to: .scale(2, 2, 2), tolerance: 1e-12))
        XCTAssertTrue(transform(i.setting(.scaleX, to: .number(3))).isClose(to: .scale(3, 1, 1), tolerance: 1e-12))
        XCTAssertTrue(transform(i.setting(.scaleY, to: .number(3))).isClose(to: .scale(1, 3, 1), tolerance: 1e-12))
        XCTAssertTrue(transform(i.setting(.scaleZ, to: .number(3))).isClose(to: .scale(1, 1, 3), tolerance: 1e-12))
        XCTAssertTrue(transform(i.setting(.scaleXY, to: .number(3))).isClose(to: .scale(3, 3, 1), tolerance: 1e-12))
        XCTAssertEqual(transform(i.setting(.translation, to: .size(Size(5, 6)))), .translation(5, 6, 0))
        XCTAssertEqual(transform(i.setting(.translationX, to: .number(5))), .translation(5, 0, 0))
        XCTAssertEqual(transform(i.setting(.translationY, to: .number(5))), .translation(0, 5, 0))
        XCTAssertEqual(transform(i.setting(.translationZ, to: .number(5))), .translation(0, 0, 5))
    }

    func testMultiTurnRotationWritesThroughEachFrame() {
        // transform.rotation.z 0 → 2π: each frame writes its own angle; 3π/2 is a three-quarter turn.
        let m = transform(AnimationValue.transform(.identity).setting(.rotationZ, to: .number(1.5 * .pi)))
        XCTAssertTrue(m.isClose(to: .rotation(1.5 * .pi, 0, 0, 1), tolerance: 1e-12))
    }

    func testRotationWriteKeepsScaleAndTranslation() {
        // base: scale 2 (x, y) then translate (10, 20); write rotation.z = 0.5: S · Rz · T.
        let base = Transform3D.concat(.scale(2, 2, 1), .translation(10, 20, 0))
        let expected = Transform3D.concat(Transform3D.concat(.scale(2, 2, 1), .rotation(0.5, 0, 0, 1)), .translation(10, 20, 0))
        XCTAssertTrue(transform(AnimationValue.transform(base).setting(.rotationZ, to: .number(0.5))).isClose(to: expected, tolerance: 1e-12))
    }

    func testRotationYUnderPerspective() {
        // The classic card flip: model transform m34 = −1/500, animate transform.rotation.y.
        // Decompose/replace/recompose gives Ry(θ) · P, i.e. CATransform3DRotate(perspective, θ, 0, 1, 0).
        let p = Transform3D.perspective(500)
        for theta in [0.3, 2.0, Double.pi] {
            let got = transform(AnimationValue.transform(p).setting(.rotationY, to: .number(theta)))
            XCTAssertTrue(got.isClose(to: Transform3D.concat(.rotation(theta, 0, 1, 0), p), tolerance: 1e-12), "θ = \(theta): \(got)")
        }
    }

    func testTranslationWriteIsExactWithoutPerspective() {
        let base = Transform3D.concat(.rotation(0.3, 0, 0, 1), .translation(1, 2, 3))
        var expected = base; expected.m41 = 50
        XCTAssertEqual(transform(AnimationValue.transform(base).setting(.translationX, to: .number(50))), expected)
    }

    func testScaleFromZero() {
        // A pop-in: model scale 0, transform.scale written 0.5.
        XCTAssertTrue(transform(AnimationValue.transform(.scale(0, 0, 1)).setting(.scale, to: .number(0.5)))
            .isClose(to: .scale(0.5, 0.5, 0.5), tolerance: 1e-12))
        // A zero x scale under a 30° turn keeps the turn: writing scale.x = 1 gives the rotation.
        let base = Transform3D.concat(.scale(0, 1, 1), .rotation(.pi / 6, 0, 0, 1))
        XCTAssertTrue(transform(AnimationValue.transform(base).setting(.scaleX, to: .number(1)))
            .isClose(to: .rotation(.pi / 6, 0, 0, 1), tolerance: 1e-12))
    }

    func testAdditiveFieldAddsToTheField() {
        // Additive transform.rotation.z by 0.25 on a base turned 0.5: 0.75.
        let base = AnimationValue.transform(.rotation(0.5, 0, 0, 1))
        XCTAssertTrue(transform(base.addingToField(.rotationZ, .number(0.25))).isClose(to: .rotation(0.75, 0, 0, 1), tolerance: 1e-12))
        XCTAssertEqual(base.addingToField(.rotationZ, .number(0.25)),
                       base.setting(.rotationZ, to: .number(number(base.field(.rotationZ)) + 0.25)))
        // transform.scale additive 0.5 on scale 2: every factor 2.5 (numbers add).
        XCTAssertTrue(transform(AnimationValue.transform(.scale(2, 2, 2)).addingToField(.scale, .number(0.5)))
            .isClose(to: .scale(2.5, 2.5, 2.5), tolerance: 1e-12))
        XCTAssertEqual(AnimationValue.point(Point(1, 2)).addingToField(.x, .number(10)), .point(Point(11, 2)))
        XCTAssertEqual(AnimationValue.transform(.translation(1, 2, 0)).addingToField(.translation, .size(Size(10, 20))),
                       .transform(.translation(11, 22, 0)))
    }

    // MARK: layers

    func testLayerPlainAndSubFieldKeyPaths() {
        var layer = Layer()
        layer.position = Point(10, 20)
        layer.bounds = Rect(0, 0, 100, 50)
        XCTAssertEqual(layer.value(forKeyPath: kp("position.x")), .number(10))
        XCTAssertEqual(layer.value(forKeyPath: kp("bounds.size.width")), .number(100))
        XCTAssertEqual(layer.value(forKeyPath: kp("opacity")), .number(1))
        XCTAssertTrue(layer.setValue(.number(30), forKeyPath: kp("position.y")))
        XCTAssertEqual(layer.position, Point(10, 30))
        XCTAssertTrue(layer.setValue(.number(7), forKeyPath: kp("bounds.origin.x")))
        XCTAssertEqual(layer.bounds, Rect(7, 0, 100, 50))
        XCTAssertTrue(layer.setValue(.number(0.5), forKeyPath: kp("opacity")))
        XCTAssertEqual(layer.opacity, 0.5)
        XCTAssertTrue(layer.setValue(.number(-6), forKeyPath: kp("shadowOffset.height")))
        XCTAssertEqual(layer.shadowOffset, Size(0, -6))
        XCTAssertTrue(layer.setValue(.number(0.25), forKeyPath: kp("contentsRect.origin.x")))
        XCTAssertEqual(layer.contentsRect, Rect(0.25, 0, 1, 1))
    }

    func testLayerTransformKeyPaths() {
        var layer = Layer()
        layer.transform = .scale(2, 3, 4)
        XCTAssertEqual(number(layer.value(forKeyPath: kp("transform.scale"))), 3, accuracy: 1e-12)
        XCTAssertTrue(layer.setValue(.number(.pi / 2), forKeyPath: kp("transform.rotation.z")))
        XCTAssertTrue(layer.transform.isClose(to: Transform3D.concat(.scale(2, 3, 4), .rotation(.pi / 2, 0, 0, 1)), tolerance: 1e-12))
        layer.transform = .translation(4, 5, 6)
        XCTAssertEqual(layer.value(forKeyPath: kp("transform.translation")), .size(Size(4, 5)))
        XCTAssertTrue(layer.setValue(.number(1), forKeyPath: kp("sublayerTransform.translation.x")))
        XCTAssertEqual(layer.sublayerTransform, .translation(1, 0, 0))
    }

    func testLayerRefusesWrongTypesAndTruncatesIntegers() {
        var layer = Layer(.replicator)
        XCTAssertFalse(layer.setValue(.point(.zero), forKeyPath: kp("position.x")))
        XCTAssertEqual(layer.position, .zero)
        XCTAssertFalse(layer.setValue(.bool(true), forKeyPath: kp("opacity")))
        XCTAssertEqual(layer.opacity, 1)
        // instanceCount animated 1 → 10 passes 5.7: KVC's integerValue truncates to 5.
        XCTAssertTrue(layer.setValue(.number(5.7), forKeyPath: kp("instanceCount")))
        XCTAssertEqual(layer.replicator.instanceCount, 5)
    }
}
