import XCTest
@testable import SceneFormat

/// The scene file's `"snapshots"`: read as written, refused with the place when out of range.
final class SnapshotSettingsDecodingTests: XCTestCase {
    let root = #"{"bounds": [0, 0, 10, 10]}"#

    func testTimesAndPrecisionAreReadAsWritten() throws {
        let doc = try decodeScene(sceneJSON(root: root, extra: #", "snapshots": {"times": [0, 0.35, 1.2, 0.35], "precision": 0.99}"#))
        XCTAssertEqual(doc.snapshots, SnapshotSettings(times: [0, 0.35, 1.2, 0.35], precision: 0.99))
        XCTAssertNil(try decodeScene(sceneJSON(root: root)).snapshots)
        let onlyPrecision = try decodeScene(sceneJSON(root: root, extra: #", "snapshots": {"precision": 1}"#))
        XCTAssertEqual(onlyPrecision.snapshots, SnapshotSettings(times: nil, precision: 1))
    }

    func testOutOfRangeValuesNameTheirPlace() {
        assertSceneError(sceneJSON(root: root, extra: #", "snapshots": {"precision": 0}"#), .outOfRange,
                         pointer: "/snapshots/precision", message: "must be")
        assertSceneError(sceneJSON(root: root, extra: #", "snapshots": {"precision": 1.5}"#), .outOfRange,
                         pointer: "/snapshots/precision")
        assertSceneError(sceneJSON(root: root, extra: #", "snapshots": {"times": [0, -1]}"#), .outOfRange,
                         pointer: "/snapshots/times/1", message: "snapshot time")
        assertSceneError(sceneJSON(root: root, extra: #", "snapshots": {"times": []}"#), .outOfRange,
                         pointer: "/snapshots/times", message: "empty list")
        assertSceneError(sceneJSON(root: root, extra: #", "snapshots": {"times": 0.5}"#), .wrongType,
                         pointer: "/snapshots/times")
        assertSceneError(sceneJSON(root: root, extra: #", "snapshots": {"time": [0.5]}"#), .unknownKey,
                         pointer: "/snapshots/time", message: "unknown key 'time' for snapshots")
        XCTAssertThrowsError(try decodeScene(sceneJSON(root: root, extra: #", "snapshots": {"time": [0.5]}"#))) {
            XCTAssertTrue("\($0)".contains("times"), "suggests the key: \($0)")
        }
        let many = "[" + Array(repeating: "0", count: 1001).joined(separator: ",") + "]"
        assertSceneError(sceneJSON(root: root, extra: #", "snapshots": {"times": "# + many + "}"), .limitExceeded,
                         pointer: "/snapshots/times", message: "1001 snapshot times; the limit is 1000")
    }
}
