import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Rows whose coverage depends on x alone are computed once and replayed
/// (`EdgeCoverage.rowIsUniform`, `PixelCoverage.forEachRun`): which rows qualify, by hand, and
/// that replaying gives exactly the runs each row computed on its own would.
final class UniformRowTests: XCTestCase {
    func item(_ quad: Rect, _ m: Transform3D = .identity, shape: RoundedShape?, clips: [Clip] = []) -> DrawItem {
        DrawItem(layer: 1, role: .background, paint: .solid(RGBA(0, 0, 0.5, 0.5)), transform: m, quad: quad, shape: shape, clips: clips)
    }

    /// Runs row by row, each row computed on its own (no replay).
    func rowByRow(_ c: PixelCoverage) -> [String] {
        var out: [String] = []
        c.rasterSpans { y, xs in c.edge!.runs(y: y, xs) { y, r, p in out.append("\(y):\(r)\(p ? "p" : "")") } }
        return out
    }
    func replayed(_ c: PixelCoverage) -> [String] {
        var out: [String] = []
        c.forEachRun { y, r, p in out.append("\(y):\(r)\(p ? "p" : "")") }
        return out
    }

    func testRowsClearOfTheCornersAndEdgesAreUniform() throws {
        // A 100×100 rounded rect at (10, 10), corner radius 8, identity: row y's centre is
        // y + 0.5. It is clear of the corners when 8 ≤ (y + 0.5) − 10 and 8 ≤ 110 − (y + 0.5),
        // i.e. 17.5 ≤ y ≤ 101.5: rows 18…101, 84 rows (the half-pixel antialiasing band is inside that).
        let c = PixelCoverage(item(Rect(9, 9, 102, 102), shape: RoundedShape(rect: Rect(10, 10, 100, 100), radii: [8, 8, 8, 8])),
                              canvasWidth: 120, canvasHeight: 120)
        let edge = try XCTUnwrap(c.edge)
        XCTAssertEqual((0..<120).filter { edge.rowIsUniform(y: $0) }, Array(18...101))
        XCTAssertEqual(replayed(c), rowByRow(c))
    }

    func testSquareCornersLeaveOnlyTheAntialiasingBand() throws {
        // Square corners at fractional edges: y = 10.25 … 60.75. Clear when (y + 0.5) − 10.25 ≥ ½
        // and 60.75 − (y + 0.5) ≥ ½: 10.25 ≤ y ≤ 59.75, rows 11…59.
        let c = PixelCoverage(item(Rect(9.25, 9.25, 52.5, 52.5), shape: RoundedShape(rect: Rect(10.25, 10.25, 50.5, 50.5))),
                              canvasWidth: 80, canvasHeight: 80)
        XCTAssertEqual((0..<80).filter { c.edge!.rowIsUniform(y: $0) }, Array(11...59))
        XCTAssertEqual(replayed(c), rowByRow(c))
    }

    func testScaledClippedAndRotatedItemsGiveTheSameRunsReplayed() {
        let rounded = RoundedShape(rect: Rect(0, 0, 40, 30), radii: [6, 2, 9, 0], curve: .continuous)
        let clip = Clip(transform: .translation(3.3, 4.7), shape: RoundedShape(rect: Rect(0, 0, 50, 28), radii: [5, 5, 5, 5]), layer: 2)
        let cases: [DrawItem] = [
            item(Rect(-1, -1, 42, 32), Transform3D.scale(1.7, 2.3, 1) * .translation(5.4, 3.1), shape: rounded),
            item(Rect(-1, -1, 42, 32), Transform3D.scale(2, 2, 1) * .translation(2, 2), shape: rounded, clips: [clip]),
            item(Rect(0, 0, 40, 30), .translation(7.5, 1.25), shape: nil, clips: [clip]),
            item(Rect(-1, -1, 42, 32), Transform3D.rotation(0.3, 0, 0, 1) * .translation(30, 10), shape: rounded, clips: [clip]),
        ]
        for (i, it) in cases.enumerated() {
            let c = PixelCoverage(it, canvasWidth: 120, canvasHeight: 120)
            XCTAssertEqual(replayed(c), rowByRow(c), "case \(i)")
            XCTAssertFalse(replayed(c).isEmpty, "case \(i)")
        }
        // Rotated: no row qualifies.
        let rotated = PixelCoverage(cases[3], canvasWidth: 120, canvasHeight: 120)
        XCTAssertTrue((0..<120).allSatisfy { !rotated.edge!.rowIsUniform(y: $0) })
    }
}
