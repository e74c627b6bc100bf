import XCTest
import Geometry
import LayerModel
import Plan
import Pipeline
import SceneFormat
@testable import Profile
@testable import Report

/// What the reports say, where they once said it wrong: sizes that contradict themselves, a pixel
/// grid of "1/1 pt", software Vulkan's times passed off as a GPU's, fonts drawn with a stand-in
/// listed as not drawn, the render graph's screen label dark on dark and names overflowing boxes.
final class ReportWordingTests: XCTestCase, ProfileTestSupport {
    let scale1 = Canvas(width: 100, height: 100, scale: 1)
    let scale3 = Canvas(width: 100, height: 100, scale: 3)

    func testThePixelGridIsWholePointsAt1xAndAFractionAt3x() throws {
        let at1 = try XCTUnwrap(findings(root(scale1, [box("card", Rect(10.5, 10, 40, 20))]), scale1).first { $0.id == .misalignedSubpixel })
        XCTAssertTrue(at1.fix.contains("to whole points so every edge"), at1.fix)
        XCTAssertFalse(at1.fix.contains("1/1"), at1.fix)
        let at3 = try XCTUnwrap(findings(root(scale3, [box("card", Rect(10.1, 10, 40, 20))]), scale3).first { $0.id == .misalignedSubpixel })
        XCTAssertTrue(at3.fix.contains("multiples of 1/3 pt"), at3.fix)
    }

    /// A 34×48 px image in a 34.004 × 48 pt layer at 1× (contentsGravity resize) is drawn 34.004
    /// device pixels wide: resampled, and said with the decimals that show it. Shown 34.0000002
    /// px wide (2e-7 px over the whole image, far under the 1/1000 px the grid allows), it is 1:1.
    func testAnImageAHairOffItsSizeIsSaidWithTheDecimalsThatDiffer() throws {
        let img = image("/photo.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 34, height: 48, isOpaque: true)]
        var l = box("photo", Rect(10, 10, 34.004, 48), nil); l.contents = img; l.contentsScale = 1
        let f = try XCTUnwrap(findings(root(scale1, [l]), scale1, images: table).first { $0.id == .misalignedScaled })
        XCTAssertTrue(f.explanation.contains("its 34×48 px image is resampled to 34.004×48 device pixels"), f.explanation)
        l.bounds = Rect(0, 0, 34.0000002, 48)
        XCTAssertFalse(findings(root(scale1, [l]), scale1, images: table).contains { $0.id == .misalignedScaled })
        XCTAssertEqual(FindingAdvice.shownSize([34.004, 48], beside: [34, 48]), "34.004×48")
        XCTAssertEqual(FindingAdvice.shownSize([192, 192], beside: [120, 120]), "192×192")
    }

    func report() throws -> ProfileReport {
        let json = """
        {"caprof": 1, "canvas": {"width": 100, "height": 100, "scale": 1},
         "root": {"frame": [0, 0, 100, 100], "backgroundColor": "#FFFFFF", "sublayers": [
           {"name": "a-card-whose-name-is-far-longer-than-its-box-in-the-graph", "frame": [10, 10, 40, 20],
            "backgroundColor": "#FFFFFF", "shadowOpacity": 0.3, "shadowRadius": 3}]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "w.json", baseDirectory: "/")
        return try ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
            .run(frames: [(index: 0, time: 0)], fps: 60, file: "w.json", toolVersion: "test").report
    }

    /// lavapipe is a CPU device: its timestamps are CPU time, and every format says so.
    func testTimesOfASoftwareDeviceAreLabelledAsSuch() throws {
        var r = try report()
        r.run.gpu = true; r.run.device = "llvmpipe (LLVM 15.0.6, 256 bits)"; r.run.deviceKind = "CPU"
        r.totals.stages["gpu"] = ProfileReport.StageStats([31_000_000])
        let text = TextReport(colors: false).render(r)
        XCTAssertTrue(text.contains("llvmpipe (LLVM 15.0.6, 256 bits), software Vulkan on the CPU"), text)
        XCTAssertTrue(text.contains("GPU (software, on the CPU) 31.0 ms"), text)
        XCTAssertTrue(MarkdownReport().render(r).contains("GPU (software, on the CPU) 31.0 ms"))
        XCTAssertTrue(HTMLReport().render(r).contains("GPU (software, on the CPU) per frame"))
        r.run.deviceKind = "discrete GPU"
        let onGPU = TextReport(colors: false).render(r)
        XCTAssertTrue(onGPU.contains("GPU 31.0 ms"), onGPU)
        XCTAssertFalse(onGPU.contains("software"), onGPU)
    }

    /// A catalog's device time is labelled software only when every drawn scene was drawn so.
    func testACatalogOfSoftwareRunsLabelsItsDeviceTime() throws {
        var soft = try report(), hard = try report()
        soft.run.gpu = true; soft.run.deviceKind = "CPU"
        hard.run.gpu = true; hard.run.deviceKind = "discrete GPU"
        XCTAssertEqual(CatalogTotals([soft, soft]).gpuLabel, "GPU (software, on the CPU)")
        XCTAssertEqual(CatalogTotals([soft, hard]).gpuLabel, "GPU")
        XCTAssertEqual(CatalogTotals([hard]).gpuLabel, "GPU")
    }

    func testFontStandInsAreNotListedAsNotDrawn() throws {
        var r = try report()
        let font = FontMapping.substitutionWarning(font: "SF Pro Display", standIn: "Inter")
        r.warnings = [.init(message: font, location: nil), .init(message: "CAMetalLayer is not drawn", location: nil)]
        let html = HTMLReport().render(r)
        let undrawn = try XCTUnwrap(html.components(separatedBy: "<section id=\"warnings\">").last?.components(separatedBy: "</section>").first)
        let fonts = try XCTUnwrap(html.components(separatedBy: "<section id=\"fonts\">").last?.components(separatedBy: "</section>").first)
        XCTAssertTrue(undrawn.contains("CAMetalLayer is not drawn"))
        XCTAssertFalse(undrawn.contains("SF Pro Display"))
        XCTAssertTrue(fonts.contains("SF Pro Display"))
        r.warnings = [.init(message: font, location: nil)]
        XCTAssertFalse(HTMLReport().render(r).contains("Not drawn yet"))
    }

    /// The page's `.graph text` rule outranks SVG fill attributes: the screen's label must take
    /// its white from a rule at least as specific, and a long layer name is cut to its box (the
    /// tooltip keeps it whole).
    func testTheRenderGraphsScreenLabelIsLightAndNamesFitTheirBoxes() throws {
        let html = HTMLReport().render(try report())
        XCTAssertTrue(html.contains("<g data-screen=\"\" class=\"screen\">"))
        XCTAssertTrue(html.contains(".graph .screen text{fill:#fff}"))
        XCTAssertFalse(html.contains("fill=\"#fff\">screen"), "a fill attribute the stylesheet overrides")
        let name = "a-card-whose-name-is-far-longer-than-its-box-in-the-graph"
        XCTAssertTrue(html.contains("— \(name)</title>"))
        // 186 px boxes less 16 px of padding at 11 px: ⌊170 / (0.56 × 11)⌋ = 27 characters.
        XCTAssertTrue(html.contains(">\(name.prefix(26))…</text>"), "cut to 26 characters and an ellipsis")
    }
}
