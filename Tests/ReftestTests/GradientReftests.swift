import SceneFormat
import XCTest

/// CAGradientLayer (reference §2.2, §5.2) against hand-computed colours: t from the geometry of
/// each type, colours interpolated in encoded sRGB on premultiplied components. Tolerances: the
/// ramp's 1024 texels and 8-bit rounding (≤ 2 levels).
final class GradientReftests: ReftestCase {
    func gradient(_ props: String, w: Int = 100, h: Int = 100) throws -> Image {
        try render(scene(w, h, #"{"class": "CAGradientLayer", "frame": [0, 0, \#(w), \#(h)], \#(props)}"#))
    }

    func testAxialDefaultRunsTopToBottom() throws {
        let img = try gradient(#""colors": ["red", "blue"]"#)
        // Row y is sampled at its centre: t = (y + 0.5) / 100.
        assertPixel(img, 50, 0, [254, 0, 1, 255], tolerance: 2)              // t = 0.005
        assertPixel(img, 50, 49, [129, 0, 126, 255], tolerance: 2)           // t = 0.495
        assertPixel(img, 50, 99, [1, 0, 254, 255], tolerance: 2)             // t = 0.995
        XCTAssertEqual(img.pixel(0, 49), img.pixel(99, 49), "constant along each row")
    }

    func testAxialWithLocationsAndStartEndPoints() throws {
        // Left to right, stops at 0.25 and 0.75: red until x = 25, blue from x = 75, the mix between.
        let img = try gradient(#""colors": ["red", "blue"], "locations": [0.25, 0.75], "startPoint": [0, 0.5], "endPoint": [1, 0.5]"#)
        assertPixel(img, 10, 50, [255, 0, 0, 255], tolerance: 0)
        assertPixel(img, 90, 50, [0, 0, 255, 255], tolerance: 0)
        // x = 49.5 → t = 0.495, (0.495 − 0.25) / 0.5 = 0.49 of the way to blue.
        assertPixel(img, 49, 50, [130, 0, 125, 255], tolerance: 2)
    }

    func testThreeStopsSpreadUniformly() throws {
        // nil locations: 0, 0.5, 1. Row 24 (t = 0.245): between red and green, 0.49 of the way.
        let img = try gradient(##""colors": ["red", "#00FF00", "blue"]"##)
        assertPixel(img, 50, 24, [130, 125, 0, 255], tolerance: 2)
        assertPixel(img, 50, 74, [0, 130, 125, 255], tolerance: 2)          // t = 0.745: green → blue, 0.49
    }

    func testRadialIsAnEllipseAboutTheStartPoint() throws {
        // Centre (50, 50), radii 50 × 50 (end (1, 1)): a pixel whose centre is 25 away has t = 0.5.
        let img = try gradient(#""type": "radial", "colors": ["red", "blue"], "startPoint": [0.5, 0.5], "endPoint": [1, 1]"#)
        // Pixel (74, 49) has centre (74.5, 49.5): distance √(24.5² + 0.5²) = 24.505 → t = 0.4901.
        assertPixel(img, 74, 49, [130, 0, 125, 255], tolerance: 2)
        assertPixel(img, 0, 0, [0, 0, 255, 255], tolerance: 0)            // beyond the end: padded
        // Elliptical: endPoint (1, 0.75) gives radii 50 × 25: (50, 62.5) lies at t = 0.5 too.
        let e = try gradient(#""type": "radial", "colors": ["red", "blue"], "startPoint": [0.5, 0.5], "endPoint": [1, 0.75]"#)
        // Pixel (49, 62): centre (49.5, 62.5) → ((−0.5/50)², (12.5/25)²) → t = 0.5001.
        assertPixel(e, 49, 62, [127, 0, 128, 255], tolerance: 2)
    }

    func testConicAngleGrowsFromStartToEndTowardPlusY() throws {
        // About the centre, angle 0 toward +x. Straight below the centre (+y on screen) is a quarter
        // turn: t = 0.25 → 0.75 red + 0.25 blue.
        let img = try gradient(#""type": "conic", "colors": ["red", "blue"], "startPoint": [0.5, 0.5], "endPoint": [1, 0.5]"#)
        // Pixel (49, 80): centre (49.5, 80.5), angle atan2(30.5, −0.5) = 90.94° → t = 0.2526.
        assertPixel(img, 49, 80, [191, 0, 64, 255], tolerance: 2)
        // Straight above: three quarters (t ≈ 0.75).
        assertPixel(img, 50, 20, [64, 0, 191, 255], tolerance: 2)
    }

    func testFadeToClearDoesNotDarken() throws {
        // red → clear over white, premultiplied: at t = 0.5 the colour is (0.5, 0, 0, 0.5) premultiplied,
        // i.e. red at half alpha → (255, 128, 128) over white. Straight-alpha interpolation would give
        // (0.5, 0, 0) at alpha 0.5 → (191, 128, 128): a dark fringe.
        let img = try gradient(#""colors": ["red", "clear"], "startPoint": [0, 0.5], "endPoint": [1, 0.5]"#)
        // Pixel 49 → t = 0.495: alpha 0.505, colour red → (255, 126, 126).
        assertPixel(img, 49, 50, [255, 126, 126, 255], tolerance: 2)
    }

    func testGradientFillsTheRoundedBoundsAndTakesOpacity() throws {
        let img = try gradient(#""colors": ["red", "red"], "cornerRadius": 20, "opacity": 0.5"#)
        assertPixel(img, 0, 0, [255, 255, 255, 255], tolerance: 0)          // outside the corner arc
        assertPixel(img, 50, 50, [255, 128, 128, 255], tolerance: 1)        // red at 0.5 over white
    }
}

extension GradientReftests {
    func testColoursAndLocationsAnimate() throws {
        // colors [red, red] → [blue, blue] over 1 s, linear: at 0.5 s every stop is (0.5, 0, 0.5)
        // (colours interpolate per component, reference §5.2).
        let json = scene(20, 20, #"{"class": "CAGradientLayer", "frame": [0, 0, 20, 20], "colors": ["red", "red"], "animations": [{"class": "CABasicAnimation", "keyPath": "colors", "fromValue": ["red", "red"], "toValue": ["blue", "blue"], "duration": 1, "timingFunction": "linear"}]}"#)
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "g.json", baseDirectory: "/")
        let f = try Self.renderer.render(doc, at: 0.5)
        let img = Image(width: f.width, height: f.height, pixels: f.pixels)
        assertPixel(img, 10, 10, [128, 0, 128, 255], tolerance: 1)
    }
}
