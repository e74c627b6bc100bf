import XCTest
@testable import SceneFormat
import Geometry
import LayerModel
import Animation

final class AnimationDecodingTests: XCTestCase {
    private func animation(_ json: String, layer: String = "") throws -> AnimationSpec {
        let doc = try decodeScene(sceneJSON(root: "{" + layer + #""animations": ["# + json + "]}"))
        return try XCTUnwrap(doc.animations[0]?.first)
    }

    func testBasicAnimationWithTiming() throws {
        let a = try animation(#"""
        {"class": "CABasicAnimation", "key": "fade", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.5,
         "beginTime": 1, "speed": 2, "timeOffset": 0.1, "repeatCount": "infinity", "repeatDuration": 3, "autoreverses": true,
         "fillMode": "both", "removedOnCompletion": false, "timingFunction": "easeOut", "additive": true, "cumulative": true}
        """#)
        XCTAssertEqual(a.animationClass, .basic); XCTAssertEqual(a.key, "fade")
        XCTAssertEqual(a.keyPath?.property, "opacity"); XCTAssertEqual(a.keyPath?.valueType, .number)
        XCTAssertEqual(a.fromValue, .number(0)); XCTAssertEqual(a.toValue, .number(1)); XCTAssertNil(a.byValue)
        XCTAssertEqual(a.duration, .seconds(0.5)); XCTAssertEqual(a.beginTime, 1); XCTAssertEqual(a.speed, 2)
        XCTAssertEqual(a.timeOffset, 0.1); XCTAssertEqual(a.repeatCount, .infinity); XCTAssertEqual(a.repeatDuration, 3)
        XCTAssertTrue(a.autoreverses); XCTAssertEqual(a.fillMode, .both); XCTAssertFalse(a.removedOnCompletion)
        XCTAssertTrue(a.additive); XCTAssertTrue(a.cumulative)
        XCTAssertEqual(a.location.pointer, "/root/animations/0")
        // Core Animation's defaults.
        let d = try animation(#"{"class": "CABasicAnimation", "keyPath": "opacity"}"#)
        XCTAssertEqual(d.duration, .seconds(0)); XCTAssertEqual(d.fillMode, .removed); XCTAssertTrue(d.removedOnCompletion)
        XCTAssertEqual(d.repeatCount, 0); XCTAssertEqual(d.speed, 1); XCTAssertNil(d.timingFunction)
    }

    func testValuesAreTypedByKeyPath() throws {
        func to(_ keyPath: String, _ value: String, layer: String = "") throws -> AnimationValue? {
            try animation(#"{"class": "CABasicAnimation", "keyPath": ""# + keyPath + #"", "toValue": "# + value + "}", layer: layer).toValue
        }
        XCTAssertEqual(try to("position", "[1, 2]"), .point(Point(1, 2)))
        XCTAssertEqual(try to("position.x", "3"), .number(3))
        XCTAssertEqual(try to("bounds", "[0, 0, 4, 5]"), .rect(Rect(0, 0, 4, 5)))
        XCTAssertEqual(try to("bounds.size", "[4, 5]"), .size(Size(4, 5)))
        XCTAssertEqual(try to("bounds.size.width", "4"), .number(4))
        XCTAssertEqual(try to("bounds.origin", "[1, 1]"), .point(Point(1, 1)))
        XCTAssertEqual(try to("contentsRect.origin.x", "0.5"), .number(0.5))
        XCTAssertEqual(try to("shadowOffset.height", "2"), .number(2))
        XCTAssertEqual(try to("backgroundColor", #""red""#), .color(Color(1, 0, 0)))
        XCTAssertEqual(try to("backgroundColor", "null"), .null)
        XCTAssertEqual(try to("transform", #""scale(2)""#), .transform(.scale(2, 2, 1)))
        XCTAssertEqual(try to("transform.rotation.z", "3.14"), .number(3.14))
        XCTAssertEqual(try to("transform.scale", "2"), .number(2))
        XCTAssertEqual(try to("transform.translation", "[1, 2]"), .size(Size(1, 2)))
        XCTAssertEqual(try to("sublayerTransform.translation.y", "5"), .number(5))
        XCTAssertEqual(try to("hidden", "true"), .bool(true))
        XCTAssertEqual(try to("path", #""M0 0 L1 1""#, layer: #""class": "CAShapeLayer", "#), .path(Path([.move(.zero), .line(Point(1, 1))])))
        XCTAssertEqual(try to("colors", #"["red", "blue"]"#, layer: #""class": "CAGradientLayer", "#), .colorArray([Color(1, 0, 0), Color(0, 0, 1)]))
        XCTAssertEqual(try to("locations", "[0, 0.5]", layer: #""class": "CAGradientLayer", "#), .numberArray([0, 0.5]))
        XCTAssertEqual(try to("instanceTransform.rotation", "1", layer: #""class": "CAReplicatorLayer", "#), .number(1))
        // Animation values may overshoot the model's domain (springs, additive deltas).
        XCTAssertEqual(try to("opacity", "-0.5"), .number(-0.5))
    }

    func testKeyPathErrors() {
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacty"}]}"#), .invalidValue,
                         pointer: "/root/animations/0/keyPath", message: "unknown key path 'opacty'")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "position.z"}]}"#), .invalidValue,
                         pointer: "/root/animations/0/keyPath", message: "unknown key path 'position.z'")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "strokeEnd"}]}"#), .invalidValue,
                         pointer: "/root/animations/0/keyPath", message: "strokeEnd is a CAShapeLayer property; this layer's class is CALayer")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation"}]}"#), .missingKey,
                         pointer: "/root/animations/0", message: "missing required key 'keyPath' in an animation")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "position", "toValue": 3}]}"#), .wrongType,
                         pointer: "/root/animations/0/toValue", message: "expected a point [x, y], found a number")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "byValue": 1}]}"#),
                         .invalidValue, pointer: "/root/animations/0/byValue", message: "give at most two")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "values": [0, 1]}]}"#), .unknownKey,
                         pointer: "/root/animations/0/values", message: "values is a key of CAKeyframeAnimation; this animation's class is CABasicAnimation")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "tovalue": 1}]}"#), .unknownKey,
                         pointer: "/root/animations/0/tovalue",
                         description: "scene.json:1:143: error: /root/animations/0/tovalue: unknown key 'tovalue' for CABasicAnimation; did you mean 'toValue'?")
        assertSceneError(sceneJSON(root: #"{"animations": [{"keyPath": "opacity"}]}"#), .missingKey,
                         pointer: "/root/animations/0", message: "missing required key 'class'")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "duration": "settlingDuration"}]}"#),
                         .invalidValue, pointer: "/root/animations/0/duration", message: "only for CASpringAnimation")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "repeatCount": "forever"}]}"#),
                         .invalidValue, pointer: "/root/animations/0/repeatCount", message: #"expected a number ≥ 0 or "infinity""#)
    }

    func testNonAnimatableKeyPathIsAWarning() throws {
        let doc = try decodeScene(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "contentsGravity", "toValue": "center"}]}"#))
        XCTAssertEqual(doc.animations[0]?[0].toValue, .enumeration("center"))
        XCTAssertEqual(doc.warnings.count, 1)
        XCTAssertEqual(doc.warnings[0].location?.pointer, "/root/animations/0/keyPath")
        XCTAssertTrue(doc.warnings[0].feature.contains("not animatable"))
    }

    func testKeyframeAnimation() throws {
        let a = try animation(#"""
        {"class": "CAKeyframeAnimation", "keyPath": "position", "values": [[0, 0], [10, 0], [10, 10]], "keyTimes": [0, 0.3, 1],
         "timingFunctions": ["easeIn", "linear"], "calculationMode": "cubic", "tensionValues": [0, 1, -1],
         "continuityValues": [0, 0, 0], "biasValues": [0.5, 0, 0], "rotationMode": "autoReverse", "path": "M0 0 L5 5"}
        """#)
        let k = try XCTUnwrap(a.keyframes)
        XCTAssertEqual(k.values, [.point(Point(0, 0)), .point(Point(10, 0)), .point(Point(10, 10))])
        XCTAssertEqual(k.keyTimes, [0, 0.3, 1]); XCTAssertEqual(k.timingFunctions, [.named(.easeIn), .named(.linear)])
        XCTAssertEqual(k.calculationMode, .cubic); XCTAssertEqual(k.tensionValues, [0, 1, -1]); XCTAssertEqual(k.biasValues, [0.5, 0, 0])
        XCTAssertEqual(k.rotationMode, .autoReverse); XCTAssertEqual(k.path?.elements.count, 2)
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "keyTimes": [0, 0.5, 0.4]}]}"#),
                         .invalidValue, pointer: "/root/animations/0/keyTimes/2", message: "keyTimes must not decrease")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "path": "M0 0"}]}"#),
                         .invalidValue, pointer: "/root/animations/0/path", message: "a keyframe path moves a point")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "tensionValues": [2]}]}"#),
                         .outOfRange, pointer: "/root/animations/0/tensionValues/0")
        let many = "[" + Array(repeating: "0", count: SceneLimits.maxKeyframes + 1).joined(separator: ",") + "]"
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": "# + many + "}]}"),
                         .limitExceeded, pointer: "/root/animations/0/values", message: "the limit is 10000")
    }

    func testSpringAnimationForms() throws {
        let physical = try animation(#"{"class": "CASpringAnimation", "keyPath": "position.y", "toValue": 100, "mass": 2, "stiffness": 300, "damping": 20, "initialVelocity": 1, "allowsOverdamping": true, "duration": "settlingDuration"}"#)
        XCTAssertEqual(physical.spring, SpringSpec(parameters: .physical(mass: 2, stiffness: 300, damping: 20, allowsOverdamping: true), initialVelocity: 1))
        XCTAssertEqual(physical.duration, .settlingDuration)
        let defaults = try animation(#"{"class": "CASpringAnimation", "keyPath": "opacity"}"#)
        XCTAssertEqual(defaults.spring, SpringSpec())
        let perceptual = try animation(#"{"class": "CASpringAnimation", "keyPath": "opacity", "perceptualDuration": 0.5, "bounce": 0.2}"#)
        XCTAssertEqual(perceptual.spring?.parameters, .perceptual(duration: 0.5, bounce: 0.2))
        XCTAssertEqual(perceptual.duration, .settlingDuration)
        let uikit = try animation(#"{"class": "CASpringAnimation", "keyPath": "opacity", "dampingRatio": 0.7, "duration": 0.4, "initialVelocity": 2}"#)
        XCTAssertEqual(uikit.spring, SpringSpec(parameters: .dampingRatio(0.7), initialVelocity: 2))
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CASpringAnimation", "keyPath": "opacity", "dampingRatio": 0.7}]}"#),
                         .missingKey, pointer: "/root/animations/0/dampingRatio", message: "dampingRatio needs a duration")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CASpringAnimation", "keyPath": "opacity", "perceptualDuration": 1, "mass": 2}]}"#),
                         .invalidValue, pointer: "/root/animations/0/mass", message: "cannot be combined with perceptualDuration")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CASpringAnimation", "keyPath": "opacity", "stiffness": 0}]}"#),
                         .outOfRange, pointer: "/root/animations/0/stiffness")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CASpringAnimation", "keyPath": "opacity", "bounce": 0.3}]}"#),
                         .missingKey, pointer: "/root/animations/0/bounce", message: "bounce needs perceptualDuration")
    }

    func testGroupAndTransition() throws {
        let g = try animation(#"""
        {"class": "CAAnimationGroup", "duration": 2, "animations": [
          {"class": "CABasicAnimation", "keyPath": "opacity", "toValue": 0},
          {"class": "CAAnimationGroup", "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "byValue": 10}]}
        ]}
        """#)
        XCTAssertNil(g.keyPath)
        XCTAssertEqual(g.animations.count, 2)
        XCTAssertEqual(g.animations[1].animations[0].byValue, .number(10))
        XCTAssertEqual(g.animations[1].animations[0].location.pointer, "/root/animations/0/animations/1/animations/0")
        let t = try animation(#"{"class": "CATransition", "type": "push", "subtype": "fromLeft", "startProgress": 0.2, "endProgress": 0.8}"#)
        XCTAssertEqual(t.transition?.type, .push); XCTAssertEqual(t.transition?.subtype, .fromLeft)
        XCTAssertEqual(t.transition?.startProgress, 0.2); XCTAssertEqual(t.transition?.endProgress, 0.8)
        XCTAssertEqual(try animation(#"{"class": "CATransition"}"#).transition, TransitionSpec())
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CATransition", "keyPath": "opacity"}]}"#), .unknownKey,
                         pointer: "/root/animations/0/keyPath")
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CATransition", "startProgress": 0.5, "endProgress": 0.2}]}"#),
                         .outOfRange, pointer: "/root/animations/0/endProgress")
    }
}
