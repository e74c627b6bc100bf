import Foundation
import Pipeline
import SceneFormat
import XCTest

/// Frame-sequence reftests: an animated scene rendered at chosen times against the equivalent
/// static scene (or hand-computed pixels). Expected geometry and colours are hand computations
/// from reference/core-animation.md, written next to each case.
final class AnimationReftests: ReftestCase {
    /// position.x 0 → 40 over 1 s, linear: at 0.25 s the layer sits at x = 10 (+ its half width).
    func testPositionAnimationMatchesTheStaticLayerAtItsInterpolatedPlace() throws {
        let animated = scene(64, 16, ##"""
{"bounds": [0, 0, 8, 8], "position": [4, 8], "backgroundColor": "red",
            "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 4, "toValue": 44, "duration": 1}]}
"""##)
        for (t, x) in [(0.0, 0), (0.25, 10), (0.5, 20), (0.75, 30)] {
            let expected = scene(64, 16, ##"{"frame": [\##(x), 4, 8, 8], "backgroundColor": "red"}"##)
            assertImagesMatch(try render(animated, at: t), try render(expected), "position at \(t)")
        }
        // After the end the animation is removed: the model position (x = 4 − 4 = 0) shows again.
        assertImagesMatch(try render(animated, at: 1.5), try render(scene(64, 16, ##"{"frame": [0, 4, 8, 8], "backgroundColor": "red"}"##)))
    }

    /// transform.rotation.z 0 → π/2 over 1 s: at 0.5 s the layer is rotated by exactly 45°.
    func testRotationAnimationMatchesTheStaticRotation() throws {
        let animated = scene(32, 32, ##"""
{"bounds": [0, 0, 12, 12], "position": [16, 16], "backgroundColor": "blue",
            "animations": [{"class": "CABasicAnimation", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 1.5707963267948966, "duration": 1}]}
"""##)
        let expected = scene(32, 32, ##"{"bounds": [0, 0, 12, 12], "position": [16, 16], "backgroundColor": "blue", "transform": "rotate(45deg)"}"##)
        assertImagesMatch(try render(animated, at: 0.5), try render(expected))
    }

    /// An implicit backgroundColor change at 1 s (default curve, 0.25 s): at 1.125 s the `default`
    /// curve gives 0.802403 (reference §9.2), so red → blue is (0.197597, 0, 0.802403) →
    /// (50.4, 0, 204.6) in 8-bit; before it red, after it blue.
    func testImplicitColorAnimationPixels() throws {
        let json = """
        {"caprof": 1, "canvas": {"width": 8, "height": 8, "backgroundColor": "#FFFFFF"},
         "root": {"frame": [0, 0, 8, 8], "sublayers": [{"name": "box", "frame": [0, 0, 8, 8], "backgroundColor": "red"}]},
         "transactions": [{"time": 1, "set": [{"layer": "box", "keyPath": "backgroundColor", "value": "blue"}]}]}
        """
        assertPixel(try render(json, at: 0.99), 4, 4, [255, 0, 0, 255], tolerance: 0)
        assertPixel(try render(json, at: 1.125), 4, 4, [50, 0, 205, 255], tolerance: 1)
        assertPixel(try render(json, at: 1.25), 4, 4, [0, 0, 255, 255], tolerance: 0)
    }

    /// A spring scale with CASpringAnimation's defaults: progress 0.849426 at 0.2 s (reference
    /// §9.3), so transform.scale 1 → 2 is 1.849426; the 10-pt square covers 18.49 pt about its
    /// centre (16, 16): x from 6.75 to 25.25, so pixel 6 is a quarter covered and pixel 7 fully.
    func testSpringScaleAtAChosenTime() throws {
        let json = scene(32, 32, ##"""
{"bounds": [0, 0, 10, 10], "position": [16, 16], "backgroundColor": "black",
            "animations": [{"class": "CASpringAnimation", "keyPath": "transform.scale", "fromValue": 1, "toValue": 2, "duration": "settlingDuration"}]}
"""##)
        let img = try render(json, at: 0.2)
        assertPixel(img, 16, 16, [0, 0, 0, 255], tolerance: 0)
        assertPixel(img, 7, 16, [0, 0, 0, 255], tolerance: 0)
        assertPixel(img, 5, 16, [255, 255, 255, 255], tolerance: 0)
        // Pixel 6 is covered from x = 6.7471 to 7: coverage 0.2529 → 255·(1 − 0.2529) ≈ 190.5.
        assertPixel(img, 6, 16, [190, 190, 190, 255], tolerance: 3)
    }

    /// CATransition push from the right, halfway: the new state (blue) is half a width to the
    /// right, the previous state (red) half a width to the left (reference §4.7).
    func testPushTransitionHalfway() throws {
        let json = """
        {"caprof": 1, "canvas": {"width": 40, "height": 10, "backgroundColor": "#FFFFFF"},
         "root": {"frame": [0, 0, 40, 10], "sublayers": [{"name": "card", "frame": [10, 0, 20, 10], "backgroundColor": "red"}]},
         "transactions": [{"time": 1, "disableActions": true, "set": [{"layer": "card", "keyPath": "backgroundColor", "value": "blue"}],
                           "add": [{"layer": "card", "animation": {"class": "CATransition", "type": "push", "subtype": "fromRight", "duration": 1}}]}]}
        """
        let expected = scene(40, 10, ##"{"frame": [0, 0, 20, 10], "backgroundColor": "red"}, {"frame": [20, 0, 20, 10], "backgroundColor": "blue"}"##)
        assertImagesMatch(try render(json, at: 1.5), try render(expected))
    }

    /// A scene's frames are a pure function of time: rendering frames out of order, twice, gives
    /// byte-identical pixels (lavapipe is deterministic; design.md §3).
    func testFramesAreDeterministicAndOrderIndependent() throws {
        let json = scene(32, 32, ##"""
{"bounds": [0, 0, 10, 10], "position": [16, 16], "backgroundColor": "green",
            "animations": [{"class": "CAKeyframeAnimation", "keyPath": "position", "values": [[5, 5], [27, 5], [27, 27]], "duration": 1, "calculationMode": "cubic"}]}
"""##)
        let later = try render(json, at: 0.7)
        _ = try render(json, at: 0.1)
        XCTAssertEqual(try render(json, at: 0.7), later)
    }

    // MARK: helpers

    /// Renders scene JSON at scene time `t`.
    func render(_ json: String, at t: Double) throws -> Image {
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "reftest.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let f = try Self.renderer.render(doc, at: t)
        return Image(width: f.width, height: f.height, pixels: f.pixels)
    }
}
