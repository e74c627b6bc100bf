import Pipeline
import SceneFormat
import XCTest

/// CAReplicatorLayer (reference §2.3) against hand-computed pixels: instanceTransform about the
/// replicator's centre, accumulated; instanceDelay shifting each instance's time; instanceColor
/// plus offsets (accumulated, clamped) multiplying each instance; nested replicators multiplying.
final class ReplicatorReftests: ReftestCase {
    let black = "\"#000000\""

    func render(_ json: String, at t: Double) throws -> Image {
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "replicator.json", baseDirectory: "/")
        let f = try Self.renderer.render(doc, at: t)
        return Image(width: f.width, height: f.height, pixels: f.pixels)
    }

    /// Red ink in column x, in pixels: the sum of (1 − green/255) over the column (white background).
    func inkHeight(_ img: Image, x: Int) -> Double {
        (0..<img.height).reduce(0) { $0 + (1 - Double(img.pixel(x, $1)[1]) / 255) }
    }

    func testAudioWaveBarsFollowTheDelayedAutoreversingScale() throws {
        // A 10×40 bar at x 5…15 replicated 4 times, 20 pt apart, 0.25 s apart in time; the bar's
        // transform.scale.y goes 1 → 0.5 linearly in 1 s, autoreversing, forever, about its centre.
        let wave = scene(80, 40, #"""
        {"class": "CAReplicatorLayer", "frame": [0, 0, 80, 40], "instanceCount": 4,
         "instanceTransform": "translate(20, 0)", "instanceDelay": 0.25,
         "sublayers": [{"frame": [5, 0, 10, 40], "backgroundColor": "red",
           "animations": [{"class": "CABasicAnimation", "keyPath": "transform.scale.y", "fromValue": 1, "toValue": 0.5,
                           "duration": 1, "autoreverses": true, "repeatCount": "infinity", "timingFunction": "linear"}]}]}
        """#)
        // Instance k is at local time t − 0.25·k. Forward half: s = 1 − 0.5·p; reverse: s = 0.5 + 0.5·(p − 1).
        // t = 1.5: k=0 at 1.5 (reverse, 0.5 back) s = 0.75 → 30 pt; k=1 at 1.25 s = 0.625 → 25;
        // k=2 at 1.0 s = 0.5 → 20; k=3 at 0.75 (forward) s = 0.625 → 25.
        let a = try render(wave, at: 1.5)
        for (k, h) in [30.0, 25, 20, 25].enumerated() {
            XCTAssertEqual(inkHeight(a, x: 10 + 20 * k), h, accuracy: 0.1, "bar \(k) at 1.5 s")
        }
        // t = 0.5: k=0 at 0.5 s = 0.75 → 30; k=1 at 0.25 s = 0.875 → 35; k=2 at 0 s = 1 → 40;
        // k=3 at −0.25: before the animation starts, the model value (scale 1) → 40.
        let b = try render(wave, at: 0.5)
        for (k, h) in [30.0, 35, 40, 40].enumerated() {
            XCTAssertEqual(inkHeight(b, x: 10 + 20 * k), h, accuracy: 0.1, "bar \(k) at 0.5 s")
        }
        // Bars stay centred on y = 20 (anchor at the bar's centre): bar 2 at 1.5 s covers 10…30.
        XCTAssertEqual(a.pixel(50, 9), [255, 255, 255, 255])
        XCTAssertEqual(a.pixel(50, 10), [255, 0, 0, 255])
        XCTAssertEqual(a.pixel(50, 29), [255, 0, 0, 255])
        XCTAssertEqual(a.pixel(50, 30), [255, 255, 255, 255])
    }

    func testInstanceColorAndOffsetsAccumulateClampAndMultiply() throws {
        // White 10×10 boxes 10 pt apart over black. C_k = white + k·(0, −0.5, −0.5, −0.25):
        // k=0 (1,1,1,1), k=1 (1,.5,.5,.75), k=2 (1,0,0,.5), k=3 (1,0,0,.25) (green/blue clamped at 0).
        let img = try render(scene(40, 10, background: black, #"""
        {"class": "CAReplicatorLayer", "frame": [0, 0, 40, 10], "instanceCount": 4, "instanceTransform": "translate(10, 0)",
         "instanceGreenOffset": -0.5, "instanceBlueOffset": -0.5, "instanceAlphaOffset": -0.25,
         "sublayers": [{"frame": [0, 0, 10, 10], "backgroundColor": "white"}]}
        """#), at: 0)
        XCTAssertEqual(img.pixel(5, 5), [255, 255, 255, 255])
        assertPixel(img, 15, 5, [191, 96, 96, 255], tolerance: 1)     // (1, .5, .5)·0.75 over black
        assertPixel(img, 25, 5, [128, 0, 0, 255], tolerance: 1)       // (1, 0, 0)·0.5
        assertPixel(img, 35, 5, [64, 0, 0, 255], tolerance: 1)        // (1, 0, 0)·0.25
    }

    func testInstanceColorMultipliesInstanceZeroToo() throws {
        let img = try render(scene(10, 10, background: black, #"""
        {"class": "CAReplicatorLayer", "frame": [0, 0, 10, 10], "instanceColor": "#FF0000",
         "sublayers": [{"frame": [0, 0, 10, 10], "backgroundColor": "white"}]}
        """#), at: 0)
        XCTAssertEqual(img.pixel(5, 5), [255, 0, 0, 255])
    }

    func testInstanceTransformRotatesAboutTheReplicatorCentre() throws {
        // A 10×4 box at the right middle of a 40×40 replicator; rotate(90deg) about (20, 20) on a
        // y-down screen takes (dx, dy) to (−dy, dx): instance 1 is at the bottom middle (x 18…22, y 30…40),
        // instance 2 at the left middle, instance 3 at the top middle.
        let img = try render(scene(40, 40, #"""
        {"class": "CAReplicatorLayer", "frame": [0, 0, 40, 40], "instanceCount": 4, "instanceTransform": "rotate(90deg)",
         "sublayers": [{"frame": [30, 18, 10, 4], "backgroundColor": "red"}]}
        """#), at: 0)
        let red = [255, 0, 0, 255], white = [255, 255, 255, 255]
        assertPixel(img, 35, 19, red, tolerance: 0)
        assertPixel(img, 19, 35, red, tolerance: 0)
        assertPixel(img, 4, 20, red, tolerance: 0)
        assertPixel(img, 20, 4, red, tolerance: 0)
        assertPixel(img, 20, 20, white, tolerance: 0)
        assertPixel(img, 35, 35, white, tolerance: 0)
    }

    func testNestedReplicatorsMultiply() throws {
        // Inner: 3 boxes 10 pt apart in x; outer: 2 rows 10 pt apart in y → 6 boxes.
        let img = try render(scene(40, 20, #"""
        {"class": "CAReplicatorLayer", "frame": [0, 0, 40, 20], "instanceCount": 2, "instanceTransform": "translate(0, 10)",
         "instanceColor": "#00FFFF",
         "sublayers": [{"class": "CAReplicatorLayer", "frame": [0, 0, 40, 20], "instanceCount": 3, "instanceTransform": "translate(10, 0)",
                        "sublayers": [{"frame": [1, 1, 8, 8], "backgroundColor": "white"}]}]}
        """#), at: 0)
        var boxes = 0
        for row in 0..<2 { for col in 0..<4 where img.pixel(col * 10 + 5, row * 10 + 5) == [0, 255, 255, 255] { boxes += 1 } }
        XCTAssertEqual(boxes, 6, "2 × 3 instances, each tinted by the outer instanceColor (cyan)")
        XCTAssertEqual(img.pixel(35, 5), [255, 255, 255, 255])
    }

    func testInstanceCountZeroDrawsNoSublayers() throws {
        let img = try render(scene(10, 10, #"""
        {"class": "CAReplicatorLayer", "frame": [0, 0, 10, 10], "instanceCount": 0, "backgroundColor": "blue",
         "sublayers": [{"frame": [0, 0, 5, 5], "backgroundColor": "red"}]}
        """#), at: 0)
        XCTAssertEqual(img.pixel(2, 2), [0, 0, 255, 255], "the replicator's own background is drawn, no instance")
    }
}
