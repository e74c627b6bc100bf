import XCTest
import LayerModel
@testable import SceneFormat

/// Hints for the habits iOS developers bring: UIKit names, semantic system colours, 0–255 colour
/// components, keyTimes that do not match values.
final class UIKitHabitHintTests: XCTestCase {
    func suggestion(_ json: String) -> String? {
        do { _ = try decodeScene(json); return nil } catch let e as SceneError { return e.suggestion } catch { return nil }
    }

    func testUIKitPropertyNamesSuggestTheirCoreAnimationKeys() {
        for (uikit, ca) in [("clipsToBounds", "masksToBounds"), ("alpha", "opacity"), ("isHidden", "hidden"), ("isOpaque", "opaque"),
                            ("contentMode", "contentsGravity")] {
            XCTAssertEqual(suggestion(sceneJSON(root: #"{"\#(uikit)": 1}"#)), ca, uikit)
        }
        // As key paths too: a UIKit habit inside an animation.
        XCTAssertEqual(suggestion(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "alpha", "toValue": 0}]}"#)), "opacity")
        assertSceneError(sceneJSON(root: #"{"clipsToBounds": true}"#), .unknownKey, pointer: "/root/clipsToBounds",
                         description: "scene.json:1:76: error: /root/clipsToBounds: unknown key 'clipsToBounds' for CALayer; did you mean 'masksToBounds'?")
    }

    func testContentModeNamesSuggestTheirGravities() {
        for (mode, gravity) in [("aspectFill", "resizeAspectFill"), ("scaleAspectFill", "resizeAspectFill"),
                                ("aspectFit", "resizeAspect"), ("scaleAspectFit", "resizeAspect"), ("scaleToFill", "resize")] {
            XCTAssertEqual(suggestion(sceneJSON(root: #"{"contentsGravity": "\#(mode)"}"#)), gravity, mode)
        }
        // The habit table never overrides a real match: a typo still gets the nearest name.
        XCTAssertEqual(suggestion(sceneJSON(root: #"{"masksToBound": true}"#)), "masksToBounds")
    }

    /// Light-appearance values of iOS's semantic colours (the UIColor values, 0–255 / 255).
    func testSystemColorsTakeTheirLightAppearance() throws {
        func bg(_ name: String) throws -> Color? { try decodeRoot(#"{"backgroundColor": "\#(name)"}"#).backgroundColor }
        XCTAssertEqual(try bg("systemBlue"), Color(0, 122.0 / 255, 1, 1))
        XCTAssertEqual(try bg("systemRed"), Color(1, 59.0 / 255, 48.0 / 255, 1))
        XCTAssertEqual(try bg("label"), Color(0, 0, 0, 1))
        XCTAssertEqual(try bg("secondaryLabel"), Color(60.0 / 255, 60.0 / 255, 67.0 / 255, 0.6))
        XCTAssertEqual(try bg("secondarySystemBackground"), Color(242.0 / 255, 242.0 / 255, 247.0 / 255, 1))
        XCTAssertEqual(try bg("systemGroupedBackground"), Color(242.0 / 255, 242.0 / 255, 247.0 / 255, 1))
        XCTAssertEqual(try bg("systemBackground"), Color(1, 1, 1, 1))
        // A near miss is suggested; a name far from every one lists the accepted names.
        XCTAssertEqual(suggestion(sceneJSON(root: #"{"backgroundColor": "systemBlu"}"#)), "systemBlue")
        assertSceneError(sceneJSON(root: #"{"backgroundColor": "tintColor"}"#), .invalidValue, pointer: "/root/backgroundColor",
                         message: "the names are UIKit's black, blue")
        assertSceneError(sceneJSON(root: #"{"backgroundColor": "tintColor"}"#), .invalidValue, pointer: "/root/backgroundColor",
                         message: "systemGroupedBackground")
    }

    func testWholeNumberComponentsAbove1AreRefusedWithThemDividedBy255() {
        assertSceneError(sceneJSON(root: #"{"backgroundColor": [0, 122, 255]}"#), .invalidValue, pointer: "/root/backgroundColor",
                         message: "not 0–255: [0, 122, 255] divided by 255 is [0, 0.478, 1]")
        assertSceneError(sceneJSON(root: #"{"borderColor": [255, 59, 48, 0.5]}"#), .invalidValue, pointer: "/root/borderColor",
                         message: "[255, 59, 48, 0.5] divided by 255 is [1, 0.231, 0.188, 0.5]")
        // Extended sRGB (fractions above 1) and plain 0–1 colours are still accepted.
        XCTAssertNoThrow(try decodeRoot(#"{"backgroundColor": [1.2, 0, 0]}"#))
        XCTAssertNoThrow(try decodeRoot(#"{"backgroundColor": [1, 0, 1]}"#))
    }

    func testKeyTimesOfAnotherLengthThanValuesAreAnError() {
        let anim = #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 1]}]}"#
        assertSceneError(sceneJSON(root: anim), .invalidValue, pointer: "/root/animations/0/keyTimes",
                         message: "keyTimes has 2 entries but values has 3: Core Animation ignores a keyframe animation")
        // Paced modes ignore keyTimes (Core Animation's documentation), so no error there.
        let paced = #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 1], "calculationMode": "paced"}]}"#
        XCTAssertNoThrow(try decodeRoot(paced))
        // Discrete: one more key time than values (value i holds until key time i + 1, as the
        // sampler reads them); the same count as values is the error there.
        let discrete = #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "hidden", "values": [true, false], "keyTimes": [0, 0.5, 1], "calculationMode": "discrete"}]}"#
        XCTAssertNoThrow(try decodeRoot(discrete))
        let short = #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "hidden", "values": [true, false], "keyTimes": [0, 1], "calculationMode": "discrete"}]}"#
        assertSceneError(sceneJSON(root: short), .invalidValue, pointer: "/root/animations/0/keyTimes",
                         message: "in the discrete mode Core Animation needs one more key time than values")
        let matching = #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.5, 1]}]}"#
        XCTAssertNoThrow(try decodeRoot(matching))
    }
}
