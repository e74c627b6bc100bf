import Foundation
import XCTest

/// The small things seen by a new user.
final class SmallThingsCLITests: CLITestCase {
    func testNegativeTimeIsAValueWithAReasonNotAMissingValue() throws {
        let r = try caprof(["render", Self.example("cards.json"), "--time", "-1", "-o", tmp.appendingPathComponent("x.png").path])
        XCTAssertEqual(r.code, 64)
        XCTAssertFalse(r.stderr.contains("Missing value"), r.stderr)
        XCTAssertTrue(r.stderr.contains("--time -1: scene time starts at 0"), r.stderr)
    }

    func testDashOutputIsStandardOutputForTextAndRefusedForPNG() throws {
        let cwd = FileManager.default.currentDirectoryPath + "/-"
        try? FileManager.default.removeItem(atPath: cwd)
        let json = try caprof([Self.example("cards.json"), "--no-gpu", "--format", "json", "-o", "-"])
        XCTAssertEqual(json.code, 0, json.stderr)
        XCTAssertTrue(json.stdout.hasPrefix("{"), "the report goes to standard output")
        let gate = try caprof(["gate", Self.example("cards.json"), "-o", "-", "--format", "markdown"])
        XCTAssertTrue(gate.stdout.contains("caprof gate"), gate.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cwd), "no file named '-' is written")
        let png = try caprof(["render", Self.example("cards.json"), "-o", "-"])
        XCTAssertEqual(png.code, 64)
        XCTAssertTrue(png.stderr.contains("a PNG is binary and is not written to standard output"), png.stderr)
    }

    func testImageErrorsNameThePointerOnce() throws {
        try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: tmp.appendingPathComponent("a.gif"))
        let scene = try write("s.json", #"{"caprof": 1, "canvas": {"width": 4, "height": 4}, "root": {"bounds": [0, 0, 4, 4], "contents": "a.gif"}}"#)
        let r = try caprof([scene, "--no-gpu"])
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.stderr.components(separatedBy: "/root/contents").count - 1, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("s.json:1:97: error: /root/contents: cannot use image"), r.stderr)
        XCTAssertTrue(r.stderr.contains("this is a GIF image; caprof reads PNG and JPEG contents"), r.stderr)
    }

    func testCountsAgreeWithTheirNouns() throws {
        let one = try write("one.json", #"{"caprof": 1, "canvas": {"width": 4, "height": 4}, "root": {"bounds": [0, 0, 4, 4], "position": [2, 2], "backgroundColor": "red"}}"#)
        let r = try caprof(["render", one, "-o", tmp.appendingPathComponent("one.png").path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("1 draw item,"), r.stderr)
        let p = try caprof([one, "--no-gpu"])
        XCTAssertTrue(p.stdout.contains("1 draw item ·"), p.stdout)
        XCTAssertFalse(p.stdout.contains("1 draws") || p.stdout.contains("1 offscreen passes"), p.stdout)
    }

    /// A strip wider than the page says it scrolls sideways and fades its edges.
    func testTheFrameStripSaysItScrolls() throws {
        let out = tmp.appendingPathComponent("m.html").path
        let r = try caprof([Self.example("motion.json"), "--frames", "0:1", "--fps", "12", "--format", "html", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let html = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(html.contains("12 frames in the strip — scroll sideways"), "cue missing")
        XCTAssertTrue(html.contains("<div class=\"strip-wrap scrolls\">") && html.contains(".strip-wrap.scrolls::after"), "edge fade missing")
        // A one-frame strip has no cue and no fade hiding its frame.
        let one = tmp.appendingPathComponent("c.html").path
        XCTAssertEqual(try caprof([Self.example("cards.json"), "--format", "html", "-o", one]).code, 0)
        let single = try String(contentsOfFile: one, encoding: .utf8)
        XCTAssertTrue(single.contains("1 frame in the strip.") && !single.contains("strip-wrap scrolls"))
    }
}
