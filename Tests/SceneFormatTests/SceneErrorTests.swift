import XCTest
import Foundation
@testable import SceneFormat
import LayerModel

/// One test per class of bad input: kind, message, JSON pointer and line:column (design.md §5).
final class SceneErrorTests: XCTestCase {
    /// Lines and columns below refer to this layout.
    private func scene(layer: String, canvas: String = #"{"width": 10, "height": 10}"#, version: String = "1") -> String {
        """
        {
          "caprof": \(version),
          "canvas": \(canvas),
          "root": {
            "sublayers": [
              \(layer)
            ]
          }
        }
        """
    }

    func testMalformedJSON() {
        assertSceneError(scene(layer: #"{"opacity": 1 "hidden": true}"#), .malformedJSON, pointer: "/root/sublayers/0", line: 6, column: 21,
                         description: "scene.json:6:21: error: /root/sublayers/0: expected ',' or '}' after object member, found '\"'")
    }

    func testUnknownKeyWithSuggestion() {
        assertSceneError(scene(layer: #"{"backgroundColr": "red"}"#), .unknownKey, pointer: "/root/sublayers/0/backgroundColr", line: 6, column: 8,
                         description: "scene.json:6:8: error: /root/sublayers/0/backgroundColr: unknown key 'backgroundColr' for CALayer; did you mean 'backgroundColor'?")
        // No suggestion when nothing is close.
        assertSceneError(scene(layer: #"{"wobble": 1}"#), .unknownKey, pointer: "/root/sublayers/0/wobble", line: 6, column: 8,
                         description: "scene.json:6:8: error: /root/sublayers/0/wobble: unknown key 'wobble' for CALayer")
        assertSceneError(scene(layer: "{}", canvas: #"{"width": 10, "height": 10, "scael": 2}"#), .unknownKey, pointer: "/canvas/scael",
                         line: 3, column: 41, message: "unknown key 'scael' for canvas")
    }

    func testWrongType() {
        assertSceneError(scene(layer: #"{"backgroundColor": 5}"#), .wrongType, pointer: "/root/sublayers/0/backgroundColor", line: 6, column: 27,
                         description: ##"scene.json:6:27: error: /root/sublayers/0/backgroundColor: expected a color ("#RRGGBB", [r, g, b(, a)], a UIKit name or null), found a number"##)
        assertSceneError(scene(layer: #"{"position": "10, 20"}"#), .wrongType, pointer: "/root/sublayers/0/position", line: 6, column: 20,
                         message: "expected a point [x, y], found a string")
        assertSceneError(scene(layer: #"{"hidden": 1}"#), .wrongType, pointer: "/root/sublayers/0/hidden", line: 6, column: 18,
                         message: "expected true or false, found a number")
        assertSceneError(scene(layer: #"{"sublayers": {}}"#), .wrongType, pointer: "/root/sublayers/0/sublayers",
                         message: "expected an array of layers, found an object")
        assertSceneError(scene(layer: "[]"), .wrongType, pointer: "/root/sublayers/0", line: 6, column: 7,
                         message: "expected a layer (an object), found an array")
    }

    func testOutOfRange() {
        assertSceneError(scene(layer: #"{"opacity": 1.5}"#), .outOfRange, pointer: "/root/sublayers/0/opacity", line: 6, column: 19,
                         description: "scene.json:6:19: error: /root/sublayers/0/opacity: opacity 1.5 is out of range: must be in [0, 1]")
        assertSceneError(scene(layer: "{}", canvas: #"{"width": 10, "height": 10, "scale": 0}"#), .outOfRange, pointer: "/canvas/scale",
                         line: 3, column: 50, message: "scale 0 is out of range: must be in (0, 16]")
        assertSceneError(scene(layer: "{}", canvas: #"{"width": -10, "height": 10}"#), .outOfRange, pointer: "/canvas/width",
                         message: "must be > 0")
    }

    func testMissingRequiredKey() {
        assertSceneError(scene(layer: "{}", canvas: #"{"width": 10}"#), .missingKey, pointer: "/canvas", line: 3, column: 13,
                         description: "scene.json:3:13: error: /canvas: missing required key 'height' in canvas")
        assertSceneError(#"{"caprof": 1, "canvas": {"width": 1, "height": 1}}"#, .missingKey, pointer: "", line: 1, column: 1,
                         description: "scene.json:1:1: error: /: missing required key 'root' in the scene")
    }

    func testMissingImageFile() throws {
        let dir = try makeTemporaryDirectory(self)
        assertSceneError(scene(layer: #"{"contents": "images/missing.png"}"#), .missingFile, pointer: "/root/sublayers/0/contents",
                         line: 6, column: 20, message: "image file 'images/missing.png' not found (looked for \(dir)/images/missing.png)",
                         baseDirectory: dir)
    }

    func testCorruptDataURI() {
        assertSceneError(scene(layer: #"{"contents": "data:image/png;base64,not*base64"}"#), .invalidValue, pointer: "/root/sublayers/0/contents",
                         line: 6, column: 20, message: "corrupt data URI: the base64 payload is not valid base64")
        assertSceneError(scene(layer: #"{"contents": "data:image/png;base64,aGVsbG8="}"#), .invalidValue, pointer: "/root/sublayers/0/contents",
                         message: "corrupt data URI: the payload is not a PNG")
        assertSceneError(scene(layer: #"{"contents": "data:image/jpeg;base64,aGVsbG8="}"#), .invalidValue, pointer: "/root/sublayers/0/contents",
                         message: "corrupt data URI: the payload is not a JPEG")
        assertSceneError(scene(layer: #"{"contents": "data:image/gif;base64,aGVsbG8="}"#), .invalidValue, pointer: "/root/sublayers/0/contents",
                         message: "unsupported data URI of type 'image/gif': caprof reads data:image/png;base64,… and data:image/jpeg;base64,…")
    }

    func testCanvasOverTheLimit() {
        assertSceneError(scene(layer: "{}", canvas: #"{"width": 6000, "height": 844, "scale": 3}"#), .limitExceeded, pointer: "/canvas",
                         line: 3, column: 13,
                         description: "scene.json:3:13: error: /canvas: canvas over the limit: 6000×844 points at scale 3 is 18000×2532 device pixels; each side must be ≤ 16384")
        // Huge numbers are refused, not trapped on.
        assertSceneError(scene(layer: "{}", canvas: #"{"width": 1e300, "height": 1e300, "scale": 16}"#), .limitExceeded, pointer: "/canvas",
                         message: "canvas over the limit")
    }

    func testUnsupportedVersion() {
        assertSceneError(scene(layer: "{}", version: "2"), .unsupportedVersion, pointer: "/caprof", line: 2, column: 13,
                         description: "scene.json:2:13: error: /caprof: scene format version 2 is not supported; this caprof reads version 1")
        assertSceneError(scene(layer: "{}", version: #""1""#), .wrongType, pointer: "/caprof", message: "expected the format version 1, found a string")
    }

    func testDuplicateKey() {
        assertSceneError(scene(layer: #"{"opacity": 1, "opacity": 0}"#), .malformedJSON, pointer: "/root/sublayers/0/opacity", line: 6, column: 22,
                         description: "scene.json:6:22: error: /root/sublayers/0/opacity: duplicate key 'opacity' (first at line 6, column 8)")
    }

    func testLayerLimit() {
        let layers = Array(repeating: "{}", count: SceneLimits.maxLayers).joined(separator: ",")
        assertSceneError(scene(layer: layers), .limitExceeded, pointer: "/root/sublayers/\(SceneLimits.maxLayers - 1)",
                         message: "more than 100000 layers")
    }

    func testLayerDepthLimit() {
        var json = "{}"
        for _ in 0..<SceneLimits.maxLayerDepth { json = #"{"sublayers": ["# + json + "]}" }
        assertSceneError(sceneJSON(root: json), .limitExceeded, pointer: "/root" + String(repeating: "/sublayers/0", count: SceneLimits.maxLayerDepth),
                         message: "deeper than 256 levels")
    }

    func testPathElementLimit() {
        let d = "M0 0" + String(repeating: " L1 1", count: SceneLimits.maxPathElements)
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "path": ""# + d + #""}"#), .limitExceeded, pointer: "/root/path",
                         message: "more than 100000 elements")
    }

    func testLoadFromDiskAndIOErrors() throws {
        let dir = try makeTemporaryDirectory(self)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/dot.png", contents: Data(tinyPNG)))
        let path = dir + "/scene.json"
        try sceneJSON(root: #"{"contents": "dot.png"}"#).write(toFile: path, atomically: false, encoding: .utf8)
        let doc = try SceneDecoder.load(path: path)
        XCTAssertEqual(doc.scene.sourceFile, path)
        XCTAssertEqual(doc.scene.root.contents?.origin, .file(dir + "/dot.png"))

        XCTAssertThrowsError(try SceneDecoder.load(path: dir + "/nope.json")) { e in
            XCTAssertEqual((e as? SceneError)?.kind, .io)
            XCTAssertEqual("\(e)", "\(dir)/nope.json: error: cannot read the scene file: it does not exist or is not accessible")
        }
        let big = dir + "/big.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: nil))
        let h = try XCTUnwrap(FileHandle(forWritingAtPath: big))
        try h.truncate(atOffset: UInt64(SceneLimits.maxFileBytes + 1))
        try h.close()
        XCTAssertThrowsError(try SceneDecoder.load(path: big)) { e in
            XCTAssertEqual((e as? SceneError)?.kind, .limitExceeded)
            XCTAssertTrue("\(e)".contains("the limit is 67108864"), "\(e)")
        }
    }

    func testTimelineLimits() {
        assertSceneError(sceneJSON(root: "{}", extra: #", "timeline": {"duration": 10000, "fps": 60}"#), .limitExceeded, pointer: "/timeline/duration",
                         message: "more than 10000 frames")
        assertSceneError(sceneJSON(root: "{}", extra: #", "timeline": {"fps": 0}"#), .outOfRange, pointer: "/timeline/fps")
    }
}
