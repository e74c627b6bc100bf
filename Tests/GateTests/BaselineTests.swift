import XCTest
import Foundation
import Pipeline
import Profile
import Report
import SceneFormat
@testable import Gate

/// Baselines: measured from real reports, written, read back, recorded over, and their errors.
final class BaselineTests: XCTestCase, GateTestSupport {
    static let scene = """
    {"caprof": 1, "canvas": {"width": 100, "height": 80, "scale": 2, "backgroundColor": "#FFFFFF"},
     "root": {"name": "root", "frame": [0, 0, 100, 80], "backgroundColor": "#FFFFFF", "sublayers": [
       {"name": "bar", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.8]},
       {"name": "card", "frame": [10.25, 30, 40, 30], "backgroundColor": "#3366CC"},
       {"name": "clip", "frame": [60, 30, 30, 30], "masksToBounds": true, "cornerRadius": 8, "backgroundColor": "#222222",
        "sublayers": [{"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000"}]}
     ]}}
    """

    func report(_ json: String = BaselineTests.scene, frames: Int = 2) throws -> ProfileReport {
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "s.json", baseDirectory: "/")
        let list = (0..<frames).map { (index: $0, time: Double($0) / 60) }
        return try ProfileRunner(scene: AnimatedScene(doc), renderer: nil).run(frames: list, fps: 60, file: "s.json", toolVersion: "test").report
    }

    /// A truncated baseline says where it ends (line 3, column 15: inside the metrics object),
    /// not only Foundation's "could not be completed"; a catalog report missing a key names it.
    func testMalformedInputsAreLocated() throws {
        let truncated = Data("{\"caprofBaseline\": 1, \"scenes\": {\n  \"a.json\": {\"metrics\":\n  {\"findings\": 2,".utf8)
        XCTAssertThrowsError(try Baseline.decode(truncated, file: "b.json")) { e in
            let g = e as? GateError
            XCTAssertEqual(g?.line, 3, "\(e)")
            XCTAssertTrue(g?.message.hasPrefix("the baseline is not valid JSON: unexpected end of input") ?? false, "\(e)")
            XCTAssertEqual(g?.pointer, "/scenes/a.json/metrics")
        }
        // A catalog without its tool; then the same with a repeated key, which is valid JSON to
        // Foundation but refused by the strict scene parser: the decoding problem is reported,
        // not a syntax error the file does not have.
        for text in [#"{"caprofCatalog": 1, "scenes": [], "totals": {}}"#, #"{"caprofCatalog": 1, "scenes": [], "totals": {}, "totals": {}}"#] {
            let data = Data(text.utf8)
            XCTAssertThrowsError(try CatalogReport.decode(data), text) { error in
                let g = GateError.decoding(error, data: data, file: "c.json", what: "a caprof catalog report")
                XCTAssertEqual(g.pointer, "")
                XCTAssertEqual(g.message, "reads as a caprof catalog report but does not decode: missing key \"tool\"")
                XCTAssertFalse(g.description.contains("Debug description"), g.description)
            }
        }
    }

    func testMeasurementFromAReport() throws {
        let r = try report()
        let m = SceneMeasurement(reports: [r], timing: false)
        XCTAssertEqual(m.frames, 2)
        XCTAssertEqual(m.canvasPixels, 200 * 160)
        XCTAssertEqual(m[.offscreenPasses], Double(r.frames.map(\.counters.offscreenPasses).max()!))
        XCTAssertEqual(m[.offscreenPasses], 1)
        XCTAssertEqual(m[.blendedPixels], Double(r.frames.map(\.counters.blendedPixels).max()!))
        XCTAssertEqual(m[.misalignedLayers], 1)
        XCTAssertEqual(m[.findings], Double(r.findings.count))
        XCTAssertNil(m[.cpuMilliseconds], "timings only when a timing rule asks")
        XCTAssertEqual(m.findingCounts["blended"], 1)
        XCTAssertEqual(m.layers.map(\.layer), ["bar", "card", "clip"])
        XCTAssertEqual(m.layers.first { $0.layer == "clip" }?.findings["offscreen.rounded-clip"]?.frames, 2)
        XCTAssertEqual(m.layers.first { $0.layer == "card" }?.line, 4)
        let timed = SceneMeasurement(reports: [r, r, r], timing: true)
        XCTAssertEqual(timed.runs, 3)
        XCTAssertNotNil(timed[.cpuMilliseconds])
        XCTAssertNil(timed[.gpuMilliseconds], "plan-only reports have no GPU time")
    }

    func testTheSameSceneGivesAByteIdenticalBaseline() throws {
        let a = Baseline(scenes: ["s.json": SceneMeasurement(reports: [try report()], timing: false)])
        let b = Baseline(scenes: ["s.json": SceneMeasurement(reports: [try report()], timing: false)])
        XCTAssertEqual(try a.encoded(), try b.encoded())
        XCTAssertEqual(try Baseline.decode(try a.encoded(), file: "b.json"), a)
    }

    func testRecordingKeepsOtherScenesAndLookupNormalises() throws {
        let old = Baseline(scenes: ["Examples/a.json": measurement([.offscreenPasses: 1]), "Examples/b.json": measurement([.offscreenPasses: 2])])
        let new = old.recording(["./Examples/a.json": measurement([.offscreenPasses: 5])])
        XCTAssertEqual(new.scenes.keys.sorted(), ["Examples/a.json", "Examples/b.json"])
        XCTAssertEqual(new.measurement(for: "Examples/a.json")?[.offscreenPasses], 5)
        XCTAssertEqual(new.measurement(for: "./Examples//b.json")?[.offscreenPasses], 2)
        XCTAssertEqual(new.measurement(for: "/elsewhere/checkout/b.json")?[.offscreenPasses], 2, "a unique file name matches")
        XCTAssertNil(new.measurement(for: "c.json"))
    }

    func testAReportIsABaselineOfItsScene() throws {
        let data = try JSONReport.encode(try report())
        let b = try Baseline.decode(data, file: "report.json")
        XCTAssertEqual(b.scenes.keys.sorted(), ["s.json"])
        XCTAssertEqual(b.scenes["s.json"]?[.offscreenPasses], 1)
    }

    func testBadBaselines() {
        let cases: [(String, String)] = [
            ("{", "base.json:1:2: error: /: the baseline is not valid JSON: unexpected end of input"),
            ("[]", "base.json: error: /: expected a JSON object"),
            (#"{"caprofBaseline": 2, "scenes": {}}"#, "base.json: error: /caprofBaseline: unsupported baseline version 2"),
            (#"{"caprofBaseline": 1, "scenes": {"a.json": {"runs": "one"}}}"#, "base.json: error: /scenes/a.json/runs: expected"),
            (#"{"caprofBaseline": 1, "scenes": {"Examples/a.json": {"runs": "one"}}}"#, "base.json: error: /scenes/Examples~1a.json/runs: expected"),
            (#"{"something": 1}"#, "base.json: error: /: not a caprof baseline"),
            (#"{"caprofBaseline": 1, "scenes": {"Examples/a.json": {"runs": 1, "frames": 1, "canvasPixels": 4, "metrics": {"blendedPixels": -5}, "findingCounts": {}, "layers": []}}}"#,
             "base.json: error: /scenes/Examples~1a.json/metrics/blendedPixels: a metric must be a number ≥ 0, found -5.0"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try Baseline.decode(Data(text.utf8), file: "base.json")) { e in
                XCTAssertTrue("\(e)".hasPrefix(expected), "\(text) → \(e)")
            }
        }
    }
}
