import Foundation
import XCTest

/// `caprof gate`, end to end: record a baseline, then change the scene and read the exit code.
final class GateCLITests: CLITestCase {
    /// An opaque background and one card.
    static let base = """
    {"caprof": 1, "canvas": {"width": 100, "height": 80, "scale": 2, "backgroundColor": "#FFFFFF"},
     "root": {"frame": [0, 0, 100, 80], "backgroundColor": "#FFFFFF", "sublayers": [
       {"name": "bar", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.8]},
       {"name": "card", "frame": [10, 30, 40, 30], "backgroundColor": "#3366CC"}
     ]}}
    """
    /// More expensive: the card clips a sublayer to rounded corners (an offscreen pass), and a
    /// translucent overlay is added.
    static let costlier = """
    {"caprof": 1, "canvas": {"width": 100, "height": 80, "scale": 2, "backgroundColor": "#FFFFFF"},
     "root": {"frame": [0, 0, 100, 80], "backgroundColor": "#FFFFFF", "sublayers": [
       {"name": "bar", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.8]},
       {"name": "card", "frame": [10, 30, 40, 30], "backgroundColor": "#3366CC", "masksToBounds": true, "cornerRadius": 8,
        "sublayers": [{"name": "photo", "frame": [0, 0, 20, 20], "backgroundColor": "#FF0000"}]},
       {"name": "scrim", "frame": [0, 0, 100, 80], "backgroundColor": [0, 0, 0, 0.3]}
     ]}}
    """
    /// Cheaper: the bar is opaque.
    static let cheaper = base.replacingOccurrences(of: "[1, 1, 1, 0.8]", with: "\"#FFFFFF\"")

    func record() throws -> (scene: String, baseline: String) {
        let scene = try write("scene.json", Self.base)
        let baseline = tmp.appendingPathComponent("baselines/gate.json").path
        try FileManager.default.createDirectory(atPath: tmp.appendingPathComponent("baselines").path, withIntermediateDirectories: true)
        let r = try caprof(["gate", scene, "--baseline", baseline, "--record"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("recorded 1 scene into \(baseline)"), r.stderr)
        return (scene, baseline)
    }

    func testEqualPassesCostlierFailsCheaperImproves() throws {
        let (scene, baseline) = try record()
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("{\n  \"caprofBaseline\" : 1"), text)
        XCTAssertTrue(text.contains("\"layer\" : \"bar\""), text)

        let equal = try caprof(["gate", scene, "--baseline", baseline])
        XCTAssertEqual(equal.code, 0, equal.stdout + equal.stderr)
        XCTAssertTrue(equal.stdout.contains("pass, 9 passed (1 scene)"), equal.stdout)

        try Self.costlier.write(toFile: scene, atomically: false, encoding: .utf8)
        let worse = try caprof(["gate", scene, "--baseline", baseline])
        XCTAssertEqual(worse.code, 2, worse.stdout + worse.stderr)
        XCTAssertTrue(worse.stdout.contains("✗ FAIL  offscreenPasses 1 (baseline 0, +1): above the baseline 0 by more than +0 % (limit 0)"), worse.stdout)
        XCTAssertTrue(worse.stdout.contains("card (\(scene):4): gained offscreen.rounded-clip"), worse.stdout)
        XCTAssertTrue(worse.stdout.contains("✗ FAIL  newFindings 2"), worse.stdout)
        XCTAssertTrue(worse.stdout.contains("layers changed since the baseline:"), worse.stdout)
        XCTAssertTrue(worse.stdout.contains("+ scrim (\(scene):6)"), worse.stdout)
        XCTAssertTrue(worse.stdout.contains("regression: "), worse.stdout)

        try Self.cheaper.write(toFile: scene, atomically: false, encoding: .utf8)
        let better = try caprof(["gate", scene, "--baseline", baseline])
        XCTAssertEqual(better.code, 4, better.stdout + better.stderr)
        XCTAssertTrue(better.stdout.contains("↓ better  blendedPixels"), better.stdout)
        XCTAssertTrue(better.stdout.contains("− bar (\(scene):3)"), better.stdout)
        XCTAssertTrue(better.stderr.contains("only improvements: lock them in by re-recording the baseline"), better.stderr)

        // Re-recording accepts the gain: equal again.
        XCTAssertEqual(try caprof(["gate", scene, "--baseline", baseline, "--record", "-q"]).code, 0)
        XCTAssertEqual(try caprof(["gate", scene, "--baseline", baseline]).code, 0)
    }

    func testOutputsForCI() throws {
        let (scene, baseline) = try record()
        try Self.costlier.write(toFile: scene, atomically: false, encoding: .utf8)
        let gh = try caprof(["gate", scene, "--baseline", baseline, "--format", "github"])
        XCTAssertEqual(gh.code, 2)
        let lines = gh.stdout.split(separator: "\n").map(String.init)
        // One annotation per culprit layer, at its line: the card (line 4) and the scrim (line 6).
        XCTAssertTrue(lines.contains { $0.hasPrefix("::error file=\(scene),line=4,title=caprof gate%3A layer card::layer card: gained offscreen.rounded-clip") }, gh.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("::error file=\(scene),line=6,title=caprof gate%3A layer scrim::layer scrim: gained blended") }, gh.stdout)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("::") || $0.hasPrefix("caprof gate: regression") }, gh.stdout)

        let junit = tmp.appendingPathComponent("gate.xml").path
        let j = try caprof(["gate", scene, "--baseline", baseline, "--format", "junit", "-o", junit])
        XCTAssertEqual(j.code, 2)
        let v = Process()
        v.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        v.arguments = ["-c", "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print(len(d.getElementsByTagName('testcase')), len(d.getElementsByTagName('failure')))", junit]
        let out = Pipe(); v.standardOutput = out
        try v.run(); let o = out.fileHandleForReading.readDataToEndOfFile(); v.waitUntilExit()
        XCTAssertEqual(v.terminationStatus, 0)
        let counts = String(decoding: o, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(counts.hasPrefix("10 "), "one profile testcase and 9 rules: \(counts)")
        XCTAssertNotEqual(counts, "9 0", counts)

        let md = try caprof(["gate", scene, "--baseline", baseline, "--format", "markdown"])
        XCTAssertTrue(md.stdout.hasPrefix("## ❌ caprof gate: regression"), md.stdout)
        let json = try caprof(["gate", scene, "--baseline", baseline, "--format", "json"])
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(obj["outcome"] as? String, "regression")
        XCTAssertEqual(obj["caprofGate"] as? Int, 1)
    }

    func testReportsAndBudgetFiles() throws {
        let (scene, baseline) = try record()
        // A JSON report of the scene is gated as the scene itself.
        let report = tmp.appendingPathComponent("report.json").path
        XCTAssertEqual(try caprof(["profile", scene, "--no-gpu", "--format", "json", "-o", report, "-q"]).code, 0)
        let fromReport = try caprof(["gate", report, "--baseline", baseline])
        XCTAssertEqual(fromReport.code, 0, fromReport.stdout + fromReport.stderr)
        XCTAssertTrue(fromReport.stdout.contains(scene), fromReport.stdout)
        // A budget with an absolute maximum and a warn-level rule.
        let budget = try write("budget.json", """
        {"caprofBudget": 1, "rules": [
          {"metric": "blendedPixels", "level": "warn", "max": 100},
          {"finding": "offscreen.rounded-clip", "level": "error", "scenes": ["*.json"]}
        ]}
        """)
        let warned = try caprof(["gate", scene, "--budget", budget])
        XCTAssertEqual(warned.code, 0, warned.stdout + warned.stderr)
        XCTAssertTrue(warned.stdout.contains("! warn  blendedPixels"), warned.stdout)
        try Self.costlier.write(toFile: scene, atomically: false, encoding: .utf8)
        XCTAssertEqual(try caprof(["gate", scene, "--budget", budget]).code, 2)
    }

    func testErrorsExitOne() throws {
        let scene = try write("scene.json", Self.base)
        let bad = try write("budget.json", "{\"caprofBudget\": 1, \"rules\": [\n  {\"metric\": \"overdraw\", \"level\": \"fatal\", \"max\": 2}]}")
        let r = try caprof(["gate", scene, "--budget", bad])
        XCTAssertEqual(r.code, 1)
        XCTAssertEqual(r.stderr, "\(bad):2:35: error: /rules/0/level: expected one of \"off\", \"warn\", \"error\", found \"fatal\"\n")
        let syntax = try write("syntax.json", "{\"caprofBudget\": 1, \"rules\": [}")
        let s = try caprof(["gate", scene, "--budget", syntax])
        XCTAssertEqual(s.code, 1)
        XCTAssertTrue(s.stderr.hasPrefix("\(syntax):1:31: error: "), s.stderr)
        let missing = try caprof(["gate", tmp.appendingPathComponent("nope.json").path])
        XCTAssertEqual(missing.code, 1)
        XCTAssertTrue(missing.stderr.contains("nope.json: error: no such scene, report or directory"), missing.stderr)
        let noBaseline = try caprof(["gate", scene, "--baseline", tmp.appendingPathComponent("none.json").path])
        XCTAssertEqual(noBaseline.code, 1)
        XCTAssertTrue(noBaseline.stderr.contains("record one with --record"), noBaseline.stderr)
        let invalid = try write("invalid.json", "{\"caprof\": 1, \"canvas\": {\"width\": 10, \"height\": 10}, \"root\": {\"opacty\": 1}}")
        let i = try caprof(["gate", invalid])
        XCTAssertEqual(i.code, 1)
        XCTAssertTrue(i.stderr.contains("unknown key 'opacty'"), i.stderr)
        XCTAssertEqual(try caprof(["gate", scene, "--record"]).code, 1)
        XCTAssertEqual(try caprof(["gate"]).code, 1)
        XCTAssertEqual(try caprof(["gate", scene, "--format", "xml"]).code, 64, "a command line that cannot be parsed")
    }

    func testHelpDocumentsTheExitCodes() throws {
        let h = try caprof(["gate", "--help"])
        XCTAssertEqual(h.code, 0)
        let flat = h.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(flat.contains("0 pass (warnings allowed); 2 regression"), flat)
        XCTAssertTrue(flat.contains("4 only improvements"), flat)
        XCTAssertTrue(flat.contains("1 error"), flat)
        XCTAssertTrue(try caprof(["--help"]).stdout.contains("gate"))
    }
}
