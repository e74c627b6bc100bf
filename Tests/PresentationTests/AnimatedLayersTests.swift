import XCTest
import LayerModel
import Animation

/// Which layers animate, and which move, at a scene time (what the profiler tells apart: a layer
/// that only animates is judged at rest, one that moves is mid-animation). Expected sets are
/// hand computations of each layer's local time (reference §3.1: t_local = (t_parent − beginTime)
/// · speed + timeOffset) against its animations' active intervals.
final class AnimatedLayersTests: XCTestCase {
    /// - group: beginTime 1, speed 2 → its local time, and its child mover's, is (t − 1) · 2. A
    ///   scene animation's beginTime 0 is the layer's local time when it is added, at scene time 0
    ///   (reference §3, "Animation beginTime = 0"): −2. mover's position animation (duration 1) is
    ///   active for local times [−2, −1): scene times [0, 0.5), half its duration at speed 2.
    ///   rider, under mover, moves with it.
    /// - fader: an opacity animation of 10 s, active on [0, 10): animating, not moving; its mask
    ///   animates with it.
    /// - paused: speed 0 freezes its animation (and its subtree): never animating.
    /// - still: no animation anywhere below: never listed.
    func testLocalTimesInheritedFlagsMasksAndFrozenLayers() throws {
        let tl = try sceneTimeline(#"""
{"name": "holder", "sublayers": [
  {"name": "group", "beginTime": 1, "speed": 2, "sublayers": [
    {"name": "mover", "frame": [0, 0, 10, 10],
     "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 0, "toValue": 50, "duration": 1}],
     "sublayers": [{"name": "rider", "frame": [0, 0, 4, 4]}]}]},
  {"name": "fader", "frame": [0, 20, 10, 10], "mask": {"name": "fadeMask", "frame": [0, 0, 5, 5]},
   "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 10}]},
  {"name": "paused", "speed": 0, "frame": [0, 40, 10, 10],
   "animations": [{"class": "CABasicAnimation", "keyPath": "position.y", "fromValue": 0, "toValue": 50, "duration": 10}],
   "sublayers": [{"name": "pausedChild", "frame": [0, 0, 4, 4]}]},
  {"name": "still", "frame": [0, 60, 10, 10], "sublayers": [{"name": "leaf", "frame": [0, 0, 4, 4]}]}]}
"""#)
        var names: [LayerID: String] = [:]
        tl.presentation(at: 0).forEach { names[$0.id] = $0.name ?? "?" }
        func at(_ t: Double) -> (animating: Set<String>, moving: Set<String>) {
            let r = tl.animatedLayers(at: t)
            return (Set(r.animating.compactMap { names[$0] }), Set(r.moving.compactMap { names[$0] }))
        }
        let during = at(0.45)  // mover's local time −1.1
        XCTAssertEqual(during.animating, ["mover", "rider", "fader", "fadeMask"])
        XCTAssertEqual(during.moving, ["mover", "rider"])
        let after = at(0.6)    // mover's local time −0.8: its animation is over (removed)
        XCTAssertEqual(after.animating, ["fader", "fadeMask"])
        XCTAssertEqual(after.moving, [])
        XCTAssertEqual(at(11).animating, [], "every animation has ended")
    }
}
