import XCTest
@testable import Gate

/// Measurements written by hand: the evaluation is a pure function of them.
protocol GateTestSupport {}

extension GateTestSupport {
    func layer(_ name: String, line: Int? = nil, _ findings: [String: Int]) -> LayerCost {
        LayerCost(layer: name, line: line, findings: findings.mapValues { FindingCost(maxPixels: $0, totalPixels: $0, frames: 1) })
    }

    func measurement(_ metrics: [Metric: Double] = [:], layers: [LayerCost] = [], runs: Int = 1, frames: Int = 1) -> SceneMeasurement {
        var counts: [String: Int] = [:]
        for l in layers { for id in l.findings.keys { counts[id, default: 0] += 1 } }
        var m = Dictionary(uniqueKeysWithValues: metrics.map { ($0.key.rawValue, $0.value) })
        if m[Metric.findings.rawValue] == nil { m[Metric.findings.rawValue] = Double(counts.values.reduce(0, +)) }
        return SceneMeasurement(runs: runs, frames: frames, canvasPixels: 10_000, metrics: m, findingCounts: counts, layers: layers)
    }

    func budget(_ rules: Rule...) -> Budget { Budget(rules: rules, source: "budget.json") }

    func evaluate(_ current: SceneMeasurement, base: SceneMeasurement?, _ budget: Budget, scene: String = "Examples/a.json") -> GateResult {
        GateEvaluation.evaluate([(scene, current)], budget: budget,
                                baseline: base.map { Baseline(scenes: [scene: $0]) }, baselineFile: base == nil ? nil : "base.json")
    }

    func onlyCheck(_ r: GateResult, file: StaticString = #filePath, line: UInt = #line) -> Check? {
        XCTAssertEqual(r.scenes.first?.checks.count, 1, file: file, line: line)
        return r.scenes.first?.checks.first
    }
}
