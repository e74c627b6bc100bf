import XCTest
import Geometry
@testable import Raster

/// Strokes far wider than the picture (`ShapeRasterizer.lineWidth`): cairo fails on outlines
/// ~10¹⁵ wide (a fuzzed shape layer asked for one), so the width is capped where a wider stroke
/// covers no other pixel.
final class ShapeRasterizerStrokeTests: XCTestCase {
    /// A dashed, butt-capped line near a 40×30 bitmap, at scale 2: each dash strokes a slab
    /// across the line. The farthest corners of the path's box (10–30, 5) and the bitmap's (0–20,
    /// 0–15 in path units) are D = √(30² + 10²) ≈ 32 apart: any stroke wider than 2D covers,
    /// within the bitmap, what one 10¹⁵ wide does, the dashes' slabs right across it with the gaps
    /// between (the cap puts it at 16 · (D + 1) ≈ 522). So 10¹⁵ draws without an error and the
    /// same pixels as a stroke 70 wide, drawn as asked; 10 wide (< 2D) differs.
    func testAStrokeWiderThanThePictureDrawsWhatAnyWideEnoughStrokeDraws() throws {
        func job(_ width: Double) -> ShapeRasterJob {
            var j = ShapeRasterJob(fillPath: Path(), strokePath: Path([.move(Point(10, 5)), .line(Point(30, 5))]),
                                   pixelWidth: 40, pixelHeight: 30)
            j.stroke = [0.8, 0.1, 0.3, 1]
            j.lineWidth = width
            j.cap = .butt
            j.dashes = [7, 3]
            j.scaleX = 2; j.scaleY = 2
            return j
        }
        let d: Double = (30.0 * 30.0 + 10.0 * 10.0).squareRoot()
        XCTAssertEqual(ShapeRasterizer.lineWidth(job(1e15)), 16 * (d + 1), accuracy: 1e-9)
        XCTAssertEqual(ShapeRasterizer.lineWidth(job(70)), 70, "drawn as asked")
        let huge = try ShapeRasterizer.rasterize(job(1e15), key: 1)
        let wide = try ShapeRasterizer.rasterize(job(70), key: 1)
        XCTAssertTrue(huge.pixels == wide.pixels, "the same pixels")
        XCTAssertFalse(try ShapeRasterizer.rasterize(job(10), key: 1).pixels == wide.pixels, "a narrower stroke does not reach the corners")
        // Top-left and bottom-left pixels: in the slab of the first dash (x 10–17 in path units,
        // pixels 20–34), and in the gap after it (x 17–20: pixels 34–40).
        func alpha(_ x: Int, _ y: Int) -> UInt8 { huge.pixels[(y * 40 + x) * 4 + 3] }
        XCTAssertEqual([alpha(25, 0), alpha(25, 29)], [255, 255], "a dash's slab right across")
        XCTAssertEqual([alpha(37, 0), alpha(37, 29)], [0, 0], "the gap")
    }
}
