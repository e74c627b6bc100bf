import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Scan conversion: pixel centres, clips, projection, and the overdraw map, against hand counts.
final class PixelCoverageTests: XCTestCase, ProfileTestSupport {
    func cover(_ r: Rect, _ m: Transform3D = .identity, clips: [Clip] = [], w: Int = 100, h: Int = 100) -> PixelCoverage {
        PixelCoverage(rect: r, transform: m, clips: clips, canvasWidth: w, canvasHeight: h)
    }

    func testRectOnTheGridCoversItsPixels() {
        XCTAssertEqual(cover(Rect(10, 10, 20, 10)).pixelCount, 200)
    }

    func testPixelCentresDecide() {
        // x 10.5…30.5: centres 10.5 … 29.5 are inside (left edge inclusive, right exclusive): 20 columns.
        XCTAssertEqual(cover(Rect(10.5, 0, 20, 1)).pixelCount, 20)
        // x 10.2…10.4 contains no centre.
        XCTAssertEqual(cover(Rect(10.2, 0, 0.2, 1)).pixelCount, 0)
        // Clipped to the canvas.
        XCTAssertEqual(cover(Rect(-10, -10, 20, 20)).pixelCount, 100)
        XCTAssertEqual(cover(Rect(95, 95, 20, 20)).pixelCount, 25)
    }

    func testScaleAndRotation() {
        XCTAssertEqual(cover(Rect(0, 0, 10, 10), .scale(3, 3)).pixelCount, 900)
        // A 20×20 square rotated 45° about its centre (50, 50): area 400; centre sampling gives
        // 400 ± the boundary pixels (exact count by symmetry of the diamond |x|+|y| ≤ 14.14: 2·14·15+1... just bound it).
        let m = Transform3D.translation(-10, -10) * .rotation(.pi / 4, 0, 0, 1) * .translation(50, 50)
        let n = cover(Rect(0, 0, 20, 20), m).pixelCount
        XCTAssertTrue((380...420).contains(n), "\(n)")
    }

    func testRectClipCutsTheItem() {
        // Item 0…40 clipped by a clip rect 10…20 in a space offset by 5: clip space = local + 5.
        let clip = Clip(transform: .translation(5, 5), shape: RoundedShape(rect: Rect(10, 10, 10, 10)), layer: 1)
        // In local space the clip is 5…15: 10×10 pixels.
        XCTAssertEqual(cover(Rect(0, 0, 40, 40), clips: [clip]).pixelCount, 100)
    }

    func testBehindTheEyeIsCut() {
        // Perspective d = 100 with the quad pushed to z ≥ 100 in part: w = 1 − z/d ≤ 0 there.
        let persp = Transform3D.perspective(100)
        let tilt = Transform3D.rotation(.pi / 2.5, 1, 0, 0) * .translation(50, 50, 0) * persp
        let c = cover(Rect(-50, -200, 100, 400), tilt, w: 100, h: 100)
        XCTAssertFalse(c.polygon.contains { !$0.x.isFinite || !$0.y.isFinite })
        XCTAssertLessThanOrEqual(c.pixelCount, 100 * 100)
        // Entirely behind: nothing.
        let behind = Transform3D.translation(0, 0, 200) * persp
        XCTAssertEqual(cover(Rect(0, 0, 10, 10), behind).pixelCount, 0)
    }

    /// Two overlapping rects at scale 1: A = (10,10)–(30,30), B = (20,20)–(40,40).
    /// Hand count: A 400, B 400, overlap (20,20)–(30,30) = 100 pixels drawn twice;
    /// once = 400 + 400 − 2·100 = 600; never = 10 000 − 700 = 9 300 (the root is not drawn).
    func testOverdrawMapOfTwoOverlappingRects() {
        let canvas = Canvas(width: 100, height: 100, scale: 1)
        var r = Layer(); r.setFrame(Rect(0, 0, 100, 100))
        r.sublayers = [box("a", Rect(10, 10, 20, 20)), box("b", Rect(20, 20, 20, 20), Color(0, 0, 1))]
        let t = tree(r)
        let a = FrameAnalyzer(canvasScale: 1).analyze(plan(t, canvas), tree: t, index: 0, time: 0, keepOverdrawMap: true)
        let map = try! XCTUnwrap(a.overdrawMap)
        XCTAssertEqual(map.count(15, 15), 1)
        XCTAssertEqual(map.count(25, 25), 2)
        XCTAssertEqual(map.count(35, 35), 1)
        XCTAssertEqual(map.count(5, 5), 0)
        XCTAssertEqual(map.count(29, 29), 2)
        XCTAssertEqual(map.count(30, 30), 1)
        XCTAssertEqual(map.histogram, [9300, 600, 100, 0, 0])
        XCTAssertEqual(a.counters.shadedPixels, 800)
        // Android's overdraw: draws beyond the first. 700 pixels drawn, 800 fragments: 100 extra
        // draws over 10 000 pixels; at most 1 extra on one pixel.
        XCTAssertEqual(a.counters.drawnPixels, 700)
        XCTAssertEqual(a.counters.maxOverdraw, 1)
        XCTAssertEqual(a.counters.overdraw, 0.01, accuracy: 1e-12)
        XCTAssertEqual(a.counters.blendedPixels, 0, "opaque colours on the grid blend nothing")
    }

    /// The histogram reads eight pixels at a time with shortcuts for all-0 and all-1 runs: a 21-pixel
    /// map (two words and a 5-pixel tail) whose counts are known by construction checks every path.
    /// Columns 0–7 of row 0 are left at 0 (an all-0 word), 8–15 drawn once (an all-1 word), the
    /// tail 16–20 drawn 0, 1, 2, 3 and 6 times: 8 + 1 zeros, 8 + 1 ones, one 2, one 3, one 4+.
    func testHistogramCountsEveryPathOfTheWordScan() {
        var m = OverdrawMap(width: 21, height: 1)
        func draw(_ x0: Double, _ x1: Double, times: Int) {
            let c = PixelCoverage(rect: Rect(x0, 0, x1 - x0, 1), transform: .identity, clips: [], canvasWidth: 21, canvasHeight: 1)
            for _ in 0..<times { m.add(c) }
        }
        draw(8, 16, times: 1)
        draw(17, 18, times: 1); draw(18, 19, times: 2); draw(19, 20, times: 3); draw(20, 21, times: 6)
        XCTAssertEqual(m.histogram, [9, 9, 1, 1, 1])
        // A mixed word: pixels 0–7 drawn 0…7 times respectively.
        var mixed = OverdrawMap(width: 8, height: 1)
        for x in 0..<8 {
            let c = PixelCoverage(rect: Rect(Double(x), 0, 1, 1), transform: .identity, clips: [], canvasWidth: 8, canvasHeight: 1)
            for _ in 0..<x { mixed.add(c) }
        }
        XCTAssertEqual(mixed.histogram, [1, 1, 1, 1, 4])
    }

    /// Wide runs (the vectorised path) count and saturate as single pixels do: row 0 gets 300
    /// draws over x 0..<100 and 10 more over 3..<70, so 255 everywhere drawn; row 1 gets 200 over
    /// 5..<90 and 100 over 50..<97: 200, then 255 where they overlap (300 saturates), then 100.
    func testWideRunsCountAndSaturateLikeSinglePixels() {
        var m = OverdrawMap(width: 100, height: 2)
        for _ in 0..<300 { m.add(y: 0, 0..<100) }
        for _ in 0..<10 { m.add(y: 0, 3..<70) }
        for _ in 0..<200 { m.add(y: 1, 5..<90) }
        for _ in 0..<100 { m.add(y: 1, 50..<97) }
        XCTAssertEqual((0..<100).map { m.count($0, 0) }, Array(repeating: 255, count: 100))
        let row1 = (0..<100).map { m.count($0, 1) }
        let expected = (0..<100).map { x -> Int in
            if x < 5 { return 0 }
            if x < 50 { return 200 }
            if x < 90 { return 255 }
            return x < 97 ? 100 : 0
        }
        XCTAssertEqual(row1, expected)
    }

    func testOverdrawSaturatesAt255() {
        var m = OverdrawMap(width: 2, height: 1)
        let c = PixelCoverage(rect: Rect(0, 0, 1, 1), transform: .identity, clips: [], canvasWidth: 2, canvasHeight: 1)
        for _ in 0..<300 { m.add(c) }
        XCTAssertEqual(m.count(0, 0), 255)
        XCTAssertEqual(m.maxCount, 255)
        XCTAssertEqual(m.histogram, [1, 0, 0, 0, 1])
    }
}
