import XCTest
@testable import Gate
import Report

/// `--shard I/N`: parsing, the round-robin rule on sorted paths, and merging shards' gate results.
final class CatalogShardTests: XCTestCase, GateTestSupport {
    func testParse() throws {
        XCTAssertEqual(try CatalogShard.parse("1/4"), CatalogShard(index: 1, count: 4))
        XCTAssertEqual(try CatalogShard.parse("1/1"), CatalogShard(index: 1, count: 1))
        XCTAssertEqual(try CatalogShard.parse("4/4").description, "4/4")
        for bad in ["0/2", "3/2", "a/b", "1", "1/", "/2", "1/0", "-1/2", "1/2/3", "+1/2", " 1/2", "1.0/2", ""] {
            XCTAssertThrowsError(try CatalogShard.parse(bad), bad) { e in
                XCTAssertTrue("\(e)".contains("expected I/N"), "\(bad): \(e)")
            }
        }
        XCTAssertTrue("\(try XCTUnwrap(Result { try CatalogShard.parse("3/2") }.failureValue))".hasPrefix("I must be between 1 and 2"))
    }

    func testShardsPartitionTheCatalogRoundRobinOnSortedPaths() {
        let paths = ["z.json", "./a.json", "m/b.json", "m/a.json", "c.json", "b-c.json", "b.json"]
        // Sorted by bytes: a.json, b-c.json, b.json, c.json, m/a.json, m/b.json, z.json.
        let sorted = [1, 5, 6, 4, 3, 2, 0]
        for n in 1...9 {
            var union: [Int] = []
            for i in 1...n {
                let s = CatalogShard(index: i, count: n).select(paths)
                XCTAssertEqual(s, s.sorted(), "positions ascend (catalog order)")
                XCTAssertEqual(Set(s), Set(sorted.enumerated().filter { $0.offset % n == i - 1 }.map(\.element)), "\(i)/\(n)")
                XCTAssertLessThanOrEqual(s.count, (paths.count + n - 1) / n)
                XCTAssertGreaterThanOrEqual(s.count, paths.count / n)
                union += s
            }
            XCTAssertEqual(union.sorted(), Array(paths.indices), "shards of \(n) are disjoint and cover the catalog")
        }
        // Independent of the order the paths are given in.
        let shuffled = paths.reversed().map { $0 }
        let a = CatalogShard(index: 2, count: 3).select(paths).map { CatalogShard.normalize(paths[$0]) }
        let b = CatalogShard(index: 2, count: 3).select(shuffled).map { CatalogShard.normalize(shuffled[$0]) }
        XCTAssertEqual(Set(a), Set(b))
    }

    func testCheckComplete() throws {
        func info(_ i: Int, _ n: Int, _ p: [Int], of total: Int = 3) -> ShardInfo {
            ShardInfo(CatalogShard(index: i, count: n), catalogScenes: total, positions: p)
        }
        XCTAssertNoThrow(try CatalogShard.checkComplete([info(2, 2, [1]), info(1, 2, [0, 2])]))
        XCTAssertThrowsError(try CatalogShard.checkComplete([info(1, 2, [0, 2])])) { XCTAssertTrue("\($0)".contains("shard 2/2 missing"), "\($0)") }
        XCTAssertThrowsError(try CatalogShard.checkComplete([info(1, 2, [0, 2]), info(1, 2, [0, 2])])) { XCTAssertTrue("\($0)".contains("given twice"), "\($0)") }
        XCTAssertThrowsError(try CatalogShard.checkComplete([info(1, 2, [0, 2]), info(2, 3, [1])])) { XCTAssertTrue("\($0)".contains("does not belong"), "\($0)") }
        XCTAssertThrowsError(try CatalogShard.checkComplete([info(1, 2, [0]), info(2, 2, [1])])) { XCTAssertTrue("\($0)".contains("do not add up"), "\($0)") }
    }

    func testMergingShardResultsEqualsTheWholeCatalog() throws {
        let base = measurement([.offscreenPasses: 1, .blendedPixels: 100])
        let worse = measurement([.offscreenPasses: 2, .blendedPixels: 100])
        let scenes = ["a.json": base, "b.json": worse, "c.json": base]
        let baseline = Baseline(scenes: scenes.mapValues { _ in base })
        let keys = ["a.json", "b.json", "c.json"]
        let whole = GateEvaluation.evaluate(keys.map { ($0, scenes[$0]!) }, budget: .standard, baseline: baseline, baselineFile: "base.json")
        XCTAssertEqual(whole.outcome, .regression)
        var parts: [GateResult.Part] = []
        for i in [2, 1] {
            let shard = CatalogShard(index: i, count: 2)
            let positions = shard.select(keys)
            var r = GateEvaluation.evaluate(positions.map { (keys[$0], scenes[keys[$0]]!) }, budget: .standard, baseline: baseline, baselineFile: "base.json")
            r.shard = ShardInfo(shard, catalogScenes: keys.count, positions: positions)
            parts.append((r, "gate-\(i).json"))
        }
        XCTAssertEqual(parts[1].result.outcome, .pass, "shard 1/2 (a, c) passes alone")
        let merged = try GateResult.merging(parts)
        XCTAssertEqual(merged, whole)
        XCTAssertEqual(merged.exitCode, 2)

        // Through JSON, as CI hands them over.
        let e = JSONEncoder()
        let decoded = try parts.map { (try GateResult.decode(try e.encode($0.result), file: $0.file), $0.file) }
        XCTAssertEqual(try GateResult.merging(decoded), whole)

        XCTAssertThrowsError(try GateResult.merging([parts[0]])) { XCTAssertTrue("\($0)".contains("shard 1/2 missing"), "\($0)") }
        XCTAssertThrowsError(try GateResult.merging([parts[0], (whole, "whole.json")])) { XCTAssertTrue("\($0)".contains("not a shard's result"), "\($0)") }
        var other = parts[1]
        other.result.baseline = "other.json"
        XCTAssertThrowsError(try GateResult.merging([parts[0], other])) { XCTAssertTrue("\($0)".contains("merge the results of one gate command"), "\($0)") }
        // Unsharded results of disjoint scenes concatenate; the same scene twice is refused.
        XCTAssertEqual(try GateResult.merging([(whole, "w.json")]), whole)
        XCTAssertThrowsError(try GateResult.merging([(whole, "w.json"), (whole, "w2.json")])) { XCTAssertTrue("\($0)".contains("gates a.json again"), "\($0)") }
    }
}

private extension Result {
    var failureValue: Failure? { if case .failure(let e) = self { return e }; return nil }
}
