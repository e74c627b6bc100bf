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
    /// A translucent 64×64 image (no opaque parts) and an item showing it over the 64×64 canvas at
    /// `opacity`, read bilinearly: what culling saves most on (`StackCulling.shadingWeight`).
    let picture = PlannedImage(key: 7, pixelWidth: 64, pixelHeight: 64, isOpaque: false, opaqueRects: [])
    func image(_ opacity: Float, layer: LayerID = 1) -> DrawItem {
        DrawItem(layer: layer, role: .contents, paint: .image(index: 0, sampling: .linear, opacity: opacity), transform: .identity,
                 quad: Rect(0, 0, 64, 64), uv: Rect(0, 0, 64, 64))
    }
    func prepare(_ items: [DrawItem], images: [PlannedImage]? = nil, size: Int = 64, culls: Bool = true)
        -> (items: [DrawItem], stats: CanvasExecutionStats) {
        CanvasExecution.prepare(items, images: images ?? [picture], width: size, height: size, cullsStacks: culls)
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

    /// Translucent layers above fewer than K veils do not let them cull, however many: a blend
    /// of alpha < 128 keeps a difference of 2 (⌈2 · 153/255⌉ = 2), so what lies on top decides.
    /// By hand, 8-bit source-over `s + round(d · (255 − A)/255)`, three veils (premultiplied 2,
    /// A = 204) then two sheers on top (3, A = 102), from d = 0: 2, 2, 2, 4, 5; from d = 255: 53,
    /// 13, 5, 6, 7. Two levels apart: culling beneath the three veils (the rule "two veils and
    /// two sheers above a third leave at most one level" holds only with the sheers below the
    /// veils, which a stencil count cannot tell) would break the bound.
    func testLayersOnTopOfTooFewVeilsDoNotLetThemCull() {
        func over(_ s: Int, _ a: Int, _ d: Int) -> Int { s + Int((Double(d * (255 - a)) / 255).rounded()) }
        func stack(_ d: Int) -> Int { [(3, 102), (3, 102)].reduce([(2, 204), (2, 204), (2, 204)].reduce(d) { over($1.0, $1.1, $0) }) { over($1.0, $1.1, $0) } }
        XCTAssertEqual(stack(0), 5)
        XCTAssertEqual(stack(255), 7)
        let rotated = Transform3D.translation(-32, -32) * .rotation(0.17, 0, 0, 1) * .scale(1.5, 1.5, 1) * .translation(32, 32)
        let under = (0..<6).map { i in image(0.3, layer: LayerID(10 + i)) }
        let veils = (0..<3).map { i in solid(RGBA(2.0 / 255, 0, 0, 0.8), rotated, layer: LayerID(20 + i)) }
        let sheers = (0..<2).map { i in solid(RGBA(3.0 / 255, 0, 0, 0.4), rotated, layer: LayerID(30 + i)) }
        XCTAssertEqual(prepare(under + veils + sheers).stats.stackDepth, 0)
        XCTAssertEqual(prepare(under + veils + [veils[0]] + sheers).stats.stackDepth, 4, "a fourth veil: culled")
    }

    /// Six translucent images under five rotated veils at opacity 0.8 (K = 4), each covering the
    /// 64×64 canvas. By hand: counted from the top, the fourth veil (layer 21) is the K-th
    /// everywhere, so it culls the lowest veil and the six images (7 × 4096 pixels), and the lowest
    /// veil culls nothing: marking it would cost its pieces, so it is left unmarked. The segment
    /// starts with the four marked veils' pieces, top first; ranks count marked veils (twice the
    /// veils below, plus one for a veil), so the six items and the unmarked veil have rank 0 and
    /// are tested, and the four marked veils (three or fewer above each) are drawn untested.
    func testAStackOfVeilsMarksTheKthFromTheTopAndTestsWhatLiesBeneath() {
        let rotated = Transform3D.translation(-32, -32) * .rotation(0.17, 0, 0, 1) * .scale(1.5, 1.5, 1) * .translation(32, 32)
        let under = (0..<6).map { i in image(0.3, layer: LayerID(10 + i)) }
        let veils = (0..<5).map { i in solid(veilRed, rotated, layer: LayerID(20 + i)) }
        let (items, stats) = prepare(under + veils)
        XCTAssertEqual(stats.stackDepth, 4)
        XCTAssertEqual(stats.stackVeils, 4)
        XCTAssertEqual(stats.stackPieces, 4)
        XCTAssertEqual(stats.stackSavedPixels, 7 * 4096)
        // 4 marking pieces, then the 11 items in their order.
        XCTAssertEqual(items.count, 4 + 11)
        XCTAssertEqual(items.prefix(4).map { $0.stackStencil?.role }, Array(repeating: .mark, count: 4))
        XCTAssertEqual(items.prefix(4).map(\.layer), [24, 23, 22, 21], "top veil first")
        XCTAssertEqual(items.prefix(4).map { $0.stackStencil?.rank }, [7, 5, 3, 1])
        XCTAssertTrue(items.prefix(4).allSatisfy { $0.transform == rotated && $0.quad == Rect(0, 0, 64, 64) },
                      "a solid veil marks over its whole quad")
        let layers: [LayerID] = [10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24]
        XCTAssertEqual(items[4...].map(\.layer), layers)
        let roles: [StackStencil.Role] = Array(repeating: .tested, count: 7) + Array(repeating: .untested, count: 4)
        XCTAssertEqual(items[4...].map { $0.stackStencil?.role }, roles)
        let ranks: [Int] = [0, 0, 0, 0, 0, 0, 0, 1, 3, 5, 7]
        XCTAssertEqual(items[4...].map { $0.stackStencil?.rank }, ranks,
                       "a marked veil's rank is its pieces'")
        XCTAssertTrue(items.allSatisfy { $0.stackStencil?.depth == 4 })
        // Off: the same items as before, no stencil.
        let off = prepare(under + veils, culls: false).items
        XCTAssertEqual(off.count, 11)
        XCTAssertTrue(off.allSatisfy { $0.stackStencil == nil })
    }

    /// Ranks between marked veils: an item between the second and third marked veil from the
    /// bottom has rank 2 · 2 = 4, above the lower veil's 3 and below the upper's 5, so it is
    /// culled where the upper one (or any above) is the K-th from the top and drawn where the
    /// lower one is. Eight full-canvas veils at opacity 1 (K = 1) over an item, with one item among them.
    func testAnItemAmongTheVeilsIsRankedBetweenThem() {
        let opaque = RGBA(0, 0, 1, 1)
        let rotated = Transform3D.translation(-32, -32) * .rotation(0.2, 0, 0, 1) * .scale(1.6, 1.6, 1) * .translation(32, 32)
        var list = [image(0.3, layer: 1)]
        for i in 0..<8 {
            list.append(solid(opaque, rotated, layer: LayerID(20 + i)))
            if i == 1 { list.append(image(0.3, layer: 2)) }
        }
        let (items, stats) = prepare(list)
        XCTAssertEqual(stats.stackDepth, 1)
        let drawn = items.filter { $0.stackStencil?.role != .mark }
        XCTAssertEqual(drawn.map(\.layer), [1, 20, 21, 2, 22, 23, 24, 25, 26, 27])
        // Only the top veil is the K-th (K = 1) anywhere: it alone is marked, and everything
        // beneath it (rank 0) is tested.
        XCTAssertEqual(items.filter { $0.stackStencil?.role == .mark }.map(\.layer), [27])
        XCTAssertEqual(drawn.map { $0.stackStencil?.rank }, [0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        let roles: [StackStencil.Role] = Array(repeating: .tested, count: 9) + [.untested]
        XCTAssertEqual(drawn.map { $0.stackStencil?.role }, roles)
    }

    /// Culling must pay: fewer than K veils above anything, veils too translucent, small veils,
    /// plain solids beneath (on lavapipe a culled pixel costs what a solid's does), or a
    /// compositing filter's blend in the segment leave it alone.
    func testStacksThatCannotCullOrDoNotPayAreLeftAlone() {
        let under = (0..<6).map { _ in image(0.3) }
        XCTAssertEqual(prepare((0..<6).map { _ in solid(RGBA(0, 0.3, 0, 0.3)) } + Array(repeating: solid(veilRed), count: 5)).stats.stackDepth, 0,
                       "solids beneath: nothing to save")
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
    /// veils saves its 64 × 64 pixels; the veils themselves have at most three above. What is
    /// saved is counted for the K-th veil from the top (veils in list order), and weighted by the
    /// items' weights.
    func testSavedPixelsCountWhatLiesBeneathKVeilsForTheKthFromTheTop() {
        let full = PixelRect(x: 0, y: 0, width: 64, height: 64)
        let bounds: [PixelRect?] = [full, PixelRect(x: 8, y: 8, width: 8, height: 40), full, full, full, full]
        let veils = (2..<6).map { ($0, [full]) }
        let weights = [8, 2, 0, 0, 0, 0]
        let k4 = StackCulling.savedPixels(depth: 4, veils: veils, bounds: bounds, weights: weights, width: 64, height: 64)
        XCTAssertEqual(k4.map(\.pixels), [4096 + 8 * 40, 0, 0, 0], "the lowest veil is the fourth from the top")
        XCTAssertEqual(k4.map(\.weighted), [4096 * 8 + 8 * 40 * 2, 0, 0, 0])
        let k5 = StackCulling.savedPixels(depth: 5, veils: veils, bounds: bounds, width: 64, height: 64)
        XCTAssertEqual(k5.map(\.pixels), [0, 0, 0, 0])
        let k1 = StackCulling.savedPixels(depth: 1, veils: veils, bounds: bounds, weights: weights, width: 64, height: 64)
        XCTAssertEqual(k1.map(\.pixels), [0, 0, 0, 4096 + 8 * 40 + 3 * 4096], "the top veil culls the three veils and both items")
        XCTAssertEqual(k1.map(\.weighted), [0, 0, 0, 4096 * 8 + 8 * 40 * 2], "solid veils weigh nothing")
    }

    /// The estimate's work is bounded: 1,000 full-canvas images under 4 veils on a 1024² canvas
    /// (1,004 × 66² = 4.37 M cell visits > 2²²) are drawn whole rather than planned at length;
    /// 40 are culled.
    func testTheEstimateHasABudget() {
        let size = 1024
        func big(_ opacity: Float) -> DrawItem {
            DrawItem(layer: 1, role: .contents, paint: .image(index: 0, sampling: .linear, opacity: opacity), transform: .identity,
                     quad: Rect(0, 0, Double(size), Double(size)), uv: Rect(0, 0, 64, 64))
        }
        let rotated = Transform3D.translation(-512, -512) * .rotation(0.17, 0, 0, 1) * .scale(1.5, 1.5, 1) * .translation(512, 512)
        var veil = solid(veilRed, rotated, quad: Rect(0, 0, Double(size), Double(size)))
        veil.layer = 2
        let veils = Array(repeating: veil, count: 4)
        XCTAssertEqual(prepare(Array(repeating: big(0.3), count: 40) + veils, size: size).stats.stackDepth, 4)
        XCTAssertEqual(prepare(Array(repeating: big(0.3), count: 1000) + veils, size: size).stats.stackDepth, 0)
    }

    /// What culling a pixel saves, in eighths of a bilinear image pixel.
    func testShadingWeightsFollowWhatTheShaderDoes() {
        XCTAssertEqual(StackCulling.shadingWeight(solid(veilRed)), 0)
        var rounded = solid(veilRed)
        rounded.shape = RoundedShape(rect: Rect(0, 0, 64, 64), radii: [8, 8, 8, 8])
        XCTAssertEqual(StackCulling.shadingWeight(rounded), 2)
        XCTAssertEqual(StackCulling.shadingWeight(image(0.5)), 8)
        var fetched = image(0.5)
        fetched.paint = .image(index: 0, sampling: .texelFetch, opacity: 0.5)
        XCTAssertEqual(StackCulling.shadingWeight(fetched), 4)
    }
}
