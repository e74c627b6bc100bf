import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Which offscreen results a frame takes from the previous frame instead of rendering them
/// (caprof's own saving): only a result the backend holds, of a pass that would render the same.
final class RetainedPassesTests: XCTestCase {
    let bounds = PixelRect(x: 0, y: 0, width: 10, height: 10)

    func solid(_ layer: LayerID, _ x: Double, _ c: RGBA = RGBA(1, 0, 0, 1)) -> DrawItem {
        DrawItem(layer: layer, role: .background, paint: .solid(c), transform: .translation(x, 0), quad: Rect(0, 0, 10, 10))
    }
    func composite(_ pass: Int, x: Double) -> DrawItem {
        DrawItem(layer: 9, role: .offscreen, paint: .offscreen(.pass(pass), sampling: .texelFetch, opacity: 0.5),
                 transform: .translation(x, 50), quad: Rect(0, 0, 10, 10), uv: Rect(0, 0, 10, 10))
    }
    func group(_ c: RGBA) -> OffscreenPass {
        OffscreenPass(reasons: [.groupOpacity], layer: 9, bounds: bounds, width: 10, height: 10, operation: .draw([solid(10, 0, c)]))
    }
    func blur(of source: Int, sigma: Double = 2) -> OffscreenPass {
        OffscreenPass(reasons: [.shadow], layer: 9, bounds: bounds, width: 10, height: 10,
                      operation: .blur(source: source, sigma: sigma, horizontal: true, tint: RGBA(0, 0, 0, 1), downsample: 1))
    }
    func plan(_ items: [DrawItem], _ passes: [OffscreenPass], evictions: [UInt64] = []) -> FramePlan {
        FramePlan(pixelWidth: 100, pixelHeight: 100, clearColor: .clear, items: items, offscreenPasses: passes,
                  rasterCacheEvictions: evictions)
    }

    /// A group whose composite moves: the pass renders the same, so its held result is taken.
    func testAnUnchangedPassIsRetainedOnlyWhenItsResultIsHeld() {
        let red = RGBA(1, 0, 0, 1)
        let before = plan([composite(0, x: 0)], [group(red)])
        let moved = plan([composite(0, x: 30)], [group(red)])
        XCTAssertEqual(RetainedPasses.between(before, moved, held: [0]), [0: 0])
        XCTAssertEqual(RetainedPasses.between(before, moved, held: []), [:], "nothing held: rendered again")
        XCTAssertEqual(RetainedPasses.between(nil, moved, held: [0]), [:], "no previous frame")
        // Its content changed: rendered again.
        XCTAssertEqual(RetainedPasses.between(before, plan([composite(0, x: 30)], [group(RGBA(0, 1, 0, 1))]), held: [0]), [:])
    }

    /// A blur reads an earlier pass: when that pass changes, the blur's result changes too.
    func testAPassWhoseSourceChangedIsNotRetained() {
        let red = RGBA(1, 0, 0, 1), green = RGBA(0, 1, 0, 1)
        let before = plan([composite(1, x: 0)], [group(red), blur(of: 0)])
        XCTAssertEqual(RetainedPasses.between(before, plan([composite(1, x: 5)], [group(red), blur(of: 0)]), held: [0, 1]), [0: 0, 1: 1])
        XCTAssertEqual(RetainedPasses.between(before, plan([composite(1, x: 5)], [group(green), blur(of: 0)]), held: [0, 1]), [:])
        XCTAssertEqual(RetainedPasses.between(before, plan([composite(1, x: 5)], [group(red), blur(of: 0, sigma: 3)]), held: [0, 1]),
                       [0: 0])
    }

    /// A bitmap larger than the raster cache is evicted after every frame and stored again under a
    /// new key: the same items give the same bitmap, so the evicted one is taken. One still cached
    /// is never taken (two keys would share a target).
    func testAnEvictedRasterBitmapStoredAgainFromTheSameItemsIsRetained() {
        func store(_ key: UInt64, _ c: RGBA = RGBA(1, 0, 0, 1), layer: LayerID = 7) -> OffscreenPass {
            OffscreenPass(reasons: [.rasterize], layer: layer, bounds: bounds, width: 10, height: 10,
                          operation: .draw([solid(8, 0, c)]), rasterCacheKey: key)
        }
        func shown(_ key: UInt64) -> DrawItem {
            DrawItem(layer: 7, role: .offscreen, paint: .offscreen(.rasterCache(key), sampling: .texelFetch, opacity: 1),
                     transform: .identity, quad: Rect(0, 0, 10, 10), uv: Rect(0, 0, 10, 10))
        }
        let evicted = plan([shown(1)], [store(1)], evictions: [1])
        let again = plan([shown(2)], [store(2)], evictions: [2])
        XCTAssertEqual(RetainedPasses.between(evicted, again, held: [0]), [0: 0])
        XCTAssertEqual(RetainedPasses.between(plan([shown(1)], [store(1)]), again, held: [0]), [:], "key 1 is still cached")
        XCTAssertEqual(RetainedPasses.between(evicted, plan([shown(2)], [store(2, RGBA(0, 0, 1, 1))]), held: [0]), [:],
                       "other items")
        XCTAssertEqual(RetainedPasses.between(evicted, plan([shown(2)], [store(2, layer: 6)]), held: [0]), [:], "another layer")
        // A pooled pass never takes a raster-cache target, nor the other way round.
        XCTAssertEqual(RetainedPasses.between(evicted, plan([composite(0, x: 0)], [group(RGBA(1, 0, 0, 1))]), held: [0]), [:])
    }

    /// A pass that appears (a raster-cache store on a miss frame) does not cut the others off
    /// from their counterparts: the group and its blur, now passes 1 and 2, are still taken from
    /// the previous frame's 0 and 1, and the store that goes again the frame after changes nothing.
    func testPassesAreMatchedAcrossAPassThatAppearsOrGoes() {
        let red = RGBA(1, 0, 0, 1)
        let store = OffscreenPass(reasons: [.rasterize], layer: 7, bounds: bounds, width: 10, height: 10,
                                  operation: .draw([solid(8, 0)]), rasterCacheKey: 5)
        let before = plan([composite(1, x: 0)], [group(red), blur(of: 0)])
        let miss = plan([composite(2, x: 5)], [store, group(red), blur(of: 1)])
        XCTAssertEqual(RetainedPasses.between(before, miss, held: [0, 1]), [1: 0, 2: 1])
        XCTAssertEqual(RetainedPasses.between(miss, plan([composite(1, x: 9)], [group(red), blur(of: 0)]), held: [0, 1, 2]),
                       [0: 1, 1: 2])
        // The same shape with other content is still rendered again.
        XCTAssertEqual(RetainedPasses.between(before, plan([composite(2, x: 5)], [store, group(RGBA(0, 0, 1, 1)), blur(of: 1)]),
                                              held: [0, 1]), [:])
        // Damage too: the composite reads an unchanged pass (1 now, 0 before) at the same place.
        XCTAssertTrue(FrameDamage.between(before, plan([composite(2, x: 0)], [store, group(red), blur(of: 1)])).isUnchanged)
    }

    func testABackdropCaptureIsNeverRetained() {
        let capture = OffscreenPass(reasons: [.backdrop], layer: 4, bounds: bounds, width: 10, height: 10,
                                    operation: .backdrop(BackdropCapture(canvasItemCount: 0, region: bounds)))
        let p = plan([solid(1, 0)], [capture])
        XCTAssertEqual(RetainedPasses.between(p, p, held: [0]), [:])
    }

    /// A damaged frame keeps a retained pass (its result is drawn) but not the passes it reads.
    func testARetainedPassDoesNotNeedItsSources() {
        let red = RGBA(1, 0, 0, 1)
        let p = plan([composite(1, x: 0)], [group(red), blur(of: 0)])
        let damage = FrameDamage(rects: [PixelRect(x: 0, y: 50, width: 10, height: 10)])
        let rendered = p.restricted(to: damage, retaining: [])
        XCTAssertEqual(rendered.kept, [0, 1])
        XCTAssertEqual(rendered.retained, [])
        let taken = p.restricted(to: damage, retaining: [1])
        XCTAssertEqual(taken.kept, [1], "the blur's source is not rendered")
        XCTAssertEqual(taken.retained, [0], "in the new numbering")
        XCTAssertEqual(taken.plan.canvasItems, [composite(0, x: 0)])
    }
}
