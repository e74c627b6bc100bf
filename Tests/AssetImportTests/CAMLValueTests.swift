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
}

/// Truncated CAML never crashes: a located error (or, when the cut leaves a well-formed prefix, a scene).
final class CorruptCAMLTests: XCTestCase {
    /// Exponential entity expansion is refused by libxml2 (no hang, no memory blow-up), and the
    /// error says what it is.
    func testBillionLaughsIsRefused() {
        var dtd = "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"]
        for (prev, name) in zip(names, names.dropFirst()) {
            dtd += "<!ENTITY \(name) \"" + String(repeating: "&\(prev);", count: 16) + "\">"
        }
        let caml = "<?xml version=\"1.0\"?><!DOCTYPE caml [\(dtd)]><caml><CALayer bounds=\"0 0 1 1\" name=\"&h;\"/></caml>"
        XCTAssertThrowsError(try CAMLImporter.decode(data: Array(caml.utf8), file: "laughs.caml", bundle: "/", index: nil)) { e in
            XCTAssertTrue("\(e)".contains("entity loop or 'billion laughs'"), "\(e)")
        }
    }

    func testMismatchedTagIsLocated() {
        XCTAssertThrowsError(try CAMLImporter.decode(data: Array("<caml><CALayer></caml>".utf8), file: "bad.caml", bundle: "/", index: nil)) { e in
            XCTAssertEqual("\(e)", "bad.caml:1:23: error: /: malformed XML (a closing tag does not match its opening tag; libxml2 error 76)")
        }
    }

    func testTruncationsAreLocatedErrors() throws {
        let path = CorpusImportTests.corpus + "/caml/CAPlayground_SideStore_Floating.ca/main.caml"
        guard let data = FileManager.default.contents(atPath: path) else { throw XCTSkip("corpus not found") }
        let bytes = [UInt8](data)
        for n in stride(from: 1, to: bytes.count, by: 997) {
            XCTAssertThrowsError(try CAMLImporter.decode(data: Array(bytes.prefix(n)), file: "cut.caml", bundle: "/", index: nil)) { e in
                guard let s = e as? SceneError else { return XCTFail("\(e)") }
                XCTAssertEqual(s.file, "cut.caml")
            }
        }
    }
}

/// State transitions on a small document: the most specific transition wins over wildcards, the
/// animation is filled with the two states' values, and a value with no element jumps.
final class StateTransitionTests: XCTestCase {
    let caml = """
    <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
      <CALayer id="#1" bounds="0 0 100 100" position="50 50">
        <sublayers><CALayer id="#2" bounds="0 0 10 10" position="5 5" opacity="1"/></sublayers>
        <states>
          <LKState name="off"><elements>
            <LKStateSetValue targetId="#2" keyPath="opacity"><value type="real" value="0"/></LKStateSetValue>
          </elements></LKState>
          <LKState name="on"><elements>
            <LKStateSetValue targetId="#2" keyPath="opacity"><value type="real" value="1"/></LKStateSetValue>
            <LKStateSetValue targetId="#2" keyPath="position"><value type="CGPoint" value="50 60"/></LKStateSetValue>
          </elements></LKState>
        </states>
        <stateTransitions>
          <LKStateTransition fromState="*" toState="*"><elements>
            <LKStateTransitionElement targetId="#2" key="opacity"><animation type="CABasicAnimation" duration="9"/></LKStateTransitionElement>
          </elements></LKStateTransition>
          <LKStateTransition fromState="off" toState="on"><elements>
            <LKStateTransitionElement targetId="#2" key="opacity">
              <animation type="CASpringAnimation" keyPath="opacity" duration="0.5" fillMode="backwards" damping="20" stiffness="300" mass="2"/>
            </LKStateTransitionElement>
          </elements></LKStateTransition>
        </stateTransitions>
      </CALayer>
    </caml>
    """

    func testSpecificTransitionFilledFromStates() throws {
        let doc = try CAMLImporter.decode(data: Array(caml.utf8), file: "t.caml", bundle: "/", index: nil,
                                          states: StateSelection(transition: ("off", "on")))
        let child = doc.scene.root.sublayers[0]
        XCTAssertEqual(child.opacity, 1, "the model is in the 'on' state")
        XCTAssertEqual(child.position, Point(50, 60), "position has no transition element: it jumps")
        let anims = try XCTUnwrap(doc.animations[1])
        XCTAssertEqual(anims.count, 1)
        let a = anims[0]
        XCTAssertEqual(a.animationClass, .spring, "off→on wins over *→*")
        XCTAssertEqual(a.fromValue, .number(0)); XCTAssertEqual(a.toValue, .number(1))
        XCTAssertEqual(a.duration, .seconds(0.5)); XCTAssertEqual(a.fillMode, .backwards)
        XCTAssertEqual(a.spring?.parameters, .physical(mass: 2, stiffness: 300, damping: 20, allowsOverdamping: false))
    }

    func testWildcardTransition() throws {
        let doc = try CAMLImporter.decode(data: Array(caml.utf8), file: "t.caml", bundle: "/", index: nil,
                                          states: StateSelection(transition: ("on", "off")))
        let a = try XCTUnwrap(doc.animations[1]?.first)
        XCTAssertEqual(a.animationClass, .basic)
        XCTAssertEqual(a.keyPath?.keyPath, "opacity", "the element's key is the key path")
        XCTAssertEqual(a.fromValue, .number(1)); XCTAssertEqual(a.toValue, .number(0))
        XCTAssertEqual(a.duration, .seconds(9))
    }
}

/// LKStateAddElement / LKStateRemoveElement (sublayers) and LKStateRemoveAnimation, and a
/// CAAnimationGroup whose children are CAML animation elements.
final class StateElementTests: XCTestCase {
    let caml = """
    <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
      <CALayer id="root" bounds="0 0 100 100" position="50 50">
        <sublayers>
          <CALayer id="a" name="a" bounds="0 0 10 10" position="5 5">
            <animations>
              <spin type="CABasicAnimation" keyPath="transform.rotation.z" fromValue="0" toValue="6.283185307179586" duration="1" repeatCount="Inf"/>
              <both type="CAAnimationGroup" duration="2">
                <animations>
                  <animation type="CABasicAnimation" keyPath="opacity" fromValue="1" toValue="0.5" duration="1"/>
                  <animation type="CAKeyframeAnimation" keyPath="position.x" duration="2" calculationMode="discrete">
                    <values><real value="0"/><real value="10"/><real value="20"/></values>
                    <keyTimes><real value="0"/><real value="0.5"/><real value="1"/></keyTimes>
                  </animation>
                </animations>
              </both>
            </animations>
          </CALayer>
          <CALayer id="b" name="b" bounds="0 0 10 10" position="50 50"/>
        </sublayers>
        <states>
          <LKState name="edited"><elements>
            <LKStateRemoveElement targetId="root" keyPath="sublayers" objectId="b"/>
            <LKStateAddElement targetId="root" keyPath="sublayers">
              <object type="CALayer" id="c" name="c" bounds="0 0 4 4" position="2 2" backgroundColor="0 1 0"/>
            </LKStateAddElement>
            <LKStateRemoveAnimation targetId="a" key="spin"/>
          </elements></LKState>
        </states>
      </CALayer>
    </caml>
    """

    func testBaseTreeAndGroup() throws {
        let doc = try CAMLImporter.decode(data: Array(caml.utf8), file: "e.caml", bundle: "/", index: nil)
        XCTAssertEqual(doc.scene.root.sublayers.map(\.name), ["a", "b"])
        let anims = try XCTUnwrap(doc.animations[1])
        XCTAssertEqual(anims.map(\.key), ["spin", "both"])
        XCTAssertEqual(anims[0].repeatCount, .infinity)
        XCTAssertEqual(anims[1].animationClass, .group)
        XCTAssertEqual(anims[1].animations.map(\.animationClass), [.basic, .keyframe])
        XCTAssertEqual(anims[1].animations[1].keyframes?.values, [.number(0), .number(10), .number(20)])
        XCTAssertEqual(anims[1].animations[1].keyframes?.calculationMode, .discrete)
    }

    func testAddRemoveElementsAndAnimations() throws {
        let doc = try CAMLImporter.decode(data: Array(caml.utf8), file: "e.caml", bundle: "/", index: nil,
                                          states: StateSelection(state: "edited"))
        XCTAssertEqual(doc.scene.root.sublayers.map(\.name), ["a", "c"])
        XCTAssertEqual(doc.scene.root.sublayers[1].backgroundColor, Color(0, 1, 0))
        XCTAssertEqual(doc.animations[1]?.map(\.key), ["both"], "the state removed 'spin'")
        XCTAssertTrue(doc.warnings.isEmpty, "\(doc.warnings)")
    }
}

/// NSKeyedArchiver also writes XML plists (`{"CF$UID": n}` references); the importer reads them.
final class XMLArchiveTests: XCTestCase {
    func testXMLKeyedArchive() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
          <key>$archiver</key><string>NSKeyedArchiver</string>
          <key>$version</key><integer>100000</integer>
          <key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>
          <key>$objects</key><array>
            <string>$null</string>
            <dict><key>$class</key><dict><key>CF$UID</key><integer>3</integer></dict>
                  <key>bounds</key><dict><key>CF$UID</key><integer>2</integer></dict>
                  <key>opacity</key><real>0.5</real></dict>
            <dict><key>$class</key><dict><key>CF$UID</key><integer>4</integer></dict>
                  <key>kind</key><integer>2</integer><key>x</key><real>0</real><key>y</key><real>0</real>
                  <key>width</key><real>64</real><key>height</key><real>32</real></dict>
            <dict><key>$classname</key><string>CALayer</string><key>$classes</key><array><string>CALayer</string><string>NSObject</string></array></dict>
            <dict><key>$classname</key><string>LKNSValueCodingProxy</string><key>$classes</key><array><string>LKNSValueCodingProxy</string><string>NSObject</string></array></dict>
          </array>
        </dict></plist>
        """
        let doc = try ArchiveImporter.decode(data: Array(xml.utf8), file: "x.caar")
        XCTAssertEqual(doc.scene.root.bounds.width, 64)
        XCTAssertEqual(doc.scene.root.opacity, 0.5)
        XCTAssertEqual(doc.scene.canvas.height, 32)
    }
}
