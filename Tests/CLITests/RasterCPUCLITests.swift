import Foundation
import XCTest

/// Shape and text content through `caprof profile` with the GPU: the first frame's content is
/// rasterised with the start-up draw, and a `strokeEnd` draw-on is reported as `raster.cpu` with
/// its measured CPU time, in a report that validates against the schema.
final class RasterCPUCLITests: CLITestCase {
    static let scene = """
    {"caprof": 1, "canvas": {"width": 100, "height": 100, "scale": 2, "backgroundColor": "#FFFFFF"},
     "timeline": {"duration": 0.1, "fps": 30},
     "root": {"frame": [0, 0, 100, 100], "sublayers": [
       {"class": "CATextLayer", "name": "title", "frame": [5, 5, 90, 20], "string": "Static", "fontSize": 14,
        "foregroundColor": "black", "contentsScale": 2},
       {"class": "CAShapeLayer", "name": "ring", "frame": [20, 30, 60, 60], "path": {"ellipseIn": [0, 0, 60, 60]},
        "fillColor": null, "strokeColor": "#FF0000", "lineWidth": 6,
        "animations": [{"class": "CABasicAnimation", "keyPath": "strokeEnd", "fromValue": 0.1, "toValue": 1, "duration": 0.1}]}
     ]}}
    """

    func testStrokeEndDrawOnIsRasterCPUWithMeasuredTime() throws {
        let path = try write("drawon.json", Self.scene)
        let out = tmp.appendingPathComponent("report.json").path
        let r = try caprof(["profile", path, "--format", "json", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        try assertValidates(out, against: try write("report.schema.json", try caprof(["profile", "--schema"]).stdout))
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let findings = (report["findings"] as? [[String: Any]] ?? []).flatMap { ($0["members"] as? [[String: Any]]) ?? [$0] }
        let raster = findings.filter { $0["id"] as? String == "raster.cpu" }
        XCTAssertEqual(raster.compactMap { ($0["layer"] as? [String: Any])?["display"] as? String }, ["ring"],
                       "only the animated shape: the static title is rasterised once, at start-up")
        let f = try XCTUnwrap(raster.first)
        // A 0.1 s timeline at 30 fps is frames 0…2 (the last frame is at 2/30 s: 3/30 is the end);
        // frame 0 is first use, frames 1 and 2 each change strokeEnd.
        XCTAssertEqual(f["frameCount"] as? Int, 2)
        XCTAssertGreaterThan(f["cpuNanoseconds"] as? Int ?? 0, 0, "measured CPU time on a drawn run")
        let evidence = try XCTUnwrap(f["evidence"] as? [String: Any])
        XCTAssertEqual(evidence["rasterChange"] as? String, "strokeStart/strokeEnd")
        // The per-frame raster stage is in the CPU costs.
        let frames = try XCTUnwrap(report["frames"] as? [[String: Any]])
        XCTAssertTrue(frames.dropFirst().allSatisfy { (($0["cost"] as? [String: Any])?["rasterNanoseconds"] as? Int ?? 0) > 0 })
    }
}
