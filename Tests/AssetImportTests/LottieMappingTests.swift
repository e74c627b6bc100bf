import XCTest
import AssetImport
import Animation
import Geometry
import LayerModel
import SceneFormat

/// The Lottie mapping against values computed by hand here: what a layer shows at a time, as
/// lottie-ios's Core Animation engine builds it (keyframes placed in scene time, easing as timing
/// functions, hold keyframes, precomposition clocks, trims, mattes and masks).
final class LottieMappingTests: XCTestCase {
    /// An animation of `layers` (JSON text), 100×100 at 30 fps, frames 0…60.
    func document(_ layers: String, assets: String = "[]", ip: Double = 0, op: Double = 60) throws -> SceneDocument {
        let json = #"{"v": "5.7.0", "fr": 30, "ip": \#(ip), "op": \#(op), "w": 100, "h": 100, "assets": \#(assets), "layers": \#(layers)}"#
        return try LottieImporter.decode(data: Array(json.utf8), file: "anim.json", images: .directory("/nonexistent"))
    }

    func presentation(_ doc: SceneDocument, at t: Double) -> Layer {
        PresentationTimeline(scene: doc.scene, animations: doc.animations).presentation(at: t)
    }

    func layer(_ root: Layer, named name: String) -> Layer? {
        var found: Layer?
        root.forEach { if found == nil && $0.name == name { found = $0 } }
        return found
    }

    static func solid(_ name: String, ks: String, extra: String = "") -> String {
        #"{"ty": 1, "nm": "\#(name)", "ind": 1, "ip": 0, "op": 60, "st": 0, "sc": "\u0023ff0000", "sw": 100, "sh": 100, "ks": \#(ks)\#(extra)}"#
    }

    /// A cubic Bézier easing y(x), by bisection on x(t): the hand computation of a timing function.
    static func ease(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func b(_ p1: Double, _ p2: Double, _ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
        var lo = 0.0, hi = 1.0
        for _ in 0..<80 { let m = (lo + hi) / 2; if b(x1, x2, m) < x { lo = m } else { hi = m } }
        return b(y1, y2, (lo + hi) / 2)
    }

    func testEasedOpacityAtATime() throws {
        // Opacity 0 → 100 over frames 0…30, eased in (o = (0.42, 0), i = (1, 1)); at 0.25 s = frame 7.5,
        // a quarter of the way in time.
        let ks = #"{"o": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0.42], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 30, "s": [100]}]}}"#
        let doc = try document("[\(Self.solid("box", ks: ks))]")
        let expected = Self.ease(0.42, 0, 1, 1, at: 0.25)
        XCTAssertEqual(expected, 0.0935, accuracy: 1e-3)   // the curve's value, written down
        let box = try XCTUnwrap(layer(presentation(doc, at: 0.25), named: "box"))
        XCTAssertEqual(box.opacity, expected, accuracy: 1e-4)
        XCTAssertEqual(try XCTUnwrap(layer(presentation(doc, at: 1.0), named: "box")).opacity, 1, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(layer(presentation(doc, at: 1.5), named: "box")).opacity, 1, accuracy: 1e-9)   // holds after
    }

    func testHoldKeyframeJumpsAtTheNextKeyframe() throws {
        // Hold (h: 1) at frame 0 with x = 10, then x = 90 at frame 30: 10 until 1 s, then 90.
        let ks = #"{"p": {"a": 1, "k": [{"t": 0, "s": [10, 50], "h": 1}, {"t": 30, "s": [90, 50]}]}}"#
        let doc = try document("[\(Self.solid("box", ks: ks))]")
        XCTAssertEqual(try XCTUnwrap(layer(presentation(doc, at: 0.9), named: "box")).position.x, 10, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(layer(presentation(doc, at: 1.0), named: "box")).position.x, 90, accuracy: 1e-9)
    }

    func testStretchedPrecompositionTime() throws {
        // A precomposition shown with st = 10 and sr = 2: its frame f is the parent's 10 + 2f. Its
        // layer's opacity goes 0 → 100 (linear) over its frames 0…20, so at parent frame 30
        // (1 s) it is at frame 10: 50 %.
        let inner = Self.solid("inner", ks: #"{"o": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 20, "s": [100]}]}}"#)
        let assets = #"[{"id": "pre", "layers": [\#(inner)]}]"#
        let pre = #"{"ty": 0, "nm": "pre", "ind": 1, "refId": "pre", "w": 100, "h": 100, "ip": 0, "op": 60, "st": 10, "sr": 2, "ks": {}}"#
        let doc = try document("[\(pre)]", assets: assets)
        XCTAssertEqual(try XCTUnwrap(layer(presentation(doc, at: 1.0), named: "inner")).opacity, 0.5, accuracy: 1e-9)
        // Before st nothing of it has started: frame 5 of the parent is its frame −2.5 (held at 0).
        XCTAssertEqual(try XCTUnwrap(layer(presentation(doc, at: 5.0 / 30), named: "inner")).opacity, 0, accuracy: 1e-9)
    }

    func testTimeRemappedPrecomposition() throws {
        // tm goes 0 → 0.5 s (linearly) over parent frames 0…30: at parent frame 15 (0.5 s) the
        // precomposition shows tm = 0.25 s, its frame 7.5; its layer's opacity goes 0 → 100 over
        // its frames 0…30, so 25 %. st and sr no longer apply (st 100 here would hide everything).
        let inner = Self.solid("inner", ks: #"{"o": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 30, "s": [100]}]}}"#)
        let assets = #"[{"id": "pre", "layers": [\#(inner)]}]"#
        let tm = #"{"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 30, "s": [0.5]}]}"#
        let pre = #"{"ty": 0, "nm": "pre", "ind": 1, "refId": "pre", "w": 100, "h": 100, "ip": 0, "op": 60, "st": 100, "sr": 3, "tm": \#(tm), "ks": {}}"#
        let doc = try document("[\(pre)]", assets: assets)
        XCTAssertEqual(try XCTUnwrap(layer(presentation(doc, at: 0.5), named: "inner")).opacity, 0.25, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(layer(presentation(doc, at: 1.5), named: "inner")).opacity, 0.5, accuracy: 1e-9)   // tm holds 0.5 s
    }

    func testLayerIsHiddenOutsideItsInAndOutPoints() throws {
        let l = #"{"ty": 1, "nm": "box", "ind": 1, "ip": 15, "op": 45, "st": 0, "sc": "\u0023ff0000", "sw": 10, "sh": 10, "ks": {}}"#
        let doc = try document("[\(l)]")
        func hidden(_ t: Double) throws -> Bool {
            var h = false
            presentation(doc, at: t).forEach { if $0.name == "box" || ($0.sublayers.first?.name == "box") { h = h || $0.hidden } }
            return h
        }
        XCTAssertTrue(try hidden(0.4))     // frame 12
        XCTAssertFalse(try hidden(0.5))    // frame 15
        XCTAssertFalse(try hidden(1.45))   // frame 43.5
        XCTAssertTrue(try hidden(1.5))     // frame 45: out
    }

    func testTrimPathsBecomeStrokeStartAndEnd() throws {
        // Trim 25 %…75 % offset by 90° (a quarter of the path): strokeStart 0.5, strokeEnd 1.
        let shapes = #"[{"ty": "gr", "it": [{"ty": "el", "p": {"a": 0, "k": [50, 50]}, "s": {"a": 0, "k": [40, 40]}}, {"ty": "st", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 4}}, {"ty": "tm", "s": {"a": 0, "k": 25}, "e": {"a": 0, "k": 75}, "o": {"a": 0, "k": 90}}, {"ty": "tr"}]}]"#
        let l = #"{"ty": 4, "nm": "ring", "ind": 1, "ip": 0, "op": 60, "st": 0, "ks": {}, "shapes": \#(shapes)}"#
        let root = presentation(try document("[\(l)]"), at: 0)
        var strokes: [Layer] = []
        root.forEach { if $0.layerClass == .shape && $0.shape.strokeColor != nil { strokes.append($0) } }
        XCTAssertEqual(strokes.count, 1)
        XCTAssertEqual(strokes[0].shape.strokeStart, 0.5, accuracy: 1e-9)
        XCTAssertEqual(strokes[0].shape.strokeEnd, 1, accuracy: 1e-9)
        XCTAssertEqual(strokes[0].shape.lineWidth, 4)
    }

    func testTrackMatteMasksTheLayerBelowIt() throws {
        // The matte (td: 1) is listed first; the layer after it (tt: 1) is drawn through its alpha.
        let matte = #"{"ty": 1, "nm": "matte", "ind": 1, "td": 1, "ip": 0, "op": 60, "st": 0, "sc": "\u0023000000", "sw": 50, "sh": 100, "ks": {}}"#
        let content = #"{"ty": 1, "nm": "content", "ind": 2, "tt": 1, "ip": 0, "op": 60, "st": 0, "sc": "\u002300ff00", "sw": 100, "sh": 100, "ks": {}}"#
        let root = try document("[\(matte), \(content)]").scene.root
        XCTAssertEqual(root.sublayers.count, 1, "the matte is not drawn on its own")
        let container = root.sublayers[0]
        XCTAssertEqual(container.sublayers.map { $0.name }, ["content"])
        XCTAssertEqual(container.mask?.name, "matte")
        XCTAssertEqual(container.mask?.bounds.size, Size(50, 100))
    }

    func testSubtractMaskCutsItsPathOut() throws {
        // An added square, then a subtracted smaller one: the second is composited destination-out.
        func square(_ a: Double, _ b: Double) -> String {
            #"{"a": 0, "k": {"c": true, "i": [[0,0],[0,0],[0,0],[0,0]], "o": [[0,0],[0,0],[0,0],[0,0]], "v": [[\#(a),\#(a)],[\#(b),\#(a)],[\#(b),\#(b)],[\#(a),\#(b)]]}}"#
        }
        let masks = #"[{"mode": "a", "pt": \#(square(0, 100)), "o": {"a": 0, "k": 100}}, {"mode": "s", "pt": \#(square(25, 75)), "o": {"a": 0, "k": 100}}]"#
        let l = Self.solid("box", ks: "{}", extra: #", "masksProperties": \#(masks)"#)
        let root = try document("[\(l)]").scene.root
        let box = try XCTUnwrap(layer(root, named: "box"))
        let mask = try XCTUnwrap(box.mask)
        XCTAssertEqual(mask.sublayers.count, 2)
        XCTAssertEqual(mask.sublayers[0].compositingFilter, .normalBlendMode)
        XCTAssertEqual(mask.sublayers[1].compositingFilter, .destinationOut)
        XCTAssertEqual(mask.sublayers[1].shape.path, Path([.move(Point(25, 25)), .line(Point(75, 25)), .line(Point(75, 75)), .line(Point(25, 75)), .close]))
    }

    func testBadInputNamesItsPlace() throws {
        XCTAssertThrowsError(try document("[]", ip: 10, op: 10)) { XCTAssertTrue("\($0)".contains("'op'"), "\($0)") }
        let cyclic = #"[{"ty": 0, "nm": "a", "ind": 1, "refId": "p", "ip": 0, "op": 60, "ks": {}}]"#
        let assets = #"[{"id": "p", "layers": [{"ty": 0, "nm": "b", "ind": 1, "refId": "p", "ip": 0, "op": 60, "ks": {}}]}]"#
        XCTAssertThrowsError(try document(cyclic, assets: assets)) { error in
            XCTAssertTrue("\(error)".contains("contains itself (p → p)"), "\(error)")
            XCTAssertTrue("\(error)".contains("/assets/0/layers/0/refId"), "\(error)")
        }
    }
}
