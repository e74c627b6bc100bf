import XCTest
import Geometry
import LayerModel
import Pipeline
import Plan
@testable import Profile
@testable import Report
import SceneFormat

/// A compositingFilter in the profiler: `offscreen.filter` with its passes' pixels, counted in the
/// frame's offscreen passes and pixels and painted by Color Offscreen-Rendered; a blend-mode layer
/// always blends.
final class CompositingFilterFindingTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 100, height: 100, scale: 1)

    func scene(_ mode: CompositingFilter) -> Layer {
        var l = box("blend", Rect(10, 10, 40, 20), Color(0, 0, 1))
        l.compositingFilter = mode
        return root(canvas, [l])
    }

    func testABlendModeIsAnOffscreenFilterFindingWithItsThreePasses() {
        let t = tree(scene(.multiplyBlendMode))
        let a = Profiler(canvas: canvas).analyze(plan(t, canvas), tree: t, index: 0, time: 0)
        XCTAssertEqual(a.counters.offscreenPasses, 3)
        XCTAssertEqual(a.counters.offscreenPixels, 3 * 40 * 20, "the layer, the destination and the blend, 40×20 each")
        let fs = findings(scene(.multiplyBlendMode), canvas)
        let f = fs.first { $0.id == .offscreenFilter }
        XCTAssertEqual(f?.layer.display, "blend")
        XCTAssertEqual(f?.maxPixels, 2400, "the texels its passes render")
        XCTAssertEqual(f?.canvasShare ?? 0, 0.08, accuracy: 1e-9, "the screen its result covers: 800 of 10 000 pixels")
        XCTAssertTrue(f?.explanation.contains("a blend mode reads what lies beneath") ?? false, f?.explanation ?? "")
        XCTAssertTrue(f?.fix.contains("bake the blend into the image when the content is static") ?? false)
        XCTAssertEqual(FindingID.offscreenFilter.instrumentsName, "Color Offscreen-Rendered")
    }

    /// offscreen.filter is raised by filters and by blend modes: the explanation and the fix name
    /// the property that asked (both when a layer has both).
    func testTheOffscreenFilterFindingNamesWhatAskedForThePasses() {
        func finding(_ mode: CompositingFilter?, blur: Bool) -> Finding? {
            var l = box("blend", Rect(10, 10, 40, 20), Color(0, 0, 1))
            if let mode { l.compositingFilter = mode }
            if blur { var f = Filter(.gaussianBlur); f.inputRadius = 3; l.filters = [f] }
            return findings(root(canvas, [l]), canvas).first { $0.id == .offscreenFilter }
        }
        let blend = finding(.multiplyBlendMode, blur: false)
        XCTAssertEqual(blend?.evidence.filterSources, ["compositingFilter"])
        XCTAssertFalse(blend?.explanation.contains("run each filter") ?? true)
        let blurred = finding(nil, blur: true)
        XCTAssertEqual(blurred?.evidence.filterSources, ["filters"])
        XCTAssertTrue(blurred?.explanation.contains("run each filter over the result") ?? false, blurred?.explanation ?? "")
        XCTAssertTrue(blurred?.fix.contains("smaller blur inputRadius") ?? false)
        XCTAssertFalse(blurred?.fix.contains("normalBlendMode") ?? true)
        let both = finding(.colorBurnBlendMode, blur: true)
        XCTAssertEqual(both?.evidence.filterSources, ["filters", "compositingFilter"])
        XCTAssertTrue((both?.fix.contains("smaller blur inputRadius") ?? false) && (both?.fix.contains("normalBlendMode") ?? false))
    }

    func testAnOpaqueBlendModeLayerStillBlends() {
        let fs = findings(scene(.screenBlendMode), canvas)
        XCTAssertEqual(ids(fs, layer: "blend"), [.blended], "screen over one draw: a blend state, no pass")
        let t = tree(scene(.screenBlendMode))
        let a = Profiler(canvas: canvas).analyze(plan(t, canvas), tree: t, index: 0, time: 0)
        XCTAssertEqual(a.counters.offscreenPasses, 0)
        XCTAssertEqual(a.counters.blendedPixels, 800, "its 40×20 pixels blend although it is opaque")
        let blended = a.observations.first { $0.id == .blended }
        XCTAssertEqual(blended?.evidence.blendReasons, [.compositingFilter])
        XCTAssertEqual(ids(findings(scene(.multiplyBlendMode), canvas), layer: "blend"), [.blended, .offscreenFilter])
    }

    func testTheOffscreenOverlayPaintsTheFilterPasses() {
        let t = tree(scene(.hueBlendMode))
        let o = OverlayPainter(canvasScale: 1).paint(plan(t, canvas), tree: t, frame: 0, time: 0)
        let offscreen = o[.offscreen]!
        XCTAssertGreaterThan(offscreen.rgb(20, 20).r, 130); XCTAssertGreaterThan(offscreen.rgb(20, 20).g, 130)
        XCTAssertLessThan(offscreen.rgb(20, 20).b, 60, "yellow where the passes land")
        XCTAssertEqual(offscreen.rgb(80, 80).r, OverlayPalette.neutral.r)
    }

    func testThePassGraphNamesTheBlendAndItsInputs() {
        let t = tree(scene(.colorBurnBlendMode))
        let summaries = plan(t, canvas).offscreenPasses.map(PassSummary.init)
        XCTAssertEqual(summaries.map(\.kind), ["draw", "draw", "blend"])
        XCTAssertEqual(summaries[2].inputs, [0, 1])
        XCTAssertEqual(summaries.map(\.reasons), [[.filter], [.filter], [.filter]])
    }

    /// The JSON report of a scene with blend passes validates against the report's schema (pass
    /// kind `blend`, reason `filter`, finding `offscreen.filter`, blend reason `compositing-filter`).
    func testTheReportOfABlendModeSceneValidatesAgainstTheSchema() throws {
        let json = """
        {"caprof": 1, "canvas": {"width": 40, "height": 40, "scale": 1, "backgroundColor": "#FFFFFF"},
         "root": {"frame": [0, 0, 40, 40], "sublayers": [
           {"name": "under", "frame": [0, 0, 30, 30], "backgroundColor": "#3366CC"},
           {"name": "blend", "frame": [10, 10, 20, 20], "backgroundColor": "#FF9900", "compositingFilter": "overlayBlendMode"}]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "s.json", baseDirectory: "/")
        let report = try ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
            .run(frames: [(index: 0, time: 0.0)], fps: 60, file: "s.json", toolVersion: "test").report
        XCTAssertEqual(report.findings.filter { $0.layer.display == "blend" }.map(\.id), [.offscreenFilter, .blended])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-blend-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ReportSchema.jsonSchema.write(toFile: dir + "/schema.json", atomically: false, encoding: .utf8)
        let encoded = try JSONReport.encode(report)
        XCTAssertTrue(String(decoding: encoded, as: UTF8.self).contains("\"compositing-filter\""))
        try encoded.write(to: URL(fileURLWithPath: dir + "/report.json"))
        let (status, message) = try ReportTests.validate(dir + "/report.json", dir + "/schema.json")
        XCTAssertEqual(status, 0, message)
    }
}
