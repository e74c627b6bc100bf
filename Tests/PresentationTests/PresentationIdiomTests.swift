import XCTest
import Foundation
import Geometry
import LayerModel
import Animation
import SceneFormat

/// The classic Core Animation idioms, end to end: scene JSON → decoder → presentation at chosen
/// times. Expected values are hand computations from reference/core-animation.md (cited per test).
final class PresentationIdiomTests: XCTestCase {
    /// A strokeEnd draw-on: 0 → 1 over 1 s with easeInEaseOut; at 0.25 s the curve gives 0.129162
    /// (reference §9.2), at 0.5 s exactly 0.5; after the end (removed) the model value 1 shows.
    func testStrokeEndDrawOn() throws {
        let tl = try sceneTimeline(#"""
{"name": "line", "class": "CAShapeLayer", "path": "M 0 0 L 100 0", "strokeColor": "black",
            "animations": [{"class": "CABasicAnimation", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 1, "timingFunction": "easeInEaseOut"}]}
"""#)
        XCTAssertEqual(layer("line", tl, 0).shape.strokeEnd, 0, accuracy: 1e-9)
        XCTAssertEqual(layer("line", tl, 0.25).shape.strokeEnd, 0.129162, accuracy: 1e-5)
        XCTAssertEqual(layer("line", tl, 0.5).shape.strokeEnd, 0.5, accuracy: 1e-6)
        XCTAssertEqual(layer("line", tl, 1.5).shape.strokeEnd, 1, "removed on completion: the model value")
        XCTAssertEqual(tl.naturalDuration ?? -1, 1, accuracy: 1e-9)
    }

    /// Pause and scrub (Core Animation Programming Guide's idiom, reference §3.2): a layer with
    /// speed 0 freezes its subtree at its timeOffset; setting timeOffset scrubs. The animation is
    /// added at layer time 0 (speed 0, timeOffset 0 ⇒ local time 0), so its progress is
    /// timeOffset / duration whatever the scene time.
    func testPauseAndScrubWithSpeedAndTimeOffset() throws {
        let tl = try sceneTimeline(#"""
{"name": "paused", "speed": 0, "sublayers": [{"name": "fader",
            "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]}]}
"""#,
            transactions: #"""
[{"time": 0.5, "set": [{"layer": "paused", "keyPath": "timeOffset", "value": 0.25}]},
                             {"time": 1.0, "set": [{"layer": "paused", "keyPath": "timeOffset", "value": 0.75}]}]
"""#)
        XCTAssertEqual(layer("fader", tl, 0.2).opacity, 0, accuracy: 1e-12)
        XCTAssertEqual(layer("fader", tl, 0.6).opacity, 0.25, accuracy: 1e-12)
        XCTAssertEqual(layer("fader", tl, 1.5).opacity, 0.75, accuracy: 1e-12)
        XCTAssertEqual(layer("fader", tl, 9).opacity, 0.75, accuracy: 1e-12, "frozen: scene time no longer matters")
        XCTAssertEqual(tl.naturalDuration ?? -1, 1, accuracy: 1e-12, "a paused subtree does not extend the timeline; the last transaction does")
    }

    /// A repeating, autoreversing pulse: transform.scale 1 → 1.2, 0.5 s, autoreverses, forever.
    /// One repeat is forward + back (1 s, reference §3.3); at 0.75 s we are halfway back.
    func testRepeatingAutoreversingPulse() throws {
        let tl = try sceneTimeline(#"""
{"name": "dot", "bounds": [0, 0, 10, 10],
            "animations": [{"class": "CABasicAnimation", "keyPath": "transform.scale", "fromValue": 1, "toValue": 1.2,
                            "duration": 0.5, "autoreverses": true, "repeatCount": "infinity"}]}
"""#)
        XCTAssertEqual(layer("dot", tl, 0.25).transform.m11, 1.1, accuracy: 1e-9)
        XCTAssertEqual(layer("dot", tl, 0.5).transform.m22, 1.2, accuracy: 1e-9)
        XCTAssertEqual(layer("dot", tl, 0.75).transform.m11, 1.1, accuracy: 1e-9, "reverse pass")
        XCTAssertEqual(layer("dot", tl, 1.0).transform.m11, 1.0, accuracy: 1e-9)
        XCTAssertEqual(layer("dot", tl, 7.25).transform.m33, 1.1, accuracy: 1e-9, "transform.scale sets all three")
        XCTAssertNil(tl.naturalDuration, "repeats forever")
        XCTAssertEqual(tl.duration, 10, "sampled span capped at 10 s")
    }

    /// A spring bounds change with CASpringAnimation's defaults (m 1, k 100, c 10): the width moves
    /// 100 → 200 by progress 0.340300 at 0.1 s and 1.124355 at 0.3 s (reference §9.3); the
    /// duration is the settling duration ≈ 1.472700 s.
    func testSpringBoundsChange() throws {
        let tl = try sceneTimeline(#"""
{"name": "card", "bounds": [0, 0, 100, 100],
            "animations": [{"class": "CASpringAnimation", "keyPath": "bounds", "fromValue": [0, 0, 100, 100], "toValue": [0, 0, 200, 100],
                            "duration": "settlingDuration"}]}
"""#)
        XCTAssertEqual(layer("card", tl, 0.1).bounds.width, 134.0300, accuracy: 1e-3)
        XCTAssertEqual(layer("card", tl, 0.3).bounds.width, 212.4355, accuracy: 1e-3, "overshoots")
        XCTAssertEqual(layer("card", tl, 0.3).bounds.height, 100, accuracy: 1e-9)
        XCTAssertEqual(tl.naturalDuration ?? -1, 1.4727, accuracy: 1e-3)
    }

    /// An implicit color change through a transaction (reference §7.2): from the presentation value
    /// to the new model value over 0.25 s on the `default` curve, which gives 0.802403 at half time (§9.2).
    func testImplicitColorChangeThroughATransaction() throws {
        let tl = try sceneTimeline(#"{"name": "box", "backgroundColor": [1, 0, 0]}"#,
                              transactions: #"[{"time": 1, "set": [{"layer": "box", "keyPath": "backgroundColor", "value": [0, 0, 1]}]}]"#)
        XCTAssertEqual(layer("box", tl, 0.9).backgroundColor, Color(1, 0, 0))
        let mid = try XCTUnwrap(layer("box", tl, 1.125).backgroundColor)
        XCTAssertEqual(mid.red, 1 - 0.802403, accuracy: 1e-5)
        XCTAssertEqual(mid.blue, 0.802403, accuracy: 1e-5)
        XCTAssertEqual(layer("box", tl, 1.3).backgroundColor, Color(0, 0, 1))
        XCTAssertEqual(tl.naturalDuration ?? -1, 1.25, accuracy: 1e-9)

        let off = try sceneTimeline(#"{"name": "box", "backgroundColor": [1, 0, 0]}"#,
                               transactions: #"[{"time": 1, "disableActions": true, "set": [{"layer": "box", "keyPath": "backgroundColor", "value": [0, 0, 1]}]}]"#)
        XCTAssertEqual(layer("box", off, 1.0).backgroundColor, Color(0, 0, 1), "disableActions: no implicit animation")
    }

    /// A keyframe path with rotationMode auto: along a 45° line the layer turns by π/4 (reference §4.4).
    func testKeyframePathWithRotationModeAuto() throws {
        let tl = try sceneTimeline(#"""
{"name": "plane", "bounds": [0, 0, 20, 10],
            "animations": [{"class": "CAKeyframeAnimation", "keyPath": "position", "path": "M 0 0 L 100 100", "duration": 1, "rotationMode": "auto"}]}
"""#)
        let l = layer("plane", tl, 0.5)
        XCTAssertEqual(l.position.x, 50, accuracy: 1e-6)
        XCTAssertEqual(l.position.y, 50, accuracy: 1e-6)
        XCTAssertTrue(l.transform.isClose(to: .rotation(Double.pi / 4, 0, 0, 1), tolerance: 1e-9), "\(l.transform)")
    }

    /// The from/to/by table's live base (reference §4.3): a to-only animation starts at the current
    /// model value, so changing the model mid-flight (without actions) retargets it.
    func testToOnlyAnimationReadsTheLiveModelValue() throws {
        let tl = try sceneTimeline(#"""
{"name": "dot", "position": [0, 0],
            "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "toValue": 100, "duration": 1}]}
"""#,
            transactions: #"[{"time": 0.5, "disableActions": true, "set": [{"layer": "dot", "keyPath": "position.x", "value": 20}]}]"#)
        XCTAssertEqual(layer("dot", tl, 0.25).position.x, 25, accuracy: 1e-9)
        XCTAssertEqual(layer("dot", tl, 0.75).position.x, 20 + 80 * 0.75, accuracy: 1e-9)
    }

    /// UIKit's additive animations (reference §7.5): from old − new to 0, added to the model.
    func testAdditiveAnimationAddsToTheModel() throws {
        let tl = try sceneTimeline(#"""
{"name": "dot", "position": [100, 0],
            "animations": [{"class": "CABasicAnimation", "keyPath": "position", "fromValue": [-100, 0], "toValue": [0, 0], "additive": true, "duration": 1}]}
"""#)
        XCTAssertEqual(layer("dot", tl, 0.5).position.x, 50, accuracy: 1e-9)
    }

    /// cumulative rotation: 0 → π, repeatCount 3 ⇒ 0→π, π→2π, 2π→3π (reference §4.2); at 1.5 s the
    /// layer is at 1.5π: cos = 0, sin = −1, so m11 = 0 and m12 = −1.
    func testCumulativeRotation() throws {
        let tl = try sceneTimeline(#"""
{"name": "wheel", "bounds": [0, 0, 10, 10],
            "animations": [{"class": "CABasicAnimation", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 3.141592653589793, "cumulative": true, "repeatCount": 3, "duration": 1}]}
"""#)
        let t = layer("wheel", tl, 1.5).transform
        XCTAssertEqual(t.m11, 0, accuracy: 1e-9)
        XCTAssertEqual(t.m12, -1, accuracy: 1e-9)
    }

    /// A group's children run in group time, clipped to the group (reference §4.6).
    func testGroupChildrenAreTimedInsideTheGroup() throws {
        let tl = try sceneTimeline(#"""
{"name": "g", "animations": [{"class": "CAAnimationGroup", "duration": 2, "animations": [
            {"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "beginTime": 0.5, "duration": 1}]}]}
"""#)
        XCTAssertEqual(layer("g", tl, 0.25).opacity, 1, "before the child's begin (no fill): the model value")
        XCTAssertEqual(layer("g", tl, 1.0).opacity, 0.5, accuracy: 1e-9)
        XCTAssertEqual(layer("g", tl, 1.75).opacity, 1, "the child has ended inside the group")
    }

    /// fillMode forwards with removedOnCompletion false holds the end value (reference §9.4).
    func testForwardsFillHolds() throws {
        let tl = try sceneTimeline(#"""
{"name": "a", "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 1, "toValue": 0.2,
            "duration": 1, "fillMode": "forwards", "removedOnCompletion": false}]}
"""#)
        XCTAssertEqual(layer("a", tl, 5).opacity, 0.2, accuracy: 1e-12)
    }

    /// A later animation with the same key replaces the earlier one (reference §3.4).
    func testSameKeyReplaces() throws {
        let tl = try sceneTimeline(#"""
{"name": "a", "animations": [
            {"class": "CABasicAnimation", "key": "k", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1},
            {"class": "CABasicAnimation", "key": "k", "keyPath": "zPosition", "fromValue": 0, "toValue": 10, "duration": 1}]}
"""#)
        XCTAssertEqual(layer("a", tl, 0.5).opacity, 1, "the opacity animation was replaced")
        XCTAssertEqual(layer("a", tl, 0.5).zPosition, 5, accuracy: 1e-12)
    }

    /// Inserting a layer by a transaction: its animations start at the transaction's time, its id
    /// follows the scene's; removeLayers takes it away again.
    func testInsertAndRemoveLayers() throws {
        let tl = try sceneTimeline(#"{"name": "list"}"#, transactions: #"""
[
            {"time": 1, "insert": [{"parent": "list", "index": 0, "layer": {"name": "row",
                "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]}}]},
            {"time": 3, "removeLayers": ["row"]}]
"""#)
        XCTAssertNil(find("row", tl.presentation(at: 0.5)))
        let row = try XCTUnwrap(find("row", tl.presentation(at: 1.5)))
        XCTAssertEqual(row.opacity, 0.5, accuracy: 1e-12)
        XCTAssertEqual(row.id, 2, "ids continue after the scene's (root 0, list 1)")
        XCTAssertNil(find("row", tl.presentation(at: 3)))
        XCTAssertEqual(tl.naturalDuration ?? -1, 3, accuracy: 1e-12)
    }

    /// CATransition push from the right (reference §4.7): halfway, the new state is half a width to
    /// the right and the previous state half a width to the left, both in the layer's own space.
    func testPushTransitionFromRight() throws {
        let tl = try sceneTimeline(#"{"name": "card", "bounds": [0, 0, 100, 50], "backgroundColor": "red"}"#, transactions: #"""
[
            {"time": 1, "set": [{"layer": "card", "keyPath": "backgroundColor", "value": "blue"}],
             "add": [{"layer": "card", "animation": {"class": "CATransition", "type": "push", "subtype": "fromRight", "duration": 1}}]}]
"""#)
        let root = tl.presentation(at: 1.5)
        let states = root.sublayers.filter { $0.name == "card" }
        XCTAssertEqual(states.count, 2, "old and new state")
        let old = try XCTUnwrap(states.first { $0.id < 0 }), new = try XCTUnwrap(states.first { $0.id > 0 })
        XCTAssertEqual(new.transform.m41, 50, accuracy: 1e-9)
        XCTAssertEqual(old.transform.m41, -50, accuracy: 1e-9)
        XCTAssertEqual(old.backgroundColor, Color(1, 0, 0), "the previous state keeps the old color")
        XCTAssertEqual(tl.presentation(at: 2.5).sublayers.count, 1, "after the transition only the new state")
    }

    /// The presentation is a pure function of time: evaluating out of order gives the same trees.
    func testEvaluationIsPureAndOrderIndependent() throws {
        let tl = try sceneTimeline(#"{"name": "a", "animations": [{"class": "CABasicAnimation", "keyPath": "position.y", "fromValue": 0, "toValue": 10, "duration": 1}]}"#)
        let late = layer("a", tl, 0.8).position.y
        _ = tl.presentation(at: 0.1)
        XCTAssertEqual(layer("a", tl, 0.8).position.y, late)
        XCTAssertEqual(late, 8, accuracy: 1e-9)
    }

    // MARK: helpers

    private func layer(_ name: String, _ tl: PresentationTimeline, _ t: Double, file: StaticString = #filePath, line: UInt = #line) -> Layer {
        guard let l = find(name, tl.presentation(at: t)) else {
            XCTFail("no layer \(name) at \(t)", file: file, line: line)
            return Layer()
        }
        return l
    }
}
