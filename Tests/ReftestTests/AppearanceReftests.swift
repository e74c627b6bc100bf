import XCTest

/// Corners, borders and contents (reference §1.7–1.8), checked against hand-computed pixels.
final class AppearanceReftests: ReftestCase {
    let white = [255, 255, 255, 255], red = [255, 0, 0, 255], blue = [0, 0, 255, 255]

    func testCornerRadiusRoundsTheBackgroundWithAntialiasing() throws {
        let img = try render(scene(40, 40, ##"{"frame": [0,0,40,40], "backgroundColor": "red", "cornerRadius": 10}"##))
        assertPixel(img, 0, 0, white, tolerance: 0)    // centre (0.5,0.5) is 13.4 from the arc centre (10,10)
        assertPixel(img, 20, 20, red, tolerance: 0)
        assertPixel(img, 20, 0, red, tolerance: 0)     // straight edge
        // row 1 (centre y = 1.5) meets the arc at x = 10 − √(100 − 8.5²) = 4.73, inside pixel 4:
        // partial coverage there, neither colour
        let g = img.pixel(4, 1)[1]
        let partial = g > 20 && g < 235
        XCTAssertTrue(partial, "expected an antialiased pixel on the arc")
    }

    func testMaskedCornersRoundOnlyTheNamedCorners() throws {
        let img = try render(scene(40, 40, ##"{"frame": [0,0,40,40], "backgroundColor": "red", "cornerRadius": 10, "maskedCorners": ["minXMinY"]}"##))
        assertPixel(img, 0, 0, white, tolerance: 0)    // minXMinY = top-left on iOS
        assertPixel(img, 39, 0, red, tolerance: 0)
        assertPixel(img, 0, 39, red, tolerance: 0)
        assertPixel(img, 39, 39, red, tolerance: 0)
    }

    func testContinuousCornerStartsFurtherFromTheCorner() throws {
        // r = 100: a circular corner ends 100 pt from the corner, so the top edge is fully covered
        // at x = 100.5; a continuous corner (extent 1.528665·r = 152.9) is still ≈0.9 pt below the
        // edge there (first cubic of reference §1.8 at t ≈ 0.5: y = 0.125·7.49).
        let circular = try render(scene(400, 400, ##"{"frame": [0,0,400,400], "backgroundColor": "red", "cornerRadius": 100}"##))
        let continuous = try render(scene(400, 400, ##"{"frame": [0,0,400,400], "backgroundColor": "red", "cornerRadius": 100, "cornerCurve": "continuous"}"##))
        assertPixel(circular, 100, 0, red, tolerance: 3)
        XCTAssertGreaterThan(continuous.pixel(100, 0)[1], 150, "continuous corner leaves the top edge uncovered at x = 100")
        // both reach the edge far from the corner
        assertPixel(continuous, 200, 0, red, tolerance: 0)
        // on the diagonal both curves are within a pixel of each other (2.93 vs 2.915 per 10 of r)
        XCTAssertEqual(Double(circular.pixel(29, 29)[1]), Double(continuous.pixel(29, 29)[1]), accuracy: 60)
    }

    func testBorderIsInsetAndAboveSublayers() throws {
        let img = try render(scene(20, 20, ##"{"frame": [0,0,20,20], "backgroundColor": "red", "borderWidth": 3, "borderColor": "blue", "sublayers": [{"frame": [0,0,20,20], "backgroundColor": "#00FF00"}]}"##))
        assertPixel(img, 1, 1, blue, tolerance: 0)
        assertPixel(img, 2, 10, blue, tolerance: 0)
        assertPixel(img, 3, 10, [0, 255, 0, 255], tolerance: 0)   // sublayer inside the border
        assertPixel(img, 10, 10, [0, 255, 0, 255], tolerance: 0)
        let ring = try render(scene(20, 20, ##"{"frame": [0,0,20,20], "borderWidth": 3, "borderColor": "blue"}"##))
        assertPixel(ring, 10, 10, white, tolerance: 0)             // no background: the inside is empty
        assertPixel(ring, 19, 19, blue, tolerance: 0)
    }

    // checker.png: 64×64, a 1-px red frame (255,59,48), 8-px squares: white where (x/8 + y/8) is even.
    func checker(_ x: Int, _ y: Int) -> [Int] {
        if x == 0 || x == 63 || y == 0 || y == 63 { return [255, 59, 48, 255] }
        return (x / 8 + y / 8) % 2 == 0 ? white : [28, 28, 30, 255]
    }

    func testPixelAlignedContentsAreExact() throws {
        let img = try render(scene(80, 80, ##"{"frame": [3,5,64,64], "contents": "assets/checker.png", "contentsScale": 1}"##))
        for (x, y) in [(0, 0), (1, 1), (8, 1), (9, 9), (63, 30), (31, 40)] {
            assertPixel(img, 3 + x, 5 + y, checker(x, y), tolerance: 0)
        }
        assertPixel(img, 2, 5, white, tolerance: 0)
    }

    func testGravityCenterEqualsAnImageSizedFrame() throws {
        assertImagesMatch(try render(scene(100, 100, ##"{"frame": [0,0,100,100], "contents": "assets/checker.png", "contentsGravity": "center", "contentsScale": 1}"##)),
                          try render(scene(100, 100, ##"{"frame": [18,18,64,64], "contents": "assets/checker.png", "contentsScale": 1}"##)))
    }

    func testContentsRectSelectsPartOfTheImage() throws {
        // the right half (x 32…63) shown 1:1 in a 32×64 layer
        let img = try render(scene(40, 70, ##"{"frame": [0,0,32,64], "contents": "assets/checker.png", "contentsRect": [0.5, 0, 0.5, 1], "contentsScale": 1}"##))
        for (x, y) in [(0, 10), (7, 10), (8, 10), (31, 10), (31, 63), (15, 0)] {
            assertPixel(img, x, y, checker(32 + x, y), tolerance: 0)
        }
    }

    func testContentsCenterKeepsCornersUnscaled() throws {
        // centre = middle half; into 128×128 the 16-px corners stay 1:1, the rest stretches.
        let img = try render(scene(128, 128, ##"{"frame": [0,0,128,128], "contents": "assets/checker.png", "contentsCenter": [0.25, 0.25, 0.5, 0.5], "contentsScale": 1}"##))
        for (x, y) in [(0, 0), (5, 9), (15, 15), (8, 3)] {
            assertPixel(img, x, y, checker(x, y), tolerance: 0)
            assertPixel(img, 112 + x, 112 + y, checker(48 + x, 48 + y), tolerance: 0)
        }
    }

    func testMagnificationFilterNearestVersusLinear() throws {
        let nearest = try render(scene(128, 128, ##"{"frame": [0,0,128,128], "contents": "assets/checker.png", "contentsScale": 1, "magnificationFilter": "nearest"}"##))
        assertPixel(nearest, 17, 20, checker(8, 10), tolerance: 0)   // 17.5/2 = 8.75 → texel 8
        assertPixel(nearest, 15, 20, checker(7, 10), tolerance: 0)   // 7.75 → texel 7
        let linear = try render(scene(128, 128, ##"{"frame": [0,0,128,128], "contents": "assets/checker.png", "contentsScale": 1}"##))
        // 15.5/2 = 7.75 → 3/4 of texel 7 (dark, 28) and 1/4 of texel 8 (white): 28·0.75 + 255·0.25 ≈ 84.75
        XCTAssertEqual(Double(linear.pixel(15, 20)[0]), 84.75, accuracy: 2)
    }

    func testAspectFillOverflowIsClippedOnlyWithMasksToBounds() throws {
        // 64×64 image aspect-filled into 64×32: 64×64 centred, overflowing 16 pt above and below.
        let open = try render(scene(64, 96, ##"{"frame": [0,32,64,32], "contents": "assets/checker.png", "contentsScale": 1, "contentsGravity": "resizeAspectFill"}"##))
        assertPixel(open, 10, 20, checker(10, 4), tolerance: 0)      // drawn outside the bounds
        let clipped = try render(scene(64, 96, ##"{"frame": [0,32,64,32], "contents": "assets/checker.png", "contentsScale": 1, "contentsGravity": "resizeAspectFill", "masksToBounds": true}"##))
        assertPixel(clipped, 10, 20, white, tolerance: 0)
        assertPixel(clipped, 10, 40, checker(10, 24), tolerance: 0)
    }

    func testCircularAvatarClipOfContents() throws {
        // masksToBounds + cornerRadius = half the side clips the image to a circle.
        let img = try render(scene(64, 64, ##"{"frame": [0,0,64,64], "contents": "assets/checker.png", "contentsScale": 1, "cornerRadius": 32, "masksToBounds": true}"##))
        assertPixel(img, 1, 1, white, tolerance: 0)            // corner outside the circle: canvas
        assertPixel(img, 8, 1, white, tolerance: 0)
        assertPixel(img, 32, 1, checker(32, 1), tolerance: 0)  // top of the circle: image
        assertPixel(img, 20, 20, checker(20, 20), tolerance: 0)
    }
}
