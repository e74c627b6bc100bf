import Foundation
import XCTest

/// `caprof profile --format html|markdown|trace`, `--overlays DIR`, `--overlay-frame N` and the
/// progress bar, end to end.
final class ReportFormatsCLITests: CLITestCase {
    /// Three frames at 30 fps; "grow" scales up over the timeline, so the last frame shades the most
    /// pixels (the worst frame).
    static let scene = """
    {"caprof": 1, "canvas": {"width": 100, "height": 80, "scale": 1, "backgroundColor": "#FFFFFF"},
     "timeline": {"duration": 0.1, "fps": 30},
     "root": {"frame": [0, 0, 100, 80], "backgroundColor": "#FFFFFF", "sublayers": [
       {"name": "bar", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.8]},
       {"name": "card", "frame": [10.5, 30, 40, 30], "backgroundColor": "#3366CC"},
       {"name": "tile", "frame": [10.5, 65, 10, 10], "backgroundColor": "#3366CC"},
       {"name": "grow", "frame": [60, 30, 20, 20], "backgroundColor": "#FF9500",
        "animations": [{"class": "CABasicAnimation", "keyPath": "transform.scale", "fromValue": 1, "toValue": 1.8, "duration": 0.1}]}
     ]}}
    """

    func scenePath() throws -> String { try write("scene.json", Self.scene) }

    func leftovers() throws -> [String] {
        let all = FileManager.default.enumerator(atPath: tmp.path)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".tmp") }
    }

    func testHTMLReportIsWrittenWhole() throws {
        let out = tmp.appendingPathComponent("report.html").path
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        let r = try caprof([try scenePath(), "--no-gpu", "--format", "html", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote \(out) (html,"), r.stderr)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!doctype html>"))
        XCTAssertTrue(html.hasSuffix("</html>\n"))
        XCTAssertTrue(html.contains("data-overlay=\"blended\""))
        XCTAssertTrue(html.contains("Frame <span class=\"num\">2</span>"), "the worst frame's overlays")
        XCTAssertTrue(html.contains("No frame strip"), "nothing rendered: a note instead of thumbnails")
        // card and tile, both at rest off the grid, raise the same finding with the same fix: one
        // group (grow, misaligned while it scales through every frame, is mid-animation: apart).
        XCTAssertTrue(html.contains(">card, tile (2 layers)</b>") && html.contains("scene.json:5"), html)
        XCTAssertEqual(try leftovers(), [])
    }

    func testHTMLReportWithTheGPUHasAFrameStrip() throws {
        let r = try caprof([try scenePath(), "--format", "html"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let html = r.stdout
        XCTAssertTrue(html.contains("<div class=\"strip\""))
        XCTAssertEqual(html.components(separatedBy: "<figure class=\"thumb").count - 1, 3, "every frame of three")
        XCTAssertTrue(html.contains("<figure class=\"thumb worst\">"), "the overlay frame is outlined in the strip")
        XCTAssertTrue(html.contains("alt=\"frame 2\" class=\"checker\""), "the rendered frame beside its overlays")
        XCTAssertTrue(html.contains("Tints over the rendered frame, dimmed."))
        XCTAssertFalse(html.contains("http://") || html.contains("https://"))
    }

    func testMarkdownReport() throws {
        let r = try caprof([try scenePath(), "--no-gpu", "--format", "markdown"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("### caprof: `"), r.stdout)
        let rows = r.stdout.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| severity") }
        let json = try caprof([try scenePath(), "--no-gpu", "--format", "json"])
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        XCTAssertEqual(rows.count, findings.count)
        for (row, f) in zip(rows, findings) { XCTAssertTrue(row.contains("`\(f["id"] as! String)`"), String(row)) }
    }

    func testTraceReportWithTheGPU() throws {
        let out = tmp.appendingPathComponent("trace.json").path
        let r = try caprof([try scenePath(), "--format", "trace", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let events = try XCTUnwrap(obj["traceEvents"] as? [[String: Any]])
        XCTAssertEqual(events.filter { ($0["name"] as? String)?.hasPrefix("frame ") == true }.count, 3)
        XCTAssertEqual(events.filter { $0["name"] as? String == "GPU" && $0["ph"] as? String == "X" }.count, 3)
        XCTAssertTrue(events.contains { $0["ph"] as? String == "C" && $0["name"] as? String == "draw" })
        for e in events { for k in ["ph", "ts", "pid", "tid", "name"] { XCTAssertNotNil(e[k], "\(k): \(e)") } }
    }

    func testOverlaysDirectoryForTheWorstFrame() throws {
        let dir = tmp.appendingPathComponent("overlays/nested").path
        let r = try caprof([try scenePath(), "--no-gpu", "--overlays", dir])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote 6 overlays into \(dir) (frame 2, the worst frame, over a neutral background (--no-gpu))"), r.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(files, ["frame-00002-blended.png", "frame-00002-misaligned.png", "frame-00002-offscreen.png",
                               "frame-00002-overdraw.png", "frame-00002-raster-cache.png", "frame-00002-updated-regions.png"])
        for f in files {
            let (w, h) = try pngSize(dir + "/" + f)
            XCTAssertEqual(w, 100); XCTAssertEqual(h, 80)
        }
        XCTAssertTrue(r.stdout.contains("misaligned.subpixel"), "the report still goes to stdout")
        XCTAssertEqual(try leftovers(), [])
    }

    func testOverlayFramesOnRequestWithTheGPU() throws {
        let dir = tmp.appendingPathComponent("ov").path
        let r = try caprof([try scenePath(), "--overlays", dir, "--overlay-frame", "0", "--overlay-frame", "1", "-q"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "quiet")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(files, ["frame-00000-blended.png", "frame-00000-misaligned.png", "frame-00000-offscreen.png",
                               "frame-00000-overdraw.png", "frame-00000-raster-cache.png", "frame-00000-updated-regions.png",
                               "frame-00001-blended.png", "frame-00001-misaligned.png", "frame-00001-offscreen.png",
                               "frame-00001-overdraw.png", "frame-00001-raster-cache.png", "frame-00001-updated-regions.png"])
    }

    func testUsageErrors() throws {
        let path = try scenePath()
        for args in [["--format", "pdf"], ["--overlay-frame", "1"], ["--overlays", dir("x"), "--overlay-frame", "7"],
                     ["--overlays", ""], ["--format", "html", "--overlay-frame", "-1"]] {
            let r = try caprof([path, "--no-gpu"] + args)
            XCTAssertEqual(r.code, 64, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("rror"), r.stderr)
        }
        XCTAssertTrue(try caprof([path, "--no-gpu", "--overlay-frame", "1"]).stderr.contains("--overlays DIR or --format html"))
        XCTAssertTrue(try caprof([path, "--no-gpu", "--overlays", dir("x"), "--overlay-frame", "7"]).stderr.contains("not among the frames profiled (0–2)"))
        // An overlays "directory" that is a file cannot be written.
        let file = try write("taken", "x")
        let r = try caprof([path, "--no-gpu", "--overlays", file])
        XCTAssertEqual(r.code, 73, r.stderr)
        XCTAssertTrue(r.stderr.contains("not a directory"), r.stderr)
    }

    func dir(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    func testProgressBarOnlyOnATerminal() throws {
        let path = try scenePath()
        let piped = try caprof([path, "--no-gpu", "--fps", "300", "-o", dir("a.txt")])
        XCTAssertEqual(piped.code, 0)
        XCTAssertFalse(piped.stderr.contains("\r") || piped.stderr.contains("frames/s"), "no bar when stderr is not a terminal")
        // On a terminal (util-linux `script` gives the command a pseudo-terminal): the bar, erased at the end.
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else {
            return XCTFail("script(1) is missing: tools/setup installs bsdutils, which provides it")
        }
        let p = Process()
        p.executableURL = script
        let command = [Self.binary.path, path, "--no-gpu", "--fps", "300", "-o", dir("b.txt")].map { "'\($0)'" }.joined(separator: " ")
        p.arguments = ["-qec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out; p.standardError = FileHandle.nullDevice; p.standardInput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("/30 frames"), text)
        XCTAssertTrue(text.contains("\r\u{1B}[K"), "redrawn in place and erased")
        XCTAssertTrue(text.contains("wrote"), text)
    }
}
