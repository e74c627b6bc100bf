import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Severity follows what a user can fix; near-identical findings on many layers are one finding.
final class SeverityAndGroupingTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 100, height: 100, scale: 1)

    /// A 40×40 card sliding in: off the grid (x = 10.5) in the middle frames only, at rest on
    /// whole pixels in the first and last frames. Its misalignment costs 40 × 40 = 1 600 px = 16 %
    /// of the screen (medium by share) but is at most low, and the advice speaks of its rest.
    func testMisalignedOnlyWhileMovingIsLowAndSpeaksOfTheRest() {
        let xs = [0.0, 10.5, 20.5, 30.0]
        let roots = xs.map { x in root(canvas, [box("card", Rect(x, 10, 40, 40), Color(0, 0, 1))]) }
        let f = profile(roots, canvas).first { $0.id == .misalignedSubpixel }
        XCTAssertNotNil(f)
        XCTAssertEqual(f?.phase, .midAnimation)
        XCTAssertEqual(f?.severity, .low)
        XCTAssertTrue(f?.explanation.contains("from frame 3 on it is on the pixel grid") ?? false, f?.explanation ?? "")
        XCTAssertTrue(f?.fix.hasPrefix("nothing to fix at rest") ?? false, f?.fix ?? "")
    }

    /// The same card coming to rest at x = 30.5: misaligned where it rests, so it is the one to
    /// fix, with the severity of its share (the columns x = 30 … 70 cut by the 30.5 and 70.5
    /// edges: 40 columns × 40 rows = 1 600 px = 16 % → medium).
    func testMisalignedAtRestKeepsItsSeverity() {
        let xs = [0.0, 10.5, 20.5, 30.5]
        let roots = xs.map { x in root(canvas, [box("card", Rect(x, 10, 40, 40), Color(0, 0, 1))]) }
        let f = profile(roots, canvas).first { $0.id == .misalignedSubpixel }
        XCTAssertEqual(f?.phase, .atRest)
        XCTAssertEqual(f?.severity, .medium)
        XCTAssertTrue(f?.fix.hasPrefix("round its frame") ?? false, f?.fix ?? "")
    }

    /// Six table cells, 50 × 3 px each at y = 0, 12, 24 …, each with the same translucent
    /// background (alpha 0.9): one `blended` finding listing the six layers, whose pixels are the
    /// sum 6 × 150 = 900 (9 % → medium, where each cell alone, 1.5 %, would be low).
    func testSixAlikeCellsAreOneFindingWithTheTotalCost() {
        let cells = (0..<6).map { i in box("cell-\(i)", Rect(0, Double(i * 12), 50, 3), Color(1, 1, 1, 0.9)) }
        let fs = findings(root(canvas, cells), canvas)
        let blended = fs.filter { $0.id == .blended }
        XCTAssertEqual(blended.count, 1)
        let g = blended[0]
        XCTAssertEqual(g.members?.count, 6)
        XCTAssertEqual(Set(g.layers.map(\.display)), Set((0..<6).map { "cell-\($0)" }))
        XCTAssertEqual(g.maxPixels, 900)
        XCTAssertEqual(g.members?.map(\.maxPixels), Array(repeating: 150, count: 6))
        XCTAssertEqual(g.canvasShare, 0.09, accuracy: 1e-12)
        XCTAssertTrue(g.members!.allSatisfy { $0.severity == .low })
        XCTAssertEqual(g.severity, .medium)
        XCTAssertTrue(g.layersDescription.hasSuffix("and 2 more (6 layers)"), g.layersDescription)
        XCTAssertTrue(g.explanation.hasPrefix("6 layers alike"), g.explanation)
    }

    /// Findings with different fixes stay apart: two cells of different alpha share the fix
    /// text and group; an image with alpha has another fix and stays alone.
    func testDifferentFixesAreNotGrouped() {
        let a = box("a", Rect(0, 0, 50, 10), Color(1, 1, 1, 0.5))
        var b = box("b", Rect(0, 20, 50, 10), Color(1, 1, 1, 1)); b.opacity = 0.5
        let fs = findings(root(canvas, [a, b]), canvas).filter { $0.id == .blended }
        XCTAssertEqual(fs.count, 2, "translucent colour and opacity have different fixes")
        XCTAssertTrue(fs.allSatisfy { $0.members == nil })
    }
}
