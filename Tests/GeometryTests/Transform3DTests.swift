import XCTest
@testable import Geometry

/// Reference/core-animation.md §9.1 matrix vectors (tagged [V]: verified against Apple's QuartzCore
/// by GNUstep's CI) and §1.4 formulas.
final class Transform3DTests: XCTestCase {
    func testRotationAboutZByHalfPi() {
        // [V] CATransform3DMakeRotation(π/2, 0, 0, 1) = [0 1 0 0; −1 0 0 0; 0 0 1 0; 0 0 0 1]
        let r = Transform3D.rotation(.pi / 2, 0, 0, 1)
        XCTAssertTrue(r.isClose(to: Transform3D([0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), tolerance: 1e-15))
    }

    func testRotationAboutXFillsYZBlock() {
        let a = 0.3, c = cos(a), s = sin(a)
        let r = Transform3D.rotation(a, 1, 0, 0)
        XCTAssertTrue(r.isClose(to: Transform3D([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]), tolerance: 1e-15))
    }

    func testZeroAxisRotationIsIdentity() {
        XCTAssertEqual(Transform3D.rotation(1, 0, 0, 0), .identity)
    }

    /// The product is the row-by-column sum Σk a[i][k]·b[k][j], summed from 0 in k order: the
    /// same bits as that loop for every entry, signed zeros included (−0 products sum to +0).
    func testProductIsTheRowByColumnSumBitForBit() {
        func loop(_ a: Transform3D, _ b: Transform3D) -> [Double] {
            let A = a.elements, B = b.elements
            var out: [Double] = []
            for n in 0..<16 {
                let i = n / 4, j = n % 4
                var s = 0.0
                for k in 0..<4 { s += A[i * 4 + k] * B[k * 4 + j] }
                out.append(s)
            }
            return out
        }
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let r = Double(seed >> 11) / Double(1 << 53)
            return r < 0.1 ? -0.0 : r < 0.2 ? 0 : (r - 0.6) * 1e3
        }
        for _ in 0..<500 {
            let a = Transform3D((0..<16).map { _ in next() }), b = Transform3D((0..<16).map { _ in next() })
            XCTAssertEqual((a * b).elements.map(\.bitPattern), loop(a, b).map(\.bitPattern))
        }
        XCTAssertEqual((Transform3D.translation(-0.0, 0) * .scale(-0.0, 1)).m11.sign, .plus, "a −0 product sums to +0")
    }

    func testConcatOrder() {
        // [V] Concat(translate(10,0,0), scale(2)).m41 = 20; Concat(scale(2), translate(10,0,0)).m41 = 10
        XCTAssertEqual(Transform3D.concat(.translation(10, 0, 0), .scale(2, 2, 2)).m41, 20)
        XCTAssertEqual(Transform3D.concat(.scale(2, 2, 2), .translation(10, 0, 0)).m41, 10)
    }

    func testTranslateActsBeforeExistingTransform() {
        // CATransform3DTranslate(t, …) = translation · t: scale(2) then translate(5) applied to (1,0)
        // as translate first: (1+5)·2 = 12.
        let t = Transform3D.scale(2, 2, 1).translated(5, 0, 0)
        XCTAssertEqual(t.apply(Point(1, 0)), Point(12, 0))
    }

    func testAffinePartIsIdentityForNonAffine() {
        // [V] affineTransform of scale(2,3,4), rotation about x, or m34 ≠ 0 is the identity.
        XCTAssertEqual(Transform3D.scale(2, 3, 4).affinePart, .identity)
        XCTAssertEqual(Transform3D.rotation(0.5, 1, 0, 0).affinePart, .identity)
        XCTAssertEqual(Transform3D.perspective(500).affinePart, .identity)
        XCTAssertEqual(Transform3D.scale(2, 3, 1).affinePart, .scale(2, 3, 1))
    }

    func testPerspectiveDivision() {
        // §1.4: m34 = −1/d gives w' = 1 − z/d; a point at z = d/2 is magnified 2×.
        let p = Transform3D.perspective(500).apply(10, 20, 250)
        XCTAssertEqual(p.w, 0.5, accuracy: 1e-15)
        XCTAssertEqual(p.projected, Point(20, 40))
    }

    func testInverse() {
        let m = Transform3D.rotation(0.7, 1, 2, 3).translated(4, 5, 6).scaled(2, 3, 4)
        XCTAssertTrue((m * m.inverted).isClose(to: .identity, tolerance: 1e-12))
        // Singular: returned unchanged (CATransform3DInvert).
        XCTAssertEqual(Transform3D.flatten.inverted, .flatten)
    }

    func testDeterminant() {
        XCTAssertEqual(Transform3D.scale(2, 3, 4).determinant, 24, accuracy: 1e-12)
        XCTAssertEqual(Transform3D.rotation(1.1, 0, 1, 0).determinant, 1, accuracy: 1e-12)
    }
}

final class FormattingTests: XCTestCase {
    func testFmtNeverTraps() {
        XCTAssertEqual(fmt(2), "2")
        XCTAssertEqual(fmt(0.5), "0.5")
        XCTAssertEqual(fmt(1.0 / 3), "0.3333")
        XCTAssertEqual(fmt(1e300), "1e+300")
        XCTAssertEqual(fmt(.infinity), "inf")
        XCTAssertEqual(fmt(-.infinity), "-inf")
    }
}
