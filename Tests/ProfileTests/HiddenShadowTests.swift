import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// A shadow masksToBounds hides is its own finding, `shadow.hidden` ("never visible: remove
/// it"), never offscreen.shadow's "set shadowPath", which would keep paying for it. Its cost is
/// what removing it saves: the passes of a path-less shadow, or the pixels a shadowPath's draws.
final class HiddenShadowTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 200, height: 200, scale: 1, backgroundColor: .white)

    func finding(_ fs: [Finding], _ id: FindingID, _ layer: String) -> Finding? {
        fs.flatMap { $0.members ?? [$0] }.first { $0.id == id && $0.layer.display == layer }
    }

    /// A 60 × 40 pt card at (70, 80) with an opaque background, masksToBounds and a path-less
    /// shadow (σ = 4 pt, offset 3 pt down): masksToBounds keeps the shadow inside the bounds,
    /// where the card's own background covers it.
    func card(masks: Bool = true, background: Color = Color(1, 0, 0)) -> Layer {
        var c = box("card", Rect(70, 80, 60, 40), background)
        c.masksToBounds = masks
        c.shadowOpacity = 0.5; c.shadowRadius = 4; c.shadowOffset = Size(0, 3)
        return c
    }

    func testAPathlessShadowBeneathItsOwnOpaqueBackgroundIsHiddenNotSetShadowPath() throws {
        let fs = findings(root(canvas, [card()]), canvas)
        XCTAssertNil(finding(fs, .offscreenShadow, "card"), "its passes are the hidden shadow's")
        let f = try XCTUnwrap(finding(fs, .shadowHidden, "card"))
        XCTAssertEqual(f.evidence.hiddenShadow, .beneathOpaqueBackground)
        XCTAssertTrue(f.explanation.hasPrefix("this shadow is never visible"), f.explanation)
        XCTAssertTrue(f.fix.hasPrefix("remove it"), f.fix)
        XCTAssertFalse(f.fix.contains("shadowPath"), f.fix)
        // What removing it saves: the content grown by the blur's reach, ⌈3σ⌉ + 1 = 13 px, is
        // (60 + 26) × (40 + 26) = 86 × 66 = 5,676 px, rendered, blurred across and blurred down
        // (σ under 8 px: full resolution): 3 × 5,676 = 17,028 texels.
        XCTAssertEqual(f.maxPixels, 17_028)
        XCTAssertTrue(f.pixelsAreOffscreenTexels)
    }

    func testAShadowPathsShadowClippedToTheLayersEdgesByAnAncestorIsHidden() throws {
        // A tile filling its clipping frame exactly: the shadow (rect shadowPath, σ 8) shows only
        // inside the frame, under the tile's opaque blue.
        var tile = box("tile", Rect(0, 0, 60, 40), Color(0, 0, 1))
        tile.shadowOpacity = 0.5; tile.shadowRadius = 8; tile.shadowPath = .rect(Rect(0, 0, 60, 40))
        var frame = box("frame", Rect(0, 160, 60, 40), nil)
        frame.masksToBounds = true
        frame.sublayers = [tile]
        let f = try XCTUnwrap(finding(findings(root(canvas, [frame]), canvas), .shadowHidden, "tile"))
        XCTAssertEqual(f.evidence.hiddenShadow, .beneathOpaqueBackground)
        // It draws what the frame lets through: 60 × 40 = 2,400 pixels, all under the tile.
        XCTAssertEqual(f.maxPixels, 2_400)
        XCTAssertFalse(f.pixelsAreOffscreenTexels)
    }

    func testAShadowOffsetOutOfItsOwnMaskedBoundsIsClippedAway() throws {
        // Moved 100 pt down, σ 2 pt: nothing of it reaches the 40 pt tall bounds it is clipped to,
        // whatever the (translucent) background lets through.
        var c = card(background: Color(1, 0, 0, 0.5))
        c.shadowOffset = Size(0, 100); c.shadowRadius = 2; c.shadowPath = .rect(Rect(0, 0, 60, 40))
        let f = try XCTUnwrap(finding(findings(root(canvas, [c]), canvas), .shadowHidden, "card"))
        XCTAssertEqual(f.evidence.hiddenShadow, .clippedAway)
        XCTAssertEqual(f.maxPixels, 0, "the clip leaves it no pixel")
        XCTAssertTrue(f.explanation.contains("clips all of it away"), f.explanation)
    }

    func testAShadowThatCanBeSeenKeepsItsAdvice() throws {
        // Unclipped, or clipped under a translucent background: it shows.
        for layer in [card(masks: false), card(background: Color(1, 0, 0, 0.5))] {
            let fs = findings(root(canvas, [layer]), canvas)
            XCTAssertNil(finding(fs, .shadowHidden, "card"))
            XCTAssertTrue(try XCTUnwrap(finding(fs, .offscreenShadow, "card")).fix.contains("set shadowPath"))
        }
    }
}
