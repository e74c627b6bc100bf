import XCTest

/// CATextLayer on screen (reference §2.4): positions of the ink in the rendered frame, and line
/// counts from the ink's rows, not glyph pixels. Liberation Sans stands in for Helvetica with the
/// same advances ("H" = 0.722 em), so 4 × "H" at 20 pt is 57.76 pt wide.
final class TextReftests: ReftestCase {
    /// Columns and rows holding non-white pixels.
    func inkBounds(_ img: Image) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var b: (Int, Int, Int, Int)?
        for y in 0..<img.height { for x in 0..<img.width where img.pixel(x, y) != [255, 255, 255, 255] {
            b = b.map { (min($0.0, x), max($0.1, x), min($0.2, y), max($0.3, y)) } ?? (x, x, y, y)
        } }
        return b.map { (minX: $0.0, maxX: $0.1, minY: $0.2, maxY: $0.3) }
    }
    /// Runs of rows with ink, separated by blank rows.
    func inkLines(_ img: Image) -> Int {
        var lines = 0, inLine = false
        for y in 0..<img.height {
            let ink = (0..<img.width).contains { img.pixel($0, y) != [255, 255, 255, 255] }
            if ink && !inLine { lines += 1 }
            inLine = ink
        }
        return lines
    }
    func text(_ props: String, w: Int = 200, h: Int = 100) throws -> Image {
        try render(scene(w, h, #"{"class": "CATextLayer", "frame": [0, 0, \#(w), \#(h)], "foregroundColor": "black", "fontSize": 20, \#(props)}"#))
    }

    func testAlignmentPlacesTheInk() throws {
        // "HHHH": 57.76 pt of advance; H's ink sits inside its advance (side bearings ≈ 0.08 em).
        let left = try XCTUnwrap(inkBounds(try text(#""string": "HHHH""#)))
        XCTAssertLessThanOrEqual(left.minX, 3)
        let right = try XCTUnwrap(inkBounds(try text(#""string": "HHHH", "alignmentMode": "right""#)))
        XCTAssertGreaterThanOrEqual(right.maxX, 200 - 4)
        XCTAssertLessThan(right.maxX, 200)
        XCTAssertEqual(Double(right.minX), 200 - 57.76, accuracy: 4)
        let center = try XCTUnwrap(inkBounds(try text(#""string": "HHHH", "alignmentMode": "center""#)))
        XCTAssertEqual(Double(center.minX + center.maxX + 1) / 2, 100, accuracy: 1.5)
    }

    func testWrappingBreaksLinesAtTheWidthUnwrappedStaysOneLine() throws {
        let s = #""string": "one two three four five six seven eight nine ten""#
        XCTAssertEqual(inkLines(try text(s, w: 100, h: 200)), 1)
        let wrapped = try text(s + #", "wrapped": true"#, w: 100, h: 200)
        XCTAssertGreaterThanOrEqual(inkLines(wrapped), 4)
        XCTAssertLessThan(try XCTUnwrap(inkBounds(wrapped)).maxX, 100)
    }

    func testTextIsClippedToTheBoundsAndStartsAtTheTop() throws {
        // At 20 pt, H's top is (1854 − 1409)/2048 · 20 = 4.3 pt below the top edge.
        let img = try render(scene(100, 40, #"{"class": "CATextLayer", "frame": [0, 10, 60, 30], "foregroundColor": "black", "fontSize": 20, "string": "HHHHHHHH"}"#))
        let b = try XCTUnwrap(inkBounds(img))
        XCTAssertEqual(b.minY, 14)
        XCTAssertLessThan(b.maxX, 60, "the backing store is the bounds: no ink beyond them")
    }

    func testForegroundDefaultsToWhiteAndSubstitutionsAreWarned() throws {
        let img = try render(scene(100, 50, background: "\"#000000\"", #"{"class": "CATextLayer", "frame": [0, 0, 100, 50], "string": "H"}"#))
        // White 36 pt Helvetica: some pixel of the H is fully white.
        XCTAssertTrue((0..<50).contains { y in (0..<100).contains { img.pixel($0, y) == [255, 255, 255, 255] } })
    }
}

extension TextReftests {
    func testTextStaysUprightUnderAGeometryFlippedSuperlayer() throws {
        // A flipped superlayer places its sublayers mirrored, but contents (text included) stay
        // upright (reference §1.6): the ink of "T" is wider at its top than at its bottom either way.
        func topHeavy(_ img: Image) throws -> Bool {
            let b = try XCTUnwrap(inkBounds(img))
            func width(_ y: Int) -> Int { (0..<img.width).filter { img.pixel($0, y) != [255, 255, 255, 255] }.count }
            return width(b.minY + 1) > width(b.maxY - 1)
        }
        let upright = try render(scene(60, 60, #"{"class": "CATextLayer", "frame": [0, 0, 60, 60], "foregroundColor": "black", "fontSize": 40, "string": "T"}"#))
        let flipped = try render(scene(60, 60, #"{"frame": [0, 0, 60, 60], "geometryFlipped": true, "sublayers": [{"class": "CATextLayer", "frame": [0, 0, 60, 60], "foregroundColor": "black", "fontSize": 40, "string": "T"}]}"#))
        XCTAssertTrue(try topHeavy(upright))
        XCTAssertTrue(try topHeavy(flipped))
    }

    /// A 10,000 pt "H" (the largest fontSize a scene may give) at contentsScale 12 is 120,000 px
    /// per em, beyond FreeType's largest face; the text before it in the tree used to leave the
    /// font in error and the frame failed ("error occurred in libfreetype"). Now the frame renders,
    /// and as the giant H's ink lies outside its 100 pt box (its left side bearing is
    /// 0.08 em = 800 pt), exactly as the same scene without it.
    func testATextBeyondFreeTypesLargestFaceLeavesTheOtherTextsDrawn() throws {
        let small = #"{"class": "CATextLayer", "frame": [0, 0, 100, 40], "foregroundColor": "black", "fontSize": 20, "string": "HHHH"}"#
        let after = #"{"class": "CATextLayer", "frame": [0, 50, 100, 40], "foregroundColor": "black", "fontSize": 20, "string": "caprof"}"#
        let giant = #"{"class": "CATextLayer", "frame": [0, 0, 100, 100], "foregroundColor": "black", "fontSize": 10000, "contentsScale": 12, "string": "H"}"#
        let with = try render(scene(100, 100, "\(small), \(giant), \(after)"))
        let without = try render(scene(100, 100, "\(small), \(after)"))
        XCTAssertEqual(with.pixels, without.pixels)
        XCTAssertEqual(inkLines(with), 2)
    }
}
