import Foundation
import XCTest

/// Hostile input end to end: each class is refused by the built binary with its exit code, a
/// located message and nothing left behind (docs/decisions.md, "Limits").
final class HostileInputCLITests: CLITestCase {
    func scene(_ root: String, extra: String = "") -> String {
        #"{"caprof": 1, "canvas": {"width": 20, "height": 10}, "root": "# + root + extra + "}"
    }

    func testAFIFOSceneIsRefusedNotOpened() throws {
        let fifo = tmp.appendingPathComponent("scene.json").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for args in [["profile", fifo, "--no-gpu"], ["render", fifo, "-o", tmp.appendingPathComponent("a.png").path], ["gate", fifo]] {
            let r = try caprof(args)   // would block forever if the FIFO were opened
            XCTAssertEqual(r.code, args[0] == "gate" ? 1 : 66, r.stderr)
            XCTAssertTrue(r.stderr.contains("not a regular file"), r.stderr)
        }
        // Among a catalog's scenes too, and as a gate's baseline or budget.
        let ok = try write("ok.json", scene("{}"))
        let catalog = try caprof(["profile", ok, fifo, "--no-gpu"])
        XCTAssertEqual(catalog.code, 66, catalog.stderr)
        for option in ["--baseline", "--budget"] {
            let r = try caprof(["gate", ok, option, fifo])
            XCTAssertEqual(r.code, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("not a regular file"), r.stderr)
        }
    }

    /// Archives and packages that are FIFOs are refused unopened too (convert would block).
    func testAFIFOArchiveIsRefusedNotOpened() throws {
        let fifo = tmp.appendingPathComponent("f.caar").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let r = try caprof(["convert", fifo])
        XCTAssertEqual(r.code, 66, r.stderr)
        XCTAssertTrue(r.stderr.contains("not a regular file"), r.stderr)
    }

    /// An output that is a special file (a FIFO here; /dev/null, /dev/stdout alike) is written in
    /// place: renaming a temporary file over it would replace the node (as root, /dev/null).
    func testAnOutputThatIsAFIFOIsWrittenInPlace() throws {
        let s = try write("s.json", scene(#"{"frame": [0, 0, 20, 10], "backgroundColor": [1, 0, 0, 0.5]}"#))
        for args in [["profile", s, "--no-gpu", "--format", "json"], ["convert", s]] {
            let fifo = tmp.appendingPathComponent("out-\(args[0])").path
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            let received = tmp.appendingPathComponent("received-\(args[0])")
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: "/bin/sh")
            reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo, received.path]
            try reader.run()
            let r = try caprof(args + ["-o", fifo])
            reader.waitUntilExit()
            XCTAssertEqual(r.code, 0, r.stderr)
            var st = stat()
            XCTAssertEqual(stat(fifo, &st), 0)
            XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "\(args[0]): the FIFO is still a FIFO")
            let text = try String(contentsOf: received, encoding: .utf8)
            XCTAssertTrue(text.contains(args[0] == "convert" ? "\"caprof\"" : "\"findings\""), String(text.prefix(200)))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasSuffix(".tmp") }, [])
        }
        // A symbolic link (as /dev/stdout is, to a redirected file) is written through, not
        // replaced: the link stays, the file behind it gets the report (shorter than before: truncated).
        let target = tmp.appendingPathComponent("behind.json").path
        try String(repeating: "x", count: 100_000).write(toFile: target, atomically: false, encoding: .utf8)
        let link = tmp.appendingPathComponent("link.json").path
        XCTAssertEqual(symlink(target, link), 0)
        let r = try caprof(["profile", s, "--no-gpu", "--format", "json", "-o", link])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), target)
        let written = try String(contentsOfFile: target, encoding: .utf8)
        XCTAssertTrue(written.hasPrefix("{") && written.contains("\"findings\"") && !written.contains("xxx"), String(written.prefix(100)))
    }

    /// Eight nested translucent groups on the largest canvas would hold 7 offscreen targets of
    /// 16384² px (1 GiB each) at once: refused before any is allocated, exit 65, with the sizes.
    func testNestedGroupsOnTheLargestCanvasAreRefusedBeforeAllocating() throws {
        var layer = "{}"
        for _ in 0..<8 {
            layer = ##"{"bounds": [0, 0, 16384, 16384], "position": [8192, 8192], "backgroundColor": "#ff000088", "opacity": 0.9, "sublayers": ["## + layer + "]}"
        }
        let s = try write("nested.json", #"{"caprof": 1, "canvas": {"width": 16384, "height": 16384}, "root": "# + layer + "}")
        let out = tmp.appendingPathComponent("nested.png").path
        let r = try caprof(["render", s, "-o", out])
        XCTAssertEqual(r.code, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("offscreen passes whose targets need 7.0 GiB together; the limit is 4.0 GiB per frame"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    /// An absurd cache size is a usage error, not a conversion crash in the plan.
    func testAHugeRasterCacheIsAUsageError() throws {
        let s = try write("s.json", scene("{}"))
        for n in ["1e18", "1001", "-1", "nan"] {
            let r = try caprof(["profile", s, "--no-gpu", "--raster-cache-screens=\(n)"])
            XCTAssertEqual(r.code, 64, "\(n): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--raster-cache-screens must be a number from 0 to 1000"), r.stderr)
        }
    }

    /// A font size beyond 10,000 pt is a located scene error (the text stack cannot size it).
    func testAnAbsurdFontSizeIsALocatedError() throws {
        let s = try write("t.json", scene(#"{"sublayers": [{"class": "CATextLayer", "frame": [0, 0, 20, 10], "string": "x", "fontSize": 1e308}]}"#))
        let r = try caprof(["profile", s, "--no-gpu"])
        XCTAssertEqual(r.code, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("/root/sublayers/0/fontSize"), r.stderr)
        XCTAssertTrue(r.stderr.contains("[0, 10000]"), r.stderr)
    }

    func testTheScenesOwnTimelineOverTheFrameLimitIsASceneError() throws {
        // 200 s × 60 fps = 12 000 frames: a scene error at the duration (65), not "--frames" (64).
        let s = try write("long.json", scene("{}", extra: #", "timeline": {"duration": 200, "fps": 60}"#))
        for args in [["profile", s, "--no-gpu"], ["render", s, "--frames", "0:1", "-o", tmp.appendingPathComponent("f").path]] {
            let r = try caprof(args)
            XCTAssertEqual(r.code, 65, r.stderr)
            XCTAssertTrue(r.stderr.contains("/timeline/duration: 200 s at 60 fps is more than 10000 frames"), r.stderr)
            XCTAssertFalse(r.stderr.contains("--frames:"), r.stderr)
        }
        let g = try caprof(["gate", s])
        XCTAssertEqual(g.code, 1, g.stderr)
        XCTAssertTrue(g.stderr.contains("more than 10000 frames"), g.stderr)
        // Raised, the same scene is profiled (12 000 frames at 20×10 pixels, plan only).
        let raised = try caprof(["profile", s, "--no-gpu", "--limit", "frames=12000", "--format", "json", "-o", tmp.appendingPathComponent("r.json").path])
        XCTAssertEqual(raised.code, 0, raised.stderr)
    }

    func testAFramesRangeOverTheLimitIsAUsageErrorNamingTheOption() throws {
        let s = try write("s.json", scene("{}"))
        let r = try caprof(["profile", s, "--no-gpu", "--frames", "0:200", "--fps", "60"])
        XCTAssertEqual(r.code, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("--frames/--fps: 0…200 s at 60 fps is 12000 frames; the limit is 10000 per run (raise it with --limit frames=N)"), r.stderr)
    }

    func testBadLimitOptionsAreUsageErrors() throws {
        let s = try write("s.json", scene("{}"))
        for bad in ["frames", "colors=3", "layers=0", "layers=-1", "file-bytes=99999999999G"] {
            let r = try caprof(["profile", s, "--no-gpu", "--limit", bad])
            XCTAssertEqual(r.code, 64, "\(bad): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("--limit"), r.stderr)
        }
        // A lowered limit applies to every command.
        let tree = try write("t.json", scene(#"{"sublayers": [{}, {}, {}]}"#))
        let r = try caprof(["profile", tree, "--no-gpu", "--limit", "layers=3"])
        XCTAssertEqual(r.code, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("more than 3 layers (raise it with --limit layers=N)"), r.stderr)
    }

    func testAHugeUnknownKeyIsRefusedShortly() throws {
        let key = String(repeating: "q", count: 4 << 20)
        let s = try write("key.json", scene("{\"\(key)\": 1}"))
        let r = try caprof(["profile", s, "--no-gpu"])
        XCTAssertEqual(r.code, 65)
        XCTAssertLessThan(r.stderr.utf8.count, 400, "the key is echoed shortened")
        XCTAssertTrue(r.stderr.contains("(4194304 characters)"), r.stderr)
    }

    func testAPNGDeclaring16384SquaredIsRefusedFromItsHeader() throws {
        // 16384² RGBA is 1 GiB decoded, over the 256 MiB per image: refused before decoding.
        let png = tmp.appendingPathComponent("huge.png")
        try Data(pngDeclaring16384Squared).write(to: png)
        let s = try write("img.json", scene(#"{"bounds": [0, 0, 20, 10], "contents": "huge.png"}"#))
        let r = try caprof(["render", s, "-o", tmp.appendingPathComponent("out.png").path])
        XCTAssertEqual(r.code, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("image is 16384×16384 pixels, 1024 MiB decoded; the limit is 256 MiB"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("out.png").path))
    }

    func testACanvasTheHostCannotHoldIsRefusedBeforeAllocating() throws {
        // 16384² drawn needs ≈ 20 B/px = 5 GiB; under a 1 GiB address-space cap that is refused
        // with a located message instead of aborting in an allocation.
        let s = try write("big.json", ##"{"caprof": 1, "canvas": {"width": 16384, "height": 16384}, "root": {"bounds": [0, 0, 16384, 16384], "position": [8192, 8192], "backgroundColor": "#fff"}}"##)
        let r = try caprofLimited(["render", s, "-o", tmp.appendingPathComponent("big.png").path], addressSpaceKiB: 3 << 20)
        XCTAssertEqual(r.code, 65, r.stderr)
        // 16 B/px × 16384² = 4 GiB + 640 MiB kept for the driver, before the driver starts.
        XCTAssertTrue(r.stderr.contains("/canvas: a 16384×16384-pixel canvas needs about 4.6 GiB of host memory per frame"), r.stderr)
        // Under a cap that lets the driver start but not allocate the target: Vulkan's own
        // out-of-memory, reported with what to do (a tool error, 70), not an abort.
        let small = try write("small.json", ##"{"caprof": 1, "canvas": {"width": 4096, "height": 4096}, "root": {"bounds": [0, 0, 4096, 4096], "position": [2048, 2048], "backgroundColor": "#fff"}}"##)
        let oom = try caprofLimited(["render", small, "-o", tmp.appendingPathComponent("small.png").path], addressSpaceKiB: 700 << 10)
        XCTAssertTrue([65, 70].contains(oom.code), "\(oom.code): \(oom.stderr)")
        XCTAssertTrue(oom.stderr.contains("host memory") || oom.stderr.contains("the Vulkan device ran out of memory"), oom.stderr)
    }

    func testGateRecordNeverDestroysTheBaselineOnError() throws {
        let good = try write("good.json", scene(##"{"bounds": [0, 0, 20, 10], "position": [10, 5], "backgroundColor": "#f00"}"##))
        let baseline = tmp.appendingPathComponent("base.json").path
        XCTAssertEqual(try caprof(["gate", good, "--baseline", baseline, "--record"]).code, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: baseline))
        let bad = try write("bad.json", scene(#"{"opacty": 1}"#))
        let r = try caprof(["gate", good, bad, "--baseline", baseline, "--record"])
        XCTAssertEqual(r.code, 1, r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: baseline)), before, "the baseline is untouched")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasSuffix(".tmp") }, [])
    }

    func testAKilledRunsTemporariesAreRemovedByTheNextRunIntoThePlace() throws {
        // What SIGKILL mid-write leaves: `.NAME.PID.tmp` of a process that no longer exists.
        let p = Process()   // a finished process: its PID is free
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        let pid = p.processIdentifier
        p.waitUntilExit()
        XCTAssertGreaterThan(pid, 0)
        let frames = tmp.appendingPathComponent("frames"), reports = tmp.appendingPathComponent("reports")
        for d in [frames, reports] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        let staleFrame = frames.appendingPathComponent(".frame-00007.png.\(pid).tmp").path
        let staleReport = reports.appendingPathComponent(".report.json.\(pid).tmp").path
        for f in [staleFrame, staleReport] { XCTAssertTrue(FileManager.default.createFile(atPath: f, contents: Data([0]))) }
        let s = try write("s.json", scene(##"{"bounds": [0, 0, 20, 10], "position": [10, 5], "backgroundColor": "#0f0"}"##))
        XCTAssertEqual(try caprof(["render", s, "--frames", "0f:2f", "-o", frames.path, "-q"]).code, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted(), ["frame-00000.png", "frame-00001.png"])
        XCTAssertEqual(try caprof(["profile", s, "--no-gpu", "--format", "json", "-o", reports.appendingPathComponent("report.json").path]).code, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: reports.path), ["report.json"])
    }

    /// Runs caprof under `prlimit --as` (util-linux) so that allocations fail as they would on a
    /// machine with that little memory.
    func caprofLimited(_ args: [String], addressSpaceKiB: Int) throws -> Run {
        try caprof(["--version"]).code == 0 ? runPrlimit(args, bytes: addressSpaceKiB << 10) : Run(code: -1, stdout: "", stderr: "no caprof")
    }

    func runPrlimit(_ args: [String], bytes: Int) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        p.arguments = ["--as=\(bytes)", "--", Self.binary.path] + args
        var e = ProcessInfo.processInfo.environment
        if e["VK_DRIVER_FILES"] == nil { e["VK_DRIVER_FILES"] = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json" }
        p.environment = e
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), r = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Run(code: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: r, as: UTF8.self))
    }
}

/// A 58-byte PNG: signature, an IHDR declaring 16384 × 16384 RGBA8 (CRC 0xA9C81084, zlib.crc32 of
/// "IHDR" + its 13 bytes), a one-byte IDAT (0x78) and IEND, with their CRCs.
let pngDeclaring16384Squared: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x40, 0x00, 0x08, 0x06, 0x00, 0x00, 0x00, 0xA9, 0xC8, 0x10,
    0x84, 0x00, 0x00, 0x00, 0x01, 0x49, 0x44, 0x41, 0x54, 0x78, 0x76, 0xE6, 0x84, 0xE6, 0x00, 0x00,
    0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]
