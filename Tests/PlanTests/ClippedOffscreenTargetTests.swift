import XCTest
import Geometry
import LayerModel
@testable import Plan

/// An offscreen pass is sized by what survives clipping (the ancestors' masksToBounds and the
/// canvas), never by the unclipped bounds of what the layer draws: what a clip hides is never
/// composited, so rendering it offscreen is not a cost Core Animation has to pay.
final class ClippedOffscreenTargetTests: XCTestCase {
    let canvas = Canvas(width: 200, height: 200, scale: 1, backgroundColor: .white)

    func box(_ name: String, _ frame: Rect, _ color: Color? = Color(1, 0, 0)) -> Layer {
        var l = Layer(); l.name = name; l.setFrame(frame); l.backgroundColor = color; return l
    }

    func plan(_ layers: [Layer]) -> FramePlan {
        var root = box("root", Rect(0, 0, canvas.width, canvas.height), .white)
        root.sublayers = layers
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        return FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
    }

    /// A faded group at (20, 20) whose second child (at (40, 40), 140 pt square) overflows its
    /// clipping parent, a 100 pt square at the origin with masksToBounds.
    func testAGroupOpacityPassIsCutToItsClippingAncestor() throws {
        var group = box("group", Rect(20, 20, 60, 60), nil)
        group.opacity = 0.5; group.allowsGroupOpacity = true
        group.sublayers = [box("a", Rect(0, 0, 40, 40)), box("b", Rect(20, 20, 140, 140), Color(0, 1, 0))]
        var clipper = box("clipper", Rect(0, 0, 100, 100), nil)
        clipper.masksToBounds = true
        clipper.sublayers = [group]
        let pass = try XCTUnwrap(plan([clipper]).offscreenPasses.first)
        XCTAssertEqual(pass.reasons, [.groupOpacity])
        // Unclipped the children span x, y ∈ [20, 20 + 20 + 140) = [20, 180): 160 × 160. The clip
        // keeps [20, 100) on each axis: 80 × 80 = 6,400 px, a quarter of it.
        XCTAssertEqual(pass.width, 80)
        XCTAssertEqual(pass.height, 80)
        XCTAssertEqual(pass.bounds, PixelRect(x: 20, y: 20, width: 80, height: 80))
        XCTAssertEqual(pass.pixelArea, 6_400)

        // Without the clip the pass needs all of it.
        clipper.masksToBounds = false
        let unclipped = try XCTUnwrap(plan([clipper]).offscreenPasses.first)
        XCTAssertEqual(unclipped.pixelArea, 160 * 160)
    }

    /// A 100 × 160 pt card with a path-less shadow (σ = shadowRadius = 2 pt, offset 0) in a
    /// 200 × 50 pt strip with masksToBounds: only the card's top 30 pt can be seen.
    func testAShadowPassIsCutToItsClippingAncestorGrownByTheBlursReach() throws {
        var card = box("card", Rect(20, 20, 100, 160))
        card.shadowOpacity = 0.5; card.shadowRadius = 2; card.shadowOffset = Size(0, 0)
        var strip = box("strip", Rect(0, 0, 200, 50), nil)
        strip.masksToBounds = true
        strip.sublayers = [card]
        let content = try XCTUnwrap(plan([strip]).offscreenPasses.first)
        XCTAssertEqual(content.reasons, [.shadow])
        // The blur reaches ⌈3σ⌉ + 1 = 7 px: the content grown by it is x ∈ [13, 127),
        // y ∈ [13, 187). What can reach the strip lies within 7 px of it, y < 50 + 7: so
        // 114 × 44 px instead of 114 × 174 (the canvas cut it at 200 − 13 = 187 before).
        XCTAssertEqual(content.width, 114)
        XCTAssertEqual(content.height, 44)
        XCTAssertEqual(content.bounds, PixelRect(x: 13, y: 13, width: 114, height: 44))
    }

    func testAPassWhollyOutsideItsClippingAncestorIsNotPlanned() {
        var group = box("group", Rect(120, 120, 60, 60), nil)
        group.opacity = 0.5
        group.sublayers = [box("a", Rect(0, 0, 40, 40)), box("b", Rect(20, 20, 40, 40))]
        var clipper = box("clipper", Rect(0, 0, 100, 100), nil)
        clipper.masksToBounds = true
        clipper.sublayers = [group]
        XCTAssertEqual(plan([clipper]).offscreenPasses, [], "nothing of the group can be seen")
    }
}
