import XCTest
@testable import Raster

/// CATextLayer layout through Pango (reference §2.4): line counts and ink/logical bounds, not
/// glyph pixels. Expected advances come from the published font metrics the stand-in families are
/// compatible with (Liberation Sans = Helvetica/Arial metrics: "H" advances 722/1000 em; Liberation
/// Mono = Courier metrics: every glyph 600/1000 em).
final class TextRasterizerTests: XCTestCase {
    func job(_ s: String, family: String = "Liberation Sans", size: Double = 100, width: Double = 1000, height: Double = 400) -> TextRasterJob {
        TextRasterJob(string: s, family: family, sizePixels: size, color: [0, 0, 0, 1], widthPixels: width, heightPixels: height)
    }

    /// FreeType fails a face above 65,535 px per em, and cairo then keeps that font face in error:
    /// every later text of the font failed ("error occurred in libfreetype"). Such a size is
    /// refused before Pango sees it, so the next text lays out as the one before it did.
    func testASizeBeyondFreeTypesLargestFaceIsRefusedAndLeavesTheFontUsable() throws {
        let before = try TextRasterizer.rasterize(job("caprof", size: 20, width: 100, height: 30), width: 100, height: 30, key: 1).0
        XCTAssertThrowsError(try TextRasterizer.measure(job("caprof", size: 65_536))) { error in
            XCTAssertTrue("\(error)".contains("65535 px per em"), "\(error)")
        }
        XCTAssertThrowsError(try TextRasterizer.measure(job("caprof", size: .nan)))
        _ = try TextRasterizer.measure(job("caprof", size: 65_535))
        let after = try TextRasterizer.rasterize(job("caprof", size: 20, width: 100, height: 30), width: 100, height: 30, key: 1).0
        XCTAssertEqual(after, before)
        XCTAssertTrue(before.pixels.contains { $0 > 0 })
    }

    func testAdvancesFollowHelveticaAndCourierMetrics() throws {
        XCTAssertEqual(try TextRasterizer.measure(job("HHHH")).logical.width, 4 * 72.2, accuracy: 0.5)
        XCTAssertEqual(try TextRasterizer.measure(job("mmmmmmmmmm", family: "Liberation Mono")).logical.width, 600, accuracy: 0.5)
    }

    func testUnwrappedTextIsOneLineAndOverflowsTheBox() throws {
        let m = try TextRasterizer.measure(job("The quick brown fox jumps over the lazy dog", size: 20, width: 100))
        XCTAssertEqual(m.lineCount, 1)
        XCTAssertGreaterThan(m.logical.width, 100)
        XCTAssertEqual(try TextRasterizer.measure(job("one\ntwo", size: 20, width: 100)).lineCount, 2, "explicit newlines still break")
    }

    func testWrappedTextBreaksAtTheWidth() throws {
        // 10 × "mmmmm " in Liberation Mono at 10 px: 6 px per glyph, so a 6-glyph word + space is 36 px;
        // a 100 px box holds two words per line ("mmmmm mmmmm" = 66 px; three would be 102) → 5 lines.
        var j = job(Array(repeating: "mmmmm", count: 10).joined(separator: " "), family: "Liberation Mono", size: 10, width: 100)
        j.wrapped = true
        let m = try TextRasterizer.measure(j)
        XCTAssertEqual(m.lineCount, 5)
        XCTAssertLessThanOrEqual(m.logical.width, 100)
    }

    func testTruncationKeepsOneLineWithinTheWidth() throws {
        for mode in [TextRasterJob.Truncation.start, .middle, .end] {
            var j = job("The quick brown fox jumps over the lazy dog", size: 20, width: 150)
            j.truncation = mode
            let m = try TextRasterizer.measure(j)
            XCTAssertEqual(m.lineCount, 1, "\(mode)")
            XCTAssertLessThanOrEqual(m.logical.width, 150, "\(mode)")
            XCTAssertGreaterThan(m.logical.width, 100, "\(mode): filled with text up to the ellipsis")
        }
        // Wrapped + truncation: as many lines as fit the height, the last one truncated.
        var j = job(Array(repeating: "mmmmm", count: 10).joined(separator: " "), family: "Liberation Mono", size: 10, width: 100, height: 25)
        j.wrapped = true; j.truncation = .end
        XCTAssertEqual(try TextRasterizer.measure(j).lineCount, 2, "two 11.3 px lines fit in 25 px")
    }

    func testAlignmentPlacesTheLineInTheBox() throws {
        // "HHHH" at 100 px is 288.8 px wide in a 1000 px box.
        var j = job("HHHH")
        XCTAssertEqual(try TextRasterizer.measure(j).logical.x, 0, accuracy: 0.01)
        j.alignment = .right
        XCTAssertEqual(try TextRasterizer.measure(j).logical.x, 1000 - 288.8, accuracy: 0.5)
        j.alignment = .center
        XCTAssertEqual(try TextRasterizer.measure(j).logical.x, (1000 - 288.8) / 2, accuracy: 0.5)
        j.wrapped = true    // with a layout width, Pango aligns: the same place
        XCTAssertEqual(try TextRasterizer.measure(j).logical.x, (1000 - 288.8) / 2, accuracy: 0.5)
    }

    func testFirstLineStartsAtTheTopEdgeAndPixelsAreDeterministic() throws {
        let j = job("Hg", size: 40, width: 100, height: 60)
        let (a, m) = try TextRasterizer.rasterize(j, width: 100, height: 60, key: 1)
        let (b, _) = try TextRasterizer.rasterize(j, width: 100, height: 60, key: 1)
        XCTAssertEqual(a.pixels, b.pixels)
        XCTAssertEqual(m.logical.y, 0, accuracy: 0.01)
        // The first baseline is one ascent below the top (Core Text). Liberation Sans's ascent is
        // Arial's, 1854/2048 em; its "H" is 1409/2048 em tall (the font's OS/2 cap height), so the
        // ink starts (1854 − 1409)/2048 · 40 = 8.69 px below the top edge.
        XCTAssertEqual(m.ink.y, (1854.0 - 1409) / 2048 * 40, accuracy: 0.1)
        // Ink rows: the first row with alpha is row 8 (y 8.69 is inside it).
        let firstInkRow = (0..<60).first { y in (0..<100).contains { a.pixels[(y * 100 + $0) * 4 + 3] > 0 } }
        XCTAssertEqual(firstInkRow, 8)
    }
}
