import XCTest
import Foundation
@testable import Gate

/// The output formats, each from one result.
final class GateOutputTests: XCTestCase, GateTestSupport {
    /// A regression, a warning, an improvement, a pass and a skip in one scene; a note in another.
    func result() -> GateResult {
        let base = measurement([.offscreenPasses: 1, .blendedPixels: 1000, .overdraw: 1.2, .shadedPixels: 10],
                               layers: [layer("bar", line: 3, ["blended": 1000])])
        let now = measurement([.offscreenPasses: 2, .blendedPixels: 1200, .overdraw: 1.0, .shadedPixels: 10],
                              layers: [layer("bar", line: 3, ["blended": 1200]), layer("card <&\"'>", line: 9, ["offscreen.rounded-clip": 900])])
        let b = budget(Rule(target: .metric(.offscreenPasses), level: .error, maxIncrease: .absolute(0), origin: "budget.json:2:3"),
                       Rule(target: .metric(.blendedPixels), level: .warn, maxIncrease: .relative(0.1)),
                       Rule(target: .metric(.overdraw), level: .error, maxIncrease: .relative(0.05)),
                       Rule(target: .metric(.shadedPixels), level: .error, max: 100),
                       Rule(target: .metric(.gpuMilliseconds), level: .warn, maxIncrease: .relative(0.1), runs: 3))
        return GateEvaluation.evaluate([("Examples/a.json", now), ("Examples/new.json", now)], budget: b,
                                       baseline: Baseline(scenes: ["Examples/a.json": base]), baselineFile: "base.json")
    }

    func testStatusesOfTheFixture() {
        let r = result()
        XCTAssertEqual(r.scenes[0].checks.map(\.status), [.regression, .warn, .improvement, .pass, .skipped])
        XCTAssertEqual(r.exitCode, 2)
    }

    func testJUnitIsWellFormedWithOneTestcasePerSceneAndRule() throws {
        let xml = GateJUnitReport().render(result())
        // Parsed by an independent XML parser (python3's minidom; FoundationXML needs libxml2 in the bundle).
        let out = try python(["-c", """
        import sys, xml.dom.minidom as m
        d = m.parse(sys.argv[1])
        print(",".join(s.getAttribute("name") for s in d.getElementsByTagName("testsuite")))
        print(len(d.getElementsByTagName("testcase")))
        print(len(d.getElementsByTagName("skipped")))
        for f in d.getElementsByTagName("failure"): print(f.getAttribute("message"))
        """], input: xml)
        let lines = out.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Examples/a.json,Examples/new.json")
        XCTAssertEqual(lines.dropFirst().first, "13", "a profile testcase per scene, one per rule, and the new scene's high findings")
        XCTAssertEqual(lines.dropFirst(2).first, "5", "the GPU timing rule in each scene, the increase rules of the scene without a baseline")
        let failures = Array(lines.dropFirst(3))
        XCTAssertEqual(failures.count, 1, xml)
        XCTAssertTrue(failures[0].hasPrefix("offscreenPasses 2 (baseline 1, +1, +100 %)"), failures[0])
        XCTAssertTrue(xml.contains("card &lt;&amp;&quot;&apos;&gt;"), xml)
        XCTAssertTrue(xml.contains("<testsuites name=\"caprof gate\" tests=\"13\" failures=\"1\" errors=\"0\" skipped=\"5\""), xml)
    }

    /// Runs python3 on `input` written to a file (its path is the last argument).
    func python(_ args: [String], input: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gate-\(UUID().uuidString).xml")
        try input.write(to: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = args + [file.path]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, String(decoding: e, as: UTF8.self))
        return String(decoding: o, as: UTF8.self)
    }

    func testGitHubAnnotationsPointAtTheLayerLine() {
        let out = GateGitHubAnnotations().render(result())
        let lines = out.split(separator: "\n").map(String.init)
        // One annotation per culprit layer, at its line, naming the rules it moved.
        XCTAssertTrue(lines.contains { $0 == "::error file=Examples/a.json,line=9,title=caprof gate%3A layer card <&\"'>::layer card <&\"'>: gained offscreen.rounded-clip — moved offscreenPasses 2 (baseline 1) REGRESSION" }, out)
        XCTAssertTrue(lines.contains { $0 == "::warning file=Examples/a.json,line=3,title=caprof gate%3A layer bar::layer bar: blended 1000 px → 1200 px — moved blendedPixels 1200 px (baseline 1000 px) warning" }, out)
        XCTAssertTrue(lines.contains { $0.hasPrefix("::notice file=Examples/a.json,title=caprof gate%3A overdraw::") }, out)
        XCTAssertEqual(lines.last, "caprof gate: " + result().verdict)
        for l in lines.dropLast() { XCTAssertFalse(l.dropFirst(2).contains("\n")) }
    }

    func testGitHubAnnotationsAreCappedAsGitHubCapsThem() {
        let m = measurement([.offscreenPasses: 3], layers: [layer("x", line: 1, ["offscreen.mask": 1])])
        let scenes = (0..<25).map { (scene: "s\($0).json", measurement: m) }
        let r = GateEvaluation.evaluate(scenes, budget: budget(Rule(target: .metric(.offscreenPasses), level: .error, max: 1),
                                                               Rule(target: .metric(.offscreenPasses), level: .warn, max: 1, scenes: ["s1?.json"])),
                                        baseline: nil)
        let lines = GateGitHubAnnotations().render(r).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("::error ") }.count, 10)
        XCTAssertEqual(lines.filter { $0.hasPrefix("::warning ") }.count, 10)
        XCTAssertEqual(lines.filter { $0.hasPrefix("::notice ") }, ["::notice title=caprof gate::5 more errors not annotated (GitHub shows 10 per kind and step); see the step summary or the JSON output"])
    }

    func testWorkflowCommandEscaping() {
        XCTAssertEqual(GateGitHubAnnotations.escapeData("a%b\nc\r"), "a%25b%0Ac%0D")
        XCTAssertEqual(GateGitHubAnnotations.escapeProperty("a:b,c"), "a%3Ab%2Cc")
    }

    func testMarkdownAndTextAndJSON() throws {
        let r = result()
        let md = GateMarkdownReport().render(r)
        XCTAssertTrue(md.hasPrefix("## ❌ caprof gate: regression: 1 rule failed"), md)
        XCTAssertTrue(md.contains("| ❌ regression | offscreenPasses | 2 | 1 | +0 over baseline | culprits: card &lt;&amp;\"'> |"), md)
        XCTAssertTrue(md.contains("| ❌ regression | card &lt;&amp;\"'> | 9 | offscreenPasses | gained offscreen.rounded-clip |"), md)
        XCTAssertTrue(md.contains("**Layers changed since the baseline**"), md)
        XCTAssertTrue(md.contains("> not in the baseline"), md)
        let text = GateTextReport().render(r)
        XCTAssertTrue(text.contains("✗ FAIL  offscreenPasses 2 (baseline 1, +1, +100 %): above the baseline 1 by more than +0 (limit 1)"), text)
        XCTAssertTrue(text.contains("✓ pass  shadedPixels 10 px"), text)
        XCTAssertTrue(text.contains("+ card <&\"'> (Examples/a.json:9): 0 px → 900 px; gained offscreen.rounded-clip"), text)
        XCTAssertFalse(text.contains("\u{1B}["))
        XCTAssertTrue(GateTextReport(colors: true).render(r).contains("\u{1B}[1;31m"))
        let json = try GateOutputFormat.json.render(r)
        XCTAssertEqual(try JSONDecoder().decode(GateResult.self, from: Data(json.utf8)), r)
        XCTAssertTrue(json.contains("\"outcome\" : \"regression\""))
    }
}
