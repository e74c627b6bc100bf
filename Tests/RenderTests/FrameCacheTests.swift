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

/// Offscreen results taken from the previous frame (`RetainedPasses`): not rendered again, and
/// the frame is byte-identical to the same plan drawn whole on a renderer with no previous frame.
final class RetainedPassTests: GPUTestCase {
    /// A 32×32 canvas: a white square, and a group (pass 0: a green 8×8 over a half-red 4×4, drawn
    /// at half opacity) at `x`. Optionally the group's content is red instead.
    func plan(groupAt x: Double, red: Bool = false) -> FramePlan {
        let content = [solid(Rect(0, 0, 8, 8), red ? RGBA(1, 0, 0, 1) : RGBA(0, 1, 0, 1)), solid(Rect(2, 2, 4, 4), RGBA(0.5, 0, 0, 0.5))]
        let pass = OffscreenPass(reasons: [.groupOpacity], layer: 2, bounds: PixelRect(x: Int(x), y: 16, width: 8, height: 8),
                                 width: 8, height: 8, operation: .draw(content))
        let composite = DrawItem(layer: 2, role: .offscreen, paint: .offscreen(.pass(0), sampling: .texelFetch, opacity: 0.5),
                                 transform: .translation(x, 16), quad: Rect(0, 0, 8, 8), uv: Rect(0, 0, 8, 8))
        return FramePlan(pixelWidth: 32, pixelHeight: 32, clearColor: RGBA(0, 0, 0, 1),
                         items: [solid(Rect(0, 0, 12, 12), RGBA(1, 1, 1, 1)), composite], offscreenPasses: [pass])
    }

    /// The same plan drawn whole: the (shared) renderer forgets its previous frame first. Called
    /// after a sequence, since it ends that sequence.
    func whole(_ p: FramePlan) throws -> RenderedFrame {
        let r = try RenderTestSupport.renderer()
        r.forgetPreviousFrame()
        return try r.render(p, images: [:])
    }

    func testAMovedGroupTakesItsPreviousResultAndDrawsTheSamePixels() throws {
        let r = try RenderTestSupport.renderer()
        r.frameCacheEnabled = true
        defer { r.frameCacheEnabled = false }
        r.forgetPreviousFrame()
        let first = try r.render(plan(groupAt: 0), images: [:])
        XCTAssertEqual(first.stats.retainedPasses, 0)
        XCTAssertEqual(first.stats.passGPUNanoseconds.count, 1, "every pass ran: its time is reported")
        var frames: [(FramePlan, RenderedFrame)] = []
        for x in [4.0, 9, 20] {
            let p = plan(groupAt: x)
            let out = try r.render(p, images: [:])
            XCTAssertEqual(out.stats.frameCache, .damaged)
            XCTAssertEqual(out.stats.retainedPasses, 1, "at x = \(x)")
            XCTAssertEqual(out.stats.retainedPixels, 64)
            XCTAssertEqual(out.stats.passGPUNanoseconds, [], "a pass did not run: no per-pass times")
            frames.append((p, out))
        }
        // The group's content changes: rendered again, and its new colour shows.
        let changed = try r.render(plan(groupAt: 20, red: true), images: [:])
        XCTAssertEqual(changed.stats.retainedPasses, 0)
        frames.append((plan(groupAt: 20, red: true), changed))
        for (p, out) in frames { XCTAssertEqual(out.pixels, try whole(p).pixels) }
        // Hand-computed: green 0.5 over opaque black → (0, 128, 0) at the group's corner (20, 16)
        // of the last green frame; red in the changed frame.
        assertPixel(frames[2].1, 20, 16, [0, 128, 0, 255], tolerance: 1)
        assertPixel(changed, 20, 16, [128, 0, 0, 255], tolerance: 1)
    }

    /// A bitmap larger than the cache is evicted after every frame and stored again under a new key
    /// from the same items: the evicted bitmap is taken.
    func testAnEvictedRasterBitmapIsTakenUnderItsNewKey() throws {
        func frame(_ key: UInt64) -> FramePlan {
            let store = OffscreenPass(reasons: [.rasterize], layer: 3, bounds: PixelRect(x: 8, y: 8, width: 4, height: 4), width: 4,
                                      height: 4, operation: .draw([solid(Rect(0, 0, 4, 4), RGBA(0, 0, 1, 1))]), rasterCacheKey: key)
            let shown = DrawItem(layer: 3, role: .offscreen, paint: .offscreen(.rasterCache(key), sampling: .texelFetch, opacity: 1),
                                 transform: .translation(8, 8), quad: Rect(0, 0, 4, 4), uv: Rect(0, 0, 4, 4))
            return FramePlan(pixelWidth: 16, pixelHeight: 16, clearColor: .clear, items: [shown], offscreenPasses: [store],
                             rasterCacheEvictions: [key])
        }
        let r = try RenderTestSupport.renderer()
        r.frameCacheEnabled = true
        defer { r.frameCacheEnabled = false }
        r.forgetPreviousFrame()
        XCTAssertEqual(try r.render(frame(101), images: [:]).stats.retainedPasses, 0)
        var frames: [(UInt64, RenderedFrame)] = []
        for key: UInt64 in [102, 103] {
            let out = try r.render(frame(key), images: [:])
            XCTAssertEqual(out.stats.retainedPasses, 1)
            assertPixel(out, 9, 9, [0, 0, 255, 255])
            assertPixel(out, 2, 2, Self.transparent)
            frames.append((key, out))
        }
        for (key, out) in frames { XCTAssertEqual(out.pixels, try whole(frame(key)).pixels) }
    }
}
