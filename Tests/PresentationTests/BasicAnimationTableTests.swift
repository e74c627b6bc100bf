import XCTest
import Geometry
import LayerModel
import Animation
import SceneFormat

/// CABasicAnimation's from/to/by table (reference §4.3), every row, and CATransition's types and
/// subtypes (§4.7), through scenes. Expected values are hand computations: linear pacing, so at
/// half time the value is the midpoint of the row's start and end. (All three values together are
/// undefined in Core Animation; the scene decoder refuses them, tested in SceneFormatTests.)
final class BasicAnimationTableTests: XCTestCase {
    /// zPosition model value 10; each row animates over 1 s from time 0; sampled at 0.5 s.
    func testEveryRowOfTheFromToByTable() throws {
        let rows: [(fields: String, expected: Double, row: String)] = [
            (#""fromValue": 2, "toValue": 6"#, 4, "from → to"),
            (#""fromValue": 2, "byValue": 6"#, 5, "from → from + by (2 → 8)"),
            (#""toValue": 6, "byValue": 4"#, 4, "to − by → to (2 → 6)"),
            (#""fromValue": 2"#, 6, "from → base (2 → 10)"),
            (#""toValue": 30"#, 20, "base → to (10 → 30)"),
            (#""byValue": 4"#, 12, "base → base + by (10 → 14)"),
        ]
        for r in rows {
            let tl = try sceneTimeline(#"{"name": "a", "zPosition": 10, "animations": [{"class": "CABasicAnimation", "keyPath": "zPosition", "duration": 1, "# + r.fields + "}]}")
            XCTAssertEqual(find("a", tl.presentation(at: 0.5))?.zPosition ?? .nan, r.expected, accuracy: 1e-12, r.row)
        }
    }

    /// No from, to or by: from the presentation value captured when added to the live model value
    /// (what implicit animations rely on). Added by a transaction that also changes the model.
    func testNoValuesAnimatesFromThePreviousPresentationValue() throws {
        let tl = try sceneTimeline(#"{"name": "a", "opacity": 1}"#, transactions: #"""
        [{"time": 1, "disableActions": true, "set": [{"layer": "a", "keyPath": "opacity", "value": 0.2}],
          "add": [{"layer": "a", "animation": {"class": "CABasicAnimation", "keyPath": "opacity", "duration": 1}}]}]
        """#)
        XCTAssertEqual(find("a", tl.presentation(at: 1.5))?.opacity ?? .nan, 0.6, accuracy: 1e-12)
        XCTAssertEqual(find("a", tl.presentation(at: 2.5))?.opacity ?? .nan, 0.2, accuracy: 1e-12)
    }

    /// A transaction's animationDuration and animationTimingFunction apply to explicit animations
    /// it adds with duration 0 (reference §3.4, §7.1): easeIn over 0.5 s gives 0.315357 at half time (§9.2).
    func testTransactionDurationAndCurveApplyToAddedAnimations() throws {
        let tl = try sceneTimeline(#"{"name": "a"}"#, transactions: #"""
        [{"time": 1, "animationDuration": 0.5, "animationTimingFunction": "easeIn",
          "add": [{"layer": "a", "animation": {"class": "CABasicAnimation", "keyPath": "zPosition", "fromValue": 0, "toValue": 1}}]}]
        """#)
        XCTAssertEqual(find("a", tl.presentation(at: 1.25))?.zPosition ?? .nan, 0.315357, accuracy: 1e-5)
        XCTAssertEqual(find("a", tl.presentation(at: 1.5))?.zPosition ?? .nan, 0, "ended and removed")
    }

    /// `remove` takes an animation away by key at the transaction's time.
    func testRemoveByKey() throws {
        let tl = try sceneTimeline(#"{"name": "a", "animations": [{"class": "CABasicAnimation", "key": "spin", "keyPath": "zPosition", "fromValue": 0, "toValue": 10, "duration": 4}]}"#,
                              transactions: #"[{"time": 1, "remove": [{"layer": "a", "key": "spin"}]}]"#)
        XCTAssertEqual(find("a", tl.presentation(at: 0.8))?.zPosition ?? .nan, 2, accuracy: 1e-12)
        XCTAssertEqual(find("a", tl.presentation(at: 1.2))?.zPosition ?? .nan, 0)
    }

    /// Transition types at half progress for a 100×50 layer (linear pacing, 1 s, from 1 s):
    /// fade: old at opacity 0.5 beneath new at 0.5; moveIn from the left: new at −50, old still;
    /// reveal from the top (the max-Y edge): old slides toward −y by 25 and is drawn on top;
    /// push from the bottom (min-Y edge): new at −25, old at +25.
    func testTransitionTypesAndSubtypes() throws {
        func states(_ type: String, _ subtype: String?) throws -> (old: Layer, new: Layer, oldOnTop: Bool) {
            let sub = subtype.map { ", \"subtype\": \"\($0)\"" } ?? ""
            let animation = "{\"class\": \"CATransition\", \"type\": \"\(type)\"\(sub), \"duration\": 1}"
            let tl = try sceneTimeline(#"{"name": "card", "bounds": [0, 0, 100, 50], "position": [50, 25], "backgroundColor": "red"}"#,
                                  transactions: #"[{"time": 1, "disableActions": true, "set": [{"layer": "card", "keyPath": "backgroundColor", "value": "blue"}], "add": [{"layer": "card", "animation": "# + animation + "}]}]")
            let subs = tl.presentation(at: 1.5).sublayers
            let oldIndex = try XCTUnwrap(subs.firstIndex { $0.id < 0 }), newIndex = try XCTUnwrap(subs.firstIndex { $0.id > 0 })
            return (subs[oldIndex], subs[newIndex], oldIndex > newIndex)
        }
        let fade = try states("fade", nil)
        // Both states at their own opacity, marked for the planner's cross-dissolve at p = 0.5.
        XCTAssertEqual(fade.old.opacity, 1, accuracy: 1e-12); XCTAssertEqual(fade.new.opacity, 1, accuracy: 1e-12)
        XCTAssertEqual(fade.old.transitionState, TransitionState(role: .previous, dissolve: 0.5))
        XCTAssertEqual(fade.new.transitionState, TransitionState(role: .next, dissolve: 0.5))
        XCTAssertEqual(fade.old.backgroundColor, Color(1, 0, 0)); XCTAssertFalse(fade.oldOnTop)

        let moveIn = try states("moveIn", "fromLeft")
        XCTAssertEqual(moveIn.new.transform.m41, -50, accuracy: 1e-9); XCTAssertTrue(moveIn.old.transform.isIdentity)

        let reveal = try states("reveal", "fromTop")
        XCTAssertEqual(reveal.old.transform.m42, -25, accuracy: 1e-9); XCTAssertTrue(reveal.new.transform.isIdentity)
        XCTAssertTrue(reveal.oldOnTop, "reveal uncovers the new state: the old one is drawn above it")

        let push = try states("push", "fromBottom")
        XCTAssertEqual(push.new.transform.m42, -25, accuracy: 1e-9); XCTAssertEqual(push.old.transform.m42, 25, accuracy: 1e-9)

        let defaultSubtype = try states("push", nil)
        XCTAssertEqual(defaultSubtype.new.transform.m41, -50, accuracy: 1e-9, "nil subtype = fromLeft")
    }

    /// An implicit `contents` change fades (reference §7.2): a CATransition from the previous state.
    func testContentsChangeFades() throws {
        let tl = try sceneTimeline(#"{"name": "img", "bounds": [0, 0, 10, 10], "contents": "assets/avatar-1.png"}"#,
                              transactions: #"[{"time": 1, "set": [{"layer": "img", "keyPath": "contents", "value": "assets/avatar-2.png"}]}]"#)
        let mid = tl.presentation(at: 1.125).sublayers
        XCTAssertEqual(mid.count, 2, "previous and new contents")
        XCTAssertEqual(tl.presentation(at: 1.3).sublayers.count, 1)
    }
}

/// What evaluation reads but does not apply is reported with its place, never dropped silently.
final class UnappliedAnimationTests: XCTestCase {
    func testTransitionInsideAGroupIsReported() throws {
        let tl = try sceneTimeline(#"{"name": "a", "animations": [{"class": "CAAnimationGroup", "duration": 1, "animations": [{"class": "CATransition", "type": "push"}]}]}"#)
        XCTAssertEqual(tl.warnings.count, 1)
        XCTAssertTrue(tl.warnings[0].feature.contains("inside a CAAnimationGroup"), tl.warnings[0].feature)
        XCTAssertEqual(tl.warnings[0].location?.pointer, "/root/sublayers/0/animations/0/animations/0")
        XCTAssertTrue(try sceneTimeline(#"{"name": "a", "animations": [{"class": "CATransition", "type": "push"}]}"#).warnings.isEmpty)
    }
}
