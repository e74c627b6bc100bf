import Foundation
import XCTest

/// `caprof profile` and the default command (`caprof scene.json`), end to end.
final class ProfileCLITests: CLITestCase {
    /// One layer off the pixel grid, one translucent bar, a rounded clip over a sublayer.
    static let scene = """
    {"caprof": 1, "canvas": {"width": 100, "height": 80, "scale": 1, "backgroundColor": "#FFFFFF"},
     "timeline": {"duration": 0.1, "fps": 30},
     "root": {"frame": [0, 0, 100, 80], "backgroundColor": "#FFFFFF", "sublayers": [
       {"name": "bar", "frame": [0, 0, 100, 20], "backgroundColor": [1, 1, 1, 0.8]},
       {"name": "card", "frame": [10.5, 30, 40, 30], "backgroundColor": "#3366CC"},
       {"name": "clip", "frame": [60, 30, 30, 30], "masksToBounds": true, "cornerRadius": 8, "backgroundColor": "#222222",
        "sublayers": [{"frame": [0, 0, 10, 10], "backgroundColor": "#FF0000"}]}
     ]}}
    """

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testDefaultSubcommandPrintsTheSummary() throws {
        let path = try write("scene.json", Self.scene)
        let r = try caprof([path, "--no-gpu"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("misaligned.subpixel  card"), r.stdout)
        XCTAssertTrue(r.stdout.contains("scene.json:5"), r.stdout)
        XCTAssertTrue(r.stdout.contains("blended  bar"), r.stdout)
        XCTAssertTrue(r.stdout.contains("offscreen.rounded-clip  clip"), r.stdout)
        XCTAssertTrue(r.stdout.contains("fix: "), r.stdout)
        XCTAssertTrue(r.stdout.contains("frames 0–2"), r.stdout)
        XCTAssertFalse(r.stdout.contains("\u{1B}["), "no colours when stdout is not a terminal")
        // The same through the explicit subcommand (but for the measured times).
        let untimed = { (s: String) in s.split(separator: "\n").filter { !$0.hasPrefix("cost/frame") } }
        XCTAssertEqual(untimed(try caprof(["profile", path, "--no-gpu"]).stdout), untimed(r.stdout))
    }

    /// The motion example animates (springs, keyframes, a transaction's implicit animation and a
    /// push CATransition, whose previous state has a negative layer id): its whole-timeline
    /// report validates too.
    func testAnimatedExampleReportValidates() throws {
        let out = tmp.appendingPathComponent("motion.json").path
        let r = try caprof(["profile", Self.example("motion.json"), "--no-gpu", "--format", "json", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let schemaPath = try write("report.schema.json", try caprof(["profile", "--schema"]).stdout)
        try assertValidates(out, against: schemaPath)
        let report = try json(String(contentsOfFile: out, encoding: .utf8))
        let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
        // Alike findings are grouped: look at every layer's own finding (members of a group too).
        let perLayer = findings.flatMap { ($0["members"] as? [[String: Any]]) ?? [$0] }
        XCTAssertTrue(perLayer.contains { (($0["layer"] as? [String: Any])?["id"] as? Int ?? 0) < 0 },
                      "the banner's previous state (push transition at 1 s) is reported as its own layer")
        XCTAssertEqual((report["run"] as? [String: Any])?["frameCount"] as? Int, 60, "2 s at 30 fps")
    }

    func testJSONReportValidatesAgainstThePrintedSchema() throws {
        let path = try write("scene.json", Self.scene)
        let out = tmp.appendingPathComponent("report.json").path
        let r = try caprof(["profile", path, "--format", "json", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote"), r.stderr)
        let schema = try caprof(["profile", "--schema"])
        XCTAssertEqual(schema.code, 0)
        let schemaPath = try write("report.schema.json", schema.stdout)
        try assertValidates(out, against: schemaPath)

        let report = try json(String(contentsOfFile: out, encoding: .utf8))
        XCTAssertEqual(report["caprofReport"] as? Int, 2)
        let run = try XCTUnwrap(report["run"] as? [String: Any])
        XCTAssertEqual(run["gpu"] as? Bool, true)
        XCTAssertEqual(run["frameCount"] as? Int, 3)
        let frames = try XCTUnwrap(report["frames"] as? [[String: Any]])
        let cost = try XCTUnwrap(frames.first?["cost"] as? [String: Any])
        for key in ["gpuNanoseconds", "drawCalls", "textureBytes", "recordNanoseconds"] { XCTAssertNotNil(cost[key], key) }
    }

    func testNoGPUGivesTheSameFindingsAndCounters() throws {
        for path in [try write("scene.json", Self.scene), Self.example("cards.json"), Self.example("flip3d.json")] {
            let gpu = try caprof([path, "--format", "json"]), plan = try caprof([path, "--format", "json", "--no-gpu"])
            XCTAssertEqual(gpu.code, 0, gpu.stderr); XCTAssertEqual(plan.code, 0, plan.stderr)
            let a = try json(gpu.stdout), b = try json(plan.stdout)
            // The same findings; a GPU run adds only measured device times: of offscreen passes,
            // and of what a fix saves.
            let unmeasured = { (r: [String: Any]) in (r["findings"] as? [[String: Any]] ?? []).map { f -> NSDictionary in
                var f = f.filter { $0.key != "gpuNanoseconds" && $0.key != "maxGPUNanoseconds" }
                if var saving = f["saving"] as? [String: Any] { saving["gpuNanoseconds"] = nil; f["saving"] = saving }
                return f as NSDictionary } }
            XCTAssertEqual(unmeasured(a), unmeasured(b), path)
            XCTAssertFalse((a["findings"] as? [Any] ?? []).isEmpty, path)
            let counters = { (r: [String: Any]) in (r["frames"] as? [[String: Any]] ?? []).map { $0["counters"] as? NSDictionary } }
            XCTAssertEqual(counters(a), counters(b), path)
            XCTAssertEqual((b["run"] as? [String: Any])?["gpu"] as? Bool, false)
        }
    }

    func testNoGPUTouchesNoVulkan() throws {
        let path = try write("scene.json", Self.scene)
        let env = ["VK_DRIVER_FILES": "/nonexistent/icd.json", "VK_ICD_FILENAMES": "/nonexistent/icd.json"]
        XCTAssertEqual(try caprof([path, "--no-gpu"], env: env).code, 0)
        let r = try caprof([path], env: env)
        XCTAssertEqual(r.code, 69, r.stderr)
    }

    func testFramesAndFPS() throws {
        let path = try write("scene.json", Self.scene)
        let r = try caprof([path, "--no-gpu", "--format", "json", "--frames", "1f:3f", "--fps", "60"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let frames = try XCTUnwrap(try json(r.stdout)["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.map { $0["index"] as? Int }, [1, 2])
        XCTAssertEqual(frames.last?["time"] as? Double ?? 0, 2.0 / 60, accuracy: 1e-12)
        let finding = try XCTUnwrap((try json(r.stdout)["findings"] as? [[String: Any]])?.first)
        XCTAssertEqual(finding["frames"] as? NSArray, [["first": 1, "last": 2]] as NSArray)
    }

    func testExitCodes() throws {
        let good = try write("scene.json", Self.scene)
        XCTAssertEqual(try caprof(["profile", tmp.appendingPathComponent("missing.json").path, "--no-gpu"]).code, 66)
        let bad = try write("bad.json", #"{"caprof": 1, "canvas": {"width": 10, "height": 10}, "root": {"opacty": 1}}"#)
        let r = try caprof([bad, "--no-gpu"])
        XCTAssertEqual(r.code, 65)
        XCTAssertTrue(r.stderr.contains("bad.json:1:"), r.stderr)
        XCTAssertEqual(try caprof(["profile", "--no-gpu"]).code, 64, "no scene")
        XCTAssertEqual(try caprof([good, "--no-gpu", "--fps", "0"]).code, 64)
        XCTAssertEqual(try caprof([good, "--no-gpu", "--format", "yaml"]).code, 64)
        XCTAssertEqual(try caprof([good, "--no-gpu", "--frames", "3f:1f"]).code, 64)
        let unwritable = try caprof([good, "--no-gpu", "-o", tmp.appendingPathComponent("no/such/dir/r.txt").path])
        XCTAssertEqual(unwritable.code, 73, unwritable.stderr)
        XCTAssertTrue(unwritable.stderr.contains("error:"), unwritable.stderr)
    }

    func testOutputIsWrittenWhole() throws {
        let path = try write("scene.json", Self.scene)
        let out = tmp.appendingPathComponent("summary.txt").path
        try "old".write(toFile: out, atomically: false, encoding: .utf8)
        XCTAssertEqual(try caprof([path, "--no-gpu", "-o", out]).code, 0)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.contains("misaligned.subpixel"), text)
        XCTAssertFalse(text.contains("\u{1B}["))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasSuffix(".tmp") }
        XCTAssertEqual(leftovers, [])
    }

    /// Blending as Core Animation decides it, from the image's format: bubble.png has an alpha
    /// channel and transparent corners; avatar-1.png is an RGB PNG (no alpha channel); the
    /// RGBA copy of it written here has an alpha channel though every pixel is opaque, so it
    /// blends too (Color Blended Layers shows it red), with the advice to drop the channel.
    func testImagesWithAnAlphaChannelAreBlendedImagesWithoutAreNot() throws {
        let assets = Self.repoRoot.appendingPathComponent("Examples/assets").path
        // 4×4 RGBA, every alpha 255 (built by hand: zlib + CRC in a script).
        let rgba = tmp.appendingPathComponent("opaque-rgba.png")
        try Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAEUlEQVR42mNgaPj/HwWTLgAAMG8n4VwEGIwAAAAASUVORK5CYII=")!.write(to: rgba)
        let path = try write("images.json", """
        {"caprof": 1, "canvas": {"width": 100, "height": 100, "scale": 1},
         "root": {"frame": [0, 0, 100, 100], "backgroundColor": "#FFFFFF", "sublayers": [
           {"name": "avatar", "frame": [0, 0, 120, 120], "contents": "\(assets)/avatar-1.png", "contentsScale": 1},
           {"name": "bubble", "frame": [0, 0, 90, 90], "contents": "\(assets)/bubble.png", "contentsScale": 1},
           {"name": "tile", "frame": [92, 92, 4, 4], "contents": "\(rgba.path)", "contentsScale": 1}]}}
        """)
        let r = try caprof([path, "--no-gpu", "--format", "json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let findings = try XCTUnwrap(try json(r.stdout)["findings"] as? [[String: Any]])
        let blended = findings.filter { $0["id"] as? String == "blended" }.flatMap { ($0["members"] as? [[String: Any]]) ?? [$0] }
        XCTAssertEqual(blended.compactMap { ($0["layer"] as? [String: Any])?["display"] as? String }.sorted(), ["bubble", "tile"])
        let tile = try XCTUnwrap(blended.first { ($0["layer"] as? [String: Any])?["display"] as? String == "tile" })
        XCTAssertEqual(tile["maxPixels"] as? Int, 16, "its whole 4 × 4 quad")
        XCTAssertEqual((tile["evidence"] as? [String: Any])?["blendReasons"] as? [String], ["alpha-channel"])
        XCTAssertTrue((tile["fix"] as? String)?.contains("without an alpha channel") == true, "\(tile)")
        let text = try caprof([path, "--no-gpu"])
        XCTAssertTrue(text.stdout.contains("all 16 of its pixels are opaque"), text.stdout)
    }

    func testHelpNamesProfileAsTheDefault() throws {
        let r = try caprof(["--help"])
        XCTAssertEqual(r.code, 0)
        XCTAssertTrue(r.stdout.contains("profile (default)"), r.stdout)
    }
}
