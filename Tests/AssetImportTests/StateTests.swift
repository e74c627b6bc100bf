import XCTest
@testable import AssetImport
import Geometry
import LayerModel
import Animation
import SceneFormat

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
