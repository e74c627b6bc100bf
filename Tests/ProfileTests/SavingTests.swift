import XCTest
import Pipeline
import SceneFormat
@testable import Profile
@testable import Report

/// What a finding's fix saves (`FindingFix`, `ProfileRunner.measureSavings`): the worst frame
/// planned again with the fix, figures worked out by hand for scenes at 1× on whole pixels.
final class SavingTests: XCTestCase {
    func report(_ sublayers: String, frames: Int = 1) throws -> ProfileReport {
        let json = """
        {"caprof": 1, "canvas": {"width": 100, "height": 100, "scale": 1},
         "root": {"frame": [0, 0, 100, 100], "backgroundColor": "#FFFFFF", "sublayers": [\(sublayers)]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "s.json", baseDirectory: "/")
        return try ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
            .run(frames: (0..<frames).map { (index: $0, time: Double($0) / 60) }, fps: 60, file: "s.json", toolVersion: "test").report
    }

    func finding(_ r: ProfileReport, _ id: FindingID) throws -> Finding {
        try XCTUnwrap(r.findings.first { $0.id == id }, "\(r.findings.map(\.id))")
    }

    /// A translucent bar over the white root: its 100 × 20 px blend; nothing else changes.
    func testAnOpaqueBackgroundSavesTheBarsBlendedPixels() throws {
        let r = try report(##"{"name": "bar", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.5]}"##)
        let s = try XCTUnwrap(try finding(r, .blended).saving)
        XCTAssertEqual(s.blendedPixels, 100 * 20)
        XCTAssertEqual(s.shadedPixels, 0)
        XCTAssertEqual(s.offscreenPasses, 0)
        XCTAssertEqual(s.fix, "backgroundColor opaque (pre-mixed)")
    }

    /// Group opacity over two overlapping opaque sublayers (40×20 and 20×20 pt at 1×): the group
    /// renders both into a 40×20 px target and composites it. Shaded fragments count each item's
    /// pixels once, into the target or onto the screen (800 + 400 either way), and the same
    /// 800 screen pixels are blended either way: the fix saves the pass and its 800 px target.
    func testGroupOpacityOffSavesThePassAndItsTarget() throws {
        let r = try report(#"""
        {"name": "group", "frame": [10, 10, 40, 20], "opacity": 0.5, "sublayers": [
          {"frame": [0, 0, 40, 20], "backgroundColor": "#FF0000"}, {"frame": [0, 0, 20, 20], "backgroundColor": "#0000FF"}]}
        """#)
        let s = try XCTUnwrap(try finding(r, .offscreenGroupOpacity).saving)
        XCTAssertEqual(s.offscreenPasses, 1)
        XCTAssertEqual(s.offscreenPixels, 40 * 20)
        XCTAssertEqual(s.shadedPixels, 0)
        XCTAssertEqual(s.blendedPixels, 0)
        XCTAssertEqual(s.fix, "allowsGroupOpacity off")
    }

    /// A shadow without shadowPath: every offscreen pass of the frame is the shadow's, and with
    /// shadowPath set none is left.
    func testShadowPathSavesEveryPassOfTheShadow() throws {
        let r = try report(##"{"name": "card", "frame": [20, 20, 40, 20], "backgroundColor": "#FFFFFF", "cornerRadius": 4, "shadowOpacity": 0.5, "shadowRadius": 3}"##)
        let s = try XCTUnwrap(try finding(r, .offscreenShadow).saving)
        XCTAssertGreaterThanOrEqual(s.offscreenPasses, 1)
        XCTAssertEqual(s.offscreenPasses, r.frames[0].counters.offscreenPasses)
        XCTAssertEqual(s.offscreenPixels, r.frames[0].counters.offscreenPixels)
        XCTAssertEqual(s.fix, "shadowPath set to the layer's rounded bounds")
    }

    /// A finding whose fix is no edit of the tree (a resampled image: a new asset) has no saving,
    /// and the fix-first list ranks the costliest saving first, each fix of a layer once.
    func testFixFirstRanksBySavedWork() throws {
        let r = try report(#"""
        {"name": "bar", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.5]},
        {"name": "card", "frame": [20, 40, 40, 20], "backgroundColor": "#FFFFFF", "shadowOpacity": 0.5, "shadowRadius": 3},
        {"name": "cached", "frame": [20, 70, 20, 20], "backgroundColor": "#00FF00", "shouldRasterize": true}
        """#)
        let first = ReportUnits.fixFirst(r)
        XCTAssertEqual(first.first?.id, .offscreenShadow, "\(first.map(\.id))")
        // shouldRasterize off answers the rasterize finding and its cache miss: listed once.
        XCTAssertEqual(first.filter { $0.layer.display == "cached" }.count, 1, "\(first.map(\.id))")
        XCTAssertEqual(Set(first.map(\.layer.display)), ["card", "bar", "cached"])
        let text = TextReport(colors: false).render(r)
        XCTAssertTrue(text.contains("Fix first"), text)
        XCTAssertTrue(text.contains("saves: 2000 px fewer blended in frame 0"), text)
        XCTAssertTrue(MarkdownReport().render(r).contains("**Fix first**"))
        XCTAssertTrue(HTMLReport().render(r).contains("<section id=\"fix-first\" class=\"fix-first\">"))
    }

    /// A layer whose frame is off the grid by half a pixel: rounded, it no longer blends its two
    /// antialiased edge columns (20 px each).
    func testRoundingTheFrameSavesTheEdgeBlend() throws {
        let r = try report(##"{"name": "card", "frame": [10.5, 10, 40, 20], "backgroundColor": "#FF0000"}"##)
        let s = try XCTUnwrap(try finding(r, .misalignedSubpixel).saving)
        XCTAssertEqual(s.blendedPixels, 2 * 20)
        XCTAssertEqual(s.fix, "frame rounded to device pixels")
    }

    /// Severity follows the saving for GPU work: a 50×30 px group-opacity target covers 15 % of
    /// the 100×100 canvas (medium by its pixels), but its fix saves the target rendered and read
    /// back, 2 × 1500 px = 30 % of a screen of work: high. A misaligned layer keeps the severity
    /// of the pixels it spoils.
    func testSeverityRisesToWhatTheFixSaves() throws {
        let r = try report(##"""
        {"name": "group", "frame": [10, 10, 50, 30], "opacity": 0.5, "sublayers": [
          {"frame": [0, 0, 50, 30], "backgroundColor": "#FF0000"}, {"frame": [0, 0, 20, 20], "backgroundColor": "#0000FF"}]},
        {"name": "card", "frame": [10.5, 60, 40, 20], "backgroundColor": "#00FF00"}
        """##)
        let group = try finding(r, .offscreenGroupOpacity)
        XCTAssertEqual(group.canvasShare, 0.15, accuracy: 1e-9)
        XCTAssertEqual(group.saving?.offscreenPixels, 1500)
        XCTAssertEqual(group.severity, .high)
        XCTAssertEqual(r.findings.first?.id, .offscreenGroupOpacity, "high first")
        XCTAssertEqual(r.totals.findingsBySeverity["high"], 1)
        let card = try finding(r, .misalignedSubpixel)
        XCTAssertEqual(card.severity, Severity(canvasShare: card.canvasShare))
    }

    /// A frosted bar's translucent tint is the design (the advice says so): no fix is applied,
    /// so no saving is claimed and it is not in the fix-first list.
    func testAFrostedBarsTintClaimsNoSaving() throws {
        let r = try report(##"""
        {"frame": [0, 40, 100, 40], "backgroundColor": "#FF0000"},
        {"name": "bar", "class": "CABackdropLayer", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.6],
         "filters": [{"type": "gaussianBlur", "name": "blur", "inputRadius": 4}]}
        """##)
        let tint = try finding(r, .blended)
        XCTAssertEqual(tint.layer.display, "bar")
        XCTAssertNil(tint.saving)
        XCTAssertFalse(ReportUnits.fixFirst(r).contains { $0.id == .blended })
    }

    /// Savings are measured for the 16 costliest findings only (each is a frame planned again).
    /// 20 translucent bars of different widths make one group; split into 20 findings (as a
    /// scene whose layers differ in their fix would give), the 4 narrowest carry no saving.
    func testOnlyTheCostliestFindingsAreMeasured() throws {
        let bars = (0..<20).map { i in
            ##"{"name": "bar\##(i)", "frame": [0, \##(i * 4), \##(40 + i * 3), 3], "backgroundColor": [1, 0, 0, 0.5]}"##
        }.joined(separator: ", ")
        let json = """
        {"caprof": 1, "canvas": {"width": 100, "height": 100, "scale": 1},
         "root": {"frame": [0, 0, 100, 100], "backgroundColor": "#FFFFFF", "sublayers": [\(bars)]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "s.json", baseDirectory: "/")
        let runner = ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
        runner.measuresSavings = false
        var r = try runner.run(frames: [(index: 0, time: 0)], fps: 60, file: "s.json", toolVersion: "test").report
        let group = try finding(r, .blended)
        r.findings = try XCTUnwrap(group.members)
        XCTAssertEqual(r.findings.count, 20)
        try runner.measureSavings(&r, times: [0: 0])
        XCTAssertEqual(ProfileRunner.maxMeasured, 16)
        let measured = Set(r.findings.filter { $0.saving != nil }.map(\.layer.display))
        XCTAssertEqual(measured, Set((4..<20).map { "bar\($0)" }))
    }
}
