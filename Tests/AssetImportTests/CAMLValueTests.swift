import XCTest
@testable import AssetImport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// CAML's value grammars (asset-formats.md §2.3), expected values computed by hand.
final class CAMLValueTests: XCTestCase {
    func testNumbers() {
        XCTAssertEqual(CAMLValues.number("1e-100"), 1e-100)
        XCTAssertEqual(CAMLValues.number("Inf"), .infinity)
        XCTAssertEqual(CAMLValues.number("-8.98e307"), -8.98e307)
        XCTAssertNil(CAMLValues.number("abc"))
    }

    func testColorsWithOpacity() {
        XCTAssertEqual(CAMLValues.color("-0.004033 0.4688 0.97", opacity: "0.5"), Color(-0.004033, 0.4688, 0.97, 0.5))
        XCTAssertEqual(CAMLValues.color("1 1 1", opacity: nil), Color(1, 1, 1, 1))
        XCTAssertNil(CAMLValues.color("1 1", opacity: nil))
    }

    /// `rotate(90deg) translate(10, 0, 0)`: the rightmost acts first, so the point (0, 0) moves to
    /// (10, 0) and then turns a quarter about z to (0, 10).
    func testTransformFunctionsCompose() throws {
        let t = try XCTUnwrap(CAMLValues.transform("rotate(90deg) translate(10, 0, 0)"))
        let p = t.apply(Point(0, 0))
        XCTAssertEqual(p.x, 0, accuracy: 1e-12); XCTAssertEqual(p.y, 10, accuracy: 1e-12)
        XCTAssertEqual(CAMLValues.transform(""), .identity)
        let s = try XCTUnwrap(CAMLValues.transform("scale(0.61, 0.61, 1)"))
        XCTAssertEqual(s.m11, 0.61); XCTAssertEqual(s.m22, 0.61); XCTAssertEqual(s.m33, 1)
        // Axis-angle: a half turn about x maps y to −y.
        let fx = try XCTUnwrap(CAMLValues.transform("rotate(180deg, 1, 0, 0)"))
        XCTAssertEqual(fx.apply(Point(0, 1)).y, -1, accuracy: 1e-12)
        XCTAssertNil(CAMLValues.transform("skew(3)"))
    }

    func testPostfixPaths() throws {
        let p = try XCTUnwrap(CAMLValues.path("0 0 m 10 0 l 10 10 5 15 0 10 c h"))
        XCTAssertEqual(p.elements, [.move(Point(0, 0)), .line(Point(10, 0)), .cubic(Point(10, 10), Point(5, 15), Point(0, 10)), .close])
        XCTAssertEqual(CAMLValues.path("1 2 3 4 re")?.elements.count, Path.rect(Rect(1, 2, 3, 4)).elements.count)
        XCTAssertNil(CAMLValues.path("0 m"), "too few operands")
    }

    func testTimingFunctions() {
        XCTAssertEqual(CAMLValues.timingFunction("easeInEaseOut"), .named(.easeInEaseOut))
        XCTAssertEqual(CAMLValues.timingFunction("0.25 0.1 0.25 1"), .controlPoints(0.25, 0.1, 0.25, 1))
        XCTAssertNil(CAMLValues.timingFunction("bouncy"))
    }

    /// A whole CAML document: attributes and child colours, an animation keyed by its element
    /// name, a CAML id used by a state with basedOn, and a malformed document's located error.
    func testSmallDocumentWithStates() throws {
        let caml = """
        <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
          <CALayer id="#1" bounds="0 0 100 50" position="50 25" opacity="0.5">
            <backgroundColor value="1 0 0" opacity="0.5"/>
            <animations>
              <animation-1 type="CABasicAnimation" keyPath="position.x" duration="2" fromValue="0" toValue="100" timingFunction="easeOut"/>
            </animations>
            <states>
              <LKState name="a"><elements>
                <LKStateSetValue targetId="#1" keyPath="opacity"><value type="real" value="0.25"/></LKStateSetValue>
              </elements></LKState>
              <LKState name="b" basedOn="a"><elements>
                <LKStateSetValue targetId="#1" keyPath="bounds.size.width"><value type="integer" value="80"/></LKStateSetValue>
              </elements></LKState>
            </states>
          </CALayer>
        </caml>
        """
        let doc = try CAMLImporter.decode(data: Array(caml.utf8), file: "t.caml", bundle: "/", index: nil, states: StateSelection(state: "b"))
        let l = doc.scene.root
        XCTAssertEqual(l.opacity, 0.25, "b is based on a")
        XCTAssertEqual(l.bounds.width, 80)
        XCTAssertEqual(l.backgroundColor, Color(1, 0, 0, 0.5))
        let a = try XCTUnwrap(doc.animations[0]?.first)
        XCTAssertEqual(a.key, "animation-1"); XCTAssertEqual(a.fromValue, .number(0)); XCTAssertEqual(a.toValue, .number(100))
        XCTAssertEqual(a.timingFunction, .named(.easeOut)); XCTAssertEqual(a.duration, .seconds(2))
        XCTAssertThrowsError(try CAMLImporter.decode(data: Array("<caml><CALayer></caml>".utf8), file: "bad.caml", bundle: "/", index: nil)) { e in
            XCTAssertTrue("\(e)".hasPrefix("bad.caml:1:"), "\(e)")
        }
    }

    /// CAML filters: the type, the name, inputs as attributes or typed child elements.
    func testFiltersWithTheirInputs() throws {
        let caml = """
        <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
          <CALayer bounds="0 0 100 50">
            <filters>
              <filter type="CAFilter" filter="gaussianBlur" name="blur" inputRadius="12"/>
              <filter type="CAFilter" filter="multiplyColor"><inputColor type="CGColor" value="1 0.5 0"/></filter>
            </filters>
          </CALayer>
        </caml>
        """
        let doc = try CAMLImporter.decode(data: Array(caml.utf8), file: "t.caml", bundle: "/", index: nil)
        let f = doc.scene.root.filters
        XCTAssertEqual(f.map(\.type), [.gaussianBlur, .multiplyColor])
        XCTAssertEqual(f[0].name, "blur")
        XCTAssertEqual(f[0].inputRadius, 12)
        XCTAssertEqual(f[1].inputColor, Color(1, 0.5, 0))
        XCTAssertTrue(doc.warnings.isEmpty, "\(doc.warnings)")
    }
}
