import XCTest
import LayerModel
import Animation
import SceneFormat

/// Filter inputs animate through `filters.NAME.INPUT` key paths (scene-format.md "Filters").
final class FilterAnimationTests: XCTestCase {
    /// A blur whose radius animates linearly 0 → 20 over 1 s: 5 at 0.25 s, 10 at 0.5 s; after the
    /// end (removed on completion) the model value 3 shows again.
    func testAnimatedInputRadius() throws {
        let tl = try sceneTimeline(#"""
{"name": "blurred", "bounds": [0, 0, 10, 10], "filters": [{"type": "gaussianBlur", "name": "blur", "inputRadius": 3}],
 "animations": [{"class": "CABasicAnimation", "keyPath": "filters.blur.inputRadius", "fromValue": 0, "toValue": 20, "duration": 1}]}
"""#)
        func radius(_ t: Double) -> Double { find("blurred", tl.presentation(at: t))!.filters[0].inputRadius }
        XCTAssertEqual(radius(0.25), 5, accuracy: 1e-9)
        XCTAssertEqual(radius(0.5), 10, accuracy: 1e-9)
        XCTAssertEqual(radius(1.5), 3, accuracy: 1e-9)
    }

    /// A transaction sets a background filter's colour; an implicit animation would run from the old
    /// colour unless actions are disabled, as here: the new colour shows at once.
    func testTransactionSetsAFilterInput() throws {
        let tl = try sceneTimeline(#"""
{"name": "tinted", "bounds": [0, 0, 10, 10], "backgroundFilters": [{"type": "multiplyColor", "name": "tint"}]}
"""#, transactions: #"[{"time": 0.1, "disableActions": true, "set": [{"layer": "tinted", "keyPath": "backgroundFilters.tint.inputColor", "value": "red"}]}]"#)
        XCTAssertEqual(find("tinted", tl.presentation(at: 0))!.backgroundFilters[0].inputColor, .white)
        XCTAssertEqual(find("tinted", tl.presentation(at: 0.2))!.backgroundFilters[0].inputColor, Color(1, 0, 0))
    }
}
