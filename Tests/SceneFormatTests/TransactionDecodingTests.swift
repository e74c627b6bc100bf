import XCTest
@testable import SceneFormat
import Geometry
import LayerModel
import Animation

final class TransactionDecodingTests: XCTestCase {
    private let tree = #"{"name": "root", "sublayers": [{"name": "list"}, {"name": "arrow", "class": "CAShapeLayer"}, {"name": "dot"}, {"name": "twin"}, {"name": "twin"}]}"#

    func testEveryPartOfATransaction() throws {
        let doc = try decodeScene(sceneJSON(root: tree, extra: #"""
        , "transactions": [
          {"time": 2, "removeLayers": ["row"]},
          {"time": 1.0, "animationDuration": 0.3, "animationTimingFunction": "easeInEaseOut", "disableActions": true,
           "set": [{"layer": "arrow", "keyPath": "strokeColor", "value": "#FF3B30"}, {"layer": "dot", "keyPath": "position.x", "value": 4}],
           "add": [{"layer": "dot", "animation": {"class": "CABasicAnimation", "keyPath": "opacity", "toValue": 0}}],
           "remove": [{"layer": "dot", "key": "pulse"}],
           "insert": [{"parent": "list", "index": 0, "layer": {"name": "row", "bounds": [0, 0, 390, 60],
                       "sublayers": [{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "toValue": 1}]}]}}]}
        ]
        """#))
        XCTAssertEqual(doc.transactions.map(\.time), [1, 2], "sorted by time")
        let t = doc.transactions[0]
        XCTAssertEqual(t.animationDuration, 0.3); XCTAssertEqual(t.animationTimingFunction, .named(.easeInEaseOut)); XCTAssertTrue(t.disableActions)
        XCTAssertEqual(t.set[0].layer, "arrow"); XCTAssertEqual(t.set[0].keyPath.property, "strokeColor")
        XCTAssertEqual(t.set[0].value, .color(Color(1, 59.0 / 255, 48.0 / 255)))
        XCTAssertEqual(t.set[1].value, .number(4)); XCTAssertEqual(t.set[1].keyPath.field, .x)
        XCTAssertEqual(t.add[0].animation.toValue, .number(0))
        XCTAssertEqual(t.remove[0].key, "pulse")
        XCTAssertEqual(t.insert[0].parent, "list"); XCTAssertEqual(t.insert[0].index, 0)
        XCTAssertEqual(t.insert[0].layer.bounds, Rect(0, 0, 390, 60))
        XCTAssertEqual(t.insert[0].layer.contentsScale, 2, "inserted layers get the canvas-scale default too")
        XCTAssertEqual(t.insert[0].layer.sublayers[0].id, 1)
        XCTAssertEqual(Array(t.insert[0].animations.keys), [1])
        XCTAssertEqual(doc.transactions[1].removeLayers.map(\.name), ["row"], "a layer inserted earlier can be named later")
        // Defaults.
        let plain = try decodeScene(sceneJSON(root: tree, extra: #", "transactions": [{"time": 0}]"#)).transactions[0]
        XCTAssertEqual(plain.animationDuration, 0.25); XCTAssertNil(plain.animationTimingFunction); XCTAssertFalse(plain.disableActions)
    }

    func testReferencesMustResolve() {
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 1, "set": [{"layer": "arow", "keyPath": "opacity", "value": 0}]}]"#),
                         .unresolvedReference, pointer: "/transactions/0/set/0/layer", message: "no layer named 'arow'")
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 1, "removeLayers": ["twin"]}]"#),
                         .unresolvedReference, pointer: "/transactions/0/removeLayers/0", message: "layer name 'twin' is not unique")
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 2, "set": [{"layer": "dot", "keyPath": "opacity", "value": 1}]}, {"time": 1, "removeLayers": ["dot"]}]"#),
                         .unresolvedReference, pointer: "/transactions/0/set/0/layer", message: "layer 'dot' was removed by the transaction at 1 s")
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 1, "set": [{"layer": "row", "keyPath": "opacity", "value": 1}]}, {"time": 2, "insert": [{"parent": "list", "index": 0, "layer": {"name": "row"}}]}]"#),
                         .unresolvedReference, pointer: "/transactions/0/set/0/layer", message: "no layer named 'row'")
    }

    func testSetValuesAreCheckedLikeProperties() {
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 1, "set": [{"layer": "dot", "keyPath": "opacity", "value": 2}]}]"#),
                         .outOfRange, pointer: "/transactions/0/set/0/value", message: "opacity 2 is out of range")
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 1, "set": [{"layer": "dot", "keyPath": "fillColor", "value": "red"}]}]"#),
                         .invalidValue, pointer: "/transactions/0/set/0/keyPath", message: "fillColor is a CAShapeLayer property; this layer's class is CALayer")
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 1, "set": [{"layer": "dot", "keyPath": "opacity"}]}]"#),
                         .missingKey, pointer: "/transactions/0/set/0", message: "missing required key 'value' in set entry")
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 1, "sets": []}]"#),
                         .unknownKey, pointer: "/transactions/0/sets", message: "unknown key 'sets' for a transaction")
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"set": []}]"#),
                         .missingKey, pointer: "/transactions/0", message: "missing required key 'time' in a transaction")
        assertSceneError(sceneJSON(root: tree, extra: #", "transactions": [{"time": 1, "insert": [{"parent": "list", "index": 0.5, "layer": {}}]}]"#),
                         .invalidValue, pointer: "/transactions/0/insert/0/index", message: "expected a whole number")
    }
}
