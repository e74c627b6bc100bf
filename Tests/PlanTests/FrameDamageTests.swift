import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Damage between consecutive plans (Instruments' Flash Updated Regions), with rectangles computed
/// by hand: an unshaped item covers the device pixels of its quad, grown by one pixel on each side
/// for rounding; a shaped item's quad is first grown by twice the antialiasing outset (2 local
/// units under a unit scale).
final class FrameDamageTests: XCTestCase {
    func solid(_ layer: LayerID, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ c: RGBA = RGBA(1, 0, 0, 1)) -> DrawItem {
        DrawItem(layer: layer, role: .background, paint: .solid(c), transform: .translation(x, y), quad: Rect(0, 0, w, h))
    }
    func plan(_ items: [DrawItem], clear: RGBA = .clear, images: [PlannedImage] = [], passes: [OffscreenPass] = [],
              size: Int = 100) -> FramePlan {
        FramePlan(pixelWidth: size, pixelHeight: size, clearColor: clear, images: images, items: items,
                  offscreenPasses: passes)
    }

    func testTheFirstFrameAndCanvasChangesDamageEverything() {
        let p = plan([solid(1, 10, 10, 20, 20)])
        let first = FrameDamage.between(nil, p)
        XCTAssertEqual(first.rects, [PixelRect(x: 0, y: 0, width: 100, height: 100)])
        XCTAssertEqual(first.fullReason, .firstFrame)
        XCTAssertEqual(first.use, .full)
        XCTAssertEqual(first.pixels, 10_000)
        XCTAssertEqual(FrameDamage.between(p, plan([solid(1, 10, 10, 20, 20)], size: 50)).fullReason, .canvasResized)
        XCTAssertEqual(FrameDamage.between(p, plan([solid(1, 10, 10, 20, 20)], clear: RGBA(1, 1, 1, 1))).fullReason,
                       .clearColorChanged)
    }

    func testAnUnchangedPlanDamagesNothingAndIsReused() {
        let a = plan([solid(1, 10, 10, 20, 20), solid(2, 50, 50, 10, 10)])
        let b = plan([solid(1, 10, 10, 20, 20), solid(2, 50, 50, 10, 10)])
        let d = FrameDamage.between(a, b)
        XCTAssertEqual(d.rects, [])
        XCTAssertEqual(d.pixels, 0)
        XCTAssertTrue(d.isUnchanged)
        XCTAssertEqual(d.use, .reused)
    }

    func testAMovedItemDamagesItsOldAndNewBoundsMerged() {
        // 20×20 at (10,10) → pixels 10..<30 grown to 9..<31 (22×22); at (15,10): 14..<36.
        // They overlap: one rectangle 9..<36 × 9..<31 = 27×22 = 594 pixels.
        let d = FrameDamage.between(plan([solid(1, 10, 10, 20, 20)]), plan([solid(1, 15, 10, 20, 20)]))
        XCTAssertEqual(d.rects, [PixelRect(x: 9, y: 9, width: 27, height: 22)])
        XCTAssertEqual(d.pixels, 594)
        XCTAssertEqual(d.use, .damaged)
    }

    func testAFarMoveDamagesTwoRectangles() {
        let d = FrameDamage.between(plan([solid(1, 10, 10, 20, 20)]), plan([solid(1, 60, 60, 20, 20)]))
        XCTAssertEqual(d.rects, [PixelRect(x: 9, y: 9, width: 22, height: 22), PixelRect(x: 59, y: 59, width: 22, height: 22)])
        XCTAssertEqual(d.pixels, 2 * 22 * 22)
    }

    func testAnOpacityChangeDamagesOnlyThatItem() {
        let a = plan([solid(1, 0, 0, 100, 100, RGBA(1, 1, 1, 1)), solid(2, 40, 40, 10, 10, RGBA(0.5, 0, 0, 0.5))])
        let b = plan([solid(1, 0, 0, 100, 100, RGBA(1, 1, 1, 1)), solid(2, 40, 40, 10, 10, RGBA(0.25, 0, 0, 0.25))])
        XCTAssertEqual(FrameDamage.between(a, b).rects, [PixelRect(x: 39, y: 39, width: 12, height: 12)])
    }

    func testAnInsertedItemDamagesOnlyItsBounds() {
        let a = plan([solid(1, 0, 0, 10, 10), solid(3, 80, 80, 10, 10)])
        let b = plan([solid(1, 0, 0, 10, 10), solid(2, 40, 40, 10, 10), solid(3, 80, 80, 10, 10)])
        XCTAssertEqual(FrameDamage.between(a, b).rects, [PixelRect(x: 39, y: 39, width: 12, height: 12)])
        XCTAssertEqual(FrameDamage.between(b, a).rects, [PixelRect(x: 39, y: 39, width: 12, height: 12)], "and removing it")
    }

    func testAReorderDamagesBothItems() {
        let x = solid(1, 10, 10, 10, 10), y = solid(2, 15, 15, 10, 10, RGBA(0, 0, 1, 1))
        // Both swapped pairs differ: 9..<21 and 14..<26 overlap → 9..<26 (17×17).
        XCTAssertEqual(FrameDamage.between(plan([x, y]), plan([y, x])).rects, [PixelRect(x: 9, y: 9, width: 17, height: 17)])
    }

    func testImagesCompareByContentKeyNotIndex() {
        let a = PlannedImage(key: 0xA, pixelWidth: 10, pixelHeight: 10), b = PlannedImage(key: 0xB, pixelWidth: 10, pixelHeight: 10)
        func image(_ index: Int) -> DrawItem {
            DrawItem(layer: 1, role: .contents, paint: .image(index: index, sampling: .texelFetch, opacity: 1),
                     transform: .translation(20, 20), quad: Rect(0, 0, 10, 10), uv: Rect(0, 0, 10, 10))
        }
        // Same key at another index: nothing changed.
        XCTAssertTrue(FrameDamage.between(plan([image(1)], images: [a, b]), plan([image(0)], images: [b, a])).isUnchanged)
        // Another key at the same index: the image changed.
        XCTAssertEqual(FrameDamage.between(plan([image(0)], images: [a]), plan([image(0)], images: [b])).rects,
                       [PixelRect(x: 19, y: 19, width: 12, height: 12)])
    }

    func testAChangedPassDamagesWhereItsResultIsDrawn() {
        func pass(_ c: RGBA) -> OffscreenPass {
            OffscreenPass(reasons: [.groupOpacity], layer: 5, bounds: PixelRect(x: 30, y: 30, width: 20, height: 20),
                          width: 20, height: 20, operation: .draw([solid(6, 0, 0, 20, 20, c)]))
        }
        let composite = DrawItem(layer: 5, role: .offscreen, paint: .offscreen(.pass(0), sampling: .texelFetch, opacity: 0.5),
                                 transform: .translation(30, 30), quad: Rect(0, 0, 20, 20), uv: Rect(0, 0, 20, 20))
        let red = plan([composite], passes: [pass(RGBA(1, 0, 0, 1))])
        XCTAssertTrue(FrameDamage.between(red, plan([composite], passes: [pass(RGBA(1, 0, 0, 1))])).isUnchanged)
        // The composite item is equal, but what it samples changed everywhere: the pass's 20×20
        // texels, drawn 1:1 at (30, 30), are pixels 30..<50 (a whole-texel composite covers exactly
        // those; an item whose source changed whole would be grown to 29..<51 for rounding).
        XCTAssertEqual(FrameDamage.between(red, plan([composite], passes: [pass(RGBA(0, 1, 0, 1))])).rects,
                       [PixelRect(x: 30, y: 30, width: 20, height: 20)])
    }

    /// A small change inside a large group (a spinner in a full-canvas group with a filter):
    /// the group's pass changes only around it, and the canvas only there, not wherever the
    /// group is drawn. The spinner moves from (40, 40) to (44, 40) in an 80×80 pass composited
    /// 1:1 at (10, 10): in the pass, x 39..<51 and 43..<55 (each grown by a pixel) merge into
    /// (39, 39, 16, 12); on the canvas, moved by (10, 10): (49, 49, 16, 12).
    func testASmallChangeInsideAGroupDamagesOnlyAroundIt() {
        func group(_ x: Double) -> OffscreenPass {
            OffscreenPass(reasons: [.filter], layer: 5, bounds: PixelRect(x: 10, y: 10, width: 80, height: 80), width: 80, height: 80,
                          operation: .draw([solid(6, 0, 0, 80, 80, RGBA(0, 0, 1, 1)), solid(7, x, 40, 10, 10)]))
        }
        let composite = DrawItem(layer: 5, role: .offscreen, paint: .offscreen(.pass(0), sampling: .texelFetch, opacity: 1),
                                 transform: .translation(10, 10), quad: Rect(0, 0, 80, 80), uv: Rect(0, 0, 80, 80))
        let d = FrameDamage.between(plan([composite], passes: [group(40)]), plan([composite], passes: [group(44)]))
        XCTAssertEqual(d.rects, [PixelRect(x: 49, y: 49, width: 16, height: 12)])
        // Composited bilinearly at (10.5, 10): texel u lands at u + 10.5, and a pixel's sample reads
        // the texels within one of it, so the texels 39..<55 (grown to 38..<56) reach x 48.5..<66.5,
        // rounded out and grown by a pixel: 47..<68; rows 38..<52 → 48..<62 → 47..<63. (Bilinear
        // at this offset, texel u changes pixels u + 10 and u + 11 only: 49..<66, inside.)
        var shifted = composite
        shifted.paint = .offscreen(.pass(0), sampling: .linear, opacity: 1)
        shifted.transform = .translation(10.5, 10)
        XCTAssertEqual(FrameDamage.between(plan([shifted], passes: [group(40)]), plan([shifted], passes: [group(44)])).rects,
                       [PixelRect(x: 47, y: 47, width: 21, height: 16)])
    }

    func testARasterCacheMissDamagesWhereTheBitmapIsDrawnAndAHitDoesNot() {
        let cached = DrawItem(layer: 7, role: .offscreen, paint: .offscreen(.rasterCache(42), sampling: .texelFetch, opacity: 1),
                              transform: .translation(0, 60), quad: Rect(0, 0, 30, 30), uv: Rect(0, 0, 30, 30))
        let miss = OffscreenPass(reasons: [.rasterize], layer: 7, bounds: PixelRect(x: 0, y: 60, width: 30, height: 30),
                                 width: 30, height: 30, operation: .draw([solid(8, 0, 0, 30, 30)]), rasterCacheKey: 42)
        let hit = plan([cached])
        XCTAssertTrue(FrameDamage.between(hit, plan([cached])).isUnchanged)
        // 0..<30 × 60..<90 grown by a pixel and clipped to the canvas: 0..<31 × 59..<91.
        XCTAssertEqual(FrameDamage.between(hit, plan([cached], passes: [miss])).rects,
                       [PixelRect(x: 0, y: 59, width: 31, height: 32)])
    }

    func testAShapedItemIsGrownForItsAntialiasedEdge() {
        var item = solid(1, 10, 10, 20, 20)
        item.shape = RoundedShape(rect: Rect(0, 0, 20, 20), radii: [4, 4, 4, 4])
        var moved = item; moved.transform = .translation(10, 11)
        // Local outset 2 → quad −2..<22 → device 8..<32 (and 9..<33 moved), grown by a pixel: 7..<33 × 7..<34.
        XCTAssertEqual(FrameDamage.between(plan([item]), plan([moved])).rects, [PixelRect(x: 7, y: 7, width: 26, height: 27)])
    }

    func testRectanglesMergeTouchingOnesThenTheCheapestPairs() {
        XCTAssertEqual(DamageRegion.merge([PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 10, y: 0, width: 10, height: 10)],
                                          maxRects: 4), [PixelRect(x: 0, y: 0, width: 20, height: 10)])
        // Five 2×2 rects into four: the cheapest union is (0,0)+(10,0) → 12×2 adds 16 pixels
        // ((10,0)+(20,0) ties, the first pair found wins); every other pair adds more.
        let five = [PixelRect(x: 0, y: 0, width: 2, height: 2), PixelRect(x: 10, y: 0, width: 2, height: 2),
                    PixelRect(x: 20, y: 0, width: 2, height: 2), PixelRect(x: 50, y: 50, width: 2, height: 2),
                    PixelRect(x: 90, y: 90, width: 2, height: 2)]
        XCTAssertEqual(DamageRegion.merge(five, maxRects: 4),
                       [PixelRect(x: 0, y: 0, width: 12, height: 2), PixelRect(x: 20, y: 0, width: 2, height: 2),
                        PixelRect(x: 50, y: 50, width: 2, height: 2), PixelRect(x: 90, y: 90, width: 2, height: 2)])
    }

    func testManyChangesStayAFewDisjointRectanglesCoveringEveryChange() {
        var a: [DrawItem] = [], b: [DrawItem] = []
        for i in 0..<200 {
            let x = Double(i % 20) * 5, y = Double(i / 20) * 10
            a.append(solid(i, x, y, 3, 3)); b.append(solid(i, x + 1, y, 3, 3))
        }
        let d = FrameDamage.between(plan(a), plan(b))
        XCTAssertLessThanOrEqual(d.rects.count, FrameDamage.defaultMaxRects)
        for (i, r) in d.rects.enumerated() {
            for s in d.rects[(i + 1)...] { XCTAssertFalse(DamageRegion.overlap(r, s), "\(r) overlaps \(s)") }
        }
        for item in a + b {
            let bounds = DamageBounds.of(item, width: 100, height: 100)!
            XCTAssertTrue(d.rects.contains { $0.x <= bounds.x && $0.y <= bounds.y && $0.x + $0.width >= bounds.x + bounds.width
                && $0.y + $0.height >= bounds.y + bounds.height }, "\(bounds) is covered")
        }
    }
}

/// What a damaged frame executes: the canvas items meeting the damage and the passes they need.
final class RestrictedPlanTests: XCTestCase {
    func testOnlyItemsMeetingTheDamageAndThePassesTheyNeedAreKept() {
        func solid(_ layer: LayerID, _ x: Double, _ y: Double) -> DrawItem {
            DrawItem(layer: layer, role: .background, paint: .solid(RGBA(1, 0, 0, 1)), transform: .translation(x, y), quad: Rect(0, 0, 10, 10))
        }
        func composite(_ pass: Int, _ x: Double, _ y: Double) -> DrawItem {
            DrawItem(layer: 9, role: .offscreen, paint: .offscreen(.pass(pass), sampling: .texelFetch, opacity: 1),
                     transform: .translation(x, y), quad: Rect(0, 0, 10, 10), uv: Rect(0, 0, 10, 10))
        }
        let bounds = PixelRect(x: 0, y: 0, width: 10, height: 10)
        // Pass 0 (a shadow's content) → 1 (its blur) drawn at (60, 60); pass 2 drawn at (0, 0);
        // pass 3 fills the raster cache (always kept: later hits read it).
        let passes = [
            OffscreenPass(reasons: [.shadow], layer: 1, bounds: bounds, width: 10, height: 10, operation: .draw([solid(1, 0, 0)])),
            OffscreenPass(reasons: [.shadow], layer: 1, bounds: bounds, width: 10, height: 10,
                          operation: .blur(source: 0, sigma: 2, horizontal: true, tint: RGBA(0, 0, 0, 1), downsample: 1)),
            OffscreenPass(reasons: [.groupOpacity], layer: 2, bounds: bounds, width: 10, height: 10, operation: .draw([solid(2, 0, 0)])),
            OffscreenPass(reasons: [.rasterize], layer: 3, bounds: bounds, width: 10, height: 10,
                          operation: .draw([solid(3, 0, 0)]), rasterCacheKey: 77),
        ]
        let plan = FramePlan(pixelWidth: 100, pixelHeight: 100, clearColor: .clear,
                             items: [composite(1, 60, 60), composite(2, 0, 0), solid(5, 30, 30)], offscreenPasses: passes)
        // Damage around (60, 60) only: the shadow's composite and its two passes, plus the cache store.
        let near = plan.restricted(to: FrameDamage(rects: [PixelRect(x: 55, y: 55, width: 10, height: 10)]))
        XCTAssertEqual(near.kept, [0, 1, 3])
        XCTAssertEqual(near.plan.canvasItems, [composite(1, 60, 60)])
        XCTAssertEqual(near.plan.offscreenPasses.map(\.layer), [1, 1, 3])
        // Damage around (30, 30): the plain item; no pass but the cache store, renumbered to 0.
        let plain = plan.restricted(to: FrameDamage(rects: [PixelRect(x: 32, y: 32, width: 2, height: 2)]))
        XCTAssertEqual(plain.kept, [3])
        XCTAssertEqual(plain.plan.canvasItems, [solid(5, 30, 30)])
        // Damage on (0, 0)'s composite: pass 2 becomes pass 0 and the item follows it.
        let group = plan.restricted(to: FrameDamage(rects: [PixelRect(x: 0, y: 0, width: 5, height: 5)]))
        XCTAssertEqual(group.kept, [2, 3])
        XCTAssertEqual(group.plan.canvasItems, [composite(0, 0, 0)])
        XCTAssertEqual(group.plan.items, plan.items, "the logical items stay the plan's")
    }
}

extension FrameDamageTests {
    func testAFrameWithoutDamageThatFillsTheRasterCacheIsNotReused() {
        let store = OffscreenPass(reasons: [.rasterize], layer: 3, bounds: PixelRect(x: 0, y: 0, width: 4, height: 4),
                                  width: 4, height: 4, operation: .draw([solid(4, 0, 0, 4, 4)]), rasterCacheKey: 9)
        let a = plan([solid(1, 10, 10, 20, 20)]), b = plan([solid(1, 10, 10, 20, 20)], passes: [store])
        let d = FrameDamage.between(a, b)
        XCTAssertTrue(d.isUnchanged, "no canvas pixel changes")
        XCTAssertEqual(d.use, .reused)
        XCTAssertEqual(d.use(executing: b), .damaged, "but the store must run")
        XCTAssertEqual(d.use(executing: a), .reused)
    }
}
