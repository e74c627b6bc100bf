import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Stack culling (`StackCulling`): which items are veils, the depth K their alpha allows, the
/// stencil items the plan emits and when it takes the option. Expected values by hand.
final class StackCullingTests: XCTestCase {
    /// Opacity 0.8 premultiplied: alpha byte ⌊0.8 · 255⌋ = 204.
    let veilRed = RGBA(0.8, 0, 0, 0.8)

    func solid(_ c: RGBA, _ m: Transform3D = .identity, quad: Rect = Rect(0, 0, 64, 64), layer: LayerID = 1) -> DrawItem {
        DrawItem(layer: layer, role: .background, paint: .solid(c), transform: m, quad: quad)
    }
    func prepare(_ items: [DrawItem], images: [PlannedImage] = [], size: Int = 64, culls: Bool = true)
        -> (items: [DrawItem], stats: CanvasExecutionStats) {
        CanvasExecution.prepare(items, images: images, width: size, height: size, cullsStacks: culls)
    }

    /// e ← ⌈e · (255 − A) / 255⌉ from 255 until it is at most 1, by hand.
    func testDepthIsTheVeilsAfterWhichADifferenceIsAtMostOneLevel() {
        XCTAssertEqual(StackCulling.depth(alphaByte: 255), 1)       // 255 → 0
        XCTAssertEqual(StackCulling.depth(alphaByte: 230), 3)       // n 25: 255 → 25 → 3 → 1
        XCTAssertEqual(StackCulling.depth(alphaByte: 204), 4)       // n 51: 255 → 51 → 11 → 3 → 1
        // n 127: 255 → 127 → 64 → 32 → 16 → 8 → 4 → 2 → 1
        XCTAssertEqual(StackCulling.depth(alphaByte: 128), 8)
        XCTAssertNil(StackCulling.depth(alphaByte: 127), "n 128: ⌈2 · 128/255⌉ = 2 forever")
        XCTAssertNil(StackCulling.depth(alphaByte: 0))
    }

    /// Six translucent items under five rotated veils at opacity 0.8 (K = 4): the segment starts
    /// with the veils' pieces counted; every item with four veils or more above it is tested
    /// against K, the lowest veil among them after its piece is taken off; the top four veils
    /// (three veils or fewer above each) are drawn untested and never uncounted.
    func testAStackOfVeilsCountsThemAndTestsWhatCanBeCulled() {
        let rotated = Transform3D.translation(-32, -32) * .rotation(0.17, 0, 0, 1) * .scale(1.5, 1.5, 1) * .translation(32, 32)
        let under = (0..<6).map { i in solid(RGBA(0, 0.3, 0, 0.3), layer: LayerID(10 + i)) }
        let veils = (0..<5).map { i in solid(veilRed, rotated, layer: LayerID(20 + i)) }
        let (items, stats) = prepare(under + veils)
        XCTAssertEqual(stats.stackDepth, 4)
        XCTAssertEqual(stats.stackVeils, 5)
        XCTAssertEqual(stats.stackPieces, 5)
        // 5 counted pieces, the 6 items, (uncount, veil) for the lowest veil, 4 veils.
        XCTAssertEqual(items.count, 5 + 6 + 2 + 4)
        XCTAssertEqual(items.prefix(5).map { $0.stackStencil?.role }, Array(repeating: .count, count: 5))
        XCTAssertEqual(items.prefix(5).map(\.layer), (0..<5).map { LayerID(20 + $0) })
        XCTAssertTrue(items.prefix(5).allSatisfy { $0.transform == rotated && $0.quad == Rect(0, 0, 64, 64) },
                      "a solid veil counts over its whole quad")
        XCTAssertEqual(items[5..<11].map(\.layer), (0..<6).map { LayerID(10 + $0) })
        XCTAssertEqual(items[5..<11].map { $0.stackStencil?.role }, Array(repeating: .tested, count: 6))
        XCTAssertEqual(items[11].stackStencil?.role, .uncount)
        XCTAssertEqual(items[11].layer, 20, "the lowest veil's piece just before it")
        XCTAssertEqual(items[12].layer, 20)
        XCTAssertEqual(items[12].stackStencil?.role, .tested)
        XCTAssertEqual(items[13...].map(\.layer), (1..<5).map { LayerID(20 + $0) })
        XCTAssertEqual(items[13...].map { $0.stackStencil?.role }, Array(repeating: .untested, count: 4))
        XCTAssertTrue(items.allSatisfy { $0.stackStencil?.depth == 4 })
        // Off: the same items as before, no stencil.
        let off = prepare(under + veils, culls: false).items
        XCTAssertEqual(off.count, 11)
        XCTAssertTrue(off.allSatisfy { $0.stackStencil == nil })
    }

    /// Culling must pay: fewer than K veils above anything, veils too translucent, small veils, or
    /// a compositing filter's blend in the segment leave it alone.
    func testStacksThatCannotCullOrDoNotPayAreLeftAlone() {
        let under = (0..<6).map { _ in solid(RGBA(0, 0.3, 0, 0.3)) }
        XCTAssertEqual(prepare(under + Array(repeating: solid(veilRed), count: 3)).stats.stackDepth, 0, "3 veils < K = 4")
        XCTAssertEqual(prepare(under + Array(repeating: solid(RGBA(0.4, 0, 0, 0.4)), count: 12)).stats.stackDepth, 0,
                       "alpha 0.4: no depth bounds the difference")
        XCTAssertEqual(prepare(under + Array(repeating: solid(veilRed, quad: Rect(0, 0, 6, 6)), count: 6)).stats.stackDepth, 0,
                       "veils under 1/64 of the canvas")
        var screen = solid(RGBA(0, 0, 0.5, 0.5)); screen.blend = .screen
        XCTAssertEqual(prepare([screen] + under + Array(repeating: solid(veilRed), count: 5)).stats.stackDepth, 0,
                       "a blend that may weigh the destination by more than 1")
        XCTAssertEqual(prepare(under + Array(repeating: solid(veilRed), count: 5)).stats.stackDepth, 4, "the same, culled")
    }

    /// A translucent image counts over its opaque parts, each inset by a texel: image 100×100
    /// texels on a 200×200 quad (2 units a texel), opaque in texels x 0–50: local x 2–98, y 2–198.
    func testATranslucentImageCountsOverItsOpaquePartsInsetByATexel() {
        let image = PlannedImage(key: 9, pixelWidth: 100, pixelHeight: 100, isOpaque: false,
                                 opaqueRects: [PixelRect(x: 0, y: 0, width: 50, height: 100), PixelRect(x: 60, y: 0, width: 2, height: 100)])
        let item = DrawItem(layer: 3, role: .contents, paint: .image(index: 0, sampling: .linear, opacity: 0.8),
                            transform: .identity, quad: Rect(0, 0, 200, 200), uv: Rect(0, 0, 100, 100))
        let v = StackCulling.veil(0, item, [image])
        XCTAssertEqual(v?.depth, 4)
        XCTAssertEqual(v?.pieces, [Rect(2, 2, 96, 196)], "a part 2 texels wide has nothing left inside")
        // Flipped uv (contents drawn mirrored): the same texels, mirrored in local space.
        var flipped = item; flipped.uv = Rect(100, 0, -100, 100)
        XCTAssertEqual(StackCulling.veil(0, flipped, [image])?.pieces, [Rect(102, 2, 96, 196)])
        var trilinear = item; trilinear.paint = .image(index: 0, sampling: .trilinear, opacity: 0.8)
        XCTAssertNil(StackCulling.veil(0, trilinear, [image]), "mip levels average opaque and translucent texels")
        var none = image; none.opaqueRects = []
        XCTAssertNil(StackCulling.veil(0, item, [none]))
    }

    /// The estimate: on a 64×64 canvas (16 whole cells of 16 px), an item beneath four full-canvas
    /// veils saves its 64 × 64 pixels; the veils themselves have at most three above.
    func testSavedPixelsCountWhatLiesBeneathKVeils() {
        let full = PixelRect(x: 0, y: 0, width: 64, height: 64)
        let bounds: [PixelRect?] = [full, PixelRect(x: 8, y: 8, width: 8, height: 40), full, full, full, full]
        let veils = (2..<6).map { ($0, [full]) }
        XCTAssertEqual(StackCulling.savedPixels(depth: 4, veils: veils, bounds: bounds, width: 64, height: 64), 4096 + 8 * 40)
        XCTAssertEqual(StackCulling.savedPixels(depth: 5, veils: veils, bounds: bounds, width: 64, height: 64), 0)
        XCTAssertEqual(StackCulling.savedPixels(depth: 1, veils: veils, bounds: bounds, width: 64, height: 64),
                       4096 + 8 * 40 + 3 * 4096)
    }
}
