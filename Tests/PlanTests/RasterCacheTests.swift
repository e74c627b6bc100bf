import XCTest
import Geometry
import LayerModel
@testable import Plan

/// shouldRasterize across the frames of a run: hits while nothing inside changes, misses with the
/// reason otherwise, evictions by idle time and by size (reference §1.12).
final class RasterCacheTests: XCTestCase {
    let canvas = Canvas(width: 100, height: 100, scale: 2)

    func tree(_ edit: (inout Layer) -> Void = { _ in }) -> Layer {
        var card = Layer(); card.name = "card"; card.setFrame(Rect(10, 10, 40, 40))
        card.backgroundColor = Color(1, 1, 1); card.shouldRasterize = true; card.rasterizationScale = 2
        var spinner = Layer(); spinner.name = "spinner"; spinner.setFrame(Rect(5, 5, 10, 10)); spinner.backgroundColor = Color(0, 0, 1)
        card.sublayers = [spinner]
        var root = Layer(); root.setFrame(Rect(0, 0, 100, 100)); root.sublayers = [card]
        edit(&root)
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        return s.root
    }

    func testHitWhileOnlyTheLayersOwnPlacementChangesMissWhenASublayerChanges() {
        let planner = FramePlanner(canvas: canvas, images: [:])
        var cache = RasterCache()
        var p = planner.plan(root: tree(), rasterCache: &cache, time: 0)
        XCTAssertEqual(p.rasterCache.map(\.miss), [.firstUse])
        XCTAssertEqual(p.offscreenPasses.map(\.reasons), [[.rasterize]])
        XCTAssertEqual(p.offscreenPasses.first?.width, 80, "40 pt at rasterizationScale 2")
        let key = p.offscreenPasses[0].rasterCacheKey
        XCTAssertNotNil(key)

        // Moved, rotated and faded: still a hit (outside the bitmap).
        p = planner.plan(root: tree { r in
            r.sublayers[0].position.x += 7; r.sublayers[0].transform = .rotation(0.3, 0, 0, 1); r.sublayers[0].opacity = 0.5
        }, rasterCache: &cache, time: 1 / 60)
        XCTAssertEqual(p.rasterCache.map(\.isHit), [true])
        XCTAssertEqual(p.offscreenPasses, [], "a hit renders nothing offscreen")
        XCTAssertEqual(p.canvasItems.last?.paint, .offscreen(.rasterCache(key!), sampling: .linear, opacity: 0.5))
        XCTAssertEqual(p.items.map(\.layer), [1, 2], "the profiler still sees the cached layers' items (the root draws nothing)")

        // The sublayer spins: a miss naming it and the property.
        p = planner.plan(root: tree { r in r.sublayers[0].sublayers[0].transform = .rotation(0.5, 0, 0, 1) },
                         rasterCache: &cache, time: 2 / 60)
        XCTAssertEqual(p.rasterCache.map(\.miss), [.propertyChanged(layer: 2, property: "transform")])
        XCTAssertEqual(p.offscreenPasses.first?.rasterCacheKey, key, "re-rendered into the same entry")

        // Its own background colour is inside the bitmap.
        p = planner.plan(root: tree { r in r.sublayers[0].backgroundColor = Color(1, 0, 0) }, rasterCache: &cache, time: 3 / 60)
        XCTAssertEqual(p.rasterCache.map(\.miss), [.propertyChanged(layer: 1, property: "backgroundColor")])

        p = planner.plan(root: tree { r in r.sublayers[0].rasterizationScale = 1 }, rasterCache: &cache, time: 4 / 60)
        XCTAssertEqual(p.rasterCache.map(\.miss), [.rasterizationScaleChanged(from: 2, to: 1)])
    }

    func testEvictedAfter100msUnused() {
        let planner = FramePlanner(canvas: canvas, images: [:])
        var cache = RasterCache()
        _ = planner.plan(root: tree(), rasterCache: &cache, time: 0)
        // Hidden for 0.2 s: the entry is evicted and its texture freed.
        let hidden = planner.plan(root: tree { r in r.sublayers[0].hidden = true }, rasterCache: &cache, time: 0.2)
        XCTAssertEqual(hidden.rasterCacheEvictions.count, 1)
        XCTAssertEqual(cache.count, 0)
        let p = planner.plan(root: tree(), rasterCache: &cache, time: 0.25)
        guard case .evictedUnused(let idle)? = p.rasterCache.first?.miss else { return XCTFail("\(p.rasterCache)") }
        XCTAssertEqual(idle, 0.2, accuracy: 1e-12)
        // Within 100 ms it stays.
        var c2 = RasterCache()
        _ = planner.plan(root: tree(), rasterCache: &c2, time: 0)
        XCTAssertEqual(planner.plan(root: tree(), rasterCache: &c2, time: 0.09).rasterCache.map(\.isHit), [true])
        // The limit is an option.
        var c3 = RasterCache(maxIdleSeconds: 0.05)
        _ = planner.plan(root: tree(), rasterCache: &c3, time: 0)
        XCTAssertEqual(planner.plan(root: tree(), rasterCache: &c3, time: 0.09).rasterCache.map(\.miss),
                       [.evictedUnused(idleSeconds: 0.09)])
    }

    func testEvictedWhenTheCacheExceedsItsScreens() {
        // Each card's bitmap is 80×80 = 6,400 px; the canvas 200×200 = 40,000. A cap of 0.2 screens
        // (8,000 px) holds one bitmap: the second evicts the least recently used.
        let planner = FramePlanner(canvas: canvas, images: [:])
        var cache = RasterCache(maxScreens: 0.2)
        let two = { (r: inout Layer) in
            var second = r.sublayers[0]; second.position.y += 45; r.sublayers.append(second)
        }
        let p = planner.plan(root: tree(two), rasterCache: &cache, time: 0)
        XCTAssertEqual(p.rasterCache.map(\.miss), [.firstUse, .firstUse])
        XCTAssertEqual(p.rasterCacheEvictions.count, 1)
        XCTAssertEqual(cache.count, 1)
        let next = planner.plan(root: tree(two), rasterCache: &cache, time: 1 / 60)
        XCTAssertEqual(next.rasterCache.filter { $0.miss == .evictedCacheFull }.count, 1)
    }

    /// Among bitmaps used in the same frame the largest goes first: a bitmap larger than the whole
    /// cap cannot stay, and evicting the others before it would empty the cache every frame. The
    /// canvas is 200×200 = 40,000 px and the cap 1 screen; the big card at rasterizationScale 6 is
    /// 240×240 = 57,600 px, the two small ones 80×80 = 6,400 px each (72,000 px in all).
    func testTheLargestOfEquallyRecentBitmapsIsEvictedFirst() {
        let planner = FramePlanner(canvas: canvas, images: [:])
        var cache = RasterCache(maxScreens: 1)
        let three = { (r: inout Layer) in
            var big = r.sublayers[0]; big.rasterizationScale = 6; big.position.x += 45
            var small = r.sublayers[0]; small.position.y += 45
            // The big one is planned last (the highest key): by age alone it would go last.
            r.sublayers = [r.sublayers[0], small, big]
        }
        let first = planner.plan(root: tree(three), rasterCache: &cache, time: 0)
        XCTAssertEqual(first.rasterCache.map(\.pixels), [6_400, 6_400, 57_600])
        XCTAssertEqual(first.rasterCacheEvictions.count, 1)
        XCTAssertEqual(cache.count, 2, "the two small bitmaps stay")
        let next = planner.plan(root: tree(three), rasterCache: &cache, time: 1 / 60)
        XCTAssertEqual(next.rasterCache.map(\.miss), [nil, nil, .evictedCacheFull])
        XCTAssertEqual(next.rasterCache.map(\.isHit), [true, true, false])
    }

    func testABitmapIsCutAtItsMaximumSideFromItsTopLeft() {
        var wide = Layer(); wide.setFrame(Rect(0, 0, 3000, 10)); wide.backgroundColor = Color(1, 0, 0)
        wide.shouldRasterize = true; wide.rasterizationScale = 3
        var root = Layer(); root.setFrame(Rect(0, 0, 100, 100)); root.sublayers = [wide]
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
        XCTAssertEqual(p.offscreenPasses.map(\.width), [Builder.maxRasterSide], "9,000 texels wide, cut to the maximum")
        XCTAssertEqual(p.offscreenPasses.map(\.height), [30])
    }
}
