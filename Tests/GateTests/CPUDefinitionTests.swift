import XCTest
import Profile
import Plan
import LayerModel
import Report
@testable import Gate

/// "CPU per frame" is one sum of stages everywhere: the report's totals, the HTML's KPI, the text
/// summary and the gate's cpuMilliseconds (FrameCost.cpuStages: evaluate + plan + upload + record;
/// the profiler's analyze and the start-up apart).
final class CPUDefinitionTests: XCTestCase {
    func testReportsAndGateAddUpTheSameStages() throws {
        // Two frames, nanoseconds chosen by hand: frame 0 = evaluate 1.0 + plan 2.0 + raster 1.0 +
        // upload 0.5 + record 1.5 = 6.0 ms of CPU (analyze 40 ms is the profiler's), frame 1 =
        // 1.0 + 2.0 + 0 + 0 + 1.0 = 4.0 ms: mean 5.0 ms.
        var first = FrameCost(evaluateNanoseconds: 1_000_000, planNanoseconds: 2_000_000, analyzeNanoseconds: 40_000_000,
                              uploadNanoseconds: 500_000, recordNanoseconds: 1_500_000, renderNanoseconds: 9_000_000, gpuNanoseconds: 6_000_000)
        first.rasterNanoseconds = 1_000_000   // shape or text content rasterised on the CPU in this frame only
        var second = FrameCost(evaluateNanoseconds: 1_000_000, planNanoseconds: 2_000_000, analyzeNanoseconds: 40_000_000,
                               uploadNanoseconds: 0, recordNanoseconds: 1_000_000, renderNanoseconds: 8_000_000, gpuNanoseconds: 6_000_000)
        second.rasterNanoseconds = 0       // measured, nothing to rasterise (a run sets it every frame)
        let costs = [first, second]
        var profiler = Profiler(canvas: Canvas(width: 10, height: 10, scale: 1))
        for (i, c) in costs.enumerated() {
            let analysis = profiler.analyze(FramePlan(pixelWidth: 10, pixelHeight: 10, clearColor: .clear), tree: Layer(), index: i, time: Double(i) / 60)
            profiler.record(analysis, cost: c)
        }
        let report = profiler.report(tool: .init(version: "t"),
                                     scene: .init(file: "s.json", canvas: .init(width: 10, height: 10, scale: 1, pixelWidth: 10, pixelHeight: 10),
                                                  layers: 1, duration: 0, fps: 60),
                                     gpu: true, device: "d", fps: 60, warnings: [],
                                     startup: .init(wallNanoseconds: 175_000_000, uploadNanoseconds: 3_000_000, uploadedBytes: 1024, recordNanoseconds: 150_000_000))
        XCTAssertEqual(report.totals.meanCPUNanoseconds, 5_000_000)
        XCTAssertEqual(FrameCost.cpuStages, ["evaluate", "plan", "raster", "upload", "record"])

        let gate = SceneMeasurement(reports: [report], timing: true)
        XCTAssertEqual(gate[.cpuMilliseconds], 5, "the gate's cpuMilliseconds is the reports' CPU per frame")

        let html = HTMLReport().render(report)
        XCTAssertTrue(html.contains("<b class=\"num\">5.00 ms</b><span>CPU per frame</span>"), "HTML KPI")
        XCTAssertTrue(html.contains("<b class=\"num\">175 ms</b><span>start-up</span>"), "start-up apart")
        let text = TextReport(colors: false).render(report)
        XCTAssertTrue(text.contains("CPU 5.00 ms (evaluate 1.00 ms + plan 2.00 ms + raster 0.50 ms + upload 0.25 ms + record 1.25 ms)"), text)
    }
}
