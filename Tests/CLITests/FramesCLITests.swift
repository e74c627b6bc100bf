import Foundation
import XCTest

/// `caprof render --frames / --time / --sheet`, end to end: file names, ranges, the contact
/// sheet's size, usage errors and what a failure leaves behind.
final class FramesCLITests: CLITestCase {
    /// A 200×100 pt canvas at 2× (400×200 px) with two layers; `timeline` as given.
    func smallScene(timeline: String = #"{"fps": 30}"#) throws -> String {
        try write("small.json", """
        {"caprof": 1, "canvas": {"width": 200, "height": 100, "scale": 2, "backgroundColor": "#FFFFFF"},
         "timeline": \(timeline),
         "root": {"frame": [0, 0, 200, 100], "sublayers": [
           {"frame": [20, 20, 60, 60], "backgroundColor": "#0A84FF", "cornerRadius": 12},
           {"frame": [120, 30, 50, 40], "backgroundColor": "#FF9F0A"}]}}
        """)
    }

    func files(_ dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    }

    func testFramesWritesOneZeroPaddedPNGPerFrame() throws {
        let scene = try smallScene()
        let dir = tmp.appendingPathComponent("out/seq")      // created with its parent
        let r = try caprof(["render", scene, "--frames", "0:0.5", "--fps", "10", "-o", dir.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(files(dir), (0..<5).map { "frame-0000\($0).png" })
        for f in files(dir) {
            let (w, h) = try pngSize(dir.appendingPathComponent(f).path)
            XCTAssertEqual(w, 400); XCTAssertEqual(h, 200)
        }
        // Not a terminal: no progress bar, one summary line.
        XCTAssertFalse(r.stderr.contains("\r") || r.stderr.contains("\u{1B}["), r.stderr)
        XCTAssertTrue(r.stderr.contains("wrote 5 frames to \(dir.path)"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }

    func testFrameNumberRangesKeepGlobalIndices() throws {
        let scene = try smallScene(timeline: #"{"fps": 30, "duration": 0.1}"#)
        func run(_ range: String, _ extra: [String] = []) throws -> [String] {
            let dir = tmp.appendingPathComponent("r\(UUID().uuidString.prefix(8))")
            let r = try caprof(["render", scene, "--frames", range, "-o", dir.path] + extra)
            XCTAssertEqual(r.code, 0, "\(range): \(r.stderr)")
            return files(dir)
        }
        // 12f:15f at 30 fps = frames 12, 13, 14 (END exclusive)
        XCTAssertEqual(try run("12f:15f"), ["frame-00012.png", "frame-00013.png", "frame-00014.png"])
        // :0.1 at 30 fps = t < 0.1 = frames 0, 1, 2; mixed units work
        XCTAssertEqual(try run(":0.1"), ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
        XCTAssertEqual(try run("1f:0.1s"), ["frame-00001.png", "frame-00002.png"])
        // 2f: runs to the timeline's duration (0.1 s = frame 3, exclusive)
        XCTAssertEqual(try run("2f:"), ["frame-00002.png"])
        // --fps overrides the scene's: 0:0.1 at 50 fps = frames 0 … 4
        XCTAssertEqual(try run("0:0.1", ["--fps", "50"]).count, 5)
        // indices past 99999 widen every name of the run alike
        XCTAssertEqual(try run("99999f:100001f", ["--fps", "1000"]), ["frame-099999.png", "frame-100000.png"])
    }

    /// A layer that moves for 0.15 s and then rests: at 10 fps frames 0 and 1 move, frame 2 is the
    /// first at rest (drawn), frames 3 and 4 are the frame cache's reused frames, whose PNGs are
    /// the frame before's bytes copied, not encoded again. Each frame's file is still exactly what
    /// rendering that frame alone writes.
    func testReusedFramesCopyThePreviousPNG() throws {
        let scene = try write("rest.json", """
        {"caprof": 1, "canvas": {"width": 200, "height": 100, "scale": 2, "backgroundColor": "#FFFFFF"},
         "timeline": {"fps": 10, "duration": 0.5},
         "root": {"frame": [0, 0, 200, 100], "sublayers": [
           {"frame": [20, 20, 60, 60], "backgroundColor": "#0A84FF",
            "animations": [{"class": "CABasicAnimation", "key": "move", "keyPath": "position.x",
                            "fromValue": 150, "toValue": 50, "duration": 0.15}]}]}}
        """)
        let dir = tmp.appendingPathComponent("rest")
        let r = try caprof(["render", scene, "--frames", "0:0.5", "-o", dir.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("frame cache: 2 unchanged (reused, 2 PNGs copied)"), r.stderr)
        let bytes = try files(dir).map { try Data(contentsOf: dir.appendingPathComponent($0)) }
        XCTAssertEqual(bytes.count, 5)
        XCTAssertNotEqual(bytes[0], bytes[1]); XCTAssertNotEqual(bytes[1], bytes[2])
        XCTAssertEqual(bytes[3], bytes[2]); XCTAssertEqual(bytes[4], bytes[2])
        for (i, t) in [(1, "0.1"), (4, "0.4")] {
            let alone = tmp.appendingPathComponent("alone-\(i).png").path
            let one = try caprof(["render", scene, "--time", t, "-o", alone])
            XCTAssertEqual(one.code, 0, one.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: alone)), bytes[i], "frame \(i) differs from rendering it alone")
        }
    }

    func testStaticSceneWholeTimelineIsOneFrame() throws {
        let scene = try smallScene()     // nothing animates, no duration: one frame at 0
        let dir = tmp.appendingPathComponent("whole")
        let r = try caprof(["render", scene, "--frames", ":", "-o", dir.path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(files(dir), ["frame-00000.png"])
    }

    func testBadRangeSyntaxIsAUsageErrorNamingTheForm() throws {
        let scene = try smallScene()
        for bad in ["1", "a:b", "1:2:3", "--frames=-1:2", "2:1", "1.5f:3f", "5f:5f", "0:inf"] {
            let args = bad.hasPrefix("--") ? [bad] : ["--frames", bad]
            let r = try caprof(["render", scene, "-o", tmp.appendingPathComponent("bad").path] + args)
            XCTAssertEqual(r.code, 64, "\(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--frames"), "\(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("START:END") || r.stderr.contains("END must be after START"), "\(bad): \(r.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("bad").path))
        // An open range starting after the scene's end, and too many frames, are refused too.
        let late = try caprof(["render", try smallScene(timeline: #"{"duration": 1}"#), "--frames", "2:", "-o", tmp.appendingPathComponent("late").path])
        XCTAssertEqual(late.code, 64, late.stderr)
        XCTAssertTrue(late.stderr.contains("after the scene's end"), late.stderr)
        let many = try caprof(["render", scene, "--frames", "0:100", "--fps", "1000", "-o", tmp.appendingPathComponent("many").path])
        XCTAssertEqual(many.code, 64, many.stderr)
        XCTAssertTrue(many.stderr.contains("10000"), many.stderr)
        let huge = try caprof(["render", scene, "--frames", "1e300:1e301", "-o", tmp.appendingPathComponent("huge").path])
        XCTAssertEqual(huge.code, 64, huge.stderr)
    }

    func testOptionsThatNeedFramesOrExcludeThemAreUsageErrors() throws {
        let scene = try smallScene()
        let out = tmp.appendingPathComponent("x").path
        let both = try caprof(["render", scene, "--frames", "0:1", "--time", "0.5", "-o", out])
        XCTAssertEqual(both.code, 64)
        XCTAssertTrue(both.stderr.contains("--frames and --time cannot be used together"), both.stderr)
        XCTAssertEqual(try caprof(["render", scene, "--sheet", out + ".png", "-o", out]).code, 64)
        XCTAssertEqual(try caprof(["render", scene, "--fps", "30", "-o", out]).code, 64)
        XCTAssertEqual(try caprof(["render", scene, "--frames", "0:1", "--fps", "0", "-o", out]).code, 64)
        XCTAssertEqual(try caprof(["render", scene, "--frames", "0:1", "--sheet-columns", "2", "-o", out]).code, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testTimeRendersOneFrame() throws {
        let out = tmp.appendingPathComponent("t.png").path
        let r = try caprof(["render", try smallScene(), "--time", "0.25", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try pngSize(out).0, 400)
        XCTAssertTrue(r.stderr.contains("at 0.25 s"), r.stderr)
    }

    /// Sheet size by hand (ContactSheet's constants): 400×200 px frames → 240×120 thumbnails (the
    /// labels, "0.400s" = 64 px + 12 + "4f" = 20 px, are narrower than 240); margin 20, column gutter
    /// 12, row gap 20, title 16 + 14, cell = 120 + label 8 + 16 = 144.
    func testSheetHasTheComputedGridSize() throws {
        let scene = try smallScene()
        let sheet = tmp.appendingPathComponent("sheet.png").path
        let r = try caprof(["render", scene, "--frames", "0:0.5", "--fps", "10", "-o", tmp.appendingPathComponent("f").path,
                            "--sheet", sheet])
        XCTAssertEqual(r.code, 0, r.stderr)
        // 5 frames → ⌈√5⌉ = 3 columns, 2 rows:
        // width 20 + 3·240 + 2·12 + 20 = 784; height 20 + 16 + 14 + 2·144 + 20 + 20 = 378
        let (w, h) = try pngSize(sheet)
        XCTAssertEqual(w, 784); XCTAssertEqual(h, 378)
        XCTAssertTrue(r.stderr.contains("contact sheet"), r.stderr)

        let one = tmp.appendingPathComponent("row.png").path
        XCTAssertEqual(try caprof(["render", scene, "--frames", "0:0.5", "--fps", "10", "-o", tmp.appendingPathComponent("g").path,
                                   "--sheet", one, "--sheet-columns", "5", "-q"]).code, 0)
        // 1 row of 5: width 20 + 5·240 + 4·12 + 20 = 1288; height 20 + 16 + 14 + 144 + 20 = 214
        let (w1, h1) = try pngSize(one)
        XCTAssertEqual(w1, 1288); XCTAssertEqual(h1, 214)
    }

    func testQuietPrintsNothing() throws {
        let r = try caprof(["render", try smallScene(), "--frames", "0:0.1", "-o", tmp.appendingPathComponent("q").path, "-q"])
        XCTAssertEqual(r.code, 0)
        XCTAssertEqual(r.stderr, "")
    }

    func testUnwritableFramesDirectoryIsCantCreateAndWritesNothing() throws {
        let scene = try smallScene()
        let file = try write("plain.txt", "not a directory")
        // A directory below a regular file cannot be created (even by root).
        let r = try caprof(["render", scene, "--frames", "0:0.1", "-o", file + "/frames"])
        XCTAssertEqual(r.code, 73, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot create the frames directory"), r.stderr)
        // An existing regular file as the directory.
        let r2 = try caprof(["render", scene, "--frames", "0:0.1", "-o", file])
        XCTAssertEqual(r2.code, 73, r2.stderr)
        XCTAssertTrue(r2.stderr.contains("not a directory"), r2.stderr)
        // A sheet whose directory is missing is refused before any frame is written.
        let dir = tmp.appendingPathComponent("never")
        let r3 = try caprof(["render", scene, "--frames", "0:0.1", "-o", dir.path, "--sheet", tmp.appendingPathComponent("no/sheet.png").path])
        XCTAssertEqual(r3.code, 73, r3.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path))
        XCTAssertEqual(files(tmp), ["plain.txt", "small.json"])
    }

    /// A write that fails mid-sequence (frame 2's name is taken by a directory) stops with 73: the
    /// frames before it are complete PNGs, nothing after it is written, no temporary file is left.
    func testFailureMidSequenceLeavesOnlyCompleteFrames() throws {
        let scene = try smallScene()
        let dir = tmp.appendingPathComponent("mid")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("frame-00002.png"), withIntermediateDirectories: true)
        let r = try caprof(["render", scene, "--frames", "0:5f", "-o", dir.path])
        XCTAssertEqual(r.code, 73, r.stderr)
        XCTAssertTrue(r.stderr.contains("frame-00002.png"), r.stderr)
        XCTAssertEqual(files(dir), ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
        for f in ["frame-00000.png", "frame-00001.png"] { XCTAssertEqual(try pngSize(dir.appendingPathComponent(f).path).0, 400) }
    }

    /// On a terminal (a pseudo-terminal from util-linux `script`), a progress bar is redrawn in
    /// place with \r and erased before the summary.
    func testProgressBarOnATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            return XCTFail("script(1) is missing: tools/setup installs bsdutils, which provides it")
        }
        let scene = try smallScene()
        let dir = tmp.appendingPathComponent("tty")
        let cmd = [Self.binary.path, "render", scene, "--frames", "0:0.2", "-o", dir.path].map { "'\($0)'" }.joined(separator: " ")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        p.arguments = ["-qec", cmd, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env["VK_DRIVER_FILES"] = env["VK_DRIVER_FILES"] ?? "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
        env["TERM"] = "xterm"; env["NO_COLOR"] = "1"
        p.environment = env
        let out = Pipe()
        p.standardOutput = out; p.standardError = out; p.standardInput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("6/6 frames"), text)
        XCTAssertTrue(text.contains("\r\u{1B}[K"), text)
        XCTAssertTrue(text.contains("wrote 6 frames"), text)
        XCTAssertEqual(files(dir).count, 6)
    }
}
