import Foundation
import XCTest

/// A catalog with a scene that fails to load: every other scene is still reported, the broken
/// one is an error entry in every format, and the run fails.
final class BrokenCatalogCLITests: CLITestCase {
    func catalog() throws -> String {
        let dir = tmp.appendingPathComponent("catalog")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ok = #"{"caprof": 1, "canvas": {"width": 20, "height": 20}, "root": {"bounds": [0, 0, 20, 20], "position": [10, 10], "backgroundColor": [1, 1, 1, 0.5]}}"#
        try ok.write(to: dir.appendingPathComponent("b-ok.json"), atomically: false, encoding: .utf8)
        try ok.write(to: dir.appendingPathComponent("c-ok.json"), atomically: false, encoding: .utf8)
        let broken = "{\"caprof\": 1,\n \"canvas\": {\"width\": 10, \"height\": 10},\n \"root\": {\"bounds\": [0, 0, 10, \"x\"]}}\n"
        try broken.write(to: dir.appendingPathComponent("a-broken.json"), atomically: false, encoding: .utf8)
        return dir.path
    }

    func testProfileCatalogKeepsTheOtherScenesInEveryFormat() throws {
        let dir = try catalog()
        let where_ = "a-broken.json:3:32: error: /root/bounds/3: expected a number"
        let text = try caprof([dir, "--no-gpu"])
        XCTAssertEqual(text.code, 65, "a data error, as a single run of the broken scene gives")
        XCTAssertTrue(text.stdout.contains("not profiled") && text.stdout.contains(where_), text.stdout)
        XCTAssertTrue(text.stdout.contains("b-ok.json") && text.stdout.contains("c-ok.json"), text.stdout)
        XCTAssertTrue(text.stderr.contains(where_), text.stderr)

        let md = try caprof([dir, "--no-gpu", "--format", "markdown"])
        XCTAssertEqual(md.code, 65)
        let rows = md.stdout.split(separator: "\n").filter { $0.hasPrefix("| `") }
        XCTAssertEqual(rows.count, 3, md.stdout)
        XCTAssertTrue(rows[0].contains("a-broken.json") && rows[0].contains("❗ error: "), "catalog order: \(rows)")

        let out = tmp.appendingPathComponent("c.json").path
        let json = try caprof([dir, "--no-gpu", "--format", "json", "-o", out])
        XCTAssertEqual(json.code, 65)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        XCTAssertEqual((obj["scenes"] as? [Any])?.count, 2)
        let errors = try XCTUnwrap(obj["errors"] as? [[String: Any]])
        XCTAssertEqual(errors.count, 1)
        XCTAssertEqual(errors[0]["line"] as? Int, 3)
        XCTAssertEqual(errors[0]["column"] as? Int, 32)
        XCTAssertEqual(errors[0]["position"] as? Int, 0)
        let schema = try write("catalog.schema.json", caprof(["profile", "--catalog-schema"]).stdout)
        try assertValidates(out, against: schema)
    }

    func testGateReportsTheBrokenSceneAndExitsOne() throws {
        let dir = try catalog()
        for format in ["text", "markdown", "junit", "github", "json"] {
            let r = try caprof(["gate", dir, "--format", format])
            XCTAssertEqual(r.code, 1, "\(format): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("a-broken.json"), "\(format): \(r.stdout)")
            // GitHub annotations name only what needs attention; the verdict counts every scene.
            XCTAssertTrue(r.stdout.contains(format == "github" ? "(3 scenes)" : "c-ok.json"), "\(format): the other scenes are still reported: \(r.stdout)")
        }
        let junit = try caprof(["gate", dir, "--format", "junit"]).stdout
        XCTAssertTrue(junit.contains("<error message=\""), junit)
        XCTAssertTrue(junit.contains("classname=\"") && junit.contains("a-broken_json\""), junit)
    }

    /// Sharded: the shard holding the broken scene keeps its error entry in its place, the
    /// shards still add up to the catalog, and the gate over them reports the error (exit 1).
    func testShardsKeepTheErrorEntryAndTheGateReportsIt() throws {
        let dir = try catalog()
        var files: [String] = []
        for i in 1...2 {
            let out = tmp.appendingPathComponent("shard-\(i).json").path
            let r = try caprof(["profile", dir, "--no-gpu", "--shard", "\(i)/2", "--format", "json", "-o", out])
            XCTAssertEqual(r.code, i == 1 ? 65 : 0, r.stderr)   // round-robin: a-broken and c-ok in shard 1
            files.append(out)
        }
        let g = try caprof(["gate"] + files + ["--format", "json"])
        XCTAssertEqual(g.code, 1, g.stderr)
        let result = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(g.stdout.utf8)) as? [String: Any])
        let scenes = try XCTUnwrap(result["scenes"] as? [[String: Any]])
        XCTAssertEqual(scenes.compactMap { ($0["scene"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } },
                       ["a-broken.json", "b-ok.json", "c-ok.json"], "catalog order")
        XCTAssertNotNil(scenes[0]["error"])
        XCTAssertNil(scenes[1]["error"]); XCTAssertNil(scenes[2]["error"])
    }
}
