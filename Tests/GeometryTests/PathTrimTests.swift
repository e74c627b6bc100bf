import XCTest
@testable import Geometry

/// strokeStart/strokeEnd trimming by arc length (reference §2.1), against hand-computed lengths.
final class PathTrimTests: XCTestCase {
    func testLengthOfLinesClosesAndAQuarterCircle() {
        XCTAssertEqual(Path.rect(Rect(0, 0, 20, 10)).length, 60, accuracy: 1e-9)
        // A quarter of CGPath(ellipseIn:) of radius 10: its cubic approximates 2π·10/4 = 15.708
        // within the kappa approximation's 0.03 %.
        let quarter = Path([.move(Point(10, 0)), .cubic(Point(10, 5.522847498), Point(5.522847498, 10), Point(0, 10))])
        XCTAssertEqual(quarter.length, 15.70796, accuracy: 0.01)
    }

    func testTrimmingARectangleKeepsTheRightEdgesAndOpensIt() {
        let r = Path.rect(Rect(0, 0, 20, 10))          // perimeter 60
        let t = r.trimmed(start: 0, end: 0.5)           // 30: the top edge (20) and the right edge (10)
        XCTAssertEqual(t.elements, [.move(Point(0, 0)), .line(Point(20, 0)), .line(Point(20, 10))])
        let mid = r.trimmed(start: 0.25, end: 0.75)     // 15…45
        XCTAssertEqual(mid.elements.first, .move(Point(15, 0)))
        XCTAssertEqual(mid.length, 30, accuracy: 1e-9)
        XCTAssertFalse(mid.elements.contains(.close), "a cut subpath is open, so it gets caps")
        XCTAssertEqual(r.trimmed(start: 0, end: 1), r, "the whole path stays closed")
        XCTAssertEqual(r.trimmed(start: 0.7, end: 0.3).elements, [])
    }

    func testTrimmingSpansSubpathsInOrder() {
        let p = Path([.move(Point(0, 0)), .line(Point(10, 0)), .move(Point(0, 5)), .line(Point(30, 5))])   // 10 + 30
        let t = p.trimmed(start: 0.5, end: 1)           // from 20: 10 into the second subpath
        XCTAssertEqual(t.elements, [.move(Point(10, 5)), .line(Point(30, 5))])
        XCTAssertEqual(p.trimmedStartOffset(start: 0.5), 10, accuracy: 1e-9)
        let both = p.trimmed(start: 0.125, end: 0.5)    // 5…20
        XCTAssertEqual(both.elements, [.move(Point(5, 0)), .line(Point(10, 0)), .move(Point(0, 5)), .line(Point(10, 5))])
    }

    func testTrimmedCubicIsTheSameCurve() {
        let c = Path([.move(Point(0, 0)), .cubic(Point(0, 10), Point(10, 10), Point(10, 0))])
        let half = c.trimmed(start: 0, end: 0.5)
        // Symmetric curve: half its length ends at its midpoint, B(0.5) = (5, 7.5).
        guard case .cubic(_, _, let end)? = half.elements.last else { return XCTFail() }
        XCTAssertEqual(end.x, 5, accuracy: 0.01)
        XCTAssertEqual(end.y, 7.5, accuracy: 0.01)
        XCTAssertEqual(half.length * 2, c.length, accuracy: 0.005)   // 64-chord measurement: ~1e-4 relative
    }

    func testMiterRatioOfARightAngleIsRootTwo() {
        XCTAssertEqual(Path.rect(Rect(0, 0, 10, 10)).largestMiterRatio(limit: 10), 2.0.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(Path.rect(Rect(0, 0, 10, 10)).largestMiterRatio(limit: 1.2), 1, "above the limit: bevel")
    }
}
