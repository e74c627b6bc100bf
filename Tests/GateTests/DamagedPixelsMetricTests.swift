import XCTest
import Geometry
import LayerModel
import Plan
import Profile
@testable import Gate

/// The `damagedPixels` metric (Flash Updated Regions): the most pixels updated in one frame after
/// the first, opt-in (not in the default budget, whose baselines predate it).
final class DamagedPixelsMetricTests: XCTestCase, GateTestSupport {
    func report(damaged: [Int?]) -> ProfileReport {
        let canvas = Canvas(width: 40, height: 20, scale: 1)
        var p = Profiler(canvas: canvas)
        for (i, d) in damaged.enumerated() {
            var root = Layer(); root.setFrame(Rect(0, 0, 40, 20)); root.backgroundColor = .white
            var scene = Scene(canvas: canvas, root: root); scene.assignIDs()
            var a = p.analyze(FramePlanner(canvas: canvas, images: [:]).plan(root: scene.root), tree: scene.root, index: i, time: Double(i) / 60)
            a.counters.damagedPixels = d
            p.record(a, cost: FrameCost())
        }
        return p.report(tool: .init(version: "t"), scene: .init(file: "a.json", canvas: .init(width: 40, height: 20, scale: 1, pixelWidth: 40, pixelHeight: 20),
                                                                layers: 1, duration: 0, fps: 60),
                        gpu: false, device: nil, fps: 60, warnings: [])
    }

    func testTheMostPixelsUpdatedAfterTheFirstFrame() {
        // The first frame (800: the whole canvas) is not counted; then 0 (at rest) and 288.
        XCTAssertEqual(SceneMeasurement(reports: [report(damaged: [800, 0, 288])], timing: false)[.damagedPixels], 288)
        XCTAssertEqual(SceneMeasurement(reports: [report(damaged: [800, 0, 0])], timing: false)[.damagedPixels], 0, "a scene at rest")
        XCTAssertNil(SceneMeasurement(reports: [report(damaged: [nil, nil])], timing: false)[.damagedPixels], "a report without damage")
    }

    func testOptInAndCheckedWhenARuleNamesIt() {
        XCTAssertFalse(Metric.deterministic.contains(.damagedPixels))
        XCTAssertFalse(Metric.damagedPixels.isTiming)
        let m = SceneMeasurement(reports: [report(damaged: [800, 0, 288])], timing: false)
        let check = onlyCheck(evaluate(m, base: nil, budget(Rule(target: .metric(.damagedPixels), level: .error, max: 0))))
        XCTAssertEqual(check?.status, .regression, "an idle screen should update nothing")
        XCTAssertEqual(Metric.damagedPixels.format(288), GateFormat.pixels(288))
    }
}
