import XCTest
import Animation
import LayerModel
import SceneFormat

/// Limits on what a scene expands to, not only what it says: the layer instances replicators
/// expand to over the whole tree (nested ones multiply, animated counts included), the particles
/// of every emitter (once per replicator instance it is in), and text length. Refused by
/// `SceneLimitCheck`, the one place every input format's scene passes through.
final class ExpansionLimitTests: XCTestCase {
    /// 656 bytes: each count within its own limit (4,900 and 100 ≤ 10,000), their product 490,000
    /// layer instances, which took 5 s and 1.2 GB a frame. The message names both replicators.
    func testNestedReplicatorsAreBoundedByTheirProduct() throws {
        let root = #"{"sublayers": [{"class": "CAReplicatorLayer", "name": "grid", "instanceCount": 4900, "sublayers": [{"class": "CAReplicatorLayer", "name": "row", "instanceCount": 100, "sublayers": [{"name": "dot", "bounds": [0, 0, 2, 2], "backgroundColor": "white"}]}]}]}"#
        let e = try XCTUnwrap(sceneError(scene(root: root)))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertEqual(e.location.pointer, "/root/sublayers/0/sublayers/0/sublayers/0")
        XCTAssertTrue(e.message.contains("more than 100000 layer instances once replicators are expanded (this layer is drawn once per instance of 'grid' (line 1) × 4900 inside 'row' (line 1) × 100: nested replicators multiply)"), e.message)
        // 400 × 100 (+ the 400 inner replicators, + the root and the outer one) is within.
        XCTAssertNoThrow(try decode(scene(root: root.replacingOccurrences(of: "4900", with: "400"))))
    }

    /// Siblings add up: ten replicators of 10,000 instances each are 100,000 instances, plus the
    /// root and the replicators themselves: over.
    func testReplicatedInstancesAddUpOverTheWholeTree() throws {
        let one = #"{"class": "CAReplicatorLayer", "instanceCount": 10000, "sublayers": [{}]}"#
        let e = try XCTUnwrap(sceneError(scene(root: #"{"sublayers": ["# + Array(repeating: one, count: 10).joined(separator: ", ") + "]}")))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertEqual(e.location.pointer, "/root/sublayers/9/sublayers/0")
        XCTAssertNoThrow(try decode(scene(root: #"{"sublayers": ["# + Array(repeating: one, count: 9).joined(separator: ", ") + "]}")))
    }

    /// An animation that takes `instanceCount` to 4,900 counts as 4,900: the frame at its end holds
    /// what a static 4,900 would.
    func testAnimatedInstanceCountsAreCountedAtTheirLargest() throws {
        let root = #"{"sublayers": [{"class": "CAReplicatorLayer", "name": "grid", "instanceCount": 1, "animations": [{"class": "CABasicAnimation", "keyPath": "instanceCount", "fromValue": 1, "toValue": 4900, "duration": 1}], "sublayers": [{"class": "CAReplicatorLayer", "name": "row", "instanceCount": 100, "sublayers": [{}]}]}]}"#
        let e = try XCTUnwrap(sceneError(scene(root: root)))
        XCTAssertTrue(e.message.contains("'grid' (line 1) × 4900 inside 'row' (line 1) × 100"), e.message)
    }

    /// Transactions count too: one that sets `instanceCount` to 4,900 later, and a replicator
    /// inserted under a replicated parent, which is drawn once per instance of that parent.
    func testTransactionsThatSetOrInsertReplicatorsAreCounted() throws {
        let nested = #"{"sublayers": [{"class": "CAReplicatorLayer", "name": "grid", "instanceCount": 1, "sublayers": [{"class": "CAReplicatorLayer", "name": "row", "instanceCount": 100, "sublayers": [{}]}]}]}"#
        let set = #", "transactions": [{"time": 1, "set": [{"layer": "grid", "keyPath": "instanceCount", "value": 4900}]}]"#
        let e = try XCTUnwrap(sceneError(scene(root: nested, extra: set)))
        XCTAssertTrue(e.message.contains("'grid' (line 1) × 4900 inside 'row' (line 1) × 100"), e.message)

        let holder = #"{"sublayers": [{"class": "CAReplicatorLayer", "name": "grid", "instanceCount": 4900, "sublayers": [{"name": "slot"}]}]}"#
        let insert = #", "transactions": [{"time": 1, "insert": [{"parent": "slot", "index": 0, "layer": {"class": "CAReplicatorLayer", "name": "row", "instanceCount": 100, "sublayers": [{}]}}]}]"#
        let i = try XCTUnwrap(sceneError(scene(root: holder, extra: insert)))
        XCTAssertEqual(i.kind, .limitExceeded)
        XCTAssertTrue(i.message.contains("more than 100000 layer instances"), i.message)
        XCTAssertNoThrow(try decode(scene(root: holder.replacingOccurrences(of: "4900", with: "400"), extra: insert)))
    }

    /// An emitter inside a replicator emits once per instance: 50 instances of an emitter of
    /// 4,000 particles are 200,000 particles alive at once.
    func testEmittersCountOncePerReplicatorInstance() throws {
        func root(_ n: Int) -> String {
            #"{"sublayers": [{"class": "CAReplicatorLayer", "name": "fountains", "instanceCount": \#(n), "sublayers": [{"class": "CAEmitterLayer", "emitterCells": [{"birthRate": 1000, "lifetime": 4, "contents": null}]}]}]}"#
        }
        let e = try XCTUnwrap(sceneError(scene(root: root(50))))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertTrue(e.message.contains("particles alive at once") && e.message.contains("once per replicator instance") && e.message.contains("the limit of 100000"), e.message)
        XCTAssertNoThrow(try decode(scene(root: root(25))))
    }

    /// Text is bounded: a 30 MB string took Pango about 3 minutes; 100,000 characters is the most.
    func testTextLengthIsBounded() throws {
        func root(_ n: Int) -> String { #"{"class": "CATextLayer", "bounds": [0, 0, 50, 50], "string": "\#(String(repeating: "é", count: n))"}"# }
        let e = try XCTUnwrap(sceneError(scene(root: root(100_001))))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertEqual(e.location.pointer, "/root")
        XCTAssertEqual(e.message, "the text is 100001 characters; the limit is 100000")
        XCTAssertNoThrow(try decode(scene(root: root(100_000))))
    }

    /// The evaluation's own clamp on animated counts is the file's limit.
    func testTheEvaluationClampIsTheSceneLimit() {
        XCTAssertEqual(SceneLimits.maxReplicatedLayers, 100_000)
        var inner = Layer(.replicator); inner.replicator.instanceCount = 10_000; inner.sublayers = [Layer()]
        var outer = Layer(.replicator); outer.replicator.instanceCount = 10_000; outer.sublayers = [inner]
        var root = Layer(); root.sublayers = [outer]
        var scene = Scene(canvas: Canvas(width: 10, height: 10, scale: 1), root: root)
        scene.assignIDs()
        let tree = PresentationTimeline(scene: scene, animations: [:], transactions: []).presentation(at: 0)
        var count = 0
        func visit(_ l: Layer) { count += 1; l.sublayers.forEach(visit) }
        visit(tree)
        XCTAssertLessThanOrEqual(count, SceneLimits.maxReplicatedLayers + 3)
    }
}
