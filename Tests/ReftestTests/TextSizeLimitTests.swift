import Plan
import Raster
import XCTest

/// The plan and the text rasteriser hold one limit between them, in two modules that cannot see
/// each other: the plan scales a text down to `TextRaster.maxPixelsPerEm` (`Builder+TextContent`),
/// the rasteriser refuses anything above `TextRasterizer.maxPixelsPerEm` (FreeType's 65,535 px per
/// em, past which cairo keeps the font face in error for the rest of the process). A plan allowed
/// more than the rasteriser draws would fail frames; one allowed less would soften text for nothing.
final class TextSizeLimitTests: XCTestCase {
    func testThePlansTextSizeLimitIsTheRasterisers() {
        XCTAssertEqual(TextRaster.maxPixelsPerEm, TextRasterizer.maxPixelsPerEm)
        XCTAssertEqual(TextRasterizer.maxPixelsPerEm, 65_535, "FreeType's largest pixel size (a 16-bit field)")
    }
}
