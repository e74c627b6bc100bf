import XCTest
@testable import Gate

/// Budget files: what they may say, and the errors (file, pointer, line:column) for what they may not.
final class BudgetParserTests: XCTestCase {
    func parse(_ text: String) throws -> Budget { try BudgetParser.parse(Array(text.utf8), file: "budget.json") }

    func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> GateError? {
        do { _ = try parse(text); XCTFail("parsed", file: file, line: line); return nil } catch let e as GateError { return e } catch {
            XCTFail("\(error)", file: file, line: line); return nil
        }
    }

    func testEveryRuleKind() throws {
        let b = try parse("""
        {"caprofBudget": 1, "description": "ours", "rules": [
          {"metric": "offscreenPasses", "level": "error", "max": 4, "maxIncrease": {"absolute": 1}},
          {"metric": "blendedPixels", "level": "warn", "maxIncrease": {"relative": 0.05}, "scenes": ["Examples/*.json"]},
          {"finding": "offscreen.rounded-clip", "level": "off"},
          {"finding": "raster-cache.miss", "level": "error", "max": 2},
          {"metric": "gpuMilliseconds", "level": "warn", "runs": 5, "maxIncrease": {"relative": 0.1}, "description": "noisy"}
        ]}
        """)
        XCTAssertEqual(b.source, "budget.json")
        XCTAssertEqual(b.rules.count, 5)
        XCTAssertEqual(b.rules[0], Rule(target: .metric(.offscreenPasses), level: .error, max: 4, maxIncrease: .absolute(1), origin: "budget.json:2:3"))
        XCTAssertEqual(b.rules[1].maxIncrease, .relative(0.05))
        XCTAssertEqual(b.rules[1].scenes, ["Examples/*.json"])
        XCTAssertEqual(b.rules[2].target, .finding("offscreen.rounded-clip"))
        XCTAssertEqual(b.rules[2].level, .off)
        XCTAssertEqual(b.rules[4].runs, 5)
        XCTAssertEqual(b.runs(for: "a.json"), 5)
        XCTAssertTrue(b.needsGPU(for: "a.json"))
        XCTAssertTrue(b.measuresTime(for: "a.json"))
    }

    func testExtendsDefaultPutsTheDefaultRulesFirst() throws {
        let b = try parse(#"{"caprofBudget": 1, "extends": "default", "rules": [{"metric": "overdraw", "level": "off", "max": 1}]}"#)
        XCTAssertEqual(b.rules.count, Budget.standard.rules.count + 1)
        XCTAssertFalse(b.rules(for: "x.json").contains { $0.target == .metric(.overdraw) }, "the later off rule overrides the default one")
        XCTAssertFalse(b.measuresTime(for: "x.json"))
    }

    func testSyntaxErrorsHaveLineAndColumn() {
        let e = error("{\"caprofBudget\": 1,\n \"rules\": [,]}")
        XCTAssertEqual(e?.line, 2)
        XCTAssertEqual(e?.column, 12)
        XCTAssertTrue(e?.description.hasPrefix("budget.json:2:12: error: ") ?? false, e?.description ?? "")
        XCTAssertEqual(error("")?.description.contains("empty"), true)
    }

    func testUnknownKeysNameTheirPointerAndSuggest() {
        let e = error("""
        {"caprofBudget": 1, "rules": [
          {"metric": "overdraw", "lvel": "error", "max": 2}]}
        """)
        XCTAssertEqual(e?.description, "budget.json:2:26: error: /rules/0/lvel: unknown key \"lvel\" (did you mean \"level\"?); keys here: metric, finding, level, max, maxIncrease, scenes, runs, description")
    }

    func testBadValues() {
        let cases: [(String, String)] = [
            (#"{"rules": []}"#, "missing \"caprofBudget\": 1"),
            (#"{"caprofBudget": 2, "rules": []}"#, "/caprofBudget: unsupported budget version 2"),
            (#"{"caprofBudget": 1}"#, "missing \"rules\""),
            (#"{"caprofBudget": 1, "rules": {}}"#, "/rules: expected an array of rules, found an object"),
            (#"{"caprofBudget": 1, "extends": "lighthouse:all", "rules": []}"#, "/extends: \"extends\" can only be \"default\""),
            (#"{"caprofBudget": 1, "rules": [{"level": "error"}]}"#, "/rules/0: a rule needs \"metric\""),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "finding": "blended", "level": "error"}]}"#, "either \"metric\" or \"finding\""),
            (#"{"caprofBudget": 1, "rules": [{"metric": "offscreenPass", "level": "error", "max": 1}]}"#, "/rules/0/metric: unknown metric \"offscreenPass\" (did you mean \"offscreenPasses\"?)"),
            (#"{"caprofBudget": 1, "rules": [{"finding": "blend", "level": "error"}]}"#, "/rules/0/finding: unknown finding id \"blend\""),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "level": "fatal", "max": 1}]}"#, "/rules/0/level: expected one of \"off\", \"warn\", \"error\", found \"fatal\""),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "max": 1}]}"#, "/rules/0: missing \"level\""),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "level": "error", "max": -1}]}"#, "/rules/0/max: expected a number ≥ 0, found -1"),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "level": "error"}]}"#, "needs \"max\" or \"maxIncrease\""),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "level": "error", "maxIncrease": {"relative": 0.1, "absolute": 1}}]}"#, "/rules/0/maxIncrease: expected {\"relative\": fraction} or {\"absolute\": number} (exactly one)"),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "level": "error", "maxIncrease": {"percent": 5}}]}"#, "/rules/0/maxIncrease/percent: unknown key"),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "level": "error", "max": 1, "scenes": "a.json"}]}"#, "/rules/0/scenes: expected an array of scene patterns"),
            (#"{"caprofBudget": 1, "rules": [{"metric": "cpuMilliseconds", "level": "warn", "maxIncrease": {"relative": 0.1}}]}"#, "cpuMilliseconds is a timing metric: it needs a noise rule, \"runs\""),
            (#"{"caprofBudget": 1, "rules": [{"metric": "gpuMilliseconds", "level": "warn", "runs": 5, "max": 3}]}"#, "needs \"maxIncrease\": {\"relative\": fraction}"),
            (#"{"caprofBudget": 1, "rules": [{"metric": "gpuMilliseconds", "level": "warn", "runs": 2, "maxIncrease": {"relative": 0.1}}]}"#, "/rules/0/runs: expected a whole number of runs from 3 to 100, found 2"),
            (#"{"caprofBudget": 1, "rules": [{"metric": "overdraw", "level": "error", "runs": 5, "max": 1}]}"#, "/rules/0/runs: \"runs\" applies to timing metrics only"),
        ]
        for (text, expected) in cases {
            guard let e = error(text) else { continue }
            XCTAssertTrue(e.description.contains(expected), "\(text)\n→ \(e.description)\nexpected: \(expected)")
            XCTAssertTrue(e.description.hasPrefix("budget.json:1:"), e.description)
        }
    }

    func testMissingFile() {
        XCTAssertThrowsError(try BudgetParser.load(path: "/nonexistent/budget.json")) { e in
            XCTAssertEqual((e as? GateError)?.description, "/nonexistent/budget.json: error: cannot read the budget file: it does not exist or is not accessible")
        }
    }
}
