import XCTest
@testable import SceneFormat
import Geometry
import LayerModel
import Animation

final class LayerDecodingTests: XCTestCase {
    func testTopLevelAndDefaults() throws {
        let doc = try decodeScene(#"""
        {"caprof": 1, "canvas": {"width": 390, "height": 844, "scale": 3, "backgroundColor": "#FFFFFF"},
         "timeline": {"duration": 2, "fps": 30}, "root": {"name": "root"}}
        """#)
        XCTAssertEqual(doc.scene.canvas, Canvas(width: 390, height: 844, scale: 3, backgroundColor: .white))
        XCTAssertEqual(doc.scene.timeline, Timeline(duration: 2, fps: 30))
        XCTAssertEqual(doc.scene.sourceFile, "scene.json")
        XCTAssertEqual(doc.scene.root.name, "root")
        XCTAssertTrue(doc.transactions.isEmpty)
        // Canvas and timeline defaults.
        let minimal = try decodeScene(#"{"caprof": 1, "canvas": {"width": 10, "height": 10}, "root": {}}"#)
        XCTAssertEqual(minimal.scene.canvas.scale, 1)
        XCTAssertNil(minimal.scene.canvas.backgroundColor)
        XCTAssertEqual(minimal.scene.timeline, Timeline())
        XCTAssertNoThrow(try decodeScene(#"{"$schema": "caprof.schema.json", "caprof": 1, "canvas": {"width": 10, "height": 10}, "root": {}}"#))
    }

    func testContentsScaleAndRasterizationScaleDefaultToCanvasScale() throws {
        let root = try decodeRoot(#"{"sublayers": [{}, {"contentsScale": 1, "rasterizationScale": 1.5}], "mask": {}}"#)
        XCTAssertEqual(root.contentsScale, 2)
        XCTAssertEqual(root.rasterizationScale, 2)
        XCTAssertEqual(root.mask?.contentsScale, 2)
        XCTAssertEqual(root.sublayers[0].contentsScale, 2)
        XCTAssertEqual(root.sublayers[1].contentsScale, 1, "an explicit value is honoured")
        XCTAssertEqual(root.sublayers[1].rasterizationScale, 1.5)
    }

    func testCoreAnimationDefaultsOtherwise() throws {
        let l = try decodeRoot("{}")
        XCTAssertEqual(l.layerClass, .layer)
        XCTAssertEqual(l.anchorPoint, Point(0.5, 0.5))
        XCTAssertEqual(l.shadowOffset, Size(0, -3))
        XCTAssertEqual(l.opacity, 1)
        XCTAssertTrue(l.allowsGroupOpacity)
        XCTAssertEqual(l.borderColor, .black)
        XCTAssertNil(l.backgroundColor)
        XCTAssertEqual(l.location?.pointer, "/root")
    }

    func testEveryLayerClassAndItsProperties() throws {
        let root = try decodeRoot(#"""
        {"sublayers": [
          {"class": "CAShapeLayer", "path": "M0 0 L10 10", "fillColor": null, "strokeColor": "red", "lineWidth": 2,
           "miterLimit": 4, "lineDashPhase": 1, "strokeStart": 0.25, "strokeEnd": 0.75},
          {"class": "CAGradientLayer", "colors": ["red", "#00F"], "locations": [0, 1], "startPoint": [0, 0], "endPoint": [1, 1], "type": "radial"},
          {"class": "CATextLayer", "string": "Hi", "font": "Menlo", "fontSize": 17, "foregroundColor": "black",
           "alignmentMode": "center", "wrapped": true, "truncationMode": "end"},
          {"class": "CAReplicatorLayer", "instanceCount": 5, "instanceTransform": "translateX(10)", "instanceDelay": 0.1,
           "instanceColor": "white", "instanceRedOffset": -0.1, "instanceGreenOffset": -0.2, "instanceBlueOffset": -0.3,
           "instanceAlphaOffset": -0.2, "preservesDepth": true, "sublayers": [{"bounds": [0, 0, 4, 4]}]},
          {"class": "CATransformLayer", "sublayers": [{"zPosition": 10, "doubleSided": false}]}
        ]}
        """#)
        let shape = root.sublayers[0].shape
        XCTAssertEqual(root.sublayers[0].layerClass, .shape)
        XCTAssertEqual(shape.path, Path([.move(Point(0, 0)), .line(Point(10, 10))]))
        XCTAssertNil(shape.fillColor)
        XCTAssertEqual(shape.strokeColor, Color(1, 0, 0))
        XCTAssertEqual(shape.lineWidth, 2); XCTAssertEqual(shape.miterLimit, 4); XCTAssertEqual(shape.lineDashPhase, 1)
        XCTAssertEqual(shape.strokeStart, 0.25); XCTAssertEqual(shape.strokeEnd, 0.75)
        let g = root.sublayers[1].gradient
        XCTAssertEqual(g.colors, [Color(1, 0, 0), Color(0, 0, 1)])
        XCTAssertEqual(g.locations, [0, 1]); XCTAssertEqual(g.startPoint, Point(0, 0)); XCTAssertEqual(g.endPoint, Point(1, 1))
        XCTAssertEqual(g.type, .radial)
        let t = root.sublayers[2].text
        XCTAssertEqual(t.string, "Hi"); XCTAssertEqual(t.font, "Menlo"); XCTAssertEqual(t.fontSize, 17)
        XCTAssertEqual(t.foregroundColor, .black); XCTAssertEqual(t.alignmentMode, .center)
        XCTAssertTrue(t.wrapped); XCTAssertEqual(t.truncationMode, .end)
        let r = root.sublayers[3].replicator
        XCTAssertEqual(r.instanceCount, 5); XCTAssertEqual(r.instanceTransform, .translation(10, 0))
        XCTAssertEqual(r.instanceDelay, 0.1); XCTAssertEqual(r.instanceColor, .white)
        XCTAssertEqual(r.instanceRedOffset, -0.1); XCTAssertEqual(r.instanceGreenOffset, -0.2)
        XCTAssertEqual(r.instanceBlueOffset, -0.3); XCTAssertEqual(r.instanceAlphaOffset, -0.2)
        XCTAssertTrue(r.preservesDepth)
        XCTAssertEqual(root.sublayers[4].layerClass, .transform)
        XCTAssertFalse(root.sublayers[4].sublayers[0].doubleSided)
    }

    func testEveryCALayerProperty() throws {
        let l = try decodeRoot(#"""
        {"bounds": [0, 0, 10, 20], "position": [5, 5], "anchorPoint": [0, 0], "anchorPointZ": 1, "zPosition": 2,
         "transform": "rotate(0.5)", "sublayerTransform": "perspective(100)", "geometryFlipped": true,
         "opacity": 0.5, "hidden": true, "backgroundColor": "blue", "cornerRadius": 4, "maskedCorners": [],
         "cornerCurve": "continuous", "borderWidth": 1, "borderColor": null, "masksToBounds": true, "doubleSided": false,
         "opaque": true, "allowsGroupOpacity": false, "allowsEdgeAntialiasing": true, "contents": null,
         "contentsGravity": "center", "contentsRect": [0, 0, 1, 0.5], "contentsCenter": [0.25, 0.25, 0.5, 0.5],
         "contentsScale": 3, "minificationFilter": "trilinear", "magnificationFilter": "nearest",
         "shadowColor": "gray", "shadowOpacity": 0.3, "shadowOffset": [0, 2], "shadowRadius": 6, "shadowPath": {"ellipseIn": [0, 0, 10, 20]},
         "shouldRasterize": true, "rasterizationScale": 3, "beginTime": 1, "timeOffset": 0.5, "speed": 2}
        """#)
        XCTAssertEqual(l.anchorPointZ, 1); XCTAssertEqual(l.zPosition, 2)
        assertClose(l.transform, .rotation(0.5, 0, 0, 1))
        XCTAssertEqual(l.sublayerTransform.m34, -0.01)
        XCTAssertTrue(l.geometryFlipped); XCTAssertEqual(l.opacity, 0.5); XCTAssertTrue(l.hidden)
        XCTAssertEqual(l.cornerRadius, 4); XCTAssertEqual(l.maskedCorners, []); XCTAssertEqual(l.cornerCurve, .continuous)
        XCTAssertNil(l.borderColor); XCTAssertTrue(l.masksToBounds); XCTAssertTrue(l.opaque)
        XCTAssertFalse(l.allowsGroupOpacity); XCTAssertTrue(l.allowsEdgeAntialiasing)
        XCTAssertEqual(l.contentsGravity, .center); XCTAssertEqual(l.contentsCenter, Rect(0.25, 0.25, 0.5, 0.5))
        XCTAssertEqual(l.contentsScale, 3); XCTAssertEqual(l.minificationFilter, .trilinear); XCTAssertEqual(l.magnificationFilter, .nearest)
        XCTAssertEqual(l.shadowColor, Color(0.5, 0.5, 0.5)); XCTAssertEqual(l.shadowOpacity, 0.3)
        XCTAssertEqual(l.shadowRadius, 6); XCTAssertEqual(l.shadowPath, .ellipse(in: Rect(0, 0, 10, 20)))
        XCTAssertTrue(l.shouldRasterize); XCTAssertEqual(l.rasterizationScale, 3)
        XCTAssertEqual(l.beginTime, 1); XCTAssertEqual(l.timeOffset, 0.5); XCTAssertEqual(l.speed, 2)
    }

    func testFrameIsSetFrameAfterOtherGeometry() throws {
        let l = try decodeRoot(#"{"frame": [10, 20, 100, 50], "anchorPoint": [0, 0], "bounds": [5, 5, 1, 1]}"#)
        XCTAssertEqual(l.bounds, Rect(5, 5, 100, 50), "bounds.origin is kept, size comes from frame")
        XCTAssertEqual(l.position, Point(10, 20), "uses the anchorPoint given after frame in the file")
        let centered = try decodeRoot(#"{"frame": [10, 20, 100, 50]}"#)
        XCTAssertEqual(centered.position, Point(60, 45))
        XCTAssertEqual(centered.frame, Rect(10, 20, 100, 50))
        // With a transform, frame acts as if set before it: bounds and position come from the frame,
        // and the transform then turns the layer about its anchor point.
        let turned = try decodeRoot(#"{"transform": "scale(2)", "frame": [10, 20, 100, 50]}"#)
        XCTAssertEqual(turned.bounds, Rect(0, 0, 100, 50))
        XCTAssertEqual(turned.position, Point(60, 45))
        XCTAssertEqual(turned.frame, Rect(-40, -5, 200, 100))
    }

    func testIDsAreAssignedAndAnimationsFollowThem() throws {
        let doc = try decodeScene(sceneJSON(root: #"""
        {"name": "r", "sublayers": [
            {"name": "a", "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "toValue": 0}]},
            {"name": "b", "sublayers": [{"name": "c", "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "toValue": 3}]}],
             "mask": {"name": "m", "animations": [{"class": "CABasicAnimation", "keyPath": "bounds.size.width", "toValue": 9}]}}
        ]}
        """#))
        var names: [Int: String] = [:]
        doc.scene.root.forEach { names[$0.id] = $0.name }
        XCTAssertEqual(names, [0: "r", 1: "a", 2: "b", 3: "m", 4: "c"], "preorder, a mask right after its owner")
        XCTAssertEqual(Set(doc.animations.keys), [1, 3, 4])
        XCTAssertEqual(doc.animations[1]?[0].keyPath?.keyPath, "opacity")
        XCTAssertEqual(doc.animations[3]?[0].toValue, .number(9))
        XCTAssertEqual(doc.animations[4]?[0].keyPath?.field, .x)
    }

    func testSubclassPropertyOnAnotherClass() {
        assertSceneError(sceneJSON(root: #"{"fillColor": "red"}"#), .unknownKey, pointer: "/root/fillColor",
                         message: "fillColor is a CAShapeLayer property; this layer's class is CALayer")
        assertSceneError(sceneJSON(root: #"{"class": "CATextLayer", "instanceCount": 3}"#), .unknownKey, pointer: "/root/instanceCount",
                         message: "instanceCount is a CAReplicatorLayer property; this layer's class is CATextLayer")
        assertSceneError(sceneJSON(root: #"{"class": "CALayr"}"#), .invalidValue, pointer: "/root/class",
                         message: "unknown layer class 'CALayr'")
    }

    func testRanges() {
        for (key, value, message) in [
            ("opacity", "1.5", "opacity 1.5 is out of range: must be in [0, 1]"),
            ("cornerRadius", "-1", "cornerRadius -1 is out of range: must be ≥ 0"),
            ("borderWidth", "-0.5", "must be ≥ 0"),
            ("shadowRadius", "-2", "must be ≥ 0"),
            ("shadowOpacity", "2", "must be in [0, 1]"),
            ("contentsScale", "0", "contentsScale 0 is out of range: must be > 0"),
            ("rasterizationScale", "-1", "must be > 0"),
        ] {
            assertSceneError(sceneJSON(root: "{\"\(key)\": \(value)}"), .outOfRange, pointer: "/root/\(key)", message: message)
        }
        assertSceneError(sceneJSON(root: #"{"class": "CAReplicatorLayer", "instanceCount": 2.5}"#), .invalidValue, pointer: "/root/instanceCount",
                         message: "expected a whole number")
        assertSceneError(sceneJSON(root: #"{"class": "CAReplicatorLayer", "instanceCount": -1}"#), .outOfRange, pointer: "/root/instanceCount")
        assertSceneError(sceneJSON(root: #"{"class": "CAReplicatorLayer", "instanceCount": 10001}"#), .limitExceeded, pointer: "/root/instanceCount",
                         message: "over the limit of 10000")
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "strokeEnd": 1.01}"#), .outOfRange, pointer: "/root/strokeEnd")
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "lineDashPattern": [2, -1]}"#), .outOfRange, pointer: "/root/lineDashPattern/1")
    }

    func testReplicatedLayersAreLimited() {
        let json = sceneJSON(root: #"{"class": "CAReplicatorLayer", "instanceCount": 10000, "sublayers": [{"class": "CAReplicatorLayer", "instanceCount": 10000, "sublayers": [{}]}]}"#)
        assertSceneError(json, .limitExceeded, pointer: "/root/sublayers/0/sublayers/0", message: "layer instances once replicators are expanded")
    }
}
