import XCTest
import Foundation
@testable import SceneFormat
import LayerModel
import Animation

/// The schema is checked by an independent validator (python3-jsonschema, Draft 2020-12).
final class SchemaTests: XCTestCase {
    static let validator = "/usr/bin/python3"
    static let script = "import jsonschema,json,sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))"

    /// A scene that uses every part of the format.
    static let fullScene = ##"""
    {"$schema": "caprof.schema.json", "caprof": 1,
     "canvas": {"width": 390, "height": 844, "scale": 3, "backgroundColor": null},
     "timeline": {"duration": 2, "fps": 60},
     "root": {"name": "root", "class": "CALayer", "frame": [0, 0, 390, 844], "backgroundColor": "#FFFFFF", "cornerRadius": 8,
       "maskedCorners": ["minXMinY"], "contentsGravity": "resizeAspect", "shadowPath": {"roundedRect": [0, 0, 10, 10], "cornerRadius": 2},
       "mask": {"bounds": [0, 0, 10, 10]},
       "sublayers": [
         {"class": "CAShapeLayer", "name": "arrow", "path": "M0 0 L10 10", "fillColor": null, "strokeColor": [1, 0, 0, 1],
          "lineDashPattern": [2, 2], "transform": "rotate(45deg)",
          "animations": [
            {"class": "CABasicAnimation", "key": "draw", "keyPath": "strokeEnd", "fromValue": 0, "toValue": 1, "duration": 0.5,
             "timingFunction": "easeOut", "fillMode": "forwards", "removedOnCompletion": false, "repeatCount": "infinity"},
            {"class": "CAKeyframeAnimation", "keyPath": "position", "path": {"ellipseIn": [0, 0, 100, 100]}, "calculationMode": "paced",
             "rotationMode": "auto", "keyTimes": [0, 1], "timingFunctions": [[0.1, 0, 0.2, 1]]},
            {"class": "CASpringAnimation", "keyPath": "transform.scale", "toValue": 1.2, "damping": 12, "duration": "settlingDuration"},
            {"class": "CAAnimationGroup", "duration": 1, "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "toValue": 0}]},
            {"class": "CATransition", "type": "push", "subtype": "fromLeft"}]},
         {"class": "CAGradientLayer", "name": "list", "colors": ["red", "blue"], "locations": null, "type": "conic"},
         {"class": "CATextLayer", "string": "Hello", "fontSize": 17, "alignmentMode": "center"},
         {"class": "CAReplicatorLayer", "instanceCount": 3, "instanceTransform": [1,0,0,0, 0,1,0,0, 0,0,1,0, 10,0,0,1], "sublayers": [{}]},
         {"class": "CATransformLayer", "sublayerTransform": "perspective(500)"}
       ]},
     "transactions": [
       {"time": 1, "animationDuration": 0.3, "animationTimingFunction": "easeInEaseOut", "disableActions": false,
        "set": [{"layer": "arrow", "keyPath": "strokeColor", "value": "#FF3B30"}],
        "add": [{"layer": "arrow", "animation": {"class": "CABasicAnimation", "keyPath": "opacity", "toValue": 0}}],
        "remove": [{"layer": "arrow", "key": "draw"}],
        "insert": [{"parent": "list", "index": 0, "layer": {"name": "row", "bounds": [0, 0, 390, 60]}}],
        "removeLayers": ["row"]}]}
    """##

    private var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs the validator; returns (exit status, stderr).
    private func validate(_ instance: String, dir: String, name: String = "scene.json") throws -> (Int32, String) {
        let schemaPath = dir + "/schema.json", instancePath = dir + "/" + name
        try SceneSchema.jsonSchema.write(toFile: schemaPath, atomically: false, encoding: .utf8)
        try instance.write(toFile: instancePath, atomically: false, encoding: .utf8)
        return try run([instancePath, schemaPath])
    }

    private func run(_ args: [String]) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.validator)
        p.arguments = ["-c", Self.script] + args
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        // python3-jsonschema comes from tools/setup; without it the schema cannot be checked.
        if text.contains("No module named 'jsonschema'") {
            XCTFail("python3-jsonschema is missing: apt-get install -y python3-jsonschema")
        }
        return (p.terminationStatus, text)
    }

    func testTheFullSceneDecodesAndValidates() throws {
        let doc = try decodeScene(Self.fullScene)
        XCTAssertEqual(doc.scene.root.sublayers.count, 5)
        let dir = try makeTemporaryDirectory(self)
        let (status, message) = try validate(Self.fullScene, dir: dir)
        XCTAssertEqual(status, 0, message)
    }

    func testTheSchemaRejectsWhatTheDecoderRejects() throws {
        let dir = try makeTemporaryDirectory(self)
        let bad: [(String, String)] = [
            (sceneJSON(root: #"{"backgroundColr": "red"}"#), "backgroundColr"),
            (sceneJSON(root: #"{"fillColor": "red"}"#), "fillColor"),
            (sceneJSON(root: #"{"opacity": 2}"#), "opacity"),
            (#"{"caprof": 1, "canvas": {"width": 10, "height": 10, "scael": 1}, "root": {}}"#, "canvas key"),
            (#"{"caprof": 2, "canvas": {"width": 10, "height": 10}, "root": {}}"#, "version"),
            (sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "values": [1]}]}"#), "keyframe key on basic"),
            (sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacty"}]}"#), "key path"),
            (sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation"}]}"#), "missing keyPath"),
            (sceneJSON(root: "{}", extra: #", "transactions": [{"time": 1, "sets": []}]"#), "transaction key"),
        ]
        for (json, what) in bad {
            XCTAssertThrowsError(try decodeScene(json), what)
            let (status, message) = try validate(json, dir: dir)
            XCTAssertNotEqual(status, 0, "the schema accepted: \(what)")
            XCTAssertTrue(message.contains("ValidationError"), message)
        }
    }

    func testSchemaKeysMatchTheDecoderTables() throws {
        let schema = try JSONParser.parse(Array(SceneSchema.jsonSchema.utf8), file: "schema.json")
        let defs = try XCTUnwrap(schema["$defs"])
        let layerKeys = Set(try XCTUnwrap(defs["layer"]?["properties"]?.members).map(\.key))
        let decoderKeys = Set(LayerClass.allCases.flatMap { LayerDecoder.keys(for: $0) })
        XCTAssertEqual(layerKeys, decoderKeys)
        let animationKeys = Set(try XCTUnwrap(defs["animation"]?["properties"]?.members).map(\.key))
        XCTAssertEqual(animationKeys, Set(AnimationField.all.map(\.key)))
        let topKeys = try XCTUnwrap(schema["properties"]?.members).map(\.key)
        XCTAssertEqual(topKeys, SceneDecoder.topLevelKeys)
        // Every property has a tooltip.
        for m in try XCTUnwrap(defs["layer"]?["properties"]?.members) {
            XCTAssertNotNil(m.value["description"]?.string, m.key)
        }
    }

    func testExampleScenesValidateAndDecode() throws {
        let examples = packageRoot.appendingPathComponent("Examples")
        // The caprof scene files (a Lottie example, which has no `caprof` key, is checked by its golden).
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
            .filter { name in
                let data = (try? Data(contentsOf: examples.appendingPathComponent(name))) ?? Data()
                return ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["caprof"] != nil
            }
        XCTAssertGreaterThanOrEqual(files.count, 3, "the example scenes must exist (cards, flip3d, gravity)")
        let dir = try makeTemporaryDirectory(self)
        let schemaPath = dir + "/schema.json"
        try SceneSchema.jsonSchema.write(toFile: schemaPath, atomically: false, encoding: .utf8)
        for f in files {
            let path = examples.appendingPathComponent(f).path
            let (status, message) = try run([path, schemaPath])
            XCTAssertEqual(status, 0, "\(f): \(message)")
            XCTAssertNoThrow(try SceneDecoder.load(path: path), f)
        }
    }
}
