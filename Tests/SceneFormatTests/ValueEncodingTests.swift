import XCTest
@testable import SceneFormat
import Geometry
import LayerModel
import Animation

/// scene-format.md "Value encodings", one test per type.
final class ValueEncodingTests: XCTestCase {
    func testColorsInEveryForm() throws {
        func bg(_ json: String) throws -> Color? { try decodeRoot(#"{"backgroundColor": "# + json + "}").backgroundColor }
        XCTAssertEqual(try bg(##""#F00""##), Color(1, 0, 0))
        XCTAssertEqual(try bg(##""#80ff00""##), Color(128.0 / 255, 1, 0))
        XCTAssertEqual(try bg(##""#FF000080""##), Color(1, 0, 0, 128.0 / 255))
        XCTAssertEqual(try bg(#"[0.2, 0.4, 0.6]"#), Color(0.2, 0.4, 0.6, 1))
        XCTAssertEqual(try bg(#"[1.5, -0.1, 0, 0.5]"#), Color(1.5, -0.1, 0, 0.5), "extended sRGB is allowed")
        XCTAssertNil(try bg("null"))
        for (name, color) in Color.uiKitNames { XCTAssertEqual(try bg("\"\(name)\""), color, name) }
        XCTAssertEqual(try bg(#""darkGray""#), Color(1.0 / 3, 1.0 / 3, 1.0 / 3))
        XCTAssertEqual(try bg(#""orange""#), Color(1, 0.5, 0))
    }

    func testBadColors() {
        assertSceneError(sceneJSON(root: ##"{"backgroundColor": "#12345"}"##), .invalidValue, pointer: "/root/backgroundColor",
                         message: "invalid color '#12345': expected #RGB, #RRGGBB or #RRGGBBAA")
        assertSceneError(sceneJSON(root: #"{"backgroundColor": "redd"}"#), .invalidValue, pointer: "/root/backgroundColor",
                         message: "unknown color name 'redd'")
        assertSceneError(sceneJSON(root: #"{"backgroundColor": [1, 0]}"#), .wrongType, pointer: "/root/backgroundColor",
                         message: "expected a color array [r, g, b] or [r, g, b, a], found an array of 2 elements")
    }

    func testGeometryArrays() throws {
        let l = try decodeRoot(#"{"bounds": [1, 2, 30, 40], "position": [5, 6], "anchorPoint": [0, 1], "shadowOffset": [2, 3], "contentsRect": [0, 0, 0.5, 0.5]}"#)
        XCTAssertEqual(l.bounds, Rect(1, 2, 30, 40))
        XCTAssertEqual(l.position, Point(5, 6))
        XCTAssertEqual(l.anchorPoint, Point(0, 1))
        XCTAssertEqual(l.shadowOffset, Size(2, 3))
        XCTAssertEqual(l.contentsRect, Rect(0, 0, 0.5, 0.5))
    }

    func testTransformAsSixteenNumbers() throws {
        let m: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 10, 20, 0, 1]
        let l = try decodeRoot(#"{"transform": "# + "\(m)" + "}")
        XCTAssertEqual(l.transform.elements, m)
    }

    /// "translate(10, 20) scale(2)" reads as CATransform3DMakeTranslation(10, 20, 0) then
    /// CATransform3DScale(t, 2, 2, 1) = scale · translate (row vectors): a point is scaled first,
    /// then translated. By hand: S·T = [[2,0,0,0],[0,2,0,0],[0,0,1,0],[10,20,0,1]].
    func testTransformStringRightmostActsFirst() throws {
        let t = try decodeRoot(#"{"transform": "translate(10, 20) scale(2)"}"#).transform
        assertClose(t, Transform3D([2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 10, 20, 0, 1]))
        XCTAssertEqual(t.apply(Point(1, 1)), Point(12, 22))
        // The other order translates first, then scales the translation too.
        let u = try decodeRoot(#"{"transform": "scale(2) translate(10, 20)"}"#).transform
        assertClose(u, Transform3D([2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 20, 40, 0, 1]))
        // Same as the Core Animation calls it reads like.
        assertClose(t, Transform3D.translation(10, 20).scaled(2, 2, 1))
    }

    func testTransformFunctionsAndAngles() throws {
        func t(_ s: String) throws -> Transform3D { try decodeRoot(#"{"transform": ""# + s + #""}"#).transform }
        // rotate(90deg) maps x to y (z rotation, CATransform3DMakeRotation(π/2, 0, 0, 1)).
        let r = try t("rotate(90deg)")
        assertClose(r, Transform3D([0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))
        assertClose(try t("rotate(1.5707963267948966)"), r)
        assertClose(try t("rotateZ(1.5707963267948966rad)"), r)
        assertClose(try t("rotate3d(0, 0, 1, 90deg)"), r)
        assertClose(try t("rotateX(30deg)"), .rotation(.pi / 6, 1, 0, 0))
        assertClose(try t("rotateY(-45deg)"), .rotation(-.pi / 4, 0, 1, 0))
        assertClose(try t("translateX(3) translateY(4) translateZ(5)"), .translation(3, 4, 5))
        assertClose(try t("translate(1, 2, 3)"), .translation(1, 2, 3))
        assertClose(try t("scaleX(2) scaleY(3) scaleZ(4)"), .scale(2, 3, 4))
        assertClose(try t("scale(2, 3)"), .scale(2, 3, 1))
        assertClose(try t("scale(2)"), .scale(2, 2, 1))
        var p = Transform3D.identity; p.m34 = -1.0 / 500
        assertClose(try t("perspective(500)"), p)
        // "perspective(500) rotateY(45deg)": rotate first, then project (CATransform3DRotate(p, …) = rot · p).
        assertClose(try t("perspective(500) rotateY(45deg)"), Transform3D.rotation(.pi / 4, 0, 1, 0) * p)
        assertClose(try t("matrix(1,0,0,0, 0,1,0,0, 0,0,1,0, 7,8,9,1)"), .translation(7, 8, 9))
        assertClose(try t(""), .identity)
        assertClose(try t("  translate( -1.5e1 , .5 )  "), .translation(-15, 0.5))
    }

    func testTransformSyntaxErrors() {
        assertSceneError(sceneJSON(root: #"{"transform": "translat(1, 2)"}"#), .invalidValue, pointer: "/root/transform",
                         message: "invalid transform at character 1: unknown transform function 'translat'")
        assertSceneError(sceneJSON(root: #"{"transform": "rotate(45grad)"}"#), .invalidValue, pointer: "/root/transform",
                         message: "unknown angle unit 'grad'")
        assertSceneError(sceneJSON(root: #"{"transform": "translate(1px, 2)"}"#), .invalidValue, pointer: "/root/transform",
                         message: "takes plain numbers")
        assertSceneError(sceneJSON(root: #"{"transform": "translate(1)"}"#), .invalidValue, pointer: "/root/transform",
                         message: "translate takes (x, y[, z]), found 1 argument")
        assertSceneError(sceneJSON(root: #"{"transform": "scale(2"}"#), .invalidValue, pointer: "/root/transform",
                         message: "expected ',' or ')'")
        assertSceneError(sceneJSON(root: #"{"transform": [1, 2]}"#), .wrongType, pointer: "/root/transform",
                         message: "expected a transform of 16 numbers")
    }

    private func path(_ d: String) throws -> Path {
        try XCTUnwrap(decodeRoot(#"{"class": "CAShapeLayer", "path": "# + d + "}").shape.path)
    }

    func testSVGPathAbsoluteAndRelative() throws {
        XCTAssertEqual(try path(#""M 10 20 L 30 40 H 50 V 60 Z""#).elements,
                       [.move(Point(10, 20)), .line(Point(30, 40)), .line(Point(50, 40)), .line(Point(50, 60)), .close])
        XCTAssertEqual(try path(#""m10,20 l20,20 h20 v20 z""#).elements,
                       [.move(Point(10, 20)), .line(Point(30, 40)), .line(Point(50, 40)), .line(Point(50, 60)), .close])
        // Implicit repetition: pairs after a moveto are linetos; compact numbers.
        XCTAssertEqual(try path(#""M0 0 10 0 10-10.5.5.5""#).elements,
                       [.move(Point(0, 0)), .line(Point(10, 0)), .line(Point(10, -10.5)), .line(Point(0.5, 0.5))])
        // After Z a new subpath starts at the closed subpath's start.
        XCTAssertEqual(try path(#""M1 1 L5 1 Z l1 1""#).elements,
                       [.move(Point(1, 1)), .line(Point(5, 1)), .close, .move(Point(1, 1)), .line(Point(2, 2))])
    }

    func testSVGPathCurvesAndSmoothCurves() throws {
        XCTAssertEqual(try path(#""M0 0 C 1 2 3 4 5 6 S 9 10 11 12""#).elements, [
            .move(Point(0, 0)), .cubic(Point(1, 2), Point(3, 4), Point(5, 6)),
            // S reflects the previous second control point (3,4) about (5,6): (7,8).
            .cubic(Point(7, 8), Point(9, 10), Point(11, 12)),
        ])
        XCTAssertEqual(try path(#""M0 0 c 1 2 3 4 5 6 s 4 4 6 6""#).elements, [
            .move(Point(0, 0)), .cubic(Point(1, 2), Point(3, 4), Point(5, 6)), .cubic(Point(7, 8), Point(9, 10), Point(11, 12)),
        ])
        XCTAssertEqual(try path(#""M0 0 Q 5 10 10 0 T 20 0 t 10 0""#).elements, [
            .move(Point(0, 0)), .quad(Point(5, 10), Point(10, 0)),
            .quad(Point(15, -10), Point(20, 0)), .quad(Point(25, 10), Point(30, 0)),
        ])
        // S without a preceding C uses the current point as its first control point.
        XCTAssertEqual(try path(#""M0 0 S 1 1 2 0""#).elements, [.move(Point(0, 0)), .cubic(Point(0, 0), Point(1, 1), Point(2, 0))])
    }

    func testSVGArcsBecomeCubics() throws {
        // A half circle of radius 10 from (0,0) to (20,0): two 90° cubics through (10, ±10).
        let p = try path(#""M0 0 A 10 10 0 0 1 20 0""#)
        XCTAssertEqual(p.elements.count, 3)
        guard case .cubic(let c1, let c2, let mid) = p.elements[1], case .cubic(_, _, let end) = p.elements[2] else {
            return XCTFail("\(p.elements)")
        }
        XCTAssertEqual(mid.x, 10, accuracy: 1e-9); XCTAssertEqual(abs(mid.y), 10, accuracy: 1e-9)
        XCTAssertEqual(end, Point(20, 0))
        let k = 4.0 / 3.0 * tan(Double.pi / 8) * 10  // 0.5523 · r
        XCTAssertEqual(c1.x, 0, accuracy: 1e-9); XCTAssertEqual(abs(c1.y), k, accuracy: 1e-9)
        XCTAssertEqual(abs(c2.x - 10), k, accuracy: 1e-9)
        // sweep 1 in y-down space goes through y = -10 … either way the relative form is the same path.
        let rel = try path(#""m0 0 a10 10 0 0 1 20 0""#)
        XCTAssertEqual(rel, p)
        // Radii too small are scaled up; zero radius is a line; flags may be written compactly.
        XCTAssertEqual(try path(#""M0 0 A0 5 0 0 1 10 0""#).elements, [.move(Point(0, 0)), .line(Point(10, 0))])
        XCTAssertEqual(try path(#""M0 0 a1 1 0 0010 0""#).elements.count, 3)
    }

    func testPathObjects() throws {
        XCTAssertEqual(try path(#"{"rect": [0, 0, 10, 20]}"#), .rect(Rect(0, 0, 10, 20)))
        XCTAssertEqual(try path(#"{"roundedRect": [0, 0, 10, 20], "cornerRadius": 4}"#), .roundedRect(Rect(0, 0, 10, 20), cornerRadius: 4))
        XCTAssertEqual(try path(#"{"ellipseIn": [0, 0, 10, 20]}"#), .ellipse(in: Rect(0, 0, 10, 20)))
        XCTAssertEqual(try path(#""""#), Path())
        XCTAssertEqual(try decodeRoot(#"{"shadowPath": {"rect": [1, 2, 3, 4]}}"#).shadowPath, .rect(Rect(1, 2, 3, 4)))
    }

    func testPathErrors() {
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "path": "L 1 2"}"#), .invalidValue, pointer: "/root/path",
                         message: "path data must start with a moveto")
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "path": "M 1 2 X 3"}"#), .invalidValue, pointer: "/root/path",
                         message: "invalid SVG path data at character 7: expected a path command")
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "path": "M0 0 A 1 1 0 2 1 3 3"}"#), .invalidValue, pointer: "/root/path",
                         message: "expected an arc flag (0 or 1)")
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "path": {"rect": [0, 0, 1, 1], "ellipseIn": [0, 0, 1, 1]}}"#),
                         .invalidValue, pointer: "/root/path", message: "exactly one of")
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "path": {"rect": [0, 0, 1, 1], "cornerRadius": 2}}"#),
                         .unknownKey, pointer: "/root/path/cornerRadius", message: "'cornerRadius' belongs to 'roundedRect'")
        assertSceneError(sceneJSON(root: #"{"class": "CAShapeLayer", "path": {"circle": [0, 0, 1, 1]}}"#),
                         .unknownKey, pointer: "/root/path/circle", message: "unknown key 'circle' for a path object")
    }

    func testEnumerationsAndCornerMasks() throws {
        let l = try decodeRoot(#"{"contentsGravity": "resizeAspectFill", "cornerCurve": "continuous", "minificationFilter": "nearest", "maskedCorners": ["minXMinY", "maxXMaxY"]}"#)
        XCTAssertEqual(l.contentsGravity, .resizeAspectFill)
        XCTAssertEqual(l.cornerCurve, .continuous)
        XCTAssertEqual(l.minificationFilter, .nearest)
        XCTAssertEqual(l.maskedCorners, [.minXMinY, .maxXMaxY])
        let s = try decodeRoot(#"{"class": "CAShapeLayer", "fillRule": "evenOdd", "lineCap": "round", "lineJoin": "bevel", "lineDashPattern": [4, 2]}"#)
        XCTAssertEqual(s.shape.fillRule, .evenOdd)
        XCTAssertEqual(s.shape.lineCap, .round)
        XCTAssertEqual(s.shape.lineJoin, .bevel)
        XCTAssertEqual(s.shape.lineDashPattern, [4, 2])
        assertSceneError(sceneJSON(root: #"{"contentsGravity": "centre"}"#), .invalidValue, pointer: "/root/contentsGravity",
                         description: #"scene.json:1:95: error: /root/contentsGravity: unknown contentsGravity 'centre', expected one of "center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft", "bottomRight", "resize", "resizeAspect", "resizeAspectFill"; did you mean 'center'?"#)
        assertSceneError(sceneJSON(root: #"{"maskedCorners": ["minXMinZ"]}"#), .invalidValue, pointer: "/root/maskedCorners/0",
                         message: "unknown corner 'minXMinZ'")
    }

    func testImagesFromFilesAndDataURIs() throws {
        let dir = try makeTemporaryDirectory(self)
        try FileManager.default.createDirectory(atPath: dir + "/img", withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/img/a.png", contents: Data(tinyPNG)))
        let fromFile = try decodeRoot(#"{"contents": "img/a.png"}"#, baseDirectory: dir)
        XCTAssertEqual(fromFile.contents?.origin, .file(URL(fileURLWithPath: dir + "/img/a.png").standardizedFileURL.path))
        XCTAssertEqual(fromFile.contents?.location.pointer, "/root/contents")
        let uri = "data:image/png;base64," + Data(tinyPNG).base64EncodedString()
        let fromData = try decodeRoot(#"{"contents": ""# + uri + #""}"#)
        XCTAssertEqual(fromData.contents?.origin, .data(tinyPNG))
        XCTAssertNil(try decodeRoot(#"{"contents": null}"#).contents)
    }

    /// One image embedded in several layers is one array: the planner's per-frame image lookups
    /// compare equal origins by storage identity instead of byte by byte. Distinct images stay
    /// distinct.
    func testEqualDataURIsShareOneArray() throws {
        let uri = "data:image/png;base64," + Data(tinyPNG).base64EncodedString()
        var other = tinyPNG; other.append(0)
        let otherURI = "data:image/png;base64," + Data(other).base64EncodedString()
        let root = try decodeRoot(#"{"sublayers": [{"contents": ""# + uri + #""}, {"contents": ""# + uri + #""}, {"contents": ""# + otherURI + #""}]}"#)
        func bytes(_ i: Int) -> [UInt8] {
            guard case .data(let b)? = root.sublayers[i].contents?.origin else { XCTFail("layer \(i) has no embedded image"); return [] }
            return b
        }
        let a = bytes(0), b = bytes(1), c = bytes(2)
        XCTAssertEqual(a, tinyPNG)
        XCTAssertEqual(c, other)
        a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in XCTAssertEqual(pa.baseAddress, pb.baseAddress) } }
        a.withUnsafeBufferPointer { pa in c.withUnsafeBufferPointer { pc in XCTAssertNotEqual(pa.baseAddress, pc.baseAddress) } }
        XCTAssertEqual(root.sublayers[1].contents?.location.pointer, "/root/sublayers/1/contents", "each layer keeps its own place")
    }

    func testTimingFunctions() throws {
        XCTAssertEqual(TimingFunctionSpec.named(.default).controlPoints.c1y, 0.1)
        XCTAssertEqual(TimingFunctionSpec.named(.easeInEaseOut).controlPoints.c1x, 0.42)
        let doc = try decodeScene(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "timingFunction": "easeOut"}, {"class": "CABasicAnimation", "keyPath": "opacity", "timingFunction": [0.1, -0.5, 0.9, 1.5]}]}"#))
        XCTAssertEqual(doc.animations[0]?[0].timingFunction, .named(.easeOut))
        XCTAssertEqual(doc.animations[0]?[1].timingFunction, .controlPoints(0.1, -0.5, 0.9, 1.5))
        assertSceneError(sceneJSON(root: #"{"animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "timingFunction": [1.5, 0, 1, 1]}]}"#),
                         .outOfRange, pointer: "/root/animations/0/timingFunction/0", message: "control point x must be in [0, 1]")
    }
}
