import XCTest
import Foundation
@testable import Gate

/// The gate never hides its worst culprit, and a broken scene does not erase the report.
final class GateCulpritsAndErrorsTests: XCTestCase, GateTestSupport {
    /// Seven layers blended, listed by name with costs that do not follow the names: the check's
    /// culprits are ordered by pixels (most first), all seven are in the result (JSON), and text
    /// outputs show five and say how many they left out.
    func testCulpritsAreSortedByCostAndNoneIsLost() throws {
        let costs = ["a": 10, "b": 700, "c": 30, "d": 5_000, "e": 1, "f": 90, "g": 2_000]
        let m = measurement([.blendedPixels: 7_831], layers: costs.map { layer($0.key, line: 1, ["blended": $0.value]) }.sorted { $0.layer < $1.layer })
        let r = evaluate(m, base: nil, budget(Rule(target: .metric(.blendedPixels), level: .error, max: 100)))
        let check = try XCTUnwrap(onlyCheck(r))
        XCTAssertEqual(check.status, .regression)
        XCTAssertEqual(check.culprits.map(\.layer), ["d", "g", "b", "f", "c", "a", "e"])
        XCTAssertEqual(check.culprits.map(\.pixels), [5_000, 2_000, 700, 90, 30, 10, 1])

        let text = try GateOutputFormat.text.render(r)
        XCTAssertTrue(text.contains("… and 2 more layers (--format json lists every one)"), text)
        let dLine = try XCTUnwrap(text.range(of: "      d (")), gLine = try XCTUnwrap(text.range(of: "      g ("))
        XCTAssertLessThan(dLine.lowerBound, gLine.lowerBound, "the worst culprit first")
        XCTAssertFalse(text.contains("      e ("), "the cheapest is left out of the text")
        XCTAssertTrue(try GateOutputFormat.markdown.render(r).contains("… and 2 more (JSON lists every one)"))
        XCTAssertTrue(try GateOutputFormat.junit.render(r).contains("… and 2 more layers"))
        XCTAssertTrue(try GateOutputFormat.github.render(r).contains("layer d:"), "the annotation names the worst culprit")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(GateOutputFormat.json.render(r).utf8)) as? [String: Any])
        let scenes = try XCTUnwrap(json["scenes"] as? [[String: Any]])
        let culprits = try XCTUnwrap(((scenes[0]["checks"] as? [[String: Any]])?[0])?["culprits"] as? [[String: Any]])
        XCTAssertEqual(culprits.count, 7, "JSON lists them all")
    }

    /// Against a baseline the culprits are the layers whose cost changed, the largest change first.
    func testBaselineCulpritsFollowTheLargestChange() throws {
        let before = measurement([.blendedPixels: 300], layers: [layer("x", ["blended": 100]), layer("y", ["blended": 100]), layer("z", ["blended": 100])])
        let after = measurement([.blendedPixels: 1_450], layers: [layer("x", ["blended": 150]), layer("y", ["blended": 1_100]), layer("z", ["blended": 200])])
        let r = evaluate(after, base: before, budget(Rule(target: .metric(.blendedPixels), level: .error, maxIncrease: .relative(0))))
        XCTAssertEqual(onlyCheck(r)?.culprits.map(\.layer), ["y", "z", "x"])
        XCTAssertEqual(onlyCheck(r)?.culprits.map(\.pixels), [1_000, 100, 50])
    }

    /// A catalog of two scenes where the first fails to load: an error entry in every format,
    /// the other scene still checked, the exit code 1.
    func gateWithABrokenScene() -> GateResult {
        let ok = measurement([.offscreenPasses: 1], layers: [layer("card", line: 4, ["offscreen.mask": 100])])
        let failure = SceneFailure(message: "Examples/broken.json:3:32: error: /root/bounds/3: expected a number, found a string", line: 3, column: 32)
        return GateEvaluation.evaluate([("Examples/ok.json", ok)], budget: budget(Rule(target: .metric(.offscreenPasses), level: .error, max: 4)),
                                       baseline: nil, failures: [(position: 0, scene: "Examples/broken.json", failure: failure)],
                                       seconds: ["Examples/ok.json": 0.25, "Examples/broken.json": 0.002])
    }

    func testBrokenSceneIsAnErrorEntryInEveryFormat() throws {
        let r = gateWithABrokenScene()
        XCTAssertEqual(r.scenes.map(\.scene), ["Examples/broken.json", "Examples/ok.json"], "catalog order kept")
        XCTAssertEqual(r.outcome, .error)
        XCTAssertEqual(r.exitCode, 1)
        XCTAssertEqual(r.counts.errors, 1)
        XCTAssertEqual(r.scenes[1].checks.first?.status, .pass, "the other scene is still checked")

        let text = try GateOutputFormat.text.render(r)
        XCTAssertTrue(text.contains("✗ ERROR  Examples/broken.json:3:32: error:"), text)
        XCTAssertTrue(text.contains("offscreenPasses 1"), text)
        XCTAssertTrue(text.contains("error: 1 scene could not be profiled"), text)

        let md = try GateOutputFormat.markdown.render(r)
        XCTAssertTrue(md.contains("| ❗ error | load and profile | – | – | – | Examples/broken.json:3:32: error:"), md)
        XCTAssertTrue(md.contains("### `Examples/ok.json`: ✅ pass"), md)

        let gh = try GateOutputFormat.github.render(r)
        XCTAssertTrue(gh.contains("::error file=Examples/broken.json,line=3,col=32,title=caprof gate%3A scene error::Examples/broken.json:3:32: error:"), gh)

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(GateOutputFormat.json.render(r).utf8)) as? [String: Any])
        XCTAssertEqual(json["outcome"] as? String, "error")
        let first = try XCTUnwrap((json["scenes"] as? [[String: Any]])?.first)
        XCTAssertEqual((first["error"] as? [String: Any])?["line"] as? Int, 3)
        // And it merges back (a shard's result read by a later gate).
        let decoded = try GateResult.decode(Data(GateOutputFormat.json.render(r).utf8), file: "r.json")
        XCTAssertEqual(decoded, r)
    }

    /// JUnit: an `<error>` test case for the broken scene, `time` attributes in seconds, and a
    /// classname without the file extension's dot (Jenkins would read "cards.json" as package
    /// "cards", class "json"); the testsuite keeps the real path.
    func testJUnitHasErrorsTimesAndAClassnameWithoutDots() throws {
        let xml = try GateOutputFormat.junit.render(gateWithABrokenScene())
        XCTAssertTrue(xml.contains("<testsuites name=\"caprof gate\" tests=\"3\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.252\">"), xml)
        XCTAssertTrue(xml.contains("<testsuite name=\"Examples/broken.json\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.002\">"), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"Examples/broken_json\" name=\"profile\" file=\"Examples/broken.json\" time=\"0.002\">"), xml)
        XCTAssertTrue(xml.contains("<error message=\"Examples/broken.json:3:32: error: /root/bounds/3: expected a number, found a string\" type=\"scene-error\">"), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"Examples/ok_json\" name=\"offscreenPasses\" file=\"Examples/ok.json\" time=\"0.000\"/>"), xml)
        XCTAssertTrue(xml.contains("<testcase classname=\"Examples/ok_json\" name=\"profile\" file=\"Examples/ok.json\" time=\"0.250\"/>"), xml)
        // Every classname is free of dots.
        let classnames = xml.components(separatedBy: "classname=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertFalse(classnames.isEmpty)
        XCTAssertTrue(classnames.allSatisfy { !$0.contains(".") }, "\(classnames)")
    }
}
