import XCTest
import Foundation
import Pipeline
import Profile
import SceneFormat
@testable import Gate

/// "Fix first, and what it saves", point 4: the gate blames the layer that changed, each culprit
/// once, one GitHub annotation per culprit at its line, a readable Markdown line column, and a new
/// scene's high findings. Expected values are worked out by hand from the measurements below.
final class GateBlameTests: XCTestCase, GateTestSupport {
    /// A navigation bar blends 3000 px (a `blended` finding) before and after; a card gains a shadow
    /// with a shadowPath: no finding, but 150 more blended fragments and 150 more shaded pixels. The
    /// scene blends 3000 → 3150 px and shades 4000 → 4150 px.
    func shadowScenario() -> (base: SceneMeasurement, now: SceneMeasurement) {
        let bar = layer("navbar", line: 22, ["blended": 3_000])
        var base = measurement([.blendedPixels: 3_000, .shadedPixels: 4_000, .overdraw: 0.1], layers: [bar])
        base.layerPixels = [LayerPixels(layer: "card", line: 40, shadedPixels: 1_000, blendedFragments: 0),
                            LayerPixels(layer: "navbar", line: 22, shadedPixels: 3_000, blendedFragments: 3_000)]
        var now = measurement([.blendedPixels: 3_150, .shadedPixels: 4_150, .overdraw: 0.115], layers: [bar])
        now.layerPixels = [LayerPixels(layer: "card", line: 40, shadedPixels: 1_150, blendedFragments: 150),
                           LayerPixels(layer: "navbar", line: 22, shadedPixels: 3_000, blendedFragments: 3_000)]
        return (base, now)
    }

    func testTheLayerThatChangedIsBlamedNotTheBiggest() throws {
        let (base, now) = shadowScenario()
        let r = evaluate(now, base: base, budget(Rule(target: .metric(.blendedPixels), level: .error, maxIncrease: .relative(0)),
                                                 Rule(target: .metric(.shadedPixels), level: .error, maxIncrease: .relative(0))))
        let checks = try XCTUnwrap(r.scenes.first?.checks)
        XCTAssertEqual(checks.map(\.status), [.regression, .regression])
        // The card: +150 blended fragments, +150 shaded pixels; the unchanged bar is not named.
        XCTAssertEqual(checks[0].culprits, [Culprit(layer: "card", line: 40, why: "blends 0 px → 150 px; shades 1000 px → 1150 px", pixels: 150)])
        XCTAssertEqual(checks[1].culprits.map(\.layer), ["card"])
        XCTAssertEqual(r.scenes[0].layerChanges.map(\.layer), ["card"])
    }

    /// Ranked by each layer's change of the metric's own figure: a layer that shades 500 more
    /// ranks above one that shades 20 more, whatever their sizes.
    func testCulpritsAreRankedByTheirChange() {
        var base = measurement([.shadedPixels: 10_000])
        base.layerPixels = [LayerPixels(layer: "big", line: 1, shadedPixels: 9_000, blendedFragments: 0),
                            LayerPixels(layer: "small", line: 2, shadedPixels: 100, blendedFragments: 0)]
        var now = measurement([.shadedPixels: 10_520])
        now.layerPixels = [LayerPixels(layer: "big", line: 1, shadedPixels: 9_020, blendedFragments: 0),
                           LayerPixels(layer: "small", line: 2, shadedPixels: 600, blendedFragments: 0),
                           LayerPixels(layer: "same", line: 3, shadedPixels: 0, blendedFragments: 0)]
        let c = onlyCheck(evaluate(now, base: base, budget(Rule(target: .metric(.shadedPixels), level: .error, maxIncrease: .relative(0)))))
        XCTAssertEqual(c?.culprits.map(\.layer), ["small", "big"])
        XCTAssertEqual(c?.culprits.map(\.pixels), [500, 20])
    }

    /// With a baseline and no layer that changed, nobody is blamed (the old fallback named the
    /// layers raising findings now: the biggest, not the cause).
    func testNoChangedLayerNoCulprit() {
        let bar = layer("navbar", line: 22, ["blended": 3_000])
        let base = measurement([.blendedPixels: 3_000], layers: [bar]), now = measurement([.blendedPixels: 3_100], layers: [bar])
        let c = onlyCheck(evaluate(now, base: base, budget(Rule(target: .metric(.blendedPixels), level: .error, maxIncrease: .relative(0)))))
        XCTAssertEqual(c?.status, .regression)
        XCTAssertEqual(c?.culprits, [])
    }

    func testEachCulpritOnceAcrossMetrics() throws {
        let (base, now) = shadowScenario()
        let r = evaluate(now, base: base, budget(Rule(target: .metric(.blendedPixels), level: .error, maxIncrease: .relative(0)),
                                                 Rule(target: .metric(.shadedPixels), level: .error, maxIncrease: .relative(0)),
                                                 Rule(target: .metric(.overdraw), level: .error, maxIncrease: .relative(0))))
        let s = try XCTUnwrap(r.scenes.first)
        XCTAssertEqual(s.culprits, [SceneCulprit(layer: "card", line: 40, rules: ["blendedPixels", "shadedPixels", "overdraw"], status: .regression,
                                                 reasons: ["blends 0 px → 150 px; shades 1000 px → 1150 px"], pixels: 150)])
        let text = GateTextReport().render(r)
        XCTAssertEqual(text.components(separatedBy: "      card (Examples/a.json:40)").count - 1, 1, text)
        XCTAssertTrue(text.contains("      card (Examples/a.json:40): blends 0 px → 150 px; shades 1000 px → 1150 px — blendedPixels, shadedPixels, overdraw\n"), text)
        let md = GateMarkdownReport().render(r)
        XCTAssertEqual(md.components(separatedBy: "| card | 40 |").count - 1, 2, "once among the culprits, once among the changed layers: \(md)")
        XCTAssertTrue(md.contains("| ❌ regression | card | 40 | blendedPixels, shadedPixels, overdraw | blends 0 px → 150 px; shades 1000 px → 1150 px |"), md)
    }

    /// Two layers changed, three metrics failed: two annotations, each at its layer's line.
    func testOneGitHubAnnotationPerCulpritAtItsLine() {
        let base = measurement([.offscreenPasses: 0, .offscreenPixels: 0], layers: [])
        let now = measurement([.offscreenPasses: 2, .offscreenPixels: 1_300],
                              layers: [layer("card", line: 12, ["offscreen.rounded-clip": 900]), layer("avatar", line: 20, ["offscreen.mask": 400])])
        let r = evaluate(now, base: base, budget(Rule(target: .metric(.offscreenPasses), level: .error, maxIncrease: .absolute(0)),
                                                 Rule(target: .metric(.offscreenPixels), level: .error, maxIncrease: .absolute(0)),
                                                 Rule(target: .metric(.newFindings), level: .error, max: 0)))
        let lines = GateGitHubAnnotations().render(r).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("::") }.count, 2, lines.joined(separator: "\n"))
        XCTAssertTrue(lines[0].hasPrefix("::error file=Examples/a.json,line=12,title=caprof gate%3A layer card::layer card: gained offscreen.rounded-clip — moved offscreenPasses 2 (baseline 0) REGRESSION; offscreenPixels 1300 px (baseline 0 px) REGRESSION; newFindings 2 (baseline 0) REGRESSION"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("::error file=Examples/a.json,line=20,title=caprof gate%3A layer avatar::"), lines[1])
    }

    /// Markdown's "line" column printed "0.0 GiB": `map(String.init)` picked `String(gibibytes:)`.
    func testMarkdownLineColumnIsTheLineNumber() {
        let base = measurement(layers: [layer("avatar", line: 72, ["blended": 100])])
        let now = measurement(layers: [layer("avatar", line: 72, ["blended": 200])])
        let md = GateMarkdownReport().render(evaluate(now, base: base, budget(Rule(target: .metric(.findings), level: .error, maxIncrease: .relative(0)))))
        XCTAssertTrue(md.contains("| 🔺 | avatar | 72 | 100 px | 200 px | blended 100 px → 200 px |"), md)
        XCTAssertFalse(md.contains("GiB"), md)
        // The same trap gave JSON pointers such as "/scenes/a.json/layers/0.0 GiB/line".
        let bad = #"{"caprofBaseline": 1, "scenes": {"a.json": {"runs": 1, "frames": 1, "canvasPixels": 1, "metrics": {}, "findingCounts": {}, "layers": [{"layer": "x", "line": "one", "findings": {}}]}}}"#
        XCTAssertThrowsError(try Baseline.decode(Data(bad.utf8), file: "b.json")) { e in
            XCTAssertEqual((e as? GateError)?.pointer, "/scenes/a.json/layers/0/line")
        }
    }

    /// A scene absent from the baseline: its high findings are reported (a warning, exit 0);
    /// --fail-on high fails on them, --fail-on medium also on medium ones, in every scene.
    func testNewSceneHighFindingsAndFailOn() throws {
        func cost(_ px: Int, _ s: Severity) -> FindingCost { FindingCost(maxPixels: px, totalPixels: px, frames: 1, severity: s) }
        let scrim = LayerCost(layer: "scrim", line: 5, findings: ["blended": cost(8_000, .high)])
        let icon = LayerCost(layer: "icon", line: 9, findings: ["misaligned.subpixel": cost(300, .medium)])
        let fresh = measurement(layers: [scrim, icon])
        let known = measurement(layers: [icon])
        let scenes: [GateEvaluation.Measured] = [("Examples/known.json", known), ("Examples/new.json", fresh)]
        let baseline = Baseline(scenes: ["Examples/known.json": known])
        let none = Budget(rules: [], source: "budget.json")

        let reported = GateEvaluation.evaluate(scenes, budget: none, baseline: baseline)
        XCTAssertEqual(reported.scenes[0].checks, [], "a scene in the baseline: nothing without --fail-on")
        let c = try XCTUnwrap(reported.scenes[1].checks.first)
        XCTAssertEqual(c.rule, "findings ≥ high")
        XCTAssertEqual(c.status, .warn)
        XCTAssertEqual(c.value, 1)
        XCTAssertEqual(c.culprits, [Culprit(layer: "scrim", line: 5, why: "blended, high (8000 px)", pixels: 8_000)])
        XCTAssertEqual(reported.exitCode, 0, "reported, not failed")

        let high = GateEvaluation.evaluate(scenes, budget: none, baseline: baseline, failOn: .high)
        XCTAssertEqual(high.scenes.map { $0.checks.map(\.status) }, [[.pass], [.regression]])
        XCTAssertEqual(high.exitCode, 2)
        let medium = GateEvaluation.evaluate(scenes, budget: none, baseline: baseline, failOn: .medium)
        XCTAssertEqual(medium.scenes.map { $0.checks.first?.value }, [1, 2])
        XCTAssertEqual(medium.scenes.map { $0.checks.map(\.status) }, [[.regression], [.regression]])
        XCTAssertEqual(medium.exitCode, 2)
    }

    /// Lines are kept only where they are lines of the scene file itself: a layer read from a
    /// file inside a package (a .lottie's animations/a.json) has no line in `file=SCENE,line=N`.
    func testLinesOnlyFromTheSceneFileItself() throws {
        func measured(parsedAs file: String, reportedAs scene: String) throws -> SceneMeasurement {
            let doc = try SceneDecoder.decode(data: Array(BaselineTests.scene.utf8), file: file, baseDirectory: "/")
            let r = try ProfileRunner(scene: AnimatedScene(doc), renderer: nil).run(frames: [(index: 0, time: 0)], fps: 60, file: scene, toolVersion: "test").report
            return SceneMeasurement(reports: [r], timing: false)
        }
        // In BaselineTests.scene the bar is on line 3, the card on line 4.
        let own = try measured(parsedAs: "s.json", reportedAs: "s.json")
        XCTAssertEqual(own.layers.first { $0.layer == "bar" }?.line, 3)
        XCTAssertEqual(own.layerPixels?.first { $0.layer == "card" }?.line, 4)
        let packaged = try measured(parsedAs: "p.lottie/animations/a.json", reportedAs: "p.lottie")
        XCTAssertEqual(packaged.layers.compactMap(\.line), [])
        XCTAssertEqual(packaged.layerPixels?.compactMap(\.line), [])
        XCTAssertEqual(packaged.layerPixels?.first { $0.layer == "card" }?.shadedPixels, own.layerPixels?.first { $0.layer == "card" }?.shadedPixels)
    }
}
