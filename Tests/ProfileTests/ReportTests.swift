import XCTest
import Foundation
import Geometry
import LayerModel
import Pipeline
import Plan
import SceneFormat
@testable import Profile
@testable import Report

/// The runner without a GPU, the JSON report against its schema (an independent validator:
/// python3-jsonschema, draft 2020-12, as SchemaTests checks the scene schema), and the text summary.
final class ReportTests: XCTestCase {
    static let scene = """
    {"caprof": 1, "canvas": {"width": 100, "height": 80, "scale": 2, "backgroundColor": "#FFFFFF"},
     "root": {"name": "root", "frame": [0, 0, 100, 80], "backgroundColor": "#FFFFFF", "sublayers": [
       {"name": "bar", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.8]},
       {"name": "card", "frame": [10.25, 30, 40, 30], "backgroundColor": "#3366CC"},
       {"name": "clip", "frame": [60, 30, 30, 30], "masksToBounds": true, "cornerRadius": 8, "backgroundColor": "#222222",
        "sublayers": [{"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000"}]},
       {"class": "CATextLayer", "name": "tick", "frame": [0, 70, 10, 10], "string": "✓"}
     ]}}
    """

    func document(_ json: String = ReportTests.scene) throws -> SceneDocument {
        try SceneDecoder.decode(data: Array(json.utf8), file: "s.json", baseDirectory: "/")
    }

    func report(_ json: String = ReportTests.scene) throws -> ProfileReport {
        let scene = AnimatedScene(try document(json))
        let frames = [(index: 0, time: 0.0), (index: 1, time: 1.0 / 60)]
        return try ProfileRunner(scene: scene, renderer: nil)
            .run(frames: frames, fps: 60, file: "s.json", toolVersion: "test").report
    }

    func testPlanOnlyRunFindsWhatTheSceneDoes() throws {
        let r = try report()
        XCTAssertEqual(r.caprofReport, 2)
        XCTAssertFalse(r.run.gpu)
        XCTAssertNil(r.run.device)
        XCTAssertEqual(r.frames.count, 2)
        XCTAssertNil(r.frames[0].cost.gpuNanoseconds)
        XCTAssertEqual(r.scene.canvas.pixelWidth, 200)
        let byLayer = Dictionary(grouping: r.findings, by: \.layer.display).mapValues { $0.map(\.id.rawValue).sorted() }
        XCTAssertEqual(byLayer["bar"], ["blended"])
        XCTAssertEqual(byLayer["card"], ["misaligned.subpixel"])
        XCTAssertEqual(byLayer["clip"], ["offscreen.rounded-clip"])
        XCTAssertEqual(r.findings.first { $0.layer.display == "bar" }?.frames, [FrameRun(first: 0, last: 1)])
        XCTAssertEqual(r.findings.first { $0.layer.display == "card" }?.layer.location?.line, 4)
        XCTAssertTrue(r.warnings.contains { $0.message.contains("Helvetica") && $0.location?.line == 7 }, "\(r.warnings)")
        XCTAssertEqual(r.totals.frames, 2)
        XCTAssertEqual(r.totals.offscreenPasses, 2)
        XCTAssertEqual(r.totals.findingsBySeverity.values.reduce(0, +), r.findings.count)
        XCTAssertNil(r.totals.stages["gpu"])
        XCTAssertNotNil(r.totals.stages["plan"])
    }

    func testTheSameTreeGivesTheSameFindings() throws {
        XCTAssertEqual(try report().findings, try report().findings)
    }

    func testJSONRoundTripsAndIsStable() throws {
        let r = try report()
        let data = try JSONReport.encode(r)
        XCTAssertEqual(try JSONReport.decode(data), r)
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.contains("\"caprofReport\" : 2"), text)
        XCTAssertTrue(text.contains("\"misaligned.subpixel\""))
    }

    func testJSONReportValidatesAgainstItsSchema() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let schema = dir + "/schema.json", good = dir + "/report.json"
        try ReportSchema.jsonSchema.write(toFile: schema, atomically: false, encoding: .utf8)
        try JSONReport.encode(try report()).write(to: URL(fileURLWithPath: good))
        let (status, message) = try Self.validate(good, schema)
        XCTAssertEqual(status, 0, message)

        // The schema is strict: an unknown id, a missing key and an extra key are rejected.
        var json = try String(contentsOfFile: good, encoding: .utf8)
        json = json.replacingOccurrences(of: "\"misaligned.subpixel\"", with: "\"misaligned.sub-pixel\"")
        let bad = dir + "/bad.json"
        try json.write(toFile: bad, atomically: false, encoding: .utf8)
        XCTAssertNotEqual(try Self.validate(bad, schema).0, 0)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: good))) as? [String: Any])
        for mutate in [{ (o: inout [String: Any]) in o["findings"] = nil }, { (o: inout [String: Any]) in o["extra"] = 1 },
                       { (o: inout [String: Any]) in o["caprofReport"] = 1 }] {
            var o = obj; mutate(&o)
            try JSONSerialization.data(withJSONObject: o).write(to: URL(fileURLWithPath: bad))
            XCTAssertNotEqual(try Self.validate(bad, schema).0, 0)
        }
    }

    static func validate(_ instance: String, _ schema: String) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import jsonschema,json,sys; jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[2]))); jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), cls=jsonschema.Draft202012Validator)",
                       instance, schema]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if text.contains("No module named 'jsonschema'") { XCTFail("python3-jsonschema is missing: apt-get install -y python3-jsonschema") }
        return (p.terminationStatus, text)
    }

    /// An offscreen finding's pixels are texels rendered offscreen (they can exceed the screen);
    /// its share is what the result covers: the text says which is which. Font substitutions are
    /// drawn, so the closing line does not count them among what is not drawn.
    func testOffscreenPixelsAndFontSubstitutionsAreWordedForWhatTheyAre() throws {
        var r = try report()
        let offscreen = try XCTUnwrap(r.findings.first { $0.id.rawValue.hasPrefix("offscreen.") })
        let plain = TextReport(colors: false).render(r)
        XCTAssertTrue(plain.contains("rendered offscreen (the result covers \(ReportUnits.percent(offscreen.canvasShare)) of the screen)"), plain)
        let blended = try XCTUnwrap(r.findings.first { $0.id == .blended })
        XCTAssertTrue(plain.contains("\(ReportUnits.pixels(Double(blended.maxPixels))) (\(ReportUnits.percent(blended.canvasShare)) of the screen)"), plain)
        let font = ProfileReport.Warning(message: "font \"Avenir\" is not installed; drawn with Liberation Sans, its stand-in (caprof draws only the fonts tools/setup installs)", location: nil)
        r.warnings = [font, font]
        let fontsOnly = TextReport(colors: false).render(r)
        XCTAssertTrue(fontsOnly.contains("2 fonts drawn with an installed stand-in"), fontsOnly)
        XCTAssertFalse(fontsOnly.contains("not drawn or evaluated yet"), fontsOnly)
        r.warnings.append(ProfileReport.Warning(message: "meshTransform is not drawn yet", location: nil))
        XCTAssertTrue(TextReport(colors: false).render(r).contains("1 thing in the scene not drawn or evaluated yet; 2 fonts drawn with an installed stand-in"))
    }

    func testTextSummaryPutsTheWorstFindingsFirst() throws {
        let r = try report()
        let plain = TextReport(colors: false).render(r)
        XCTAssertFalse(plain.contains("\u{1B}["), "no colour codes unless asked")
        XCTAssertTrue(plain.hasPrefix("s.json"), plain)
        XCTAssertTrue(plain.contains("plan only (--no-gpu)"), plain)
        XCTAssertTrue(plain.contains("\(r.findings.count) findings"), plain)
        // The worst finding comes first, with its layer, place, frames, pixels and fix.
        let first = r.findings[0]
        // The findings' own lines (the fix-first list above them names findings too).
        let findingLines = plain.split(separator: "\n").filter { ["HIGH", "MEDIUM", "LOW"].contains(where: $0.hasPrefix) }.joined(separator: "\n")
        let firstLine = try XCTUnwrap(findingLines.split(separator: "\n").first { $0.contains("\(first.id.rawValue)  \(first.layer.display)") })
        XCTAssertTrue(firstLine.contains(first.layer.display) && firstLine.contains("s.json:") && firstLine.contains("frames 0–1"), String(firstLine))
        XCTAssertTrue(plain.contains("fix: " + first.fix))
        let order = r.findings.compactMap { f in findingLines.range(of: "\(f.id.rawValue)  \(f.layer.display)")?.lowerBound }
        XCTAssertEqual(order, order.sorted())
        XCTAssertTrue(plain.contains("1 font drawn with an installed stand-in"), plain)   // the scene's one warning
        XCTAssertTrue(TextReport(colors: true).render(r).contains("\u{1B}[1;31m") || r.findings.allSatisfy { $0.severity != .high })
        XCTAssertTrue(TextReport(colors: true).render(r).contains("\u{1B}[32mfix: "))
    }

    func testTextSummaryCapsTheList() throws {
        let r = try report()
        let text = TextReport(colors: false, maxFindings: 1).render(r)
        XCTAssertTrue(text.contains("… \(r.findings.count - 1) more"), text)
    }

    func testAQuietSceneSaysSo() throws {
        let r = try report("""
        {"caprof": 1, "canvas": {"width": 10, "height": 10}, "root": {"frame": [0, 0, 10, 10], "backgroundColor": "#FFFFFF"}}
        """)
        XCTAssertEqual(r.findings, [])
        XCTAssertTrue(TextReport(colors: false).render(r).contains("No findings"))
    }
}
