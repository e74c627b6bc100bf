import XCTest
@testable import SceneFormat
import Geometry
import LayerModel
import Animation

/// CAEmitterLayer and CAEmitterCell in a scene file (scene-format.md "Layers"): keys, defaults
/// (reference §2.5), sub-cells, located errors and the emitter limits.
final class EmitterDecodingTests: XCTestCase {
    func testEmitterKeysAndCellsDecodeWithCoreAnimationDefaults() throws {
        let root = try decodeRoot(#"""
        {"class": "CAEmitterLayer", "birthRate": 2, "lifetime": 0.5, "velocity": 3, "scale": 0.5, "spin": 4, "seed": 42,
         "emitterPosition": [10, 20], "emitterZPosition": 5, "emitterSize": [30, 40], "emitterDepth": 6,
         "emitterShape": "circle", "emitterMode": "outline", "renderMode": "additive", "preservesDepth": true,
         "emitterCells": [{"name": "spark", "birthRate": 100, "lifetime": 2, "lifetimeRange": 1, "velocity": 50,
                           "emissionLongitude": 3.14, "emissionRange": 0.5, "color": "#FF8000", "alphaSpeed": -0.5,
                           "yAcceleration": 9.8, "minificationFilter": "nearest", "beginTime": 0.25, "duration": 1,
                           "emitterCells": [{"name": "smoke", "enabled": false}]},
                          {}]}
        """#)
        XCTAssertEqual(root.layerClass, .emitter)
        let e = root.emitter
        XCTAssertEqual(e.birthRate, 2); XCTAssertEqual(e.lifetime, 0.5); XCTAssertEqual(e.velocity, 3)
        XCTAssertEqual(e.scale, 0.5); XCTAssertEqual(e.spin, 4); XCTAssertEqual(e.seed, 42)
        XCTAssertEqual(e.emitterPosition, Point(10, 20)); XCTAssertEqual(e.emitterZPosition, 5)
        XCTAssertEqual(e.emitterSize, Size(30, 40)); XCTAssertEqual(e.emitterDepth, 6)
        XCTAssertEqual(e.emitterShape, .circle); XCTAssertEqual(e.emitterMode, .outline)
        XCTAssertEqual(e.renderMode, .additive); XCTAssertTrue(e.preservesDepth)
        XCTAssertEqual(e.emitterCells.count, 2)
        let spark = e.emitterCells[0]
        XCTAssertEqual(spark.name, "spark"); XCTAssertEqual(spark.birthRate, 100); XCTAssertEqual(spark.lifetimeRange, 1)
        XCTAssertEqual(spark.color, Color(1, 128.0 / 255, 0)); XCTAssertEqual(spark.alphaSpeed, -0.5)
        XCTAssertEqual(spark.minificationFilter, .nearest); XCTAssertEqual(spark.beginTime, 0.25); XCTAssertEqual(spark.duration, 1)
        XCTAssertEqual(spark.emitterCells.map(\.name), ["smoke"]); XCTAssertFalse(spark.emitterCells[0].enabled)
        // CAEmitterCell's defaults (reference §2.5).
        let plain = e.emitterCells[1]
        XCTAssertEqual(plain.birthRate, 0); XCTAssertEqual(plain.lifetime, 0); XCTAssertEqual(plain.scale, 1)
        XCTAssertEqual(plain.color, .white); XCTAssertEqual(plain.contentsRect, .unit); XCTAssertTrue(plain.enabled)
        // CAEmitterLayer's defaults.
        let d = try decodeRoot(#"{"class": "CAEmitterLayer"}"#).emitter
        XCTAssertEqual(d, EmitterProperties())
        XCTAssertEqual(d.birthRate, 1); XCTAssertEqual(d.emitterShape, .point); XCTAssertEqual(d.emitterMode, .volume)
        XCTAssertEqual(d.renderMode, .unordered); XCTAssertEqual(d.seed, 0)
    }

    func testUnknownCellKeyIsLocatedWithASuggestion() {
        let json = sceneJSON(root: #"{"class": "CAEmitterLayer", "emitterCells": [{"birthrate": 3}]}"#)
        assertSceneError(json, .unknownKey, pointer: "/root/emitterCells/0/birthrate",
                         message: "unknown key 'birthrate' for CAEmitterCell")
        do { _ = try decodeScene(json); XCTFail() } catch let e as SceneError { XCTAssertEqual(e.suggestion, "birthRate") } catch { XCTFail("\(error)") }
    }

    func testBadCellValuesAreLocated() {
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "emitterCells": [{"emitterCells": [{"lifetime": "long"}]}]}"#),
                         .wrongType, pointer: "/root/emitterCells/0/emitterCells/0/lifetime")
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "emitterCells": [{"birthRate": -1}]}"#),
                         .outOfRange, pointer: "/root/emitterCells/0/birthRate")
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "emitterCells": {"name": "x"}}"#),
                         .wrongType, pointer: "/root/emitterCells", message: "an array of emitter cells")
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "emitterShape": "triangle"}"#),
                         .invalidValue, pointer: "/root/emitterShape")
    }

    func testEmitterKeysOnOtherClassesAreRefused() {
        assertSceneError(sceneJSON(root: #"{"birthRate": 3}"#), .unknownKey, pointer: "/root/birthRate",
                         message: "birthRate is a CAEmitterLayer property; this layer's class is CALayer")
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "emitterCells": []}"#), .unknownKey, pointer: "/root/emitterCells")
    }

    func testParticleEstimateOverTheLimitIsRefused() {
        // 1000/s × 50 s × layer lifetime 3 = 150 000 > 100 000.
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "lifetime": 3, "emitterCells": [{"birthRate": 1000, "lifetime": 50}]}"#),
                         .limitExceeded, pointer: "/root", message: "about 150000 particles alive at once")
        // A sub-cell multiplies: 100 parents/s × 10 s window × 100/s × 1 s = 100 000 births... alive 100 000 + 1000 parents.
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "emitterCells": [{"birthRate": 100, "lifetime": 10, "emitterCells": [{"birthRate": 100, "lifetime": 1}]}]}"#),
                         .limitExceeded, pointer: "/root", message: "is over the limit of \(SceneLimits.maxEmitterParticles)")
        // At the limit exactly: accepted.
        XCTAssertNoThrow(try decodeRoot(#"{"class": "CAEmitterLayer", "emitterCells": [{"birthRate": 1000, "lifetime": 100}]}"#))
    }

    func testCellCountAndDepthLimits() {
        let many = "[" + Array(repeating: "{}", count: SceneLimits.maxEmitterCells + 1).joined(separator: ",") + "]"
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "emitterCells": "# + many + "}"),
                         .limitExceeded, pointer: "/root/emitterCells/\(SceneLimits.maxEmitterCells)", message: "more than \(SceneLimits.maxEmitterCells) emitter cells")
        var nested = "{}"
        for _ in 0..<SceneLimits.maxEmitterCellDepth { nested = #"{"emitterCells": ["# + nested + "]}" }
        let pointer = "/root" + String(repeating: "/emitterCells/0", count: SceneLimits.maxEmitterCellDepth + 1)
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "emitterCells": ["# + nested + "]}"),
                         .limitExceeded, pointer: pointer, message: "nested deeper than \(SceneLimits.maxEmitterCellDepth) levels")
    }

    func testCellKeyPathsInAnimationsAndTransactions() throws {
        let doc = try decodeScene(sceneJSON(root: #"""
        {"class": "CAEmitterLayer", "name": "e", "emitterCells": [{"name": "spark", "birthRate": 5}],
         "animations": [{"class": "CABasicAnimation", "keyPath": "emitterCells.spark.lifetime", "toValue": 3}]}
        """#, extra: #", "transactions": [{"time": 1, "set": [{"layer": "e", "keyPath": "emitterCells.spark.birthRate", "value": 9}]}]"#))
        XCTAssertEqual(doc.animations.values.first?.first?.keyPath?.keyPath, "emitterCells.spark.lifetime")
        // On another class, a located error; an unknown cell key, an unknown key path with its place.
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "emitterCells.spark.birthRate", "toValue": 1}]}"#),
                         .invalidValue, pointer: "/root/animations/0/keyPath", message: "is a CAEmitterLayer property")
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "animations": [{"class": "CABasicAnimation", "keyPath": "emitterCells.spark.birthrate", "toValue": 1}]}"#),
                         .invalidValue, pointer: "/root/animations/0/keyPath", message: "unknown key path")
        assertSceneError(sceneJSON(root: #"{"class": "CAEmitterLayer", "animations": [{"class": "CABasicAnimation", "keyPath": "emitterCells.spark.birthRate", "toValue": "many"}]}"#),
                         .wrongType, pointer: "/root/animations/0/toValue")
    }
}
