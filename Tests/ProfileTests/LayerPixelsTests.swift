import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Per-layer figures (`LayerPixels`): what each layer shades and blends, finding or not, so that
/// `caprof gate` can blame the layer whose cost changed.
final class LayerPixelsTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 100, height: 100, scale: 1)

    func figures(_ sublayers: [Layer]) -> [String: LayerPixels] {
        let t = tree(root(canvas, sublayers))
        let a = Profiler(canvas: canvas).analyze(plan(t, canvas), tree: t, index: 0, time: 0)
        return Dictionary(uniqueKeysWithValues: a.layerPixels.map { ($0.layer, $0) })
    }

    func testOpaqueTranslucentAndShadowedLayers() throws {
        // Opaque, on the grid: 40 × 20 = 800 fragments, none blending.
        let card = box("card", Rect(10, 10, 40, 20))
        // Translucent: its 20 × 10 = 200 fragments all blend.
        let scrim = box("scrim", Rect(0, 60, 20, 10), Color(0, 0, 0, 0.5))
        var f = figures([card, scrim])
        XCTAssertEqual(f["root"]?.shadedPixels, 100 * 100)
        XCTAssertEqual(f["root"]?.blendedFragments, 0)
        XCTAssertEqual(f["card"]?.shadedPixels, 800)
        XCTAssertEqual(f["card"]?.blendedFragments, 0)
        XCTAssertEqual(f["scrim"]?.shadedPixels, 200)
        XCTAssertEqual(f["scrim"]?.blendedFragments, 200)

        // A sharp shadow with a rect shadowPath, 30 pt below: no finding, but the card now shades
        // its own 800 fragments plus the shadow's, which all blend: at least the path's 40 × 20,
        // plus the texel margin the shadow texture keeps around it.
        var shadowed = card
        shadowed.shadowOpacity = 0.5; shadowed.shadowRadius = 0; shadowed.shadowOffset = Size(0, 30)
        shadowed.shadowPath = .rect(Rect(0, 0, 40, 20))
        f = figures([shadowed, scrim])
        let shadow = try XCTUnwrap(f["card"]).shadedPixels - 800
        XCTAssertGreaterThanOrEqual(shadow, 800)
        XCTAssertEqual(f["card"]?.blendedFragments, shadow, "every shadow fragment blends, none of the card's own")
        XCTAssertEqual(f["scrim"]?.blendedFragments, 200, "the other layer is unchanged")
    }

    /// A run keeps the most of each figure over its frames, per layer.
    func testFoldKeepsTheWorstFramePerLayer() {
        var worst: [String: LayerPixels] = [:]
        LayerPixels.fold([LayerPixels(layer: "a", line: 3, shadedPixels: 100, blendedFragments: 50)], into: &worst)
        LayerPixels.fold([LayerPixels(layer: "a", line: 3, shadedPixels: 80, blendedFragments: 70),
                          LayerPixels(layer: "b", line: nil, shadedPixels: 5, blendedFragments: 0)], into: &worst)
        XCTAssertEqual(worst["a"], LayerPixels(layer: "a", line: 3, shadedPixels: 100, blendedFragments: 70))
        XCTAssertEqual(worst["b"]?.shadedPixels, 5)
    }
}
