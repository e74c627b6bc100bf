import XCTest
import Foundation
import LayerModel
import Pipeline
import Raster
import SceneFormat
@testable import Profile
@testable import Report

/// The HTML, Markdown and trace formats, checked at the level of their structure: the HTML report
/// has its parts (findings rows = findings, overlays that decode as canvas-sized PNGs, one chart
/// group per frame, no external URL), the Markdown table has a row per finding, and the trace is
/// valid Chrome Trace Event JSON with stages nested in their frames.
final class ReportFormatTests: XCTestCase {
    func document() throws -> SceneDocument {
        try SceneDecoder.decode(data: Array(ReportTests.scene.utf8), file: "s.json", baseDirectory: "/")
    }

    /// Three frames of the report test scene, plan only, with the worst frame's overlays.
    func run() throws -> (ProfileReport, ProfileRunner.OverlayFrame, LayerOutline) {
        let doc = try document()
        let runner = ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
        let frames = (0..<3).map { (index: $0, time: Double($0) / 60) }
        let report = try runner.run(frames: frames, fps: 60, file: "s.json", toolVersion: "test").report
        let worst = try XCTUnwrap(report.totals.worstFrame)
        return (report, try runner.overlays(frame: worst, time: Double(worst) / 60), LayerOutline(doc.scene.root))
    }

    func html() throws -> (String, ProfileReport) {
        let (report, overlay, outline) = try run()
        let panels = try overlay.overlays.images.map { i in
            HTMLReport.Panel(kind: i.kind, image: HTMLReport.Image(
                png: try PNGCodec.encode(premultiplied: i.pixels, width: i.width, height: i.height), width: i.width, height: i.height),
                legendPixels: i.legendPixels)
        }
        let set = HTMLReport.FrameOverlaySet(frame: overlay.overlays.frame, time: overlay.overlays.time, reason: "the worst frame",
                                             background: overlay.overlays.background, rendered: nil, panels: panels)
        return (HTMLReport(overlays: [set], layers: outline).render(report), report)
    }

    static func matches(_ pattern: String, in text: String) throws -> [[String]] {
        let re = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        let ns = text as NSString
        return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
            (0..<m.numberOfRanges).map { m.range(at: $0).location == NSNotFound ? "" : ns.substring(with: m.range(at: $0)) }
        }
    }

    // MARK: - HTML

    func testHTMLFindingsTableRowsAreTheFindings() throws {
        let (html, report) = try html()
        XCTAssertTrue(html.hasPrefix("<!doctype html>"))
        XCTAssertTrue(html.contains("<title>s.json · caprof profile</title>"))
        for part in ["id=\"summary\"", "id=\"frames\"", "id=\"overlays\"", "id=\"cost\"", "id=\"findings\"", "id=\"layers\"", "id=\"fonts\""] {   // the text layer's font is drawn with a stand-in
            XCTAssertTrue(html.contains(part), part)
        }
        let rows = try Self.matches(#"<tr id="finding-(\d+)" class="finding" data-id="([^"]+)" data-layer-id="(\d+)">(.*?)</tr>"#, in: html)
        XCTAssertEqual(rows.count, report.findings.count)
        XCTAssertGreaterThan(rows.count, 0)
        for (row, f) in zip(rows, report.findings) {
            XCTAssertEqual(row[2], f.id.rawValue)
            XCTAssertEqual(Int(row[3]), f.layer.id)
            XCTAssertTrue(row[4].contains(">\(f.layer.display)</b>"), row[4])
            XCTAssertTrue(row[4].contains("sev-\(f.severity.rawValue)"), row[4])
            if let l = f.layer.location { XCTAssertTrue(row[4].contains("\(l.file):\(l.line)"), row[4]) }
            XCTAssertTrue(row[4].contains(esc(f.fix)), row[4])
        }
        // What caprof does not draw comes first, then by severity, as the report is.
        let undrawn = rows.prefix { $0[2] == FindingID.unsupported.rawValue }.count
        XCTAssertFalse(rows.dropFirst(undrawn).contains { $0[2] == FindingID.unsupported.rawValue })
        let order = rows.dropFirst(undrawn).map { Severity(rawValue: try! Self.matches(#"sev sev-(\w+)"#, in: $0[4])[0][1])! }
        XCTAssertEqual(order, order.sorted(by: >))
        // Every finding has a badge in the layer tree on each of its layers (a group's members
        // each), linking to its row.
        let badges = try Self.matches(##"<a class="badge sev-\w+" href="#finding-(\d+)""##, in: html)
        XCTAssertEqual(badges.map { Int($0[1])! }.sorted(), report.findings.enumerated().flatMap { i, f in
            Array(repeating: i + 1, count: f.members?.count ?? 1)
        })
        XCTAssertEqual(html.components(separatedBy: "<details").count, html.components(separatedBy: "</details>").count)
        XCTAssertEqual(try Self.matches(#"data-layer-id="\d+"[^>]*>(<summary>)?<span class="cls">"#, in: html).count, LayerOutline(try document().scene.root).count)
    }

    /// Two alike translucent layers make one grouped `blended` finding (one row); the layer tree
    /// badges both layers, each linking to that row, and a third, clean layer has none.
    func testHTMLLayerTreeBadgesEveryLayerOfAGroup() throws {
        let json = """
        {"caprof": 1, "canvas": {"width": 100, "height": 100, "scale": 1},
         "root": {"frame": [0, 0, 100, 100], "backgroundColor": "#FFFFFF", "sublayers": [
           {"name": "glassA", "frame": [0, 0, 40, 40], "backgroundColor": [1, 0, 0, 0.5]},
           {"name": "glassB", "frame": [50, 0, 40, 40], "backgroundColor": [1, 0, 0, 0.5]},
           {"name": "solid", "frame": [0, 50, 40, 40], "backgroundColor": "#0000FF"}]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "g.json", baseDirectory: "/")
        let report = try ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
            .run(frames: [(index: 0, time: 0)], fps: 60, file: "g.json", toolVersion: "test").report
        let group = try XCTUnwrap(report.findings.firstIndex { $0.id == .blended })
        XCTAssertEqual(report.findings[group].members?.map(\.layer.display).sorted(), ["glassA", "glassB"])
        let html = HTMLReport(overlays: [], layers: LayerOutline(doc.scene.root)).render(report)
        for name in ["glassA", "glassB"] {
            let line = try XCTUnwrap(try Self.matches(#"<div class="leaf"[^>]*>(.*?)</div>"#, in: html).first { $0[1].contains(">\(name)</span>") })
            XCTAssertTrue(line[1].contains("href=\"#finding-\(group + 1)\""), line[1])
        }
        let solid = try XCTUnwrap(try Self.matches(#"<div class="leaf"[^>]*>(.*?)</div>"#, in: html).first { $0[1].contains(">solid</span>") })
        XCTAssertFalse(solid[1].contains("badge"), solid[1])
    }

    /// The render graph: every pass sits left of the passes that read it; the passes only the
    /// screen draws sit in the last column, beside the screen; one arrow enters the screen per
    /// pass it draws (dashed for the shadowed card's content, which the blur also reads).
    func testHTMLRenderGraphPlacesPassesBeforeTheirReadersAndTheScreenLast() throws {
        let json = """
        {"caprof": 1, "canvas": {"width": 100, "height": 100, "scale": 1},
         "root": {"frame": [0, 0, 100, 100], "backgroundColor": "#FFFFFF", "sublayers": [
           {"name": "card", "frame": [10, 10, 40, 20], "backgroundColor": "#FFFFFF", "cornerRadius": 4,
            "shadowOpacity": 0.3, "shadowRadius": 3, "sublayers": [{"frame": [2, 2, 8, 8], "backgroundColor": "#FF0000"}]},
           {"name": "hero", "frame": [10, 50, 40, 40], "backgroundColor": "#0000FF",
            "mask": {"frame": [0, 0, 40, 40], "backgroundColor": [0, 0, 0, 0.5]}}]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "g.json", baseDirectory: "/")
        let report = try ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
            .run(frames: [(index: 0, time: 0)], fps: 60, file: "g.json", toolVersion: "test").report
        let passes = try XCTUnwrap(report.frames[0].passes)
        XCTAssertGreaterThanOrEqual(passes.count, 4, "\(passes.map(\.kind))")
        let page = HTMLReport(overlays: [], layers: LayerOutline(doc.scene.root)).render(report)
        let html = try XCTUnwrap(page.components(separatedBy: "<section id=\"passes\">").last?.components(separatedBy: "</section>").first)
        let boxes = try Self.matches(#"<g data-pass="(\d+)"><title>[^<]*</title><rect x="(\d+)" y="(\d+)""#, in: html)
        XCTAssertEqual(boxes.count, passes.count)
        var x: [Int: Int] = [:]
        for b in boxes { x[Int(b[1])!] = Int(b[2])! }
        let screenX = try XCTUnwrap(Int(try XCTUnwrap(try Self.matches(#"<g data-screen="" class="screen"><rect x="(\d+)""#, in: html).first)[1]))
        let lastColumn = try XCTUnwrap(x.values.max())
        XCTAssertLessThan(lastColumn, screenX)
        var readers = [Set<Int>](repeating: [], count: passes.count)
        for (i, p) in passes.enumerated() {
            for j in p.inputs { XCTAssertLessThan(x[j]!, x[i]!, "pass \(j) is left of its reader \(i)"); readers[j].insert(i) }
        }
        for (i, p) in passes.enumerated() where p.drawnOnScreen == true && readers[i].isEmpty {
            XCTAssertEqual(x[i], lastColumn, "pass \(i), drawn only by the screen, sits beside it")
        }
        let onScreen = passes.filter { $0.drawnOnScreen == true }.count
        XCTAssertGreaterThan(onScreen, 0)
        XCTAssertEqual(html.components(separatedBy: "<path d=\"M\(screenX - 2),").count - 1, onScreen, "one arrow into the screen per pass it draws")
        // The card's content is blurred for its shadow and drawn: a dashed arrow.
        XCTAssertTrue(passes.enumerated().contains { $0.element.drawnOnScreen == true && !readers[$0.offset].isEmpty })
        XCTAssertEqual(html.components(separatedBy: "stroke-dasharray").count - 1,
                       passes.indices.filter { passes[$0].drawnOnScreen == true && !readers[$0].isEmpty }.count)
        try assertArrowsLandOnTheScreen(html)
        // One shadowed layer: its content's dashed arrow runs under the only row, and still lands.
        let single = try SceneDecoder.decode(data: Array(##"{"caprof": 1, "canvas": {"width": 100, "height": 100}, "root": {"frame": [0, 0, 100, 100], "sublayers": [{"frame": [10, 10, 40, 20], "backgroundColor": "#FFFFFF", "shadowOpacity": 0.5}]}}"##.utf8), file: "s.json", baseDirectory: "/")
        let singleReport = try ProfileRunner(scene: AnimatedScene(single), renderer: nil)
            .run(frames: [(index: 0, time: 0)], fps: 60, file: "s.json", toolVersion: "test").report
        let singleHTML = HTMLReport(overlays: [], layers: LayerOutline(single.scene.root)).render(singleReport)
        XCTAssertTrue(singleHTML.contains("stroke-dasharray=\"4 3\""))
        try assertArrowsLandOnTheScreen(singleHTML)
    }

    /// Every arrowhead entering the render graph's screen lands on its bar, within the picture.
    func assertArrowsLandOnTheScreen(_ html: String) throws {
        let bar = try XCTUnwrap(try Self.matches(#"<g data-screen="" class="screen"><rect x="(\d+)" y="(\d+)" width="\d+" height="(\d+)""#, in: html).first)
        let (x, top, bottom) = (Int(bar[1])!, Int(bar[2])!, Int(bar[2])! + Int(bar[3])!)
        let svgHeight = try XCTUnwrap(Int(try XCTUnwrap(try Self.matches(#"<svg width="\d+" height="(\d+)" viewBox="0 0 \d+ \d+" role="img" aria-label="render graph"#, in: html).first)[1]))
        let heads = try Self.matches(#"<path d="M\#(x - 2),(\d+) L"#, in: html)
        XCTAssertFalse(heads.isEmpty)
        for head in heads {
            let y = Int(head[1])!
            XCTAssertTrue(top < y && y < bottom && bottom <= svgHeight, "arrow at y \(y), bar \(top)…\(bottom), picture \(svgHeight)")
        }
    }

    /// Mid-animation means "seen only in frames where an animation moves the layer", not "absent
    /// from the run's first and last frames". Frames 0–9 at 60 fps of: `glider`, moving x from 10
    /// to 17 over 1 s (x = 10 + 7i/60: still moving at frame 9), off the grid in frames 1–9;
    /// `settler`, moving x from 10 to 20 over 0.1 s (x = 10 + 5i/3), off the grid in frames 1, 2,
    /// 4 and 5 and at rest on the grid from frame 6
    /// (t = 0.1 s, the end of its active interval). Both are mid-animation (low); only the settler
    /// comes to rest. `still`, off the grid and never animated, is at rest; so is `steady`, off the
    /// grid under a layer whose background colour animates forever (a colour moves nothing).
    func testMidAnimationIsWhereAnAnimationMovesTheLayer() throws {
        let json = """
        {"caprof": 1, "canvas": {"width": 100, "height": 100, "scale": 1},
         "root": {"frame": [0, 0, 100, 100], "backgroundColor": "#FFFFFF", "sublayers": [
           {"name": "glider", "bounds": [0, 0, 10, 10], "position": [17, 15], "backgroundColor": "#FF0000",
            "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 10, "toValue": 17, "duration": 1}]},
           {"name": "settler", "bounds": [0, 0, 10, 10], "position": [20, 45], "backgroundColor": "#00FF00",
            "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 10, "toValue": 20, "duration": 0.1}]},
           {"name": "still", "frame": [10.5, 70, 10, 10], "backgroundColor": "#0000FF"},
           {"name": "shimmer", "frame": [50, 50, 40, 40], "backgroundColor": "#CCCCCC",
            "animations": [{"class": "CABasicAnimation", "keyPath": "backgroundColor", "fromValue": "#CCCCCC", "toValue": "#EEEEEE", "duration": 1, "repeatCount": "infinity"}],
            "sublayers": [{"name": "steady", "frame": [10.5, 10, 10, 10], "backgroundColor": "#0000FF"}]}]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "m.json", baseDirectory: "/")
        let scene = AnimatedScene(doc)
        let motion = scene.animatedLayers(at: 0.15)
        XCTAssertEqual(motion.moving.count, 1, "only the glider moves at 0.15 s")
        XCTAssertEqual(motion.animating.count, 3, "the glider, and the shimmer's colour with its sublayer")
        let report = try ProfileRunner(scene: scene, renderer: nil)
            .run(frames: (0..<10).map { (index: $0, time: Double($0) / 60) }, fps: 60, file: "m.json", toolVersion: "test").report
        func finding(_ name: String) throws -> Finding {
            try XCTUnwrap(report.findings.flatMap { $0.members ?? [$0] }.first { $0.id == .misalignedSubpixel && $0.layer.display == name }, name)
        }
        let glider = try finding("glider"), settler = try finding("settler"), still = try finding("still")
        XCTAssertEqual(glider.frames.last?.last, 9)
        XCTAssertEqual(glider.phase, .midAnimation, "seen in the last frame, but moving there")
        XCTAssertEqual(glider.severity, .low)
        XCTAssertTrue(glider.explanation.contains("it is still animating in the last frame profiled (9)"), glider.explanation)
        XCTAssertEqual(settler.phase, .midAnimation)
        XCTAssertEqual(settler.frames.last?.last, 5)
        XCTAssertTrue(settler.explanation.contains("from frame 6 on it is on the pixel grid"), settler.explanation)
        XCTAssertEqual(still.phase, .atRest)
        // A colour animation animates its layer but moves nothing: steady, off the grid under it,
        // is misaligned at rest (with the at-rest advice), not mid-animation.
        let steady = try finding("steady")
        XCTAssertEqual(steady.phase, .atRest)
        XCTAssertFalse(steady.explanation.contains("only while it animates"), steady.explanation)
    }

    func testHTMLOverlaysAreCanvasSizedPNGs() throws {
        let (html, report) = try html()
        let uris = try Self.matches(#"<img src="data:image/png;base64,([A-Za-z0-9+/=]+)" width="(\d+)" height="(\d+)" alt="[^"]*" data-overlay="([\w-]+)""#, in: html)
        XCTAssertEqual(uris.map { $0[4] }, OverlayKind.allCases.map(\.rawValue))
        for u in uris {
            let png = try XCTUnwrap(Data(base64Encoded: u[1]))
            let bitmap = try PNGCodec.decode([UInt8](png))
            XCTAssertEqual(bitmap.width, report.scene.canvas.pixelWidth)
            XCTAssertEqual(bitmap.height, report.scene.canvas.pixelHeight)
            XCTAssertEqual(Int(u[2]), bitmap.width); XCTAssertEqual(Int(u[3]), bitmap.height)
        }
        XCTAssertTrue(html.contains("No frame strip"), "plan only: no thumbnails, a note instead")
        XCTAssertTrue(html.contains("neutral dark background"), "the legend says what is under the tints")
    }

    func testHTMLChartsHaveOneGroupPerFrame() throws {
        let (html, report) = try html()
        let charts = try Self.matches(#"<figure class="chart" data-chart="(\w+)">(.*?)</figure>"#, in: html)
        XCTAssertEqual(charts.map { $0[1] }, ["time", "blended", "overdraw"])
        for c in charts {
            let frames = try Self.matches(#"<g class="frame" data-frame="(\d+)">"#, in: c[2]).map { Int($0[1])! }
            XCTAssertEqual(frames, report.frames.map(\.index), c[1])
            XCTAssertEqual(try Self.matches(#"<rect class="mark sev-"#, in: c[2]).count,
                           report.frames.filter { !$0.findings.isEmpty }.count, "frames with findings are marked")
        }
        // The frame the overlays show is marked on each chart.
        XCTAssertEqual(html.components(separatedBy: "<line class=\"marked\"").count - 1, 3)
    }

    func testHTMLLoadsNothingFromOutside() throws {
        let (html, _) = try html()
        for m in try Self.matches(#"\b(src|href)\s*=\s*"([^"]*)""#, in: html) {
            let v = m[2]
            XCTAssertTrue(v.hasPrefix("data:") || v.hasPrefix("#"), "external reference: \(m[0].prefix(120))")
        }
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "no URL at all")
        XCTAssertFalse(html.contains("<link") || html.contains("@import") || html.contains("url("))
        XCTAssertEqual(html.components(separatedBy: "<script").count, 2, "one inline script")
        XCTAssertFalse(html.contains("<script src"))
    }

    func testHTMLEscapesSceneText() throws {
        var (report, _, _) = try run()
        report.scene.file = "<b>&\"scene\".json"
        report.findings[0].layer.display = "<img src=x>"
        let html = HTMLReport().render(report)
        XCTAssertFalse(html.contains("<b>&\"scene"))
        XCTAssertTrue(html.contains("<h1>&lt;b&gt;&amp;&quot;scene&quot;.json</h1>"))
        XCTAssertFalse(html.contains("<img src=x>"))
        XCTAssertTrue(html.contains("&lt;img src=x&gt;"))
    }

    /// Offscreen passes caprof took from the previous frame are said beside the passes a device
    /// renders, in the HTML, text and Markdown summaries; none is said when none were taken.
    func testRetainedPassesAreSaidApartFromTheOffscreenPasses() throws {
        var (report, _, _) = try run()
        XCTAssertFalse(HTMLReport().render(report).contains("taken from the previous frame"))
        report.totals.meanRetainedPasses = 3.64
        XCTAssertTrue(HTMLReport().render(report).contains("3.6 a frame taken from the previous frame by caprof"))
        XCTAssertTrue(TextReport(colors: false).render(report).contains("3.6 offscreen passes per frame taken from the previous frame"))
        XCTAssertTrue(MarkdownReport().render(report).contains("3.6 offscreen passes per frame taken from the previous frame"))
        // Passes redrawn in part are said apart too, after the retained ones or alone.
        report.totals.meanPartialPasses = 2
        XCTAssertTrue(TextReport(colors: false).render(report).contains("taken from the previous frame, not rendered again, 2 redrawn only where they changed"))
        XCTAssertTrue(HTMLReport().render(report).contains("2 a frame redrawn in part by caprof"))
        report.totals.meanRetainedPasses = nil
        XCTAssertTrue(MarkdownReport().render(report).contains("2 offscreen passes per frame redrawn only where they changed"))
    }

    /// caprof's own shortcuts get a line of their own, apart from the findings; none without them.
    func testShortcutsAreReportedApartFromTheFindings() throws {
        var (report, _, _) = try run()
        XCTAssertFalse(TextReport(colors: false).render(report).contains("shortcuts"), "frames not drawn: no shortcuts")
        report.totals.meanCulledItems = 2
        report.totals.meanFlattenedItems = 16
        report.totals.meanStackCulledPixels = 12_100_000
        let text = TextReport(colors: false).render(report)
        XCTAssertTrue(text.contains("shortcuts   2 items culled under opaque layers · 16 blended in flattened regions · ≈ 12.10 Mpx culled beneath stacked layers"), text)
        XCTAssertTrue(MarkdownReport().render(report).contains("caprof's shortcuts: 2 items culled under opaque layers"))
        report.totals.meanCulledItems = 0.5
        report.totals.meanFlattenedItems = 0
        report.totals.meanStackCulledPixels = nil
        XCTAssertTrue(TextReport(colors: false).render(report).contains("shortcuts   0.5 items culled under opaque layers (caprof's own"))
    }

    /// "1 draw call" for exactly one a frame, "1.5 draw calls" and "2 draw calls" otherwise.
    func testDrawCallsAreCountedInTheRightNumber() throws {
        var (report, _, _) = try run()
        for (mean, words) in [(1.0, "1 draw call"), (1.5, "1.5 draw calls"), (2.0, "2 draw calls")] {
            report.totals.meanDrawCalls = mean
            for out in [TextReport(colors: false).render(report), MarkdownReport().render(report)] {
                XCTAssertTrue(out.contains(words), "\(mean)")
                if mean == 1 { XCTAssertFalse(out.contains("1 draw calls"), out) }
            }
        }
    }

    func testASingleFrameGetsAStageTableNotCharts() throws {
        let runner = ProfileRunner(scene: AnimatedScene(try document()), renderer: nil)
        let r = try runner.run(frames: [(0, 0)], fps: 60, file: "s.json", toolVersion: "t").report
        let html = HTMLReport().render(r)
        XCTAssertFalse(html.contains("class=\"chart\""))
        XCTAssertTrue(html.contains("class=\"stages\""))
        XCTAssertTrue(html.contains("No overlays in this report"))
    }

    // MARK: - Markdown

    func testMarkdownTableHasARowPerFinding() throws {
        let (report, _, _) = try run()
        let md = MarkdownReport().render(report)
        let lines = md.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("### caprof: `s.json` — \(report.findings.count) findings ("), lines[0])
        let header = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("| severity |") })
        XCTAssertEqual(lines[header + 1], "|---|---|---|---|---|---|")
        let rows = lines[(header + 2)...].prefix { $0.hasPrefix("| ") }
        XCTAssertEqual(rows.count, report.findings.count)
        for (row, f) in zip(rows, report.findings) {
            XCTAssertTrue(row.contains("`\(f.id.rawValue)`"), row)
            XCTAssertTrue(row.contains(f.severity.rawValue), row)
            // Six cells: seven unescaped pipes.
            XCTAssertEqual(row.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count, 7, row)
        }
        XCTAssertTrue(md.contains("**Per frame** (mean):"), md)
        XCTAssertFalse(md.contains("<"), "no HTML")
        // Capped, with the rest counted.
        let capped = MarkdownReport(maxFindings: 1).render(report)
        XCTAssertTrue(capped.contains("… \(report.findings.count - 1) more"), capped)
    }

    func testMarkdownEscapesTableCells() {
        XCTAssertEqual(MarkdownReport().escape("a|b *c* <d>\nline"), "a\\|b \\*c\\* \\<d\\> line")
        XCTAssertEqual(MarkdownReport().code("a`b|c"), "`` a`b\\|c ``")
    }

    // MARK: - Trace

    /// The report with made-up backend costs on every frame (as a GPU run has them).
    func drawnReport() throws -> ProfileReport {
        var (report, _, _) = try run()
        for i in report.frames.indices {
            report.frames[i].cost = FrameCost(evaluateNanoseconds: 1_000_000, planNanoseconds: 500_000, analyzeNanoseconds: 250_123,
                                              recordNanoseconds: 300_000, renderNanoseconds: 4_000_000 + UInt64(i) * 1000,
                                              gpuNanoseconds: 3_000_000, uploadedBytes: i == 0 ? 4096 : 0, textureBytes: 8192, drawCalls: 5)
            report.frames[i].cost.retainedPasses = i == 0 ? 0 : 2
        }
        report.run.gpu = true; report.run.device = "llvmpipe"
        return report
    }

    func events(_ trace: String) throws -> [[String: Any]] {
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(trace.utf8)) as? [String: Any])
        XCTAssertEqual(obj["displayTimeUnit"] as? String, "ms")
        return try XCTUnwrap(obj["traceEvents"] as? [[String: Any]])
    }

    func testTraceIsValidAndStagesNestInTheirFrames() throws {
        let report = try drawnReport()
        let evs = try events(TraceReport().render(report))
        for e in evs {
            for key in ["ph", "ts", "pid", "tid", "name"] { XCTAssertNotNil(e[key], "\(key) missing in \(e)") }
            XCTAssertNotNil(e["ts"] as? Double)
            if e["ph"] as? String == "X" { XCTAssertNotNil(e["dur"] as? Double, "\(e)") }
        }
        let meta = evs.filter { $0["ph"] as? String == "M" }
        XCTAssertTrue(meta.contains { $0["name"] as? String == "process_name" && ($0["args"] as? [String: Any])?["name"] as? String == "caprof" })
        let threads = meta.filter { $0["name"] as? String == "thread_name" }.compactMap { ($0["tid"] as? Int, ($0["args"] as? [String: Any])?["name"] as? String) }
        XCTAssertEqual(threads.map(\.0), [1, 2])
        XCTAssertEqual(threads.first?.1, "CPU stages")
        XCTAssertTrue(threads.last?.1?.hasPrefix("GPU") == true)

        let slices = evs.filter { $0["ph"] as? String == "X" }
        func span(_ e: [String: Any]) -> (Double, Double) { let t = e["ts"] as! Double; return (t, t + (e["dur"] as! Double)) }
        let frames = slices.filter { ($0["name"] as? String)?.hasPrefix("frame ") == true }
        XCTAssertEqual(frames.map { $0["name"] as? String }, report.frames.map { "frame \($0.index)" })
        // Back to back from 0.
        XCTAssertEqual(span(frames[0]).0, 0)
        for (a, b) in zip(frames, frames.dropFirst()) { XCTAssertEqual(span(a).1, span(b).0, accuracy: 1e-6) }
        // Every other slice lies within exactly one frame's [ts, ts + dur], and the stages of a frame tile it.
        let eps = 1e-6
        for (k, f) in frames.enumerated() {
            let (f0, f1) = span(f)
            let inside = slices.filter { s in
                let (s0, s1) = span(s)
                return (s["name"] as? String)?.hasPrefix("frame ") == false && s0 >= f0 - eps && s1 <= f1 + eps && s0 < f1
            }
            XCTAssertEqual(inside.compactMap { $0["name"] as? String }, ["evaluate", "plan", "analyze", "render", "record", "GPU"], "frame \(k)")
            let cpu = inside.filter { $0["tid"] as? Int == 1 && $0["name"] as? String != "record" }
            XCTAssertEqual(cpu.reduce(0) { $0 + ($1["dur"] as! Double) }, f1 - f0, accuracy: 1e-6)
            let render = span(inside.first { $0["name"] as? String == "render" }!)
            for name in ["record", "GPU"] {
                let s = span(inside.first { $0["name"] as? String == name }!)
                XCTAssertTrue(s.0 >= render.0 - eps && s.1 <= render.1 + eps, "\(name) within render")
            }
            XCTAssertEqual(inside.first { $0["name"] as? String == "GPU" }?["tid"] as? Int, 2)
            XCTAssertEqual(inside.first { $0["name"] as? String == "analyze" }?["dur"] as? Double ?? 0, 250.123, accuracy: 1e-9)
        }
        // Counters per frame, at the frame's start.
        let counters = evs.filter { $0["ph"] as? String == "C" }
        let names = Set(counters.compactMap { $0["name"] as? String })
        XCTAssertEqual(names, ["shaded", "blended", "edge-blended", "overdraw", "offscreen", "updated (Flash Updated Regions)", "draw", "uploaded",
                               "texture memory", "offscreen passes taken from the previous frame"])
        for name in names {
            let series = counters.filter { $0["name"] as? String == name }
            XCTAssertEqual(series.count, report.frames.count, name)
            XCTAssertEqual(series.map { $0["ts"] as! Double }, frames.map { span($0).0 }, name)
            for c in series { XCTAssertTrue((c["args"] as? [String: Any])?.values.allSatisfy { $0 is Int || $0 is Double || $0 is NSNumber } == true) }
        }
        let blended = counters.filter { $0["name"] as? String == "blended" }.map { ($0["args"] as! [String: Any])["pixels"] as! Int }
        XCTAssertEqual(blended, report.frames.map(\.counters.blendedPixels))
        let taken = counters.filter { $0["name"] as? String == "offscreen passes taken from the previous frame" }
        XCTAssertEqual(taken.map { ($0["args"] as! [String: Any])["passes"] as! Int }, report.frames.indices.map { $0 == 0 ? 0 : 2 })
    }

    func testPlanOnlyTraceHasNoGPUThread() throws {
        let (report, _, _) = try run()
        let evs = try events(TraceReport().render(report))
        XCTAssertFalse(evs.contains { $0["tid"] as? Int == 2 })
        XCTAssertFalse(evs.contains { ["render", "record", "GPU"].contains($0["name"] as? String ?? "") })
        XCTAssertFalse(evs.contains { ["draw", "uploaded", "texture memory"].contains($0["name"] as? String ?? "") })
        XCTAssertEqual(evs.filter { ($0["name"] as? String)?.hasPrefix("frame ") == true }.count, 3)
    }

    func testEvenlySpacedFramesAndThumbnailFit() {
        XCTAssertEqual(ProfileRunner.evenlySpaced(Array(0..<100), count: 5), [0, 25, 50, 74, 99])
        XCTAssertEqual(ProfileRunner.evenlySpaced([3, 4], count: 12), [3, 4])
        XCTAssertEqual(ProfileRunner.evenlySpaced([3, 4, 5], count: 1), [3])
        XCTAssertEqual(ProfileRunner.evenlySpaced([3], count: 0), [])
        XCTAssertTrue(ProfileRunner.fit(width: 1170, height: 2532, maxWidth: 400, maxHeight: 300) == (139, 300))
        XCTAssertTrue(ProfileRunner.fit(width: 100, height: 50, maxWidth: 400, maxHeight: 300) == (100, 50), "never enlarged")
    }
}
