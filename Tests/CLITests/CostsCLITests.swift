import Foundation
import XCTest

/// Costs that mean one thing (issue: the first frame's one-time work is start-up, not a frame
/// cost; "record" is command recording, "png" is PNG encoding).
final class CostsCLITests: CLITestCase {
    /// cards.json is static (one frame) and shows four distinct 120×120 avatar images: their first
    /// upload is 4 × 120 × 120 × 4 bytes = 230 400 B, which belongs to start-up, while the profiled
    /// frame finds them resident (0 B uploaded) and records its commands with pipelines built.
    func testStartUpIsApartFromTheFrameOfAStaticScene() throws {
        let out = tmp.appendingPathComponent("r.json").path
        let r = try caprof([Self.example("cards.json"), "--format", "json", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let startup = try XCTUnwrap(json["startup"] as? [String: Any], "a drawn run reports its start-up")
        XCTAssertEqual(startup["uploadedBytes"] as? Int, 4 * 120 * 120 * 4)
        let frames = try XCTUnwrap(json["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.count, 1)
        let cost = try XCTUnwrap(frames[0]["cost"] as? [String: Any])
        XCTAssertEqual(cost["uploadedBytes"] as? Int, 0, "the first uploads are start-up, not frame 0's")
        XCTAssertNil(cost["encodeNanoseconds"], "command recording is called record")
        let record = try XCTUnwrap(cost["recordNanoseconds"] as? Int)
        let startupRecord = try XCTUnwrap(startup["recordNanoseconds"] as? Int)
        XCTAssertLessThan(record, startupRecord, "pipeline creation is in the start-up's recording, not the frame's")
        // CPU per frame is the sum of the same stages in the totals as in the frame.
        let totals = try XCTUnwrap(json["totals"] as? [String: Any])
        let stages = ["evaluateNanoseconds", "planNanoseconds", "rasterNanoseconds", "uploadNanoseconds", "recordNanoseconds"]
        XCTAssertEqual(totals["meanCPUNanoseconds"] as? Int, stages.reduce(0) { $0 + ((cost[$1] as? Int) ?? 0) })

        let text = try caprof([Self.example("cards.json")])
        XCTAssertEqual(text.code, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("start-up"), text.stdout)
        XCTAssertTrue(text.stdout.contains("record"), text.stdout)
        XCTAssertFalse(text.stdout.contains("encode"), "profile never says encode: \(text.stdout)")
    }

    /// --no-gpu draws nothing, so there is no start-up to report.
    func testPlanOnlyRunHasNoStartUp() throws {
        let r = try caprof([Self.example("cards.json"), "--no-gpu", "--format", "json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertNil(json["startup"])
    }

    /// caprof render names PNG encoding "png" (and never "encode", which profile used to mean
    /// command recording).
    func testRenderNamesPNGEncodingPNG() throws {
        let dir = tmp.appendingPathComponent("frames").path
        let r = try caprof(["render", Self.example("motion.json"), "--frames", "0f:2f", "-o", dir])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("png "), r.stderr)
        XCTAssertFalse(r.stderr.contains("encode"), r.stderr)
    }
}
