import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Flash Updated Regions (the plan's damage as a figure and an overlay) and the reuse of an
/// unchanged frame's analysis. Canvas 40×20 px at scale 1; a 10×10 red box B over a white root.
/// Damage rectangles are the box's pixels grown by one pixel on each side (FrameDamageTests).
final class UpdatedRegionsTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 40, height: 20, scale: 1)

    func frame(boxAt x: Double, alpha: Double = 1) -> (tree: Layer, plan: FramePlan) {
        let t = tree(root(canvas, [box("B", Rect(x, 5, 10, 10), Color(1, 0, 0, alpha))]))
        return (t, plan(t, canvas))
    }

    func testTheOverlayTintsExactlyTheDamagedPixelsYellow() {
        let a = frame(boxAt: 5), b = frame(boxAt: 20)
        let damage = FrameDamage.between(a.plan, b.plan)
        // Box at x 5..<15 → 4..<16 × 4..<16; at 20..<30 → 19..<31: two 12×12 rectangles.
        XCTAssertEqual(damage.rects, [PixelRect(x: 4, y: 4, width: 12, height: 12), PixelRect(x: 19, y: 4, width: 12, height: 12)])
        let o = OverlayPainter(canvasScale: 1).paint(b.plan, tree: b.tree, frame: 1, time: 1.0 / 60, damage: damage)
        let image = try! XCTUnwrap(o[.updatedRegions])
        XCTAssertEqual(image.legendPixels, [2 * 144])
        var yellow = OverlayPainter.neutralBase(count: 1)
        OverlayPainter.tint(&yellow, 0, OverlayPalette.updated)
        let neutral = OverlayPalette.neutral
        XCTAssertTrue(image.rgb(4, 4) == (yellow[0], yellow[1], yellow[2]), "a corner of the old bounds")
        XCTAssertTrue(image.rgb(30, 15) == (yellow[0], yellow[1], yellow[2]), "a corner of the new bounds")
        XCTAssertTrue(image.rgb(17, 10) == neutral, "between them nothing changed")
        XCTAssertTrue(image.rgb(3, 3) == neutral)
        XCTAssertEqual(OverlayKind.updatedRegions.title, "Flash Updated Regions")
        // Without a previous frame everything is updated.
        let first = OverlayPainter(canvasScale: 1).paint(a.plan, tree: a.tree, frame: 0, time: 0)
        XCTAssertEqual(first[.updatedRegions]?.legendPixels, [40 * 20])
    }

    func testAnUnchangedFrameReusesTheAnalysisAndAChangedOneDoesNot() {
        var reuse = AnalysisReuse()
        let analyzer = FrameAnalyzer(canvasScale: 1)
        let a = frame(boxAt: 5, alpha: 0.5)
        let first = reuse.analyze(a.plan, tree: a.tree, index: 0, time: 0, with: analyzer)
        XCTAssertFalse(first.reused)
        let again = frame(boxAt: 5, alpha: 0.5)
        let second = reuse.analyze(again.plan, tree: again.tree, index: 1, time: 1.0 / 60, with: analyzer)
        XCTAssertTrue(second.reused)
        XCTAssertEqual(second.analysis.index, 1)
        XCTAssertEqual(second.analysis.time, 1.0 / 60)
        // What a fresh analysis of the same frame gives.
        let fresh = analyzer.analyze(again.plan, tree: again.tree, index: 1, time: 1.0 / 60)
        XCTAssertEqual(second.analysis.counters, fresh.counters)
        XCTAssertEqual(second.analysis.observations, fresh.observations)
        XCTAssertEqual(second.analysis.counters.blendedPixels, 100, "the translucent 10×10 box")
        // The box moved: analysed again.
        let moved = frame(boxAt: 6, alpha: 0.5)
        XCTAssertFalse(reuse.analyze(moved.plan, tree: moved.tree, index: 2, time: 2.0 / 60, with: analyzer).reused)
        // Same items, but a property the analysis reads beside the plan changed (contentsScale).
        var t = moved.tree
        t.sublayers[0].contentsScale = 2
        XCTAssertFalse(reuse.analyze(moved.plan, tree: t, index: 3, time: 3.0 / 60, with: analyzer).reused)
    }

    func testTheReportCountsDamagedPixelsAndReusedFrames() {
        var p = Profiler(canvas: canvas)
        var previous: FramePlan?
        // Frames: box at 5, at 5 (unchanged), at 20 (moved).
        for (i, x) in [5.0, 5, 20].enumerated() {
            let f = frame(boxAt: x)
            let damage = FrameDamage.between(previous, f.plan)
            previous = f.plan
            var a = p.analyze(f.plan, tree: f.tree, index: i, time: Double(i) / 60)
            a.counters.damagedPixels = damage.pixels
            p.record(a, cost: FrameCost(), updates: FrameUpdate(damage: damage))
        }
        let r = p.report(tool: .init(version: "test"), scene: .init(file: "t.json", canvas: .init(width: 40, height: 20, scale: 1, pixelWidth: 40, pixelHeight: 20),
                                                                   layers: 2, duration: 0, fps: 60),
                         gpu: false, device: nil, fps: 60, warnings: [])
        XCTAssertEqual(r.frames.map(\.counters.damagedPixels), [800, 0, 288])
        XCTAssertEqual(r.frames.map(\.frameCache), [.full, .reused, .damaged])
        XCTAssertEqual(r.frames[2].damage, [PixelRect(x: 4, y: 4, width: 12, height: 12), PixelRect(x: 19, y: 4, width: 12, height: 12)])
        XCTAssertNil(r.frames[0].damage, "a wholly damaged frame lists no rectangles")
        XCTAssertEqual(r.totals.meanDamagedPixels, Double(800 + 0 + 288) / 3)
        XCTAssertEqual(r.totals.reusedFrames, 1)
        XCTAssertNil(r.totals.meanRetainedPasses, "no frame was drawn")
    }

    /// Passes taken from the previous frame are averaged over the drawn frames and said in words.
    func testTheReportAveragesRetainedPasses() {
        var p = Profiler(canvas: canvas)
        for (i, n) in [0, 3, 2].enumerated() {
            let f = frame(boxAt: 5)
            var cost = FrameCost()
            cost.retainedPasses = n
            cost.partialPasses = 2 * n
            p.record(p.analyze(f.plan, tree: f.tree, index: i, time: Double(i) / 60), cost: cost)
        }
        let r = p.report(tool: .init(version: "test"), scene: .init(file: "t.json", canvas: .init(width: 40, height: 20, scale: 1, pixelWidth: 40, pixelHeight: 20),
                                                                   layers: 2, duration: 0, fps: 60),
                         gpu: true, device: nil, fps: 60, warnings: [])
        XCTAssertEqual(r.totals.meanRetainedPasses, 5.0 / 3)
        XCTAssertEqual(r.frames.map(\.cost.retainedPasses), [0, 3, 2])
        XCTAssertEqual(r.totals.meanPartialPasses, 10.0 / 3)
    }
}
