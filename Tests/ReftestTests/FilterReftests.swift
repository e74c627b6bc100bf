import Foundation
import Pipeline
import SceneFormat
import XCTest

/// `filters` and backdrops on lavapipe against hand computations: the Gaussian's error-function
/// profile, colour matrices on known colours, a backdrop over a two-colour split.
final class FilterReftests: ReftestCase {
    /// Φ, the standard normal CDF, from Foundation's erf.
    func phi(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.squareRoot())) }

    /// The largest difference, in 8-bit levels, between rows 0 and 3 of `img` and the black box
    /// x ∈ [100, 300) over white blurred with σ (below), and the column where it is.
    func boxProfileDifference(_ img: Image, sigma: Double) -> (worst: Double, at: Int) {
        var worst = 0.0, at = 0
        for x in 0..<400 {
            let a = phi((Double(x) + 0.5 - 100) / sigma) - phi((Double(x) + 0.5 - 300) / sigma)
            let expected = 255 * (1 - a)
            for y in [0, 3] {
                let d = abs(Double(img.pixel(x, y)[0]) - expected)
                if d > worst { worst = d; at = x }
            }
        }
        return (worst, at)
    }

    /// A black box covering x ∈ [100, 300) (and far beyond the canvas vertically) blurred with σ:
    /// over white, pixel x shows 255·(1 − a) with a = Φ((x + ½ − 100)/σ) − Φ((x + ½ − 300)/σ), the
    /// box integrated against the Gaussian at the pixel's centre. Within 1/255 everywhere, at full
    /// resolution (σ 1.5, 4 px) and downsampled ½ (σ 10, 20 px), ¼ (σ 30, 40 px), ⅛ (σ 60 px)
    /// and 1/16 (σ 120 px).
    func testStepEdgesFollowTheErrorFunction() throws {
        for sigma in [1.5, 4, 10, 20, 30, 40, 60, 120] {
            let img = try render(scene(400, 4, ##"""
                {"frame": [0, -600, 400, 1204], "filters": [{"type": "gaussianBlur", "inputRadius": \##(sigma)}],
                 "sublayers": [{"frame": [100, 0, 200, 1204], "backgroundColor": "black"}]}
                """##))
            let (worst, at) = boxProfileDifference(img, sigma: sigma)
            XCTAssertLessThanOrEqual(worst, 1, "σ \(sigma): worst difference \(worst) at x = \(at)")
        }
    }

    /// A uniform area stays uniform: a full-canvas colour blurred with σ 12 is the same colour
    /// everywhere (the content reaches beyond the canvas by more than 3σ).
    func testABlurredUniformAreaStaysUniform() throws {
        let img = try render(scene(120, 60, ##"""
            {"frame": [-60, -60, 240, 180], "filters": [{"type": "gaussianBlur", "inputRadius": 12}],
             "backgroundColor": "#3366CC"}
            """##))
        for y in stride(from: 0, to: 60, by: 7) {
            for x in stride(from: 0, to: 120, by: 5) { assertPixel(img, x, y, [0x33, 0x66, 0xCC, 255], tolerance: 0) }
        }
    }

    /// Radius 0 is the identity: the same pixels as without the filter.
    func testRadiusZeroIsTheIdentity() throws {
        let content = ##"{"frame": [10, 10, 30, 20], "backgroundColor": "#FF3B30", "cornerRadius": 6, "sublayers": [{"frame": [5, 5, 10, 10], "backgroundColor": "#007AFF"}]"##
        let filtered = try render(scene(50, 40, content + ##", "filters": [{"type": "gaussianBlur", "inputRadius": 0}]}"##))
        let plain = try render(scene(50, 40, content + "}"))
        assertImagesMatch(filtered, plain)
    }

    /// Colour filters on known colours (the matrices of SVG's feColorMatrix and Core Image,
    /// computed by hand). The layer is an opaque 10×10 square over white unless said otherwise.
    func testColourMatricesOnKnownColours() throws {
        func shade(_ color: String, _ filters: String, background: String = "\"#FFFFFF\"") throws -> [Int] {
            try render(scene(10, 10, background: background,
                             ##"{"frame": [0, 0, 10, 10], "backgroundColor": \##(color), "filters": [\##(filters)]}"##)).pixel(5, 5)
        }
        // (0.2, 0.4, 0.8) inverted: (0.8, 0.6, 0.2).
        XCTAssertEqual(try shade("[0.2, 0.4, 0.8]", #"{"type": "colorInvert"}"#), [204, 153, 51, 255])
        // Saturation 0 of red: the luma weight of red, 0.213 → 54.3.
        assertClose(try shade("[1, 0, 0]", #"{"type": "colorSaturate", "inputAmount": 0}"#), [54, 54, 54, 255])
        // Brightness +0.2: (0.4, 0.6, 1.0).
        assertClose(try shade("[0.2, 0.4, 0.8]", #"{"type": "colorBrightness", "inputAmount": 0.2}"#), [102, 153, 255, 255])
        // Contrast 2 about ½: (−0.1 → 0, 0.3, 1.1 → 1).
        assertClose(try shade("[0.2, 0.4, 0.8]", #"{"type": "colorContrast", "inputAmount": 2}"#), [0, 77, 255, 255])
        // A matrix swapping red and blue.
        assertClose(try shade("[0.2, 0.4, 0.8]", #"{"type": "colorMatrix", "inputColorMatrix": [0,0,1,0,0, 0,1,0,0,0, 1,0,0,0,0, 0,0,0,1,0]}"#),
                    [204, 102, 51, 255])
        // Hue rotated by π: red → (0.213 − 0.787, 0.213 + 0.213, 0.213 + 0.213) = (0, 0.426, 0.426).
        assertClose(try shade("[1, 0, 0]", #"{"type": "colorHueRotate", "inputAngle": 3.141592653589793}"#), [0, 109, 109, 255])
        // Monochrome with Core Image's default tint on white: luma 1 × (0.6, 0.45, 0.3).
        assertClose(try shade("[1, 1, 1]", #"{"type": "colorMonochrome"}"#), [153, 115, 77, 255])
        // Multiply by (0.5, 1, 1): (0.1, 0.4, 0.8).
        assertClose(try shade("[0.2, 0.4, 0.8]", #"{"type": "multiplyColor", "inputColor": [0.5, 1, 1]}"#), [26, 102, 204, 255])
        // Luminance to alpha of red: black at alpha 0.2125 over white, 255 · (1 − 0.2125) = 200.8.
        assertClose(try shade("[1, 0, 0]", #"{"type": "luminanceToAlpha"}"#), [201, 201, 201, 255])
        // Two colour filters folded into one matrix: saturation 0, then invert: 1 − 0.213 = 0.787.
        assertClose(try shade("[1, 0, 0]", #"{"type": "colorSaturate", "inputAmount": 0}, {"type": "colorInvert"}"#), [201, 201, 201, 255])
        // On non-premultiplied colour: (0.2, 0.4, 0.8) at alpha ½ inverted is (0.8, 0.6, 0.2) at
        // alpha ½ over a transparent canvas: premultiplied (102, 76.5, 25.5, 127.5).
        assertClose(try shade("[0.2, 0.4, 0.8, 0.5]", #"{"type": "colorInvert"}"#, background: "null"), [102, 77, 26, 128])
    }

    func assertClose(_ a: [Int], _ b: [Int], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(zip(a, b).allSatisfy { abs($0 - $1) <= 1 }, "\(a) is not \(b) within 1", file: file, line: line)
    }

    /// A backdrop over a red | blue split (at x = 100) with a σ 4 blur shows the blurred boundary,
    /// blue weight a = Φ((x + ½ − 100)/4), and nothing of the green layer drawn above it (later in
    /// the painter's order), which is drawn sharp over it. At the canvas's top and bottom rows
    /// the colours stay pure (the blur renormalises where the capture meets the screen's edge).
    func testABackdropShowsTheBlurredBoundaryAndNothingAboveIt() throws {
        let img = try render(scene(200, 20, ##"""
            {"frame": [0, 0, 100, 20], "backgroundColor": [1, 0, 0]},
            {"frame": [100, 0, 100, 20], "backgroundColor": [0, 0, 1]},
            {"class": "CABackdropLayer", "frame": [40, 0, 120, 20], "filters": [{"type": "gaussianBlur", "inputRadius": 4}]},
            {"frame": [60, 0, 10, 20], "backgroundColor": [0, 1, 0]}
            """##))
        for y in [0, 10, 19] {
            for x in 80..<120 {
                let a = phi((Double(x) + 0.5 - 100) / 4)
                assertPixel(img, x, y, [Int((255 * (1 - a)).rounded()), 0, Int((255 * a).rounded()), 255], tolerance: 1)
            }
            assertPixel(img, 72, y, [255, 0, 0, 255], tolerance: 0)   // 2 px from the green layer: no green blurred in
            assertPixel(img, 57, y, [255, 0, 0, 255], tolerance: 0)
            assertPixel(img, 65, y, [0, 255, 0, 255], tolerance: 0)   // the green layer itself, sharp, above
        }
    }

    /// A backdrop inside an offscreen target reads that target, its backdrop root (W3C Filter
    /// Effects 2), not the canvas: a group clipped to rounded bounds (a pass: two draws) holds a
    /// red band over its top half, then an inverting backdrop over all of it. Red inverted is cyan
    /// on top; below, the group drew nothing, so the capture is transparent there and the white
    /// canvas shows through (inverting the canvas would give black; capturing nothing, red on top).
    func testABackdropInsideAGroupReadsTheGroup() throws {
        let img = try render(scene(40, 40, ##"""
            {"frame": [0, 0, 40, 40], "cornerRadius": 2, "masksToBounds": true, "sublayers": [
              {"frame": [0, 0, 40, 20], "backgroundColor": [1, 0, 0]},
              {"class": "CABackdropLayer", "frame": [0, 0, 40, 40], "filters": [{"type": "colorInvert"}]}]}
            """##))
        assertPixel(img, 20, 10, [0, 255, 255, 255], tolerance: 0)
        assertPixel(img, 20, 30, [255, 255, 255, 255], tolerance: 0)
    }

    /// A backdrop's own mask shapes what it shows (it is applied after the capture, which reads
    /// beneath the backdrop): the mask covers the left half, so the right half of the red band
    /// stays red. Over the canvas and inside a group alike.
    func testABackdropsMaskShapesWhatItShows() throws {
        let backdrop = ##"""
            {"class": "CABackdropLayer", "frame": [0, 0, 40, 40], "filters": [{"type": "colorInvert"}],
             "mask": {"frame": [0, 0, 20, 40], "backgroundColor": "white"}}
            """##
        let red = ##"{"frame": [0, 0, 40, 20], "backgroundColor": [1, 0, 0]}"##
        for layers in [red + ", " + backdrop,
                       ##"{"frame": [0, 0, 40, 40], "cornerRadius": 2, "masksToBounds": true, "sublayers": ["## + red + ", " + backdrop + "]}"] {
            let img = try render(scene(40, 40, layers))
            assertPixel(img, 10, 10, [0, 255, 255, 255], tolerance: 0)
            assertPixel(img, 30, 10, [255, 0, 0, 255], tolerance: 0)
        }
    }

    /// A mask faded to opacity 0, or hidden, composites to nothing, so nothing of the layer it
    /// masks is drawn (the mask's alpha, its own opacity included, multiplies the layer).
    func testATransparentOrHiddenMaskHidesItsLayer() throws {
        for mask in [##"{"frame": [0, 0, 40, 40], "backgroundColor": "white", "opacity": 0}"##,
                     ##"{"frame": [0, 0, 40, 40], "backgroundColor": "white", "hidden": true}"##] {
            let img = try render(scene(40, 40, ##"{"frame": [0, 0, 40, 40], "backgroundColor": [1, 0, 0], "mask": "## + mask + "}"))
            assertPixel(img, 20, 20, [255, 255, 255, 255], tolerance: 0)
        }
    }

    /// A backdrop captures everything drawn before it, counted as the backend draws it: a large
    /// rounded layer, which the plan splits into pieces, is drawn whole before the capture (the
    /// capture once came after its first two pieces, and the bar showed the white canvas inverted).
    func testABackdropSeesALargeRoundedLayerBeneathIt() throws {
        let img = try render(scene(200, 200, scale: 2, ##"""
            {"frame": [10, 10, 180, 180], "backgroundColor": [0, 0, 1], "cornerRadius": 30},
            {"class": "CABackdropLayer", "frame": [20, 80, 160, 40], "filters": [{"type": "colorInvert"}]}
            """##))
        // Blue inverted is yellow, all over the bar; the rounded layer around it stays blue.
        for (x, y) in [(42, 162), (200, 200), (356, 236)] { assertPixel(img, x, y, [255, 255, 0, 255], tolerance: 0) }
        assertPixel(img, 200, 100, [0, 0, 255, 255], tolerance: 0)
    }

    /// A layer drawn before a backdrop is captured even where opaque layers drawn after the
    /// capture hide it (it must not be culled under them): a blue band above a blurred bar, then
    /// an opaque red band over the blue one. The bar shows the blue blurred in from above, a =
    /// Φ((20 − (y + ½)) / σ) of it over white, as if the red were not there.
    func testABackdropSeesLayersThatLaterOpaqueLayersCover() throws {
        let img = try render(scene(200, 40, ##"""
            {"frame": [0, 0, 200, 20], "backgroundColor": [0, 0, 1]},
            {"class": "CABackdropLayer", "frame": [0, 20, 200, 20], "filters": [{"type": "gaussianBlur", "inputRadius": 4}]},
            {"frame": [0, 0, 200, 20], "backgroundColor": [1, 0, 0]}
            """##))
        for y in [20, 21, 22, 24] {
            let a = phi((20 - (Double(y) + 0.5)) / 4)
            let c = Int((255 * (1 - a)).rounded())
            for x in [30, 100, 170] { assertPixel(img, x, y, [c, c, 255, 255], tolerance: 1) }
        }
        assertPixel(img, 100, 10, [255, 0, 0, 255], tolerance: 0)
    }

    /// backgroundFilters on an ordinary layer: the backdrop is filtered inside its rounded shape,
    /// under its own (translucent) background.
    func testBackgroundFiltersUnderTheLayersBackground() throws {
        let img = try render(scene(40, 20, ##"""
            {"frame": [0, 0, 20, 20], "backgroundColor": [1, 0, 0]},
            {"frame": [20, 0, 20, 20], "backgroundColor": [0, 0, 1]},
            {"frame": [10, 0, 20, 20], "backgroundColor": [1, 1, 1, 0.5], "backgroundFilters": [{"type": "colorInvert"}]}
            """##))
        // Red inverted is cyan (0, 1, 1); half white over it: (0.5, 1, 1).
        assertPixel(img, 15, 10, [128, 255, 255, 255], tolerance: 1)
        // Blue inverted is yellow (1, 1, 0); half white over it: (1, 1, 0.5).
        assertPixel(img, 25, 10, [255, 255, 128, 255], tolerance: 1)
        assertPixel(img, 5, 10, [255, 0, 0, 255], tolerance: 0)
    }

    /// variableBlur scales σ by its mask image's alpha: a 2×1 mask, transparent | opaque,
    /// stretched over the layer (bilinear: alpha 0 up to a quarter of the width, 1 from three
    /// quarters). Stripes under the transparent part stay as sharp as without the filter; under
    /// the opaque part (more than 3.5σ inside it) they equal a uniform gaussianBlur of the same σ.
    /// σ 3 is one full-resolution level; σ 40 a pyramid of three, whose full-resolution level
    /// keeps the unblurred quarter exact.
    func testVariableBlurScalesTheRadiusByTheMasksAlpha() throws {
        let mask = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAADElEQVR4nGNggID/AAEIAQBNGY85AAAAAElFTkSuQmCC"
        for (radius, width) in [(3, 200), (40, 1200)] {
            var stripes: [String] = []
            for i in 0..<(width / 8) { stripes.append(##"{"frame": [\##(i * 8), -200, 4, 420], "backgroundColor": "black"}"##) }
            func layer(_ filter: String) -> String {
                ##"{"frame": [0, 0, \##(width), 20], "filters": [\##(filter)], "sublayers": [\##(stripes.joined(separator: ", "))]}"##
            }
            let variable = try render(scene(width, 20, layer(##"{"type": "variableBlur", "inputRadius": \##(radius), "inputMaskImage": "\##(mask)"}"##)))
            let uniform = try render(scene(width, 20, layer(##"{"type": "gaussianBlur", "inputRadius": \##(radius)}"##)))
            let sharp = try render(scene(width, 20, layer(##"{"type": "colorInvert"}, {"type": "colorInvert"}"##)))
            for y in [2, 10, 17] {
                for x in 0..<(width / 5) { XCTAssertEqual(variable.pixel(x, y), sharp.pixel(x, y), "σ \(radius): sharp at (\(x), \(y))") }
                for x in (width * 3 / 4 + radius * 7 / 2 + 2)..<width {
                    XCTAssertTrue(zip(variable.pixel(x, y), uniform.pixel(x, y)).allSatisfy { abs($0 - $1) <= 1 },
                                  "σ \(radius): blurred at (\(x), \(y)): \(variable.pixel(x, y)) against \(uniform.pixel(x, y))")
                }
            }
            // In between, the blur grows: the stripes' contrast falls from left to right, here where
            // σ reaches 0.4, 1.5 and 2.5 px (the mask's alpha rises from x = width/4 to 3·width/4).
            func contrast(sigma: Double) -> Int {
                let x0 = width / 4 + Int(sigma / Double(radius) * Double(width / 2))
                let v = (x0..<(x0 + 8)).map { variable.pixel($0, 10)[0] }
                return v.max()! - v.min()!
            }
            XCTAssertGreaterThan(contrast(sigma: 0.4), contrast(sigma: 1.5), "σ \(radius)")
            XCTAssertGreaterThan(contrast(sigma: 1.5), contrast(sigma: 2.5), "σ \(radius)")
        }
    }

    /// variableBlur with an opaque mask is the Gaussian of σ = inputRadius everywhere: the black box
    /// of `testStepEdgesFollowTheErrorFunction` blurred shows the same error-function profile. σ 4
    /// is one full-resolution level; from σ 8 each texel is drawn at its σ's level of the pyramid
    /// (½ from 8, ¼ from 24, ⅛ from 48, 1/16 from 96, 1/32 from 192 px), at both edges of each band.
    ///
    /// A mask of alpha 128/255 halves σ: the texels then lie in the top quarter of a band, where
    /// each fades into the next coarser level's result (radius 14, 42, 84, 168: σ 7.0, 21.1, 42.2,
    /// 84.3 px).
    func testAVariableBlurWithAnOpaqueMaskFollowsTheErrorFunction() throws {
        let opaque = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAC0lEQVR4AWP4DwQACfsD/c8LaHIAAAAASUVORK5CYII="
        let half = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4AWP4//9/AwAJfAN+vMuYrwAAAABJRU5ErkJggg=="
        let cases = [4, 7.9, 8.1, 15, 23.9, 24.1, 40, 47.9, 48.1, 90, 150, 300].map { ($0, opaque, $0) }
            + [14.0, 42, 84, 168].map { ($0, half, $0 * 128 / 255) }
        for (radius, mask, sigma) in cases {
            let img = try render(scene(400, 4, ##"""
                {"frame": [0, -1200, 400, 2404],
                 "filters": [{"type": "variableBlur", "inputRadius": \##(radius), "inputMaskImage": "\##(mask)"}],
                 "sublayers": [{"frame": [100, 0, 200, 2404], "backgroundColor": "black"}]}
                """##))
            let (worst, at) = boxProfileDifference(img, sigma: sigma)
            XCTAssertLessThanOrEqual(worst, 1, "σ \(sigma): worst difference \(worst) at x = \(at)")
        }
    }

    /// Where σ grows down a column across the full-resolution level's band (8 px), each row's
    /// vertical blur reads the rows around it, horizontally blurred at their own σ: vertical stripes
    /// under a mask transparent at the top and opaque at the bottom (σ 20 px) lose contrast row by
    /// row, never gaining any (a row whose horizontal blur were skipped would bring sharp stripes
    /// back into the rows above the band's edge).
    func testAVariableBlurGrowingDownAColumnLosesContrastRowByRow() throws {
        let mask = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAACCAYAAACZgbYnAAAADElEQVR4AWNggIL/AAEJAQDJx0h0AAAAAElFTkSuQmCC"
        var stripes: [String] = []
        for i in 0..<12 { stripes.append(##"{"frame": [\##(i * 8), -200, 4, 800], "backgroundColor": "black"}"##) }
        let img = try render(scene(96, 400, ##"""
            {"frame": [0, 0, 96, 400], "filters": [{"type": "variableBlur", "inputRadius": 20, "inputMaskImage": "\##(mask)"}],
             "sublayers": [\##(stripes.joined(separator: ", "))]}
            """##))
        func contrast(_ y: Int) -> Int {
            let v = (40..<56).map { img.pixel($0, y)[0] }
            return v.max()! - v.min()!
        }
        XCTAssertGreaterThan(contrast(2), 200, "sharp at the top")
        XCTAssertLessThan(contrast(300), 3, "blurred out at the bottom")
        for y in 1..<400 { XCTAssertLessThanOrEqual(contrast(y), contrast(y - 1) + 1, "row \(y)") }
    }
}
