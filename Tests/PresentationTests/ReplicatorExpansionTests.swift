import XCTest
import Geometry
import LayerModel
@testable import Animation

/// CAReplicatorLayer instances in the presentation tree (reference §2.3).
final class ReplicatorExpansionTests: XCTestCase {
    func testInstancesAreContainersWithAccumulatedTransformsAndDelayedTimes() throws {
        let t = try sceneTimeline(#"""
        {"class": "CAReplicatorLayer", "name": "rep", "frame": [0, 0, 40, 20], "instanceCount": 3,
         "instanceTransform": "translate(10, 0)", "instanceDelay": 0.25,
         "sublayers": [{"name": "dot", "frame": [0, 0, 5, 5],
           "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1, "timingFunction": "linear"}]}]}
        """#)
        let rep = try XCTUnwrap(find("rep", t.presentation(at: 0.5)))
        XCTAssertEqual(rep.sublayers.count, 3)
        for (k, c) in rep.sublayers.enumerated() {
            XCTAssertEqual(c.layerClass, .transform)
            XCTAssertEqual(c.position, Point(20, 10), "about the replicator's centre")
            XCTAssertEqual(c.transform.m41, 10 * Double(k), accuracy: 1e-12, "instanceTransform^k")
            // Instance k at 0.5 − 0.25·k: opacity 0.5, 0.25, 0 (k = 2 is at time 0).
            XCTAssertEqual(c.sublayers[0].opacity, 0.5 - 0.25 * Double(k), accuracy: 1e-9)
            XCTAssertGreaterThan(c.id, 1000, "containers get ids of their own")
        }
    }

    func testAReplicatorWithoutAnimationsIsStillExpanded() throws {
        let t = try sceneTimeline(#"{"class": "CAReplicatorLayer", "name": "rep", "instanceCount": 4, "sublayers": [{"name": "a"}]}"#)
        XCTAssertEqual(try XCTUnwrap(find("rep", t.presentation(at: 0))).sublayers.count, 4)
    }

    func testExpansionIsBoundedWhateverTheAnimatedCounts() {
        // An inner replicator of 10 000 copies of one layer expands to 1 + 10 000 · 2 = 20 001 layers;
        // the outer one may then show 100 000 / 20 002 = 4 instances (the scene limit of layer
        // instances a frame holds, `SceneLimits.maxReplicatedLayers`).
        var inner = Layer(.replicator); inner.replicator.instanceCount = 10_000; inner.sublayers = [Layer()]
        var outer = Layer(.replicator); outer.replicator.instanceCount = 10_000; outer.sublayers = [inner]
        XCTAssertEqual(ReplicatorExpansion.expandedSize([inner]), 20_001)
        XCTAssertEqual(ReplicatorExpansion.count(outer), 4)
        XCTAssertEqual(ReplicatorExpansion.count(inner), 10_000)
    }
}
