import XCTest
import Geometry
import LayerModel
@testable import Plan

/// The offscreen passes the planner records (reference §8.1): reasons, targets, order, and that
/// recording them never changes what is drawn.
final class OffscreenPassTests: XCTestCase {
    let canvas = Canvas(width: 100, height: 100, scale: 1, backgroundColor: .white)

    func box(_ name: String, _ frame: Rect, _ color: Color = Color(1, 0, 0)) -> Layer {
        var l = Layer(); l.name = name; l.setFrame(frame); l.backgroundColor = color; return l
    }
    func plan(_ layers: [Layer], canvas: Canvas? = nil) -> FramePlan {
        let c = canvas ?? self.canvas
        var root = box("root", Rect(0, 0, c.width, c.height), .white)
        root.sublayers = layers
        var s = Scene(canvas: c, root: root); s.assignIDs()
        return FramePlanner(canvas: c, images: [:]).plan(root: s.root)
    }

    func testRoundedClipNeedsSomethingToClip() {
        var clip = box("clip", Rect(10, 10, 40, 40)); clip.masksToBounds = true; clip.cornerRadius = 10
        XCTAssertEqual(plan([clip]).offscreenPasses, [], "background and border alone are drawn rounded without a pass")
        clip.sublayers = [box("child", Rect(0, 0, 20, 20))]
        let p = plan([clip])
        XCTAssertEqual(p.offscreenPasses, [OffscreenPass(reason: .roundedClip, layer: 1, bounds: PixelRect(x: 10, y: 10, width: 40, height: 40), items: 1..<3)])
        clip.cornerRadius = 0
        XCTAssertEqual(plan([clip]).offscreenPasses, [])
        clip.cornerRadius = 10; clip.masksToBounds = false
        XCTAssertEqual(plan([clip]).offscreenPasses, [])
    }

    func testRoundedClipTargetAtScale3IsClippedToTheCanvas() {
        var clip = box("clip", Rect(80, 90, 40, 40)); clip.masksToBounds = true; clip.cornerRadius = 10
        clip.sublayers = [box("child", Rect(0, 0, 20, 20))]
        let p = plan([clip], canvas: Canvas(width: 100, height: 100, scale: 3))
        XCTAssertEqual(p.offscreenPasses.first?.bounds, PixelRect(x: 240, y: 270, width: 60, height: 30))
    }

    func testGroupOpacityShadowAndMask() {
        var g = box("group", Rect(0, 0, 50, 50)); g.sublayers = [box("c", Rect(10, 10, 60, 20))]
        XCTAssertEqual(plan([g]).offscreenPasses, [])
        g.opacity = 0.5
        var p = plan([g])
        XCTAssertEqual(p.offscreenPasses.map(\.reason), [.groupOpacity])
        // The subtree's device bounds: the group (0…50) and its child (10…70 × 10…30).
        XCTAssertEqual(p.offscreenPasses.first?.bounds, PixelRect(x: 0, y: 0, width: 70, height: 50))
        g.allowsGroupOpacity = false
        XCTAssertEqual(plan([g]).offscreenPasses, [])
        g.allowsGroupOpacity = true; g.sublayers = []
        XCTAssertEqual(plan([g]).offscreenPasses, [], "a leaf fades without a pass")

        var s = box("shadowed", Rect(0, 0, 50, 50)); s.shadowOpacity = 0.5
        XCTAssertEqual(plan([s]).offscreenPasses.map(\.reason), [.shadow])
        s.shadowPath = Path()
        XCTAssertEqual(plan([s]).offscreenPasses, [], "shadowPath: the shape is known without rendering")

        var m = box("masked", Rect(0, 0, 50, 50)); m.mask = box("m", Rect(0, 0, 10, 10))
        p = plan([m])
        XCTAssertEqual(p.offscreenPasses.map(\.reason), [.mask])
        XCTAssertEqual(p.offscreenPasses.first?.pixelArea, 2500)
    }

    func testNestedPassesComeInnermostFirstAndDrawingIsUnchanged() {
        var inner = box("inner", Rect(0, 0, 20, 20)); inner.masksToBounds = true; inner.cornerRadius = 4
        inner.sublayers = [box("x", Rect(0, 0, 5, 5))]
        var outer = box("outer", Rect(0, 0, 50, 50)); outer.opacity = 0.5; outer.sublayers = [inner]
        let p = plan([outer])
        XCTAssertEqual(p.offscreenPasses.map(\.reason), [.roundedClip, .groupOpacity])
        XCTAssertEqual(p.offscreenPasses.map(\.items), [2..<4, 1..<4])
        var plain = outer; plain.opacity = 1; plain.sublayers[0].cornerRadius = 0
        XCTAssertEqual(p.items.count, plan([plain]).items.count, "recording never changes what is drawn")
    }

    func testHiddenLayersHaveNoPasses() {
        var g = box("group", Rect(0, 0, 50, 50)); g.opacity = 0.5; g.sublayers = [box("c", Rect(0, 0, 10, 10))]
        g.hidden = true
        XCTAssertEqual(plan([g]).offscreenPasses, [])
    }
}
