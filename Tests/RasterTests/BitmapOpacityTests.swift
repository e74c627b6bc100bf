import XCTest
@testable import Raster

final class BitmapOpacityTests: XCTestCase {
    func testOpaqueOnlyWhenEveryAlphaIs255() {
        XCTAssertTrue(Bitmap(width: 2, height: 1, pixels: [1, 2, 3, 255, 0, 0, 0, 255]).isOpaque)
        XCTAssertFalse(Bitmap(width: 2, height: 1, pixels: [1, 2, 3, 255, 0, 0, 0, 254]).isOpaque)
        XCTAssertFalse(Bitmap(width: 1, height: 1, pixels: [0, 0, 0, 0]).isOpaque)
    }

    /// The least alpha byte of any pixel, across the 4,096-pixel rows the scan reduces in.
    func testMinimumAlphaIsTheLeastAlphaOfAnyPixel() {
        XCTAssertEqual(Bitmap(width: 2, height: 1, pixels: [1, 2, 3, 255, 0, 0, 0, 255]).minimumAlpha, 255)
        XCTAssertEqual(Bitmap(width: 3, height: 1, pixels: [1, 2, 3, 200, 9, 9, 9, 128, 0, 0, 0, 255]).minimumAlpha, 128)
        // 100 × 100 at alpha 240, one pixel in the third row of the scan at 17.
        var pixels = [UInt8](repeating: 240, count: 100 * 100 * 4)
        pixels[(9_000 * 4) + 3] = 17
        XCTAssertEqual(Bitmap(width: 100, height: 100, pixels: pixels).minimumAlpha, 17)
        pixels[(9_999 * 4) + 3] = 0
        XCTAssertEqual(Bitmap(width: 100, height: 100, pixels: pixels).minimumAlpha, 0, "the last pixel, transparent")
        XCTAssertEqual(Bitmap(width: 0, height: 0, pixels: []).minimumAlpha, 0, "no pixels: nothing is known")
    }

    /// A 10×7 image in cells of 4: cells whose every alpha is 255 merge into rectangles along rows,
    /// then down columns (the last column and row are partial cells, clipped to the image).
    func testOpaqueRectsMergeOpaqueCells() {
        // Opaque everywhere but pixel (5, 1) (cell column 1, row 0) and the row y = 6 for x < 4
        // (cell column 0, row 1).
        var pixels = [UInt8](repeating: 255, count: 10 * 7 * 4)
        func translucent(_ x: Int, _ y: Int) { pixels[(y * 10 + x) * 4 + 3] = 128 }
        translucent(5, 1)
        for x in 0..<4 { translucent(x, 6) }
        let rects = Bitmap(width: 10, height: 7, pixels: pixels).opaqueRects(cell: 4)
        // Row 0: cells 0 and 2 (x 0–4, x 8–10); row 1 (y 4–7): cells 1–2 (x 4–10). Cell 2 of
        // row 0 spans x 8–10 and row 1's run x 4–10 differs, so no vertical merge.
        XCTAssertEqual(rects?.map { [$0.x, $0.y, $0.width, $0.height] }, [[0, 0, 4, 4], [8, 0, 2, 4], [4, 4, 6, 3]])
        // Columns merge when the runs match: all opaque is one rectangle.
        let all = Bitmap(width: 10, height: 7, pixels: [UInt8](repeating: 255, count: 280)).opaqueRects(cell: 4)
        XCTAssertEqual(all?.map { [$0.x, $0.y, $0.width, $0.height] }, [[0, 0, 10, 7]])
        XCTAssertNil(Bitmap(width: 10, height: 7, pixels: pixels).opaqueRects(cell: 1, maxRects: 3), "too many rectangles")
    }
}
