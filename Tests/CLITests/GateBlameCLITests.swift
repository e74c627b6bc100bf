import Foundation
import XCTest

/// `caprof gate` end to end for "Fix first, and what it saves", point 4: blame the layer that
/// changed, once, at its line; a quiet --record; a new scene's high findings and --fail-on.
final class GateBlameCLITests: CLITestCase {
    /// A translucent bar (a `blended` finding, 25 % of the canvas) and an opaque card on line 4.
    static let base = GateCLITests.base
    /// The card gains a shadow with a shadowPath: it blends more, and raises no finding.
    static let shadowed = base.replacingOccurrences(of: ##""backgroundColor": "#3366CC"}"##, with:
        ##""backgroundColor": "#3366CC", "shadowOpacity": 0.5, "shadowRadius": 4, "shadowOffset": [0, 2], "shadowPath": {"rect": [0, 0, 40, 30]}}"##)

    func record(_ text: String = base) throws -> (scene: String, baseline: String, run: Run) {
        let scene = try write("scene.json", text)
        let baseline = tmp.appendingPathComponent("base.json").path
        let r = try caprof(["gate", scene, "--baseline", baseline, "--record"])
        XCTAssertEqual(r.code, 0, r.stderr)
        return (scene, baseline, r)
    }

    /// Recording prints one confirmation line, not the regression report (which it printed whole).
    func testRecordIsQuiet() throws {
        let (scene, baseline, first) = try record()
        XCTAssertEqual(first.stdout, "")
        XCTAssertEqual(first.stderr, "recorded 1 scene into \(baseline) (1 new, 0 changed since the previous baseline)\n")
        try Self.shadowed.write(toFile: scene, atomically: false, encoding: .utf8)
        let again = try caprof(["gate", scene, "--baseline", baseline, "--record"])
        XCTAssertEqual(again.code, 0)
        XCTAssertEqual(again.stdout, "")
        XCTAssertEqual(again.stderr, "recorded 1 scene into \(baseline) (0 new, 1 changed since the previous baseline)\n")
        XCTAssertEqual(try caprof(["gate", scene, "--baseline", baseline, "--record", "-q"]).stderr, "")
    }

    /// The shadow's blending is the card's (line 4), not the unchanged translucent bar's (line 3):
    /// one annotation, at the card's line, naming every rule it moved.
    func testANewShadowIsBlamedOnItsLayerOnceAtItsLine() throws {
        let (scene, baseline, _) = try record()
        try Self.shadowed.write(toFile: scene, atomically: false, encoding: .utf8)
        let gh = try caprof(["gate", scene, "--baseline", baseline, "--format", "github"])
        XCTAssertEqual(gh.code, 2, gh.stdout + gh.stderr)
        let annotations = gh.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }
        XCTAssertEqual(annotations.count, 1, gh.stdout)
        XCTAssertTrue(annotations[0].hasPrefix("::error file=\(scene),line=4,title=caprof gate%3A layer card::layer card: blends 0 px → "), gh.stdout)
        XCTAssertTrue(annotations[0].contains("moved blendedPixels "), gh.stdout)
        XCTAssertTrue(annotations[0].contains("; shadedPixels "), gh.stdout)
        XCTAssertFalse(gh.stdout.contains("bar"), gh.stdout)

        let text = try caprof(["gate", scene, "--baseline", baseline])
        XCTAssertTrue(text.stdout.contains("  culprits:\n      card (\(scene):4): blends 0 px → "), text.stdout)
        XCTAssertFalse(text.stdout.contains("      bar ("), text.stdout)

        let md = try caprof(["gate", scene, "--baseline", baseline, "--format", "markdown"])
        XCTAssertTrue(md.stdout.contains("| 🔺 | card | 4 | 0 px | 0 px | blends 0 px → "), md.stdout)
        XCTAssertFalse(md.stdout.contains("GiB"), md.stdout)
    }

    /// A scene absent from the baseline reports its high findings and passes; --fail-on high fails
    /// the job on them (exit 2); --fail-on medium fails a recorded scene whose finding is medium.
    func testNewSceneHighFindingsAndFailOn() throws {
        let (_, baseline, _) = try record()
        // A scrim over the whole canvas: a `blended` finding on 100 % of it, high (≥ 25 %).
        let fresh = try write("new.json", """
        {"caprof": 1, "canvas": {"width": 100, "height": 80, "scale": 2, "backgroundColor": "#FFFFFF"},
         "root": {"frame": [0, 0, 100, 80], "backgroundColor": "#FFFFFF", "sublayers": [
           {"name": "scrim", "frame": [0, 0, 100, 80], "backgroundColor": [0, 0, 0, 0.3]}
         ]}}
        """)
        let reported = try caprof(["gate", fresh, "--baseline", baseline])
        XCTAssertEqual(reported.code, 0, reported.stdout + reported.stderr)
        XCTAssertTrue(reported.stdout.contains("! warn  findings ≥ high 1: 1 finding at high severity (new scene, not in the baseline); reported only: --fail-on high fails the job on them"), reported.stdout)
        XCTAssertTrue(reported.stdout.contains("      scrim (\(fresh):3): blended, high (32.0 kpx) — findings ≥ high"), reported.stdout)
        let gh = try caprof(["gate", fresh, "--baseline", baseline, "--format", "github"])
        XCTAssertTrue(gh.stdout.hasPrefix("::warning file=\(fresh),line=3,title=caprof gate%3A layer scrim::"), gh.stdout)

        let failed = try caprof(["gate", fresh, "--baseline", baseline, "--fail-on", "high"])
        XCTAssertEqual(failed.code, 2, failed.stdout + failed.stderr)
        XCTAssertTrue(failed.stdout.contains("✗ FAIL  findings ≥ high 1"), failed.stdout)

        // The recorded scene: the bar's `blended` covers 2000 of 8000 points, 25 %: high. The
        // whole canvas at 0.3 is high too; a 40 × 30 card at 0.5 (15 %) is medium.
        let medium = try write("medium.json", GateCLITests.base.replacingOccurrences(of: "[1, 1, 1, 0.8]", with: "\"#FFFFFF\"")
            .replacingOccurrences(of: "\"#3366CC\"", with: "[0.2, 0.4, 0.8, 0.5]"))
        XCTAssertEqual(try caprof(["gate", medium, "--baseline", tmp.appendingPathComponent("m.json").path, "--record", "-q"]).code, 0)
        let m = tmp.appendingPathComponent("m.json").path
        XCTAssertEqual(try caprof(["gate", medium, "--baseline", m]).code, 0, "recorded, unchanged: passes")
        XCTAssertEqual(try caprof(["gate", medium, "--baseline", m, "--fail-on", "high"]).code, 0, "no high finding")
        let mediumRun = try caprof(["gate", medium, "--baseline", m, "--fail-on", "medium"])
        XCTAssertEqual(mediumRun.code, 2, mediumRun.stdout)
        XCTAssertTrue(mediumRun.stdout.contains("✗ FAIL  findings ≥ medium 1: 1 finding at medium severity or above (--fail-on medium)"), mediumRun.stdout)
        XCTAssertEqual(try caprof(["gate", medium, "--fail-on", "low"]).code, 64, "high or medium only")
    }

    /// Gate results are already decided: --fail-on cannot be applied to them again (exit 1).
    func testFailOnIsRefusedWhenMergingGateResults() throws {
        let scene = try write("scene.json", Self.base)
        let result = tmp.appendingPathComponent("gate-1.json").path
        XCTAssertEqual(try caprof(["gate", scene, "--format", "json", "-o", result, "-q"]).code, 0)
        let r = try caprof(["gate", result, "--fail-on", "high"])
        XCTAssertEqual(r.code, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("no --budget, --baseline, --record, --shard or --fail-on with them"), r.stderr)
    }

    func testHelpDocumentsFailOn() throws {
        let h = try caprof(["gate", "--help"])
        let flat = h.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(flat.contains("--fail-on <severity>"), flat)
        XCTAssertTrue(flat.contains("--fail-on high|medium makes findings at or above that severity fail every scene (exit 2)"), flat)
    }
}
