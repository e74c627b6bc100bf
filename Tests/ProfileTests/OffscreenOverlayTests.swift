import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Color Offscreen-Rendered Yellow and Color Hits Green and Misses Red, from the plan's passes
/// and raster-cache events, and the offscreen findings with their reasons.
final class OffscreenOverlayTests: XCTestCase {
    let canvas = Canvas(width: 60, height: 40, scale: 1)

    func tree(moved: Double = 0, spin: Double = 0) -> Layer {
        var group = Layer(); group.setFrame(Rect(0, 0, 20, 20)); group.opacity = 0.5; group.backgroundColor = Color(1, 0, 0)
        var child = Layer(); child.setFrame(Rect(5, 5, 10, 10)); child.backgroundColor = Color(0, 0, 1)
        group.sublayers = [child]
        var cached = Layer(); cached.setFrame(Rect(30 + moved, 10, 20, 20)); cached.backgroundColor = Color(0, 1, 0)
        cached.shouldRasterize = true
        var inner = Layer(); inner.setFrame(Rect(2, 2, 6, 6)); inner.backgroundColor = .white
        inner.transform = .rotation(spin, 0, 0, 1)
        cached.sublayers = [inner]
        var root = Layer(); root.setFrame(Rect(0, 0, 60, 40)); root.sublayers = [group, cached]
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        return s.root
    }

    func testOffscreenIsYellowWhereAPassLandsAndTheCacheGreenOnAHitRedOnAMiss() {
        let planner = FramePlanner(canvas: canvas, images: [:])
        var cache = RasterCache()
        let painter = OverlayPainter(canvasScale: 1)
        let first = planner.plan(root: tree(), rasterCache: &cache, time: 0)
        var o = painter.paint(first, tree: tree(), frame: 0, time: 0)
        let offscreen = o[.offscreen]!, raster = o[.rasterCache]!
        // The group's pass (0…20) and the raster fill (30…50) are yellow; elsewhere untinted.
        XCTAssertGreaterThan(offscreen.rgb(10, 10).r, 130); XCTAssertGreaterThan(offscreen.rgb(10, 10).g, 130)
        XCTAssertLessThan(offscreen.rgb(10, 10).b, 60)
        XCTAssertEqual(offscreen.rgb(25, 35).r, OverlayPalette.neutral.r)
        XCTAssertEqual(offscreen.legendPixels[0] + offscreen.legendPixels[1], 400 + 400)
        XCTAssertGreaterThan(raster.rgb(40, 20).r, 150, "first use: a miss, red")
        XCTAssertEqual(raster.legendPixels, [0, 400])

        let hit = planner.plan(root: tree(moved: 1), rasterCache: &cache, time: 1.0 / 60)
        o = painter.paint(hit, tree: tree(moved: 1), frame: 1, time: 1.0 / 60)
        XCTAssertGreaterThan(o[.rasterCache]!.rgb(41, 20).g, 150, "moved only: a hit, green")
        XCTAssertEqual(o[.rasterCache]!.legendPixels, [400, 0])
        XCTAssertEqual(o[.offscreen]!.rgb(41, 20).r, o[.offscreen]!.rgb(55, 35).r, "a hit renders no pass")

        let miss = planner.plan(root: tree(moved: 1, spin: 0.5), rasterCache: &cache, time: 2.0 / 60)
        let analysis = FrameAnalyzer(canvasScale: 1).analyze(miss, tree: tree(moved: 1, spin: 0.5), index: 2, time: 2.0 / 60)
        let m = analysis.observations.first { $0.id == .rasterCacheMiss }
        XCTAssertEqual(m?.evidence.invalidation?.kind, "propertyChanged")
        XCTAssertEqual(m?.evidence.invalidation?.property, "transform")
        XCTAssertEqual(m?.evidence.invalidation?.layer, 4, "the spinning sublayer")
        XCTAssertEqual(analysis.counters.rasterCacheMisses, 1)
        XCTAssertEqual(analysis.passes.map(\.kind), ["draw", "cache"])
    }

    /// "Nested" counts layers, not passes: one layer's chain (a filter's content and blur passes)
    /// is offscreen once; a group with group opacity inside another is nested where it lies.
    func testNestedMeansAGroupInsideAGroupNotAChainOfPasses() {
        func paint(_ root: Layer) -> OverlayImage {
            var s = Scene(canvas: canvas, root: root); s.assignIDs()
            let plan = FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
            return OverlayPainter(canvasScale: 1).paint(plan, tree: s.root, frame: 0, time: 0)[.offscreen]!
        }
        var blurred = Layer(); blurred.setFrame(Rect(10, 10, 20, 20)); blurred.backgroundColor = Color(1, 0, 0)
        var blur = Filter(.gaussianBlur); blur.inputRadius = 2
        blurred.filters = [blur]
        var root = Layer(); root.setFrame(Rect(0, 0, 60, 40)); root.sublayers = [blurred]
        let chain = paint(root)
        XCTAssertGreaterThan(chain.legendPixels[0], 400, "the blur's passes reach beyond the layer")
        XCTAssertEqual(chain.legendPixels[1], 0, "three passes of one layer: not nested")

        var inner = Layer(); inner.setFrame(Rect(5, 5, 10, 10)); inner.opacity = 0.5; inner.backgroundColor = Color(0, 0, 1)
        var innerChild = Layer(); innerChild.setFrame(Rect(2, 2, 4, 4)); innerChild.backgroundColor = .white
        inner.sublayers = [innerChild]
        var outer = Layer(); outer.setFrame(Rect(0, 0, 30, 30)); outer.opacity = 0.5; outer.backgroundColor = Color(1, 0, 0)
        outer.sublayers = [inner]
        root.sublayers = [outer]
        let groups = paint(root)
        XCTAssertEqual(groups.legendPixels, [900 - 100, 100], "the inner group's 10×10 lies inside the outer one's 30×30")
    }

    /// A CAGradientLayer (drawn: a gradient item over its colour ramp) clipped by a rounded
    /// masksToBounds layer together with a sibling: the clip's pass, and nothing reported as undrawn.
    func testGradientContentTakesPartInTheClipsPass() {
        var gradient = Layer(.gradient); gradient.name = "gradient"; gradient.setFrame(Rect(0, 0, 40, 40))
        gradient.gradient.colors = [Color(1, 0, 0), Color(0, 0, 1)]
        var dot = Layer(); dot.setFrame(Rect(10, 10, 10, 10)); dot.backgroundColor = Color(0, 0, 0)
        var clip = Layer(); clip.name = "clip"; clip.setFrame(Rect(10, 0, 40, 40)); clip.cornerRadius = 10; clip.masksToBounds = true
        clip.sublayers = [gradient, dot]
        var root = Layer(); root.setFrame(Rect(0, 0, 60, 40)); root.sublayers = [clip]
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        let plan = FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
        XCTAssertEqual(plan.offscreenPasses.map(\.reasons), [[.roundedClip]])
        XCTAssertTrue(plan.items.filter { $0.role == .unsupported }.isEmpty)
        XCTAssertEqual(plan.items.filter { $0.gradient != nil }.map(\.layer), [2])
        var profiler = Profiler(canvas: canvas)
        profiler.record(profiler.analyze(plan, tree: s.root, index: 0, time: 0), cost: FrameCost())
        let findings = profiler.findings()
        XCTAssertFalse(findings.contains { $0.id == .unsupported })
        XCTAssertTrue(findings.contains { $0.id == .offscreenRoundedClip && $0.layer.display == "clip" })
    }
}
