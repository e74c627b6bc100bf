import Foundation
import XCTest

/// Catalogs, end to end: `caprof profile DIR`, `--shard I/N` for profile and gate, and gating
/// the merged shards' outputs.
final class CatalogCLITests: CLITestCase {
    /// Three small scenes: one animated over 3 frames, two static.
    static let scenes: [String: String] = [
        "a-cards.json": ProfileCLITests.scene,
        "b-bar.json": GateCLITests.base,
        "c-clip.json": GateCLITests.costlier,
    ]

    /// A directory with the three scenes, and things a catalog must skip: a report, a hidden
    /// file, a non-JSON file and a subdirectory.
    func makeCatalog() throws -> String {
        let dir = tmp.appendingPathComponent("scenes").path
        try FileManager.default.createDirectory(atPath: dir + "/nested", withIntermediateDirectories: true)
        for (name, text) in Self.scenes { try text.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8) }
        try Self.scenes["b-bar.json"]!.write(toFile: dir + "/nested/d.json", atomically: false, encoding: .utf8)
        try "not a scene".write(toFile: dir + "/notes.txt", atomically: false, encoding: .utf8)
        try "{}".write(toFile: dir + "/.hidden.json", atomically: false, encoding: .utf8)
        let r = try caprof(["profile", dir + "/b-bar.json", "--no-gpu", "--format", "json", "-o", dir + "/zz-report.json", "-q"])
        XCTAssertEqual(r.code, 0, r.stderr)
        return dir
    }

    func object(_ path: String) throws -> [String: Any] {
        let d = try XCTUnwrap(FileManager.default.contents(atPath: path), path)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: d) as? [String: Any])
    }
    func object(text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
    func files(_ catalog: [String: Any]) -> [String] {
        ((catalog["scenes"] as? [[String: Any]]) ?? []).compactMap { ($0["scene"] as? [String: Any])?["file"] as? String }
    }

    func testProfileCatalogReportsPerSceneAndTotals() throws {
        let dir = try makeCatalog()
        let out = tmp.appendingPathComponent("catalog.json").path
        let r = try caprof(["profile", dir, "--no-gpu", "--format", "json", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote \(out) (json, 3 scenes"), r.stderr)
        let c = try object(out)
        XCTAssertEqual(c["caprofCatalog"] as? Int, 1)
        XCTAssertNil(c["shard"])
        XCTAssertEqual(files(c), ["a-cards.json", "b-bar.json", "c-clip.json"].map { dir + "/" + $0 }, "sorted by name; reports, hidden files and subdirectories skipped")

        // Totals are the sums of the per-scene numbers.
        let scenes = try XCTUnwrap(c["scenes"] as? [[String: Any]])
        let totals = try XCTUnwrap(c["totals"] as? [String: Any])
        func int(_ v: Any?) -> Int { (v as? NSNumber)?.intValue ?? -1 }
        func sum(_ f: ([String: Any]) -> Int) -> Int { scenes.map(f).reduce(0, +) }
        func sceneTotals(_ s: [String: Any]) -> [String: Any] { s["totals"] as? [String: Any] ?? [:] }
        func frames(_ s: [String: Any]) -> [[String: Any]] { s["frames"] as? [[String: Any]] ?? [] }
        func findings(_ s: [String: Any]) -> [[String: Any]] { s["findings"] as? [[String: Any]] ?? [] }
        func counter(_ s: [String: Any], _ k: String) -> Int { frames(s).map { int(($0["counters"] as? [String: Any])?[k]) }.reduce(0, +) }
        XCTAssertEqual(int(totals["scenes"]), 3)
        XCTAssertEqual(int(totals["frames"]), sum { int(sceneTotals($0)["frames"]) })
        XCTAssertEqual(int(totals["frames"]), 5, "3 + 1 + 1")
        XCTAssertEqual(int(totals["layers"]), sum { int(($0["scene"] as? [String: Any])?["layers"]) })
        XCTAssertEqual(int(totals["findings"]), sum { findings($0).count })
        XCTAssertGreaterThan(int(totals["findings"]), 0)
        XCTAssertEqual(int(totals["offscreenPasses"]), sum { int(sceneTotals($0)["offscreenPasses"]) })
        XCTAssertEqual(int(totals["offscreenPixels"]), sum { int(sceneTotals($0)["offscreenPixels"]) })
        XCTAssertEqual(int(totals["shadedPixels"]), sum { counter($0, "shadedPixels") })
        XCTAssertEqual(int(totals["blendedPixels"]), sum { counter($0, "blendedPixels") })
        XCTAssertEqual(int(totals["warnings"]), sum { ($0["warnings"] as? [Any])?.count ?? 0 })
        XCTAssertEqual(int(totals["gpuScenes"]), 0)
        let bySeverity = try XCTUnwrap(totals["findingsBySeverity"] as? [String: Any])
        for sev in ["high", "medium", "low"] {
            XCTAssertEqual(int(bySeverity[sev]), sum { findings($0).filter { $0["severity"] as? String == sev }.count }, sev)
        }
        let byId = try XCTUnwrap(totals["findingsById"] as? [String: Any])
        XCTAssertEqual(byId.values.map(int).reduce(0, +), int(totals["findings"]))
        let stages = try XCTUnwrap(totals["stageNanoseconds"] as? [String: Any])
        for s in ["evaluate", "plan", "analyze"] {
            XCTAssertEqual(int(stages[s]), sum { int(((sceneTotals($0)["stages"] as? [String: Any])?[s] as? [String: Any])?["totalNanoseconds"]) }, s)
        }

        // Each scene's report is the one a run of that scene alone gives (but for times).
        let alone = try caprof(["profile", dir + "/c-clip.json", "--no-gpu", "--format", "json"])
        XCTAssertEqual(alone.code, 0, alone.stderr)
        let single = try object(text: alone.stdout)
        XCTAssertEqual(single["caprofReport"] as? Int, 2, "one scene keeps the plain report")
        XCTAssertNil(single["caprofCatalog"])
        XCTAssertEqual(try JSONSerialization.data(withJSONObject: single["findings"]!, options: .sortedKeys),
                       try JSONSerialization.data(withJSONObject: scenes[2]["findings"]!, options: .sortedKeys))

        // The catalog validates against the printed catalog schema.
        let schema = try caprof(["profile", "--catalog-schema"])
        XCTAssertEqual(schema.code, 0)
        let schemaPath = try write("catalog.schema.json", schema.stdout)
        try assertValidates(out, against: schemaPath)

        // Text: one block per scene, then the totals line; several scene arguments in their order.
        let text = try caprof(["profile", dir + "/c-clip.json", dir + "/a-cards.json", "--no-gpu"])
        XCTAssertEqual(text.code, 0, text.stderr)
        let c1 = try XCTUnwrap(text.stdout.range(of: dir + "/c-clip.json")), a1 = try XCTUnwrap(text.stdout.range(of: dir + "/a-cards.json"))
        XCTAssertLessThan(c1.lowerBound, a1.lowerBound, "input order")
        let last = text.stdout.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.hasPrefix("catalog: 2 scenes · 4 frames · "), last)

        // Markdown: one row per scene and a totals row.
        let md = try caprof(["profile", dir, "--no-gpu", "--format", "markdown"])
        XCTAssertEqual(md.code, 0, md.stderr)
        let rows = md.stdout.split(separator: "\n").filter { $0.hasPrefix("| ") }
        XCTAssertEqual(rows.count, 5, md.stdout)
        XCTAssertTrue(rows.last!.hasPrefix("| **total** | 5 | \(int(totals["findings"])) | "), md.stdout)

        // html and trace describe one scene: refused for a catalog, as usage errors.
        for f in ["html", "trace"] {
            let refused = try caprof(["profile", dir, "--no-gpu", "--format", f])
            XCTAssertEqual(refused.code, 64, refused.stderr)
            XCTAssertTrue(refused.stderr.contains("--format \(f) describes one scene"), refused.stderr)
        }
        XCTAssertEqual(try caprof(["profile", dir, "--no-gpu", "--overlays", tmp.appendingPathComponent("o").path]).code, 64)
    }

    func testShardsPartitionTheCatalogDeterministically() throws {
        let dir = try makeCatalog()
        let all = ["a-cards.json", "b-bar.json", "c-clip.json"].map { dir + "/" + $0 }
        for n in 1...4 {
            var union: [String] = []
            for i in 1...n {
                let r = try caprof(["profile", dir, "--no-gpu", "--format", "json", "--shard", "\(i)/\(n)", "-q"])
                XCTAssertEqual(r.code, 0, r.stderr)
                let c = try object(text: r.stdout)
                let got = files(c)
                XCTAssertEqual(got, all.enumerated().filter { $0.offset % n == i - 1 }.map(\.element), "\(i)/\(n): round-robin on sorted paths")
                let shard = try XCTUnwrap(c["shard"] as? [String: Any])
                XCTAssertEqual(shard["index"] as? Int, i); XCTAssertEqual(shard["count"] as? Int, n)
                XCTAssertEqual(shard["catalogScenes"] as? Int, 3)
                XCTAssertEqual(shard["positions"] as? [Int], got.map { all.firstIndex(of: $0)! })
                // Deterministic across runs (and across argument orders).
                let again = try caprof(["profile", all[2], all[0], all[1], "--no-gpu", "--format", "json", "--shard", "\(i)/\(n)", "-q"])
                XCTAssertEqual(Set(files(try object(text: again.stdout))), Set(got), "\(i)/\(n) again")
                union += got
            }
            XCTAssertEqual(union.sorted(), all, "shards of \(n): disjoint, and together the catalog")
        }
        // The gate's shards are the same shares.
        let g = try caprof(["gate", dir, "--shard", "2/2", "--format", "json", "-q"])
        XCTAssertEqual(g.code, 0, g.stdout + g.stderr)
        let result = try object(text: g.stdout)
        XCTAssertEqual((result["scenes"] as? [[String: Any]])?.compactMap { $0["scene"] as? String }, [all[1]])
        XCTAssertEqual((result["shard"] as? [String: Any])?["positions"] as? [Int], [1])
    }

    func testBadShardSyntaxIsAUsageError() throws {
        let dir = try makeCatalog()
        for cmd in ["profile", "gate"] {
            for bad in ["0/2", "3/2", "a/b", "1", "1/0"] {
                let r = try caprof([cmd, dir, "--no-gpu", "--shard", bad])
                XCTAssertEqual(r.code, 64, "\(cmd) --shard \(bad): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("expected I/N"), r.stderr)
            }
        }
    }

    func testGateOverMergedShardsDecidesAsTheWholeCatalog() throws {
        let dir = try makeCatalog()
        try FileManager.default.removeItem(atPath: dir + "/zz-report.json")
        let baseline = tmp.appendingPathComponent("baseline.json").path
        XCTAssertEqual(try caprof(["gate", dir, "--baseline", baseline, "--record", "-q"]).code, 0)

        func compare(expect code: Int32) throws {
            let whole = try caprof(["gate", dir, "--baseline", baseline])
            XCTAssertEqual(whole.code, code, whole.stdout + whole.stderr)
            // CI matrix: profile reports per shard, then one gate over them.
            var reports: [String] = []
            var results: [String] = []
            for i in 1...2 {
                let report = tmp.appendingPathComponent("shard-\(i).json").path
                let p = try caprof(["profile", dir, "--shard", "\(i)/2", "--no-gpu", "--format", "json", "-o", report, "-q"])
                XCTAssertEqual(p.code, 0, p.stderr)
                reports.append(report)
                let result = tmp.appendingPathComponent("gate-\(i).json").path
                let g = try caprof(["gate", dir, "--shard", "\(i)/2", "--baseline", baseline, "--format", "json", "-o", result, "-q"])
                XCTAssertTrue([0, 2, 4].contains(g.code), g.stderr)
                results.append(result)
            }
            let merged = try caprof(["gate"] + reports.reversed() + ["--baseline", baseline])
            XCTAssertEqual(merged.code, code, merged.stdout + merged.stderr)
            XCTAssertEqual(merged.stdout, whole.stdout, "the same scenes in the same order, the same decision")
            let mergedResults = try caprof(["gate"] + results.reversed())
            XCTAssertEqual(mergedResults.code, code, mergedResults.stdout + mergedResults.stderr)
            XCTAssertEqual(mergedResults.stdout, whole.stdout)
            // A missing shard is an error, not a smaller catalog.
            let partial = try caprof(["gate", reports[0], "--baseline", baseline])
            XCTAssertEqual(partial.code, 1)
            XCTAssertTrue(partial.stderr.contains("shard 2/2 missing"), partial.stderr)
            XCTAssertEqual(try caprof(["gate", results[1]]).code, 1)
        }
        try compare(expect: 0)
        // b-bar.json (shard 2/2 alone) gets more expensive: both ways exit 2.
        try GateCLITests.costlier.write(toFile: dir + "/b-bar.json", atomically: false, encoding: .utf8)
        try compare(expect: 2)
        // Cheaper than the baseline: both ways exit 4.
        try GateCLITests.cheaper.write(toFile: dir + "/b-bar.json", atomically: false, encoding: .utf8)
        try compare(expect: 4)

        // Gate results merge alone, as they are.
        let mixed = try caprof(["gate", tmp.appendingPathComponent("gate-1.json").path, dir])
        XCTAssertEqual(mixed.code, 1)
        XCTAssertTrue(mixed.stderr.contains("not both"), mixed.stderr)
        let again = try caprof(["gate", tmp.appendingPathComponent("gate-1.json").path, tmp.appendingPathComponent("gate-2.json").path,
                                "--baseline", baseline])
        XCTAssertEqual(again.code, 1)
        XCTAssertTrue(again.stderr.contains("merged as they are"), again.stderr)
    }
}
