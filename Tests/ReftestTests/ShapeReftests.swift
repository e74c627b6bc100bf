import Pipeline
import SceneFormat
import XCTest

/// CAShapeLayer (reference §2.1) against hand-computed pixels: every expected value comes from
/// the geometry written beside it (Core Graphics stroke semantics: a stroke of width w covers w/2
/// on each side of the path; butt caps stop at the end, square caps go w/2 beyond it; miter joins
/// fall back to bevels when 1/sin(θ/2) > miterLimit).
final class ShapeReftests: ReftestCase {
    let white = [255, 255, 255, 255], black = [0, 0, 0, 255], red = [255, 0, 0, 255]

    func shape(_ props: String, w: Int = 40, h: Int = 20) throws -> Image {
        try render(scene(w, h, #"{"class": "CAShapeLayer", "frame": [0, 0, \#(w), \#(h)], \#(props)}"#))
    }

    func testFillDefaultsToOpaqueBlackInsideThePath() throws {
        let img = try shape(#""path": {"rect": [2, 2, 6, 6]}"#, w: 10, h: 10)
        assertPixel(img, 1, 1, white, tolerance: 0)
        assertPixel(img, 2, 2, black, tolerance: 0)     // pixel-aligned edges: exact coverage
        assertPixel(img, 7, 7, black, tolerance: 0)
        assertPixel(img, 8, 8, white, tolerance: 0)
    }

    func testButtSquareAndRoundCaps() throws {
        // M2 5 H8, width 2: the stroke covers y 4…6; butt caps x 2…8, square caps x 1…9.
        let line = #""path": "M2 5 H8", "fillColor": null, "strokeColor": "red", "lineWidth": 2"#
        let butt = try shape(line, w: 10, h: 10)
        assertPixel(butt, 1, 4, white, tolerance: 0)
        assertPixel(butt, 2, 4, red, tolerance: 0)
        assertPixel(butt, 7, 5, red, tolerance: 0)
        assertPixel(butt, 8, 4, white, tolerance: 0)
        assertPixel(butt, 5, 3, white, tolerance: 0)
        let square = try shape(line + #", "lineCap": "square""#, w: 10, h: 10)
        assertPixel(square, 1, 4, red, tolerance: 0)
        assertPixel(square, 8, 5, red, tolerance: 0)
        assertPixel(square, 0, 4, white, tolerance: 0)
        assertPixel(square, 9, 4, white, tolerance: 0)
        // Round: pixel [1,2]×[4,5] holds a quarter disc of radius 1 about (2, 5): π/4 = 0.785 red,
        // so green = 255·(1 − 0.785) ≈ 55.
        let round = try shape(line + #", "lineCap": "round""#, w: 10, h: 10)
        XCTAssertEqual(Double(round.pixel(1, 4)[1]), 55, accuracy: 12)
        assertPixel(round, 0, 4, white, tolerance: 0)
    }

    func testMiterJoinFallsBackToBevelAboveTheMiterLimit() throws {
        // Arms from (0,0) and (0,20) meet at (20,10): half-angle atan(10/20), sin = 1/√5, so the
        // miter ratio is √5 = 2.236 and the tip reaches 2·√5 = 4.47 beyond the vertex (x = 24.47).
        // The bevel instead cuts at x = 20 + 2·sin(half-angle)... = 20 + 2/√5 = 20.89.
        let path = #""path": "M0 0 L20 10 L0 20", "fillColor": null, "strokeColor": "black", "lineWidth": 4"#
        let miter = try shape(path + #", "miterLimit": 10"#, w: 30, h: 20)
        let bevel = try shape(path + #", "miterLimit": 2"#, w: 30, h: 20)
        // Pixel [22,23]×[9,10]: inside the miter wedge (half-width there ≥ 0.74), beyond the bevel.
        XCTAssertLessThan(miter.pixel(22, 9)[0], 40, "miter tip covers x = 22")
        assertPixel(bevel, 22, 9, white, tolerance: 0)
        assertPixel(bevel, 22, 10, white, tolerance: 0)
        // Both cover the vertex itself.
        assertPixel(miter, 19, 9, black, tolerance: 0)
        assertPixel(bevel, 19, 9, black, tolerance: 0)
        // A round join reaches w/2 = 2 beyond the vertex: pixel 22 is outside, pixel 20 inside.
        let round = try shape(path + #", "lineJoin": "round""#, w: 30, h: 20)
        assertPixel(round, 22, 9, white, tolerance: 0)
        assertPixel(round, 20, 9, black, tolerance: 0)
    }

    func testEvenOddLeavesTheInnerSquareEmptyNonZeroFillsIt() throws {
        // Two squares drawn in the same direction: winding 2 inside the inner one.
        let path = #""path": "M0 0 H20 V20 H0 Z M5 5 H15 V15 H5 Z""#
        let nonZero = try shape(path, w: 20, h: 20)
        let evenOdd = try shape(path + #", "fillRule": "evenOdd""#, w: 20, h: 20)
        assertPixel(nonZero, 10, 10, black, tolerance: 0)
        assertPixel(evenOdd, 10, 10, white, tolerance: 0)
        assertPixel(evenOdd, 2, 10, black, tolerance: 0)
        assertPixel(evenOdd, 5, 5, white, tolerance: 0)
        assertPixel(evenOdd, 4, 4, black, tolerance: 0)
    }

    func testDashPatternAndPhase() throws {
        // [10, 5] along M0 5 H40: on 0…10, off 10…15, on 15…25, off 25…30, on 30…40.
        let line = #""path": "M0 5 H40", "fillColor": null, "strokeColor": "black", "lineWidth": 2, "lineDashPattern": [10, 5]"#
        let dashed = try shape(line)
        assertPixel(dashed, 5, 4, black, tolerance: 0)
        assertPixel(dashed, 9, 4, black, tolerance: 0)
        assertPixel(dashed, 10, 4, white, tolerance: 0)
        assertPixel(dashed, 14, 4, white, tolerance: 0)
        assertPixel(dashed, 15, 4, black, tolerance: 0)
        assertPixel(dashed, 27, 4, white, tolerance: 0)
        // Phase 5 starts 5 into the pattern: on 0…5, off 5…10, on 10…20, off 20…25.
        let phased = try shape(line + #", "lineDashPhase": 5"#)
        assertPixel(phased, 2, 4, black, tolerance: 0)
        assertPixel(phased, 7, 4, white, tolerance: 0)
        assertPixel(phased, 12, 4, black, tolerance: 0)
        assertPixel(phased, 22, 4, white, tolerance: 0)
    }

    func testStrokeStartAndEndTrimByArcLengthWithCapsOnTheTrimmedEnds() throws {
        // M0 5 H40 has length 40: 0.25…0.75 keeps x 10…30.
        let line = #""path": "M0 5 H40", "fillColor": null, "strokeColor": "black", "lineWidth": 2, "strokeStart": 0.25, "strokeEnd": 0.75"#
        let butt = try shape(line)
        assertPixel(butt, 9, 4, white, tolerance: 0)
        assertPixel(butt, 10, 4, black, tolerance: 0)
        assertPixel(butt, 29, 5, black, tolerance: 0)
        assertPixel(butt, 30, 4, white, tolerance: 0)
        // Square caps on the trimmed ends: 9…31.
        let square = try shape(line + #", "lineCap": "square""#)
        assertPixel(square, 8, 4, white, tolerance: 0)
        assertPixel(square, 9, 4, black, tolerance: 0)
        assertPixel(square, 30, 4, black, tolerance: 0)
        assertPixel(square, 31, 4, white, tolerance: 0)
    }

    func testStrokeEndTrimsAcrossSubpathsAndCloses() throws {
        // A 20×20 square from (10,10) clockwise (on screen): length 80; strokeEnd 0.5 keeps the top
        // edge and the right edge; the left and bottom edges are not stroked.
        let sq = #""path": "M10 10 H30 V30 H10 Z", "fillColor": null, "strokeColor": "black", "lineWidth": 2, "strokeEnd": 0.5"#
        let img = try shape(sq, w: 40, h: 40)
        assertPixel(img, 20, 9, black, tolerance: 0)     // top edge
        assertPixel(img, 30, 20, black, tolerance: 0)    // right edge
        assertPixel(img, 20, 30, white, tolerance: 0)    // bottom edge: beyond strokeEnd
        assertPixel(img, 9, 20, white, tolerance: 0)     // left edge (the close)
    }

    func testNoFillNoStrokeDrawsNothingAndLayerOpacityApplies() throws {
        let none = try shape(#""path": {"rect": [0, 0, 10, 10]}, "fillColor": null"#, w: 10, h: 10)
        assertPixel(none, 5, 5, white, tolerance: 0)
        // opacity 0.5 over white: black fill → 127.5.
        let half = try shape(#""path": {"rect": [0, 0, 10, 10]}, "opacity": 0.5"#, w: 10, h: 10)
        assertPixel(half, 5, 5, [128, 128, 128, 255], tolerance: 1)
    }

    func testPathIsNotClippedToBoundsUnlessMasksToBounds() throws {
        // A 10×10 layer at (0,0) whose path reaches x = 20.
        let props = #""path": {"rect": [0, 0, 20, 10]}"#
        let open = try render(scene(30, 10, #"{"class": "CAShapeLayer", "frame": [0, 0, 10, 10], \#(props)}"#))
        let clipped = try render(scene(30, 10, #"{"class": "CAShapeLayer", "frame": [0, 0, 10, 10], "masksToBounds": true, \#(props)}"#))
        assertPixel(open, 15, 5, black, tolerance: 0)
        assertPixel(clipped, 15, 5, white, tolerance: 0)
        assertPixel(clipped, 5, 5, black, tolerance: 0)
    }

    func testShapeIsRasterisedAtDeviceScale() throws {
        // At scale 3 a line of width 1 pt from x 0 to 10 pt at y 5 pt covers device rows 13.5…16.5:
        // rows 14 and 15 fully, rows 13 and 16 half.
        let img = try render(scene(10, 10, scale: 3, #"{"class": "CAShapeLayer", "frame": [0, 0, 10, 10], "path": "M0 5 H10", "fillColor": null, "strokeColor": "black"}"#))
        assertPixel(img, 15, 14, black, tolerance: 0)
        assertPixel(img, 15, 15, black, tolerance: 0)
        XCTAssertEqual(Double(img.pixel(15, 13)[0]), 127.5, accuracy: 3)
        XCTAssertEqual(Double(img.pixel(15, 16)[0]), 127.5, accuracy: 3)
        assertPixel(img, 15, 12, white, tolerance: 0)
    }

    func testPathMorphingMidpoint() throws {
        // path from a 10-wide to a 30-wide rectangle, linear over 1 s: at 0.5 s, 20 wide.
        let animated = scene(40, 10, #"{"class": "CAShapeLayer", "frame": [0, 0, 40, 10], "path": "M0 0 H10 V10 H0 Z", "animations": [{"class": "CABasicAnimation", "keyPath": "path", "fromValue": "M0 0 H10 V10 H0 Z", "toValue": "M0 0 H30 V10 H0 Z", "duration": 1, "timingFunction": "linear"}]}"#)
        let doc = try SceneDecoder.decode(data: Array(animated.utf8), file: "morph.json", baseDirectory: "/")
        let f = try Self.renderer.render(doc, at: 0.5)
        let img = Image(width: f.width, height: f.height, pixels: f.pixels)
        assertPixel(img, 19, 5, black, tolerance: 0)
        assertPixel(img, 20, 5, white, tolerance: 0)
    }

    func testAMovingFadingRotatingShapeKeepsItsRasterAStrokeEndAnimationDoesNot() throws {
        let moving = scene(100, 100, scale: 2, #"{"class": "CAShapeLayer", "frame": [0, 0, 40, 40], "path": {"ellipseIn": [0, 0, 40, 40]}, "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 20, "toValue": 70, "duration": 1}, {"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 1, "toValue": 0.2, "duration": 1}, {"class": "CABasicAnimation", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 3, "duration": 1}]}"#)
        let drawing = scene(100, 100, scale: 2, #"{"class": "CAShapeLayer", "frame": [0, 0, 40, 40], "path": {"ellipseIn": [0, 0, 40, 40]}, "fillColor": null, "strokeColor": "black", "lineWidth": 3, "animations": [{"class": "CABasicAnimation", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 1}]}"#)
        let renderer = try SceneRenderer()
        for (json, expectRaster) in [(moving, [1, 0, 0]), (drawing, [1, 1, 1])] {
            let scene = AnimatedScene(try SceneDecoder.decode(data: Array(json.utf8), file: "cache.json", baseDirectory: "/"))
            var counts: [Int] = []
            for t in [0.2, 0.5, 0.8] {
                _ = try renderer.render(scene, at: t)
                counts.append(renderer.content.lastStats.rasterized)
            }
            XCTAssertEqual(counts, expectRaster)
        }
    }
}

extension ShapeReftests {
    func testContentLargerThanATextureIsDrawnSharpWhereItIsVisible() throws {
        // 100×3000 pt at 3× is 9000 px tall (over the 4096 cap): cropped to the canvas, still 3×.
        // A 1-pt stroke along x = 50 covers device columns 148.5…151.5: 149 and 150 fully.
        let img = try render(scene(100, 100, scale: 3, #"{"class": "CAShapeLayer", "frame": [0, -1000, 100, 3000], "path": "M50 0 V3000", "fillColor": null, "strokeColor": "black"}"#))
        for y in [0, 150, 299] {
            assertPixel(img, 149, y, black, tolerance: 0)
            assertPixel(img, 150, y, black, tolerance: 0)
            XCTAssertEqual(Double(img.pixel(148, y)[0]), 127.5, accuracy: 3)
            assertPixel(img, 147, y, white, tolerance: 0)
        }
    }
}
