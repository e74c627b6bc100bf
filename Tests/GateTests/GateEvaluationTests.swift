import XCTest
@testable import Gate

/// The gate's decision, rule kind by rule kind, level by level, and its exit code.
final class GateEvaluationTests: XCTestCase, GateTestSupport {
    func testAbsoluteMaximumAtEachLevel() {
        let m = measurement([.offscreenPasses: 3])
        let error = evaluate(m, base: nil, budget(Rule(target: .metric(.offscreenPasses), level: .error, max: 2)))
        XCTAssertEqual(onlyCheck(error)?.status, .regression)
        XCTAssertEqual(onlyCheck(error)?.message, "offscreenPasses 3: above the maximum 2")
        XCTAssertEqual(error.outcome, .regression)
        XCTAssertEqual(error.exitCode, 2)

        let warn = evaluate(m, base: nil, budget(Rule(target: .metric(.offscreenPasses), level: .warn, max: 2)))
        XCTAssertEqual(onlyCheck(warn)?.status, .warn)
        XCTAssertEqual(warn.exitCode, 0, "warnings never fail the gate")
        XCTAssertEqual(warn.counts.warnings, 1)

        let off = evaluate(m, base: nil, budget(Rule(target: .metric(.offscreenPasses), level: .off, max: 2)))
        XCTAssertEqual(off.scenes[0].checks, [])
        XCTAssertEqual(off.exitCode, 0)

        let within = evaluate(m, base: nil, budget(Rule(target: .metric(.offscreenPasses), level: .error, max: 3)))
        XCTAssertEqual(onlyCheck(within)?.status, .pass)
        XCTAssertEqual(within.exitCode, 0)
    }

    func testRelativeIncrease() {
        let rule = Rule(target: .metric(.blendedPixels), level: .error, maxIncrease: .relative(0.05))
        let base = measurement([.blendedPixels: 1000])
        XCTAssertEqual(onlyCheck(evaluate(measurement([.blendedPixels: 1050]), base: base, budget(rule)))?.status, .pass)
        let over = onlyCheck(evaluate(measurement([.blendedPixels: 1051]), base: base, budget(rule)))
        XCTAssertEqual(over?.status, .regression)
        XCTAssertEqual(over?.increaseLimit, 1050)
        XCTAssertEqual(over?.message, "blendedPixels 1051 px (baseline 1000 px, +51 px, +5.1 %): above the baseline 1000 px by more than +5 % (limit 1050 px)")
        // Improvement: below the baseline by more than the same threshold.
        XCTAssertEqual(onlyCheck(evaluate(measurement([.blendedPixels: 951]), base: base, budget(rule)))?.status, .pass, "within the noise band")
        let better = evaluate(measurement([.blendedPixels: 900]), base: base, budget(rule))
        XCTAssertEqual(onlyCheck(better)?.status, .improvement)
        XCTAssertEqual(better.outcome, .improvement)
        XCTAssertEqual(better.exitCode, 4)
    }

    func testAbsoluteIncrease() {
        let rule = Rule(target: .metric(.offscreenPasses), level: .error, maxIncrease: .absolute(1))
        let base = measurement([.offscreenPasses: 2])
        XCTAssertEqual(onlyCheck(evaluate(measurement([.offscreenPasses: 3]), base: base, budget(rule)))?.status, .pass)
        XCTAssertEqual(onlyCheck(evaluate(measurement([.offscreenPasses: 4]), base: base, budget(rule)))?.status, .regression)
        XCTAssertEqual(onlyCheck(evaluate(measurement([.offscreenPasses: 1]), base: base, budget(rule)))?.status, .pass, "a decrease within the threshold")
        XCTAssertEqual(onlyCheck(evaluate(measurement([.offscreenPasses: 0]), base: base, budget(rule)))?.status, .improvement)
    }

    func testMaxAndIncreaseTogether() {
        let rule = Rule(target: .metric(.overdraw), level: .error, max: 2, maxIncrease: .relative(0))
        let c = onlyCheck(evaluate(measurement([.overdraw: 2.5]), base: measurement([.overdraw: 1.5]), budget(rule)))
        XCTAssertEqual(c?.status, .regression)
        XCTAssertTrue(c?.message.contains("above the maximum 2×; above the baseline 1.5×") ?? false, c?.message ?? "")
    }

    func testRegressionWinsOverImprovement() {
        let r = evaluate(measurement([.offscreenPasses: 1, .blendedPixels: 2000]), base: measurement([.offscreenPasses: 2, .blendedPixels: 1000]),
                         budget(Rule(target: .metric(.offscreenPasses), level: .error, maxIncrease: .relative(0)),
                                Rule(target: .metric(.blendedPixels), level: .error, maxIncrease: .relative(0))))
        XCTAssertEqual(r.scenes[0].checks.map(\.status), [.improvement, .regression])
        XCTAssertEqual(r.exitCode, 2)
        XCTAssertTrue(r.verdict.hasPrefix("regression: 1 rule failed"), r.verdict)
    }

    func testWarnLevelImprovementStillCounts() {
        let r = evaluate(measurement([.offscreenPasses: 1]), base: measurement([.offscreenPasses: 2]),
                         budget(Rule(target: .metric(.offscreenPasses), level: .warn, maxIncrease: .relative(0))))
        XCTAssertEqual(r.exitCode, 4)
    }

    func testWithoutABaselineIncreaseRulesAreSkippedAndMaximaStillApply() {
        let b = budget(Rule(target: .metric(.offscreenPasses), level: .error, maxIncrease: .relative(0)),
                       Rule(target: .metric(.blendedPixels), level: .error, max: 10, maxIncrease: .relative(0)),
                       Rule(target: .metric(.newFindings), level: .error, max: 0))
        let r = evaluate(measurement([.offscreenPasses: 5, .blendedPixels: 5]), base: nil, b)
        XCTAssertEqual(r.scenes[0].checks.map(\.status), [.skipped, .pass, .skipped])
        XCTAssertEqual(r.scenes[0].checks[0].message, "offscreenPasses: skipped, no baseline to compare with")
        XCTAssertEqual(r.scenes[0].checks[2].message, "newFindings: skipped, needs a baseline")
        XCTAssertEqual(r.exitCode, 0)
        XCTAssertEqual(r.counts.skipped, 2)
    }

    func testSceneMissingFromTheBaselineGetsANote() {
        let r = GateEvaluation.evaluate([("Examples/new.json", measurement([.offscreenPasses: 1]))], budget: Budget.standard,
                                        baseline: Baseline(scenes: ["Examples/a.json": measurement()]))
        XCTAssertFalse(r.scenes[0].hasBaseline)
        XCTAssertTrue(r.scenes[0].notes[0].hasPrefix("not in the baseline"), "\(r.scenes[0].notes)")
        XCTAssertEqual(r.exitCode, 0)
    }

    func testFindingRules() {
        let base = measurement(layers: [layer("bar", line: 3, ["blended": 100])])
        let now = measurement(layers: [layer("bar", line: 3, ["blended": 100]), layer("card", line: 9, ["blended": 50, "offscreen.mask": 70])])
        // No limits: the finding must not be raised at all.
        let never = onlyCheck(evaluate(now, base: nil, budget(Rule(target: .finding("offscreen.mask"), level: .error))))
        XCTAssertEqual(never?.status, .regression)
        XCTAssertEqual(never?.value, 1)
        XCTAssertEqual(never?.limits, "max 0")
        XCTAssertEqual(never?.culprits, [Culprit(layer: "card", line: 9, why: "offscreen.mask (70 px)", pixels: 70)])
        // Counted per layer, compared with the baseline.
        let more = onlyCheck(evaluate(now, base: base, budget(Rule(target: .finding("blended"), level: .error, maxIncrease: .absolute(0)))))
        XCTAssertEqual(more?.status, .regression)
        XCTAssertEqual(more?.value, 2); XCTAssertEqual(more?.baselineValue, 1)
        XCTAssertEqual(more?.culprits.map(\.layer), ["card"])
        XCTAssertEqual(onlyCheck(evaluate(now, base: base, budget(Rule(target: .finding("blended"), level: .error, max: 2))))?.status, .pass)
        // A reserved id never raised yet counts 0.
        XCTAssertEqual(onlyCheck(evaluate(now, base: nil, budget(Rule(target: .finding("raster-cache.miss"), level: .error))))?.status, .pass)
    }

    func testNewFindings() {
        let base = measurement(layers: [layer("bar", line: 3, ["blended": 100])])
        let now = measurement(layers: [layer("bar", line: 3, ["blended": 100, "misaligned.subpixel": 10]), layer("clip", line: 12, ["offscreen.rounded-clip": 900])])
        let c = onlyCheck(evaluate(now, base: base, Budget.standard.filtered(.newFindings)))
        XCTAssertEqual(c?.status, .regression)
        XCTAssertEqual(c?.value, 2)
        // The costliest first, each layer once, said as the layer diff says it (as in every check).
        XCTAssertEqual(c?.culprits, [Culprit(layer: "clip", line: 12, why: "gained offscreen.rounded-clip", pixels: 900),
                                     Culprit(layer: "bar", line: 3, why: "gained misaligned.subpixel", pixels: 10)])
        // Resolved findings are not new ones.
        XCTAssertEqual(onlyCheck(evaluate(base, base: now, Budget.standard.filtered(.newFindings)))?.status, .pass)
    }

    func testScenePatternsScopeRulesAndLaterRulesOverride() {
        let b = budget(Rule(target: .metric(.offscreenPasses), level: .error, max: 1),
                       Rule(target: .metric(.offscreenPasses), level: .warn, max: 1, scenes: ["motion.json"]),
                       Rule(target: .metric(.offscreenPasses), level: .off, max: 1, scenes: ["Examples/legacy/**"]),
                       Rule(target: .metric(.blendedPixels), level: .error, max: 0, scenes: ["cards.json"]))
        let m = measurement([.offscreenPasses: 2, .blendedPixels: 1])
        let r = GateEvaluation.evaluate([("Examples/cards.json", m), ("./Examples/motion.json", m), ("Examples/legacy/old/x.json", m)],
                                        budget: b, baseline: nil)
        XCTAssertEqual(r.scenes.map(\.scene), ["Examples/cards.json", "Examples/motion.json", "Examples/legacy/old/x.json"])
        XCTAssertEqual(r.scenes[0].checks.map(\.status), [.regression, .regression])
        XCTAssertEqual(r.scenes[1].checks.map(\.status), [.warn], "the scoped warn rule overrides the general error rule")
        XCTAssertEqual(r.scenes[2].checks, [], "switched off for the legacy scenes")
    }

    func testTimingRulesCompareMediansAndSkipWhatWasNotMeasured() {
        let rule = Rule(target: .metric(.gpuMilliseconds), level: .warn, maxIncrease: .relative(0.1), runs: 5)
        let base = measurement([.gpuMilliseconds: 10])
        XCTAssertEqual(onlyCheck(evaluate(measurement([.gpuMilliseconds: 10.9]), base: base, budget(rule)))?.status, .pass)
        XCTAssertEqual(onlyCheck(evaluate(measurement([.gpuMilliseconds: 11.5]), base: base, budget(rule)))?.status, .warn)
        XCTAssertEqual(onlyCheck(evaluate(measurement([.gpuMilliseconds: 8]), base: base, budget(rule)))?.status, .improvement)
        let skipped = onlyCheck(evaluate(measurement(), base: base, budget(rule)))
        XCTAssertEqual(skipped?.status, .skipped)
        XCTAssertTrue(skipped?.message.contains("not drawn on a GPU") ?? false)
        XCTAssertEqual(SceneMeasurement.median([5, 1, 100, 2, 3]), 3)
        XCTAssertEqual(SceneMeasurement.median([4, 1, 2, 3]), 2.5)
    }

    func testDefaultBudgetAllowsNoIncreaseOfAnyExactMetric() {
        let base = measurement([.offscreenPasses: 1, .offscreenPixels: 100, .blendedPixels: 100, .shadedPixels: 100, .overdraw: 1, .misalignedLayers: 0,
                               .rasterCacheMisses: 0])
        XCTAssertEqual(evaluate(base, base: base, Budget.standard).exitCode, 0)
        XCTAssertEqual(evaluate(base, base: base, Budget.standard).counts.passed, Metric.deterministic.count)
        var more = base; more.metrics[Metric.overdraw.rawValue] = 1.0001
        XCTAssertEqual(evaluate(more, base: base, Budget.standard).exitCode, 2)
        var less = base; less.metrics[Metric.shadedPixels.rawValue] = 99
        XCTAssertEqual(evaluate(less, base: base, Budget.standard).exitCode, 4)
        XCTAssertFalse(Budget.standard.rules.contains { if case .metric(let m) = $0.target { return m.isTiming }; return false })
    }

    func testLayerDiffSaysWhichLayersChangedAndWhy() {
        let base = measurement(layers: [layer("bar", line: 3, ["blended": 100]), layer("card", line: 9, ["misaligned.subpixel": 40]),
                                        layer("gone", line: 20, ["blended": 500]), layer("same", ["blended": 1])])
        let now = measurement(layers: [layer("bar", line: 3, ["blended": 300]), layer("card", line: 9, ["misaligned.subpixel": 40, "offscreen.rounded-clip": 900]),
                                       layer("same", ["blended": 1])])
        let d = LayerDiff.diff(baseline: base, current: now)
        XCTAssertEqual(d.map(\.layer), ["card", "bar", "gone"])
        XCTAssertEqual(d.map(\.direction), [.costlier, .costlier, .cheaper])
        XCTAssertEqual(d[0].added, ["offscreen.rounded-clip"])
        XCTAssertEqual(d[0].pixelDelta, 900)
        XCTAssertEqual(d[0].why, "gained offscreen.rounded-clip")
        XCTAssertEqual(d[1].why, "blended 100 px → 300 px")
        XCTAssertEqual(d[2].removed, ["blended"])
        XCTAssertEqual(d[2].line, 20)
        // A failing check names the changed layers relevant to its metric.
        let r = evaluate(measurement([.offscreenPasses: 2], layers: now.layers), base: measurement([.offscreenPasses: 1], layers: base.layers),
                         budget(Rule(target: .metric(.offscreenPasses), level: .error, maxIncrease: .absolute(0))))
        XCTAssertEqual(r.scenes[0].layerChanges, d)
        XCTAssertEqual(onlyCheck(r)?.culprits, [Culprit(layer: "card", line: 9, why: "gained offscreen.rounded-clip", pixels: 900)])
    }
}

extension Budget {
    /// The default budget's rule for one metric.
    func filtered(_ m: Metric) -> Budget { Budget(rules: rules.filter { $0.target == .metric(m) }, source: source) }
}
