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

    /// Culling by order, by hand (`StackCulling+Order`): e ← ⌈e · (255 − A)/255⌉ from 255, pieces
    /// at A = 204 (n 51), sheers at 102 (n 153). A piece with four layers above it, bottom to top
    /// bits 4, 5, 6, 7, each a sheer over it where its own piece does not cover:
    /// - bit 7 alone: 51, W 31, W 19, W 12, S 3: fails; 7 and any other: 7 and 4: 51, S 11, W 7,
    ///   W 5, S 1; 7 and 5: 51, W 31, S 7, W 5, S 1; 7 and 6: 51, W 31, W 19, S 4, S 1. Every
    ///   pattern without 7 is below 128. So the reference is 144 (7 and 4), the next pattern.
    /// - Leaving bit 7 out of the test (counted as a sheer on top): 6 and 5 fail (51, W 31, S 7,
    ///   S 2, W 2), the largest pattern of the mask 0x70 that does; 6, 5 and 4 hold (51, 11, 3, 1,
    ///   W 1). Reference 0x70.
    /// - Sheers on top of too few pieces never hold: three veils then two sheers (the regression
    ///   test below): 51, 11, 3, W 2, W 2.
    func testOrderTestsByHand() {
        let above = (4...7).map { StackCulling.OrderLayer(bit: $0, strong: 204, sheer: 102) }
        XCTAssertEqual(StackCulling.left(alpha: 204, above, pattern: 0x80), 3)
        XCTAssertEqual(StackCulling.left(alpha: 204, above, pattern: 0x90), 1)
        XCTAssertEqual(StackCulling.left(alpha: 204, above, pattern: 0xA0), 1)
        XCTAssertEqual(StackCulling.left(alpha: 204, above, pattern: 0xC0), 1)
        let t0 = StackCulling.test(alpha: 204, above, bitsAbove: [7, 6, 5, 4], dropped: 0)
        XCTAssertEqual(t0?.mask, 0xF0)
        XCTAssertEqual(t0?.reference, 0x90)
        let t1 = StackCulling.test(alpha: 204, above, bitsAbove: [7, 6, 5, 4], dropped: 1)
        XCTAssertEqual(t1?.mask, 0x70)
        XCTAssertEqual(t1?.reference, 0x70)
        let onTop = [StackCulling.OrderLayer(bit: 6, strong: 204, sheer: nil), StackCulling.OrderLayer(bit: 7, strong: 204, sheer: nil),
                     StackCulling.OrderLayer(bit: nil, strong: 0, sheer: 102), StackCulling.OrderLayer(bit: nil, strong: 0, sheer: 102)]
        XCTAssertEqual(StackCulling.left(alpha: 204, onTop, pattern: 0xC0), 2)
        XCTAssertNil(StackCulling.test(alpha: 204, onTop, bitsAbove: [7, 6], dropped: 0))
        // Nothing above an opaque piece: it culls alone (reference 0).
        XCTAssertEqual(StackCulling.test(alpha: 255, [], bitsAbove: [], dropped: 0)?.reference, 0)
    }

    /// Every pattern a test passes leaves at most one level: random stacks (pieces of alpha
    /// 128–255, each veil a sheer up to its pieces' alpha or none, other sheers of 1–254 or none,
    /// up to 7 veils above), every pattern checked, the dropped veils' bits too.
    func testOrderTestsPassOnlyPatternsThatLeaveAtMostOneLevel() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: Int) -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int((seed >> 33) % UInt64(n)) }
        var checked = 0
        for _ in 0..<400 {
            let veils = next(8)
            var above: [StackCulling.OrderLayer] = []
            var bits: [Int] = []
            for b in 0..<veils {
                for _ in 0..<next(3) { above.append(StackCulling.OrderLayer(bit: nil, strong: 0, sheer: next(2) == 0 ? nil : 1 + next(254))) }
                // A veil is at least as opaque where its pieces are as anywhere else.
                let strong = 128 + next(128)
                above.append(StackCulling.OrderLayer(bit: b, strong: strong, sheer: next(2) == 0 ? nil : 1 + next(strong)))
                bits.insert(b, at: 0)
            }
            let alpha = 128 + next(128)
            for dropped in 0...veils {
                guard let t = StackCulling.test(alpha: alpha, above, bitsAbove: bits, dropped: dropped) else { continue }
                for pattern in 0..<(1 << veils) where pattern & t.mask >= t.reference {
                    XCTAssertLessThanOrEqual(StackCulling.left(alpha: alpha, above, pattern: pattern), 1)
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    /// Six image veils at opacity 0.8 that alternate halves: images opaque on the left half (A)
    /// or the right half (B), alpha ≥ 128 everywhere (sheers of ⌊0.8 · 128⌋ = 102), over five
    /// translucent images, all covering the 128×128 canvas. No pixel has four pieces above it, so
    /// counting culls nothing; by order, from the top A B A B A B (bits 7 … 2): on the left the
    /// fifth veil (bit 3) culls where bits 7 and 5 are set: its test reads bits 7–4 against 0x90
    /// (`testOrderTestsByHand`), its reference adds its own bit (0x98). On the right the sixth
    /// (bit 2) culls where bits 6 and 4 are: with bit 7 read, 7 alone fails (51, W 31, W 19, W 12,
    /// W 8, S 2), so it leaves bit 7 out: over the mask 0x78, 6 alone fails (51, 31, 19, 12, S 3,
    /// W 2) and 6 with 3 holds (51, S 11, W 7, W 5, S 1, W 1): reference 0x48, with its bit 0x4C;
    /// the right half's pattern 0x50 passes.
    func testVeilsCullByOrderWhereFourNeverStack() {
        func half(_ left: Bool) -> PlannedImage {
            PlannedImage(key: left ? 11 : 12, pixelWidth: 64, pixelHeight: 64, isOpaque: false,
                         opaqueRects: [PixelRect(x: left ? 0 : 32, y: 0, width: 32, height: 64)], minimumAlpha: 128)
        }
        let images = [picture, half(true), half(false)]
        func item(_ image: Int, _ opacity: Float, layer: LayerID) -> DrawItem {
            DrawItem(layer: layer, role: .contents, paint: .image(index: image, sampling: .linear, opacity: opacity), transform: .identity,
                     quad: Rect(0, 0, 128, 128), uv: Rect(0, 0, 64, 64))
        }
        let under = (0..<5).map { item(0, 0.3, layer: LayerID(10 + $0)) }
        let veils = (0..<6).map { item($0 % 2 == 0 ? 2 : 1, 0.8, layer: LayerID(20 + $0)) }   // bottom B, top A
        XCTAssertEqual(StackCulling.sheer(veils[0], images), 102)
        let (items, stats) = prepare(under + veils, images: images, size: 128)
        XCTAssertEqual(stats.stackVeils, 6)
        let marks = items.filter { $0.stackStencil?.role == .markBit }
        XCTAssertEqual(marks.map(\.layer), [25, 24, 23, 22, 21, 20], "top veil first")
        XCTAssertEqual(marks.map { $0.stackStencil!.writeMask }, [0x80, 0x40, 0x20, 0x10, 0x08, 0x04])
        XCTAssertEqual(marks[4].stackStencil?.compareMask, 0xF0)
        XCTAssertEqual(marks[4].stackStencil?.reference, 0x98)
        XCTAssertEqual(marks[5].stackStencil?.compareMask, 0x78)
        XCTAssertEqual(marks[5].stackStencil?.reference, 0x4C)
        XCTAssertEqual(marks.map { $0.stackStencil?.rank }, [11, 9, 7, 5, 3, 1])
        // Without a least alpha (unknown) the images are no sheers: nothing culls by order, and
        // counting finds no four veils.
        let unknown = images.map { var i = $0; i.minimumAlpha = 0; return i }
        XCTAssertEqual(prepare(under + veils, images: unknown, size: 128).stats.stackVeils, 0)
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
