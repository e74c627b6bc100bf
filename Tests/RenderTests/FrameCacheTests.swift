import Geometry
import Plan
import Raster
@testable import Render
import XCTest

/// The renderer's frame cache on hand-made plans: unchanged frames are reused, and a frame with no
/// damage that fills a raster-cache bitmap still runs that pass (a later hit reads it).
final class FrameCacheTests: GPUTestCase {
    let white = RGBA(1, 1, 1, 1), green = RGBA(0, 1, 0, 1)

    /// A 16×16 canvas with a white square; optionally a store into raster-cache entry 4242 (a solid
    /// 4×4 of `fill`) and an item showing that entry at (8, 8).
    func plan(store fill: RGBA?, show: Bool) -> FramePlan {
        var items = [solid(Rect(0, 0, 8, 8), white)]
        if show {
            items.append(DrawItem(layer: 3, role: .offscreen, paint: .offscreen(.rasterCache(4242), sampling: .texelFetch, opacity: 1),
                                  transform: .translation(8, 8), quad: Rect(0, 0, 4, 4), uv: Rect(0, 0, 4, 4)))
        }
        let passes = fill.map { [OffscreenPass(reasons: [.rasterize], layer: 3, bounds: PixelRect(x: 8, y: 8, width: 4, height: 4),
                                               width: 4, height: 4, operation: .draw([solid(Rect(0, 0, 4, 4), $0)]),
                                               rasterCacheKey: 4242)] } ?? []
        return FramePlan(pixelWidth: 16, pixelHeight: 16, clearColor: .clear, items: items, offscreenPasses: passes)
    }

    func testUnchangedFramesAreReusedAndCacheStoresStillRun() throws {
        let r = try RenderTestSupport.renderer()
        r.frameCacheEnabled = true
        defer { r.frameCacheEnabled = false }
        r.forgetPreviousFrame()
        let first = try r.render(plan(store: nil, show: false), images: [:])
        XCTAssertEqual(first.stats.frameCache, .full)
        let again = try r.render(plan(store: nil, show: false), images: [:])
        XCTAssertEqual(again.stats.frameCache, .reused)
        XCTAssertEqual(again.pixels, first.pixels)
        // Red, then green stored under the same key with nothing on screen showing it: no damage,
        // but the stores must run (the second is not a reused frame).
        XCTAssertEqual(try r.render(plan(store: RGBA(1, 0, 0, 1), show: false), images: [:]).stats.frameCache, .damaged)
        let store = try r.render(plan(store: green, show: false), images: [:])
        XCTAssertEqual(store.stats.frameCache, .damaged)
        XCTAssertEqual(store.pixels, first.pixels, "nothing on the canvas changed")
        // A hit now shows the bitmap: green, the last store.
        let shown = try r.render(plan(store: nil, show: true), images: [:])
        XCTAssertEqual(shown.stats.frameCache, .damaged)
        assertPixel(shown, 9, 9, [0, 255, 0, 255])
        assertPixel(shown, 2, 2, [255, 255, 255, 255])
        assertPixel(shown, 14, 14, Self.transparent)
    }
}
