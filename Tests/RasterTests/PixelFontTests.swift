import XCTest
@testable import Raster

/// The contact sheet's label font: exact pixels of the hand-drawn glyphs, widths, clipping.
final class PixelFontTests: XCTestCase {
    /// Renders `text` in opaque white on transparent black and returns it as rows of `#` and `.`.
    func render(_ text: String, width: Int, height: Int, x: Int = 0, y: Int = 0, scale: Int = 1) -> [String] {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        PixelFont.draw(text, into: &px, width: width, height: height, x: x, y: y, scale: scale, color: (255, 255, 255, 255))
        return (0..<height).map { row in
            String((0..<width).map { px[(row * width + $0) * 4 + 3] == 255 ? "#" : "." })
        }
    }

    func testDigitsAndPointAndSecondsArePixelExact() {
        // "1.5s": 1 (5 wide), 1 blank, . (2), 1 blank, 5 (5), 1 blank, s (5) = 20 columns.
        XCTAssertEqual(PixelFont.width(of: "1.5s"), 20)
        XCTAssertEqual(render("1.5s", width: 20, height: 8), [
            "..#......#####......",
            ".##......#..........",
            "..#......####...####",
            "..#..........#.#....",
            "..#..........#..###.",
            "..#...##.#...#.....#",
            ".###..##..###..####.",
            "....................",
        ])
    }

    func testScaleMultipliesEveryPixel() {
        XCTAssertEqual(PixelFont.width(of: "0", scale: 3), 15)
        let big = render(".", width: 4, height: 16, scale: 2)
        // '.' is 2×2 ink at rows 5–6: at scale 2, rows 10–13, all 4 columns.
        for (row, line) in big.enumerated() {
            XCTAssertEqual(line, (10...13).contains(row) ? "####" : "....", "row \(row)")
        }
    }

    func testUpperCaseIsDrawnAsLowerCaseAndUnknownAsABox() {
        XCTAssertEqual(render("S", width: 5, height: 8), render("s", width: 5, height: 8))
        XCTAssertTrue(PixelFont.covers("F") && PixelFont.covers("×") && !PixelFont.covers("€"))
        XCTAssertEqual(render("€", width: 5, height: 8), [
            "#####", "#...#", "#...#", "#...#", "#...#", "#...#", "#####", ".....",
        ])
    }

    func testClipsAtTheEdgesWithoutCrashing() {
        let r = render("10", width: 4, height: 3, x: -2, y: -2)
        // '1' rows 2–4 shifted up 2 and left 2: "#..", "#..", "#.." in columns 0–2 (columns ≥ 3 = '0' starts at x 4).
        XCTAssertEqual(r, ["#...", "#...", "#..."])
    }

    func testSourceOverBlendsTranslucentInk() {
        var px: [UInt8] = [0, 0, 200, 255]
        // '.'s top-left pixel is blank at row 0: draw at y −5 so its first ink row lands on row 0.
        PixelFont.draw(".", into: &px, width: 1, height: 1, x: 0, y: -5, color: (100, 100, 100, 128))
        // 100 + 0·127/255 = 100; 100 + 200·127/255 = 100 + 99.6 → 200; alpha 128 + 255·127/255 = 255
        XCTAssertEqual(px, [100, 100, 200, 255])
    }
}
