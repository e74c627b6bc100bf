import Foundation
import XCTest

/// What a new user met on a first run and should not have: `caprof` alone failing, doubled words,
/// far-fetched suggestions, internal names in messages, help that lists half the overlays,
/// schema and decoder disagreeing, absolute paths in converted scenes, a PNG named .jpg, and a
/// file's mistakes reported one per run.
final class FirstRunCLITests: CLITestCase {
    func testCaprofAloneShowsItsCommands() throws {
        let r = try caprof([])
        XCTAssertEqual(r.code, 0, r.stderr)
        for command in ["profile", "render", "convert", "gate", "snapshot", "devices", "schema"] {
            XCTAssertTrue(r.stdout.contains(command), "\(command) in\n\(r.stdout)")
        }
        XCTAssertFalse(r.stderr.contains("Error"), r.stderr)
    }

    func testTheSelectedDeviceIsSaidSelectedOnce() throws {
        let r = try caprof(["devices"], env: ["NO_COLOR": "1"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("selected: Vulkan 1."), r.stdout)
        XCTAssertFalse(r.stdout.contains("used:"), r.stdout)
    }

    func caml() throws -> String {
        try write("states.caml", """
        <?xml version="1.0" encoding="UTF-8"?>
        <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
          <CALayer id="root" name="root" bounds="0 0 100 100" position="50 50">
            <sublayers><CALayer id="dot" name="dot" bounds="0 0 10 10" position="20 20" backgroundColor="1 0 0"/></sublayers>
            <states>
              <LKState name="Locked"><elements><LKStateSetValue targetId="dot" keyPath="position.x"><value type="integer" value="80"/></LKStateSetValue></elements></LKState>
              <LKState name="Unlock"><elements/></LKState>
              <LKState name="Sleep"><elements/></LKState>
            </states>
          </CALayer>
        </caml>
        """)
    }

    /// "Nope" is nothing like any state's name: no suggestion. "Lockd" is one letter off "Locked".
    func testAStateIsSuggestedOnlyWhenItIsANearMiss() throws {
        let file = try caml()
        let far = try caprof(["convert", file, "--state", "Nope"])
        XCTAssertEqual(far.code, 65)
        XCTAssertTrue(far.stderr.contains("no state 'Nope' in this file; its states are 'Locked', 'Unlock', 'Sleep'"), far.stderr)
        XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
        let near = try caprof(["convert", file, "--state", "Lockd"])
        XCTAssertTrue(near.stderr.contains("did you mean 'Locked'?"), near.stderr)
    }

    func testLimitMessagesNameNoInternalConstant() throws {
        let scene = try write("many.json", """
        {"caprof": 1, "canvas": {"width": 100, "height": 100},
         "root": {"bounds": [0, 0, 100, 100], "sublayers": [{"class": "CAReplicatorLayer", "instanceCount": 100000000}]}}
        """)
        let r = try caprof(["profile", scene, "--no-gpu"])
        XCTAssertEqual(r.code, 65)
        XCTAssertTrue(r.stderr.contains("instanceCount 100000000 is over the limit of"), r.stderr)
        XCTAssertFalse(r.stderr.contains("SceneLimits"), r.stderr)
    }

    /// `--help` names every overlay `--overlays` writes.
    func testHelpNamesEveryOverlayWritten() throws {
        let dir = tmp.appendingPathComponent("overlays").path
        let run = try caprof(["profile", Self.example("cards.json"), "--no-gpu", "--overlays", dir, "-q"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let kinds = try FileManager.default.contentsOfDirectory(atPath: dir).map { name -> String in
            // frame-00000-KIND.png
            String(name.dropFirst("frame-00000-".count).dropLast(".png".count))
        }
        XCTAssertEqual(kinds.count, 6, "\(kinds)")
        let help = try caprof(["profile", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        for kind in kinds { XCTAssertTrue(help.contains(kind), "--help does not name the \(kind) overlay") }
    }

    /// A software device's times are said to be the CPU's, in the text and in JSON.
    func testLavapipeTimesAreSaidToBeSoftware() throws {
        let r = try caprof(["profile", Self.example("cards.json")], env: ["NO_COLOR": "1"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("software Vulkan on the CPU"), r.stdout)
        XCTAssertTrue(r.stdout.contains("cost/frame  GPU (software, on the CPU) "), r.stdout)
        let json = try caprof(["profile", Self.example("cards.json"), "--format", "json"])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((report["run"] as? [String: Any])?["deviceKind"] as? String, "CPU")
    }

    /// `filters.NAME.INPUT` and `emitterCells.NAME.KEY` key paths, which caprof reads, are valid
    /// by its schema too; a misspelt one is not.
    func testTheSchemaAcceptsTheFilterAndEmitterKeyPathsCaprofReads() throws {
        let scene = try write("keypaths.json", """
        {"caprof": 1, "canvas": {"width": 100, "height": 100},
         "root": {"bounds": [0, 0, 100, 100], "sublayers": [
           {"bounds": [0, 0, 50, 50], "filters": [{"type": "gaussianBlur", "name": "soft.edge", "inputRadius": 2}],
            "animations": [{"class": "CABasicAnimation", "keyPath": "filters.soft.edge.inputRadius", "fromValue": 0, "toValue": 8, "duration": 1}]},
           {"class": "CAEmitterLayer", "emitterCells": [{"name": "spark", "birthRate": 10, "lifetime": 1}],
            "animations": [{"class": "CABasicAnimation", "keyPath": "emitterCells.spark.birthRate", "fromValue": 10, "toValue": 0, "duration": 1}]}]}}
        """)
        let r = try caprof(["profile", scene, "--no-gpu", "-q"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let schema = tmp.appendingPathComponent("schema.json").path
        try Data(try caprof(["schema"]).stdout.utf8).write(to: URL(fileURLWithPath: schema))
        try assertValidates(scene, against: schema)
        let misspelt = try write("misspelt.json", try String(contentsOfFile: scene).replacingOccurrences(of: "spark.birthRate\"", with: "spark.birthRat\""))
        XCTAssertEqual(try caprof(["profile", misspelt, "--no-gpu", "-q"]).code, 65)
        let v = Process()
        v.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        v.arguments = ["-c", "import jsonschema,json,sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), cls=jsonschema.Draft202012Validator)", misspelt, schema]
        v.standardError = Pipe()
        try v.run(); v.waitUntilExit()
        XCTAssertNotEqual(v.terminationStatus, 0, "the schema accepts a key path caprof refuses")
    }

    /// A converted scene names its images relative to itself, and renders from any directory.
    func testConvertWritesImagePathsRelativeToTheSceneItWrites() throws {
        let folder = tmp.appendingPathComponent("converted")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("cards.json").path
        let r = try caprof(["convert", Self.example("cards.json"), "-o", out, "-q"])
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOfFile: out)
        let paths = text.components(separatedBy: "\"").filter { $0.hasSuffix(".png") }
        XCTAssertFalse(paths.isEmpty)
        for p in paths {
            XCTAssertFalse(p.hasPrefix("/"), p)
            // From tmp/converted up to the repository root, into Examples/assets.
            XCTAssertTrue(p.hasPrefix("../") && p.contains("Examples/assets/"), p)
        }
        let render = try caprof(["render", out, "-o", tmp.appendingPathComponent("c.png").path], directory: URL(fileURLWithPath: "/"))
        XCTAssertEqual(render.code, 0, render.stderr)
    }

    func testAFrameNamedJPEGIsRefusedNotWrittenAsPNG() throws {
        let jpg = tmp.appendingPathComponent("frame.jpg").path
        let r = try caprof(["render", Self.example("cards.json"), "-o", jpg])
        XCTAssertEqual(r.code, 64)
        XCTAssertTrue(r.stderr.contains("caprof writes a frame as PNG, not .jpg; name it .png"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: jpg))
    }

    /// Three mistakes in three layers come out together, in file order, each at its place.
    func testAFilesMistakesAreReportedTogether() throws {
        let scene = try write("mistakes.json", """
        {"caprof": 1, "canvas": {"width": 100, "height": 100},
         "root": {"bounds": [0, 0, 100, 100], "backgroundColr": "#FFFFFF", "sublayers": [
           {"opacity": 1.5},
           {"position": "ten"}]}}
        """)
        let r = try caprof(["profile", scene, "--no-gpu"])
        XCTAssertEqual(r.code, 65)
        let errors = r.stderr.components(separatedBy: "\n").filter { $0.contains(": error: ") }
        XCTAssertEqual(errors.count, 3, r.stderr)
        // Columns of each value, counted in the text above: "backgroundColr" starts at 39 of line 2,
        // 1.5 at 16 of line 3, "ten" at 17 of line 4.
        XCTAssertTrue(errors[0].contains("mistakes.json:2:39: error: /root/backgroundColr: unknown key"), errors[0])
        XCTAssertTrue(errors[1].contains("mistakes.json:3:16: error: /root/sublayers/0/opacity: opacity 1.5 is out of range"), errors[1])
        XCTAssertTrue(errors[2].contains("mistakes.json:4:17: error: /root/sublayers/1/position: expected a point"), errors[2])
    }

    /// Past `SceneError.maxReported` (20) mistakes, decoding stops and says so.
    func testManyMistakesStopAtTwenty() throws {
        let layers = (0..<30).map { _ in "{\"opacity\": 2}" }.joined(separator: ", ")
        let scene = try write("thirty.json", "{\"caprof\": 1, \"canvas\": {\"width\": 100, \"height\": 100}, \"root\": {\"sublayers\": [\(layers)]}}")
        let r = try caprof(["profile", scene, "--no-gpu"])
        XCTAssertEqual(r.code, 65)
        XCTAssertEqual(r.stderr.components(separatedBy: "is out of range").count - 1, 20, r.stderr)
        XCTAssertTrue(r.stderr.contains("stopped after 20 mistakes; fix these and run again"), r.stderr)
    }
}

/// Measured savings come from plans alone: the same with a GPU and with --no-gpu.
final class SavingsCLITests: CLITestCase {
    func testSavingsAreTheSameWithAndWithoutAGPU() throws {
        func savings(_ extra: [String]) throws -> [String] {
            let r = try caprof(["profile", Self.example("cards.json"), "--format", "json", "-q"] + extra)
            XCTAssertEqual(r.code, 0, r.stderr)
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let findings = try XCTUnwrap(report["findings"] as? [[String: Any]])
            return findings.compactMap { f in
                (f["saving"] as? [String: Any]).map { s in "\(f["id"]!) \(s["offscreenPasses"]!) \(s["offscreenPixels"]!) \(s["shadedPixels"]!) \(s["blendedPixels"]!)" }
            }
        }
        let gpu = try savings([]), plan = try savings(["--no-gpu"])
        XCTAssertFalse(plan.isEmpty)
        XCTAssertEqual(gpu, plan)
    }

    func testNoSavingsSkipsTheMeasurement() throws {
        let r = try caprof(["profile", Self.example("cards.json"), "--no-gpu", "--no-savings"], env: ["NO_COLOR": "1"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("Fix first"), r.stdout)
        XCTAssertFalse(r.stdout.contains("saves:"), r.stdout)
        let with = try caprof(["profile", Self.example("cards.json"), "--no-gpu"], env: ["NO_COLOR": "1"])
        XCTAssertTrue(with.stdout.contains("Fix first"), with.stdout)
    }
}
