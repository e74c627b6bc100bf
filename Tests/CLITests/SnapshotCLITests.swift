import Foundation
import XCTest

/// `caprof snapshot`, end to end: record goldens, change the scene, read the exit code, the
/// outputs and the diff images. Scenes are 40×40 points at scale 1 (fast on lavapipe); the
/// commands run in the temporary directory, so goldens are keyed by `scene.json`.
final class SnapshotCLITests: CLITestCase {
    /// A white canvas with a blue box that moves right over the timeline's 1 s.
    static func scene(color: String = "#0A84FF", x: Int = 5, duration: Double = 1) -> String {
        """
        {"caprof": 1, "canvas": {"width": 40, "height": 40, "scale": 1, "backgroundColor": "#FFFFFF"},
         "timeline": {"fps": 10, "duration": 1},
         "root": {"frame": [0, 0, 40, 40], "backgroundColor": "#FFFFFF", "sublayers": [
           {"name": "box", "frame": [\(x), 5, 10, 10], "backgroundColor": "\(color)",
            "animations": [{"class": "CABasicAnimation", "key": "move", "keyPath": "position.y",
                            "fromValue": 10, "toValue": 30, "duration": \(duration), "fillMode": "forwards",
                            "removedOnCompletion": false}]}]}}
        """
    }

    /// Runs caprof in the temporary directory.
    func snapshot(_ args: [String]) throws -> Run {
        try caprof(["snapshot"] + args, env: ["NO_COLOR": "1"], directory: tmp)
    }

    func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    /// Writes the scene and records its goldens at the default times.
    @discardableResult
    func recordScene(_ text: String = SnapshotCLITests.scene()) throws -> Run {
        _ = try write("scene.json", text)
        let r = try snapshot(["scene.json", "--goldens", "goldens", "--record"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        return r
    }

    static let defaultKeys = ["0", "250", "500", "750", "1000"].map { "goldens/scene.json@\($0)ms.png" }

    func testRecordThenCheckPasses() throws {
        let rec = try recordScene()
        for k in Self.defaultKeys {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path(k)), k)
            XCTAssertTrue(rec.stdout.contains("new golden \(k)"), rec.stdout)
        }
        XCTAssertTrue(rec.stdout.contains("snapshot: recorded, 5 recorded (5 frames of 1 scene"), rec.stdout)
        XCTAssertEqual(try pngSize(path(Self.defaultKeys[0])).0, 40)

        let r = try snapshot(["scene.json", "--goldens", "goldens"])
        XCTAssertEqual(r.code, 0, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout.components(separatedBy: "✓ pass").count - 1, 5, r.stdout)
        XCTAssertTrue(r.stdout.contains("scene.json at 0.5 s: 0.00 % of pixels over ΔE 3, max ΔE 0.00"), r.stdout)
        XCTAssertTrue(r.stdout.contains("snapshot: pass, 5 passed, 0 failed (5 frames of 1 scene; precision 0.985, ΔE ≤ 3)"), r.stdout)
        XCTAssertFalse(r.stdout.contains("\u{1B}["), "NO_COLOR: no escape sequences")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("snapshot-diffs")))

        // A golden is exactly what `caprof render --time` writes.
        let rendered = path("render.png")
        let render = try caprof(["render", path("scene.json"), "--time", "0.5", "-o", rendered, "-q"])
        XCTAssertEqual(render.code, 0, render.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: rendered), FileManager.default.contents(atPath: path("goldens/scene.json@500ms.png")))

        // Re-recording says the goldens are unchanged.
        let again = try snapshot(["scene.json", "--goldens", "goldens", "--record"])
        XCTAssertEqual(again.code, 0)
        XCTAssertTrue(again.stdout.contains("goldens/scene.json@500ms.png unchanged"), again.stdout)
    }

    func testChangedColourFailsWithDiffImage() throws {
        try recordScene()
        _ = try write("scene.json", Self.scene(color: "#FF3B30"))
        let r = try snapshot(["scene.json", "--goldens", "goldens"])
        XCTAssertEqual(r.code, 2, r.stdout + r.stderr)
        XCTAssertEqual(r.stdout.components(separatedBy: "✗ FAIL").count - 1, 5, r.stdout)
        // 100 of 1600 pixels, where the box is at time 0.
        XCTAssertTrue(r.stdout.contains("scene.json at 0 s: 6.25 % of pixels over ΔE 3 (allowed 1.50 %), max ΔE "), r.stdout)
        XCTAssertTrue(r.stdout.contains("at x 5…14, y 5…14 (10×10 px); diff: snapshot-diffs/scene.json@0ms.png"), r.stdout)
        XCTAssertTrue(r.stdout.contains("snapshot: fail, 0 passed, 5 failed"), r.stdout)
        for k in ["0", "250", "500", "750", "1000"] {
            let diff = path("snapshot-diffs/scene.json@\(k)ms.png")
            XCTAssertTrue(FileManager.default.fileExists(atPath: diff), diff)
            let (w, h) = try pngSize(diff)
            XCTAssertEqual(w, 3 * 40 + 2 * 4)   // golden | actual | heat map, 4-pixel separators
            XCTAssertEqual(h, 40)
        }
        // The goldens are untouched; restoring the colour passes and removes the diff images.
        _ = try write("scene.json", Self.scene())
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "goldens"]).code, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("snapshot-diffs/scene.json@0ms.png")))

        // --precision: a lower bar lets the changed colour pass (6.25 % fail).
        _ = try write("scene.json", Self.scene(color: "#FF3B30"))
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "goldens", "--precision", "0.9"]).code, 0)
    }

    func testMovedLayerFails() throws {
        try recordScene()
        _ = try write("scene.json", Self.scene(x: 12))
        let r = try snapshot(["scene.json", "--goldens", "goldens", "--times", "0", "--diffs", "diffs"])
        XCTAssertEqual(r.code, 2, r.stdout + r.stderr)
        // The old and the new place of the box: x 5…21.
        XCTAssertTrue(r.stdout.contains("at x 5…21, y 5…14 (17×10 px); diff: diffs/scene.json@0ms.png"), r.stdout)
        XCTAssertEqual(try pngSize(path("diffs/scene.json@0ms.png")).0, 128)
    }

    func testChangedTimingFailsInTheMiddleNotAtTheStart() throws {
        try recordScene()
        _ = try write("scene.json", Self.scene(duration: 0.5))
        let r = try snapshot(["scene.json", "--goldens", "goldens"])
        XCTAssertEqual(r.code, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("✓ pass   scene.json at 0 s:"), r.stdout)
        XCTAssertTrue(r.stdout.contains("✗ FAIL   scene.json at 0.25 s:"), r.stdout)
        XCTAssertTrue(r.stdout.contains("✗ FAIL   scene.json at 0.5 s:"), r.stdout)
        XCTAssertTrue(r.stdout.contains("✓ pass   scene.json at 1 s:"), r.stdout)   // both at rest at the end
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("snapshot-diffs/scene.json@500ms.png")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("snapshot-diffs/scene.json@0ms.png")))
    }

    func testMissingGoldenSaysHowToRecord() throws {
        try recordScene()
        let r = try snapshot(["scene.json", "--goldens", "goldens", "--times", "0,0.3"])
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("no golden goldens/scene.json@300ms.png (the scene has goldens at 0, 250, 500, 750, 1000 ms: if its timeline's duration changed, its default times moved with it; give the scene a timeline.duration, or --times): record it with `caprof snapshot scene.json --goldens goldens --times 0.3 --record`"), r.stderr)
        XCTAssertTrue(r.stdout.contains("✓ pass   scene.json at 0 s"), r.stdout)

        // No goldens directory at all.
        let none = try snapshot(["scene.json", "--goldens", "nowhere"])
        XCTAssertEqual(none.code, 1)
        XCTAssertTrue(none.stderr.contains("no goldens directory nowhere: record the goldens first with `caprof snapshot scene.json --goldens nowhere --record`"), none.stderr)
        XCTAssertEqual(none.stdout, "")

        // No such scene.
        let missing = try snapshot(["nothing.json", "--goldens", "goldens"])
        XCTAssertEqual(missing.code, 1)
        XCTAssertTrue(missing.stderr.contains("nothing.json: error: no such scene file or directory"), missing.stderr)
    }

    func testGoldenOfAnotherSizeCorruptGoldenAndGoldensFile() throws {
        try recordScene()
        // Another size: the frame at scale 2 against goldens recorded at scale 1.
        let big = try snapshot(["scene.json", "--goldens", "goldens", "--scale", "2", "--times", "0"])
        XCTAssertEqual(big.code, 1, big.stdout + big.stderr)
        XCTAssertTrue(big.stderr.contains("the golden goldens/scene.json@0ms.png is 40×40 pixels but the frame is 80×80"), big.stderr)

        // A corrupt golden: an error, not a failure; the golden is not replaced by checking.
        let golden = path("goldens/scene.json@250ms.png")
        let bytes = try XCTUnwrap(FileManager.default.contents(atPath: golden))
        try Data(bytes.prefix(60)).write(to: URL(fileURLWithPath: golden))
        let bad = try snapshot(["scene.json", "--goldens", "goldens"])
        XCTAssertEqual(bad.code, 1, bad.stdout + bad.stderr)
        XCTAssertTrue(bad.stderr.contains("the golden goldens/scene.json@250ms.png is not a valid PNG"), bad.stderr)
        XCTAssertTrue(bad.stdout.contains("snapshot: error, 4 passed, 0 failed, 1 error"), bad.stdout)
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: golden))
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "goldens"]).code, 1)

        // --goldens naming a file.
        _ = try write("file.txt", "x")
        let file = try snapshot(["scene.json", "--goldens", "file.txt"])
        XCTAssertEqual(file.code, 1)
        XCTAssertTrue(file.stderr.contains("--goldens file.txt is a file, not a directory"), file.stderr)
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "file.txt", "--record"]).code, 1)
        XCTAssertEqual(try String(contentsOfFile: path("file.txt"), encoding: .utf8), "x")
    }

    func testRecordKeepsOldGoldensWhenTheSceneFails() throws {
        try recordScene()
        let golden = path("goldens/scene.json@0ms.png")
        let before = FileManager.default.contents(atPath: golden)
        _ = try write("scene.json", "{\"caprof\": 1, \"canvas\": ")
        let r = try snapshot(["scene.json", "--goldens", "goldens", "--record"])
        XCTAssertEqual(r.code, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("scene.json:"), r.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: golden), before)
        let names = try FileManager.default.contentsOfDirectory(atPath: path("goldens"))
        XCTAssertEqual(names.sorted(), Self.defaultKeys.map { String($0.dropFirst("goldens/".count)) }.sorted())
    }

    func testUsageErrors() throws {
        _ = try write("scene.json", Self.scene())
        XCTAssertEqual(try snapshot(["scene.json"]).code, 64)                                  // no --goldens
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "g", "--times", "-1"]).code, 64)
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "g", "--times", "0,,1"]).code, 64)
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "g", "--precision", "1.5"]).code, 64)
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "g", "--shard", "3/2"]).code, 64)
        let outside = try caprof(["snapshot", path("scene.json"), "--goldens", path("g"), "--record"])
        XCTAssertEqual(outside.code, 64, outside.stderr)
        XCTAssertTrue(outside.stderr.contains("is outside the current directory"), outside.stderr)
    }

    func testJUnitGitHubJSONMarkdownAndShards() throws {
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("scenes"), withIntermediateDirectories: true)
        _ = try write("scenes/a.json", Self.scene())
        _ = try write("scenes/b.json", Self.scene(x: 20))
        let rec = try snapshot(["scenes", "--goldens", "goldens", "--record", "--times", "0,0.5"])
        XCTAssertEqual(rec.code, 0, rec.stdout + rec.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("goldens/scenes/a.json@500ms.png")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("goldens/scenes/b.json@0ms.png")))

        _ = try write("scenes/a.json", Self.scene(color: "#FF3B30"))
        let junit = try snapshot(["scenes", "--goldens", "goldens", "--times", "0,0.5", "--format", "junit", "-o", "out.xml"])
        XCTAssertEqual(junit.code, 2, junit.stdout + junit.stderr)
        let xml = try String(contentsOfFile: path("out.xml"), encoding: .utf8)
        XCTAssertEqual(xml.components(separatedBy: "<failure ").count - 1, 2, xml)
        XCTAssertEqual(xml.components(separatedBy: "<testcase ").count - 1, 4, xml)
        XCTAssertTrue(xml.contains("tests=\"4\" failures=\"2\" errors=\"0\""), xml)
        XCTAssertTrue(xml.contains("[[ATTACHMENT|snapshot-diffs/scenes/a.json@500ms.png]]"), xml)
        XCTAssertTrue(xml.contains("classname=\"scenes/a_json\" name=\"frame at 0.5 s\""), xml)

        let gh = try snapshot(["scenes", "--goldens", "goldens", "--times", "0,0.5", "--format", "github"])
        XCTAssertEqual(gh.code, 2)
        let lines = gh.stdout.split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("::error file=scenes/a.json,line=1,title=caprof snapshot%3A visual regression::scenes/a.json at 0") }.count, 2, gh.stdout)

        let json = try snapshot(["scenes", "--goldens", "goldens", "--times", "0,0.5", "--format", "json"])
        XCTAssertEqual(json.code, 2)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["caprofSnapshot"] as? Int, 1)
        let frames = try XCTUnwrap(object["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.map { $0["status"] as? String }, ["fail", "fail", "pass", "pass"])
        XCTAssertEqual((object["totals"] as? [String: Any])?["failed"] as? Int, 2)
        XCTAssertEqual((object["totals"] as? [String: Any])?["outcome"] as? String, "fail")
        XCTAssertEqual((frames[0]["failingBounds"] as? [String: Any])?["width"] as? Int, 10)

        // Its own JSON output in a scene directory is not taken for a scene.
        XCTAssertEqual(try snapshot(["scenes", "--goldens", "goldens", "--times", "0,0.5", "--format", "json", "-o", "scenes/snapshot.json"]).code, 2)
        let again = try snapshot(["scenes", "--goldens", "goldens", "--times", "0,0.5"])
        XCTAssertEqual(again.code, 2, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("(4 frames of 2 scenes;"), again.stdout)

        let md = try snapshot(["scenes", "--goldens", "goldens", "--times", "0,0.5", "--format", "markdown"])
        XCTAssertTrue(md.stdout.contains("| ❌ | `scenes/a.json` | 0.5 s | 6.25 % |"), md.stdout)

        // Shards: each checks its own scene.
        let one = try snapshot(["scenes", "--goldens", "goldens", "--times", "0,0.5", "--shard", "1/2"])
        XCTAssertEqual(one.code, 2, one.stdout)
        XCTAssertTrue(one.stdout.contains("(2 frames of 1 scene, shard 1/2"), one.stdout)
        let two = try snapshot(["scenes", "--goldens", "goldens", "--times", "0,0.5", "--shard", "2/2"])
        XCTAssertEqual(two.code, 0, two.stdout)
        XCTAssertTrue(two.stdout.contains("scenes/b.json at 0.5 s"), two.stdout)
    }

    /// The scene's own "snapshots": its times replace the default ones, its precision wins over
    /// --precision; --times still overrides the scene's times.
    func testTheScenesOwnTimesAndPrecision() throws {
        func scene(color: String = "#0A84FF", precision: Double) -> String {
            let s = Self.scene(color: color)
            return String(s.dropLast()) + #", "snapshots": {"times": [0.1, 0.6], "precision": "# + "\(precision)}}"
        }
        try recordScene(scene(precision: 0.9))
        let names = try FileManager.default.contentsOfDirectory(atPath: path("goldens")).sorted()
        XCTAssertEqual(names, ["scene.json@100ms.png", "scene.json@600ms.png"])

        // 6.25 % of pixels change (the box): within the scene's 10 %, even with a stricter --precision.
        _ = try write("scene.json", scene(color: "#FF3B30", precision: 0.9))
        let lenient = try snapshot(["scene.json", "--goldens", "goldens", "--precision", "0.999"])
        XCTAssertEqual(lenient.code, 0, lenient.stdout + lenient.stderr)
        XCTAssertEqual(lenient.stdout.components(separatedBy: "✓ pass").count - 1, 2, lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("precision 0.999 or the scene's own"), lenient.stdout)

        // The scene's 0.99 allows 1 %: the same change fails, and says so.
        _ = try write("scene.json", scene(color: "#FF3B30", precision: 0.99))
        let strict = try snapshot(["scene.json", "--goldens", "goldens", "--precision", "0.5", "--format", "json"])
        XCTAssertEqual(strict.code, 2, strict.stdout + strict.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(strict.stdout.utf8)) as? [String: Any])
        let frames = try XCTUnwrap(object["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.map { $0["time"] as? Double }, [0.1, 0.6])
        XCTAssertEqual(frames.map { $0["precision"] as? Double }, [0.99, 0.99])
        let text = try snapshot(["scene.json", "--goldens", "goldens"])
        XCTAssertTrue(text.stdout.contains("scene.json at 0.1 s: 6.25 % of pixels over ΔE 3 (allowed 1.00 %)"), text.stdout)

        // --times overrides the scene's list: no golden at 0 s.
        let other = try snapshot(["scene.json", "--goldens", "goldens", "--times", "0"])
        XCTAssertEqual(other.code, 1, other.stdout + other.stderr)
        XCTAssertTrue(other.stderr.contains("no golden goldens/scene.json@0ms.png"), other.stderr)
    }

    /// --format html: one page with the failing frames' diff images embedded and every frame listed.
    func testHTMLPageEmbedsTheDiffImages() throws {
        _ = try write("scene.json", Self.scene())
        XCTAssertEqual(try snapshot(["scene.json", "--goldens", "goldens", "--record", "--times", "0,0.5"]).code, 0)
        _ = try write("scene.json", Self.scene(x: 12))
        let r = try snapshot(["scene.json", "--goldens", "goldens", "--times", "0,0.5", "--format", "html", "-o", "snapshot.html"])
        XCTAssertEqual(r.code, 2, r.stdout + r.stderr)
        let html = try String(contentsOfFile: path("snapshot.html"), encoding: .utf8)
        XCTAssertTrue(html.hasPrefix("<!doctype html>"))
        XCTAssertTrue(html.contains("<h1>2 of 2 frames differ</h1>"), html)
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "self-contained")
        // Two embedded images, each the diff PNG on disk, byte for byte.
        let marker = "data:image/png;base64,"
        let parts = html.components(separatedBy: marker).dropFirst()
        XCTAssertEqual(parts.count, 2)
        let first = try XCTUnwrap(Data(base64Encoded: String(try XCTUnwrap(parts.first).prefix { $0 != "\"" })))
        XCTAssertEqual(first, FileManager.default.contents(atPath: path("snapshot-diffs/scene.json@0ms.png")))
        XCTAssertTrue(html.contains("at x 5…21, y 5…14 (17×10 px)"), "where the change is")
        XCTAssertEqual(html.components(separatedBy: "<span class=\"st st-fail\">").count - 1, 2)
        XCTAssertTrue(html.contains("<td class=\"mono\">goldens/scene.json@500ms.png</td>"), html)

        // An unchanged scene: a page that says so, with no images.
        _ = try write("scene.json", Self.scene())
        let ok = try snapshot(["scene.json", "--goldens", "goldens", "--times", "0,0.5", "--format", "html"])
        XCTAssertEqual(ok.code, 0)
        XCTAssertTrue(ok.stdout.contains("<h1>All 2 frames match their goldens</h1>"), ok.stdout)
        XCTAssertFalse(ok.stdout.contains(marker))
    }
}
