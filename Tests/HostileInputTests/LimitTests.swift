import Foundation
import XCTest
import Animation
import FuzzHarness
import LayerModel
import Pipeline
import Plan
@testable import Raster
import SceneFormat

/// Every resource limit is decided up front (SceneLimits, DecodingLimits, ImageLimits), refused
/// with a located `limitExceeded` error, and raisable where a scene may honestly need more.
final class LimitTests: XCTestCase {
    func testFramesPerRunIsOneLimitInTheDecoder() throws {
        // 200 s × 60 fps = 12 000 frames > 10 000 (SceneLimits.maxFrames), refused at the duration.
        let long = scene(root: "{}", extra: #", "timeline": {"duration": 200, "fps": 60}"#)
        let e = try XCTUnwrap(sceneError(long))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertEqual(e.location.pointer, "/timeline/duration")
        XCTAssertTrue(e.message.contains("more than 10000 frames") && e.message.contains("--limit frames=N"), e.message)
        // 10 000 exactly is within; a raised limit takes the longer timeline.
        XCTAssertNoThrow(try decode(scene(root: "{}", extra: #", "timeline": {"duration": 100, "fps": 100}"#)))
        var raised = DecodingLimits.standard
        raised.framesPerRun = 12_000
        XCTAssertEqual(try decode(long, limits: raised).scene.timeline.duration, 200)
    }

    /// Each transaction keeps a model tree that copies the sublayers arrays along the paths it
    /// changes. 10,000 siblings changed by 400 transactions: 400 × 10,001 layers copied, plus
    /// 17 bytes of tables per layer and transaction, about 1.3 GiB at ≈ 330 bytes a layer: refused
    /// at /transactions before any copy. The same 10,000 layers in 100 containers of 100: each
    /// change copies 1 + 100 + 100 layers, about 90 MiB in all: accepted.
    func testTransactionsThatWouldCopyTooMuchOfTheModelAreRefused() throws {
        let tx = (0..<400).map { i in #"{"time": \#(Double(i) / 100), "disableActions": true, "set": [{"layer": "l0", "keyPath": "opacity", "value": 0.5}]}"# }
        let flat = (0..<10_000).map { #"{"name": "l\#($0)"}"# }.joined(separator: ", ")
        let refused = #"{"caprof": 1, "canvas": {"width": 10, "height": 10}, "root": {"sublayers": [\#(flat)]}, "transactions": [\#(tx.joined(separator: ", "))]}"#
        let e = try XCTUnwrap(sceneError(refused))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertEqual(e.location.pointer, "/transactions")
        XCTAssertTrue(e.message.contains("these 400 transactions would keep about") && e.message.contains("the limit is 1024 MiB"), e.message)
        let grouped = (0..<100).map { g in
            #"{"sublayers": ["# + (0..<100).map { #"{"name": "l\#(g * 100 + $0)"}"# }.joined(separator: ", ") + "]}"
        }.joined(separator: ", ")
        let accepted = #"{"caprof": 1, "canvas": {"width": 10, "height": 10}, "root": {"sublayers": [\#(grouped)]}, "transactions": [\#(tx.joined(separator: ", "))]}"#
        XCTAssertNoThrow(try decode(accepted))
    }

    func testLayerLimitCountsInsertedLayersAndIsRaisable() throws {
        var limits = DecodingLimits.standard
        limits.layers = 3
        let tree = #"{"name": "r", "sublayers": [{}, {}]}"#
        XCTAssertNoThrow(try decode(scene(root: tree), limits: limits))
        let inserting = scene(root: tree, extra: #", "transactions": [{"time": 1, "insert": [{"parent": "r", "index": 0, "layer": {}}]}]"#)
        let e = try XCTUnwrap(sceneError(inserting, limits: limits))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertEqual(e.location.pointer, "/transactions/0/insert/0/layer")
        XCTAssertTrue(e.message.contains("more than 3 layers"), e.message)
    }

    func testFileSizeLimitIsCheckedBeforeParsing() throws {
        var limits = DecodingLimits.standard
        limits.fileBytes = 10
        let e = try XCTUnwrap(sceneError(scene(root: "{}"), limits: limits))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertEqual(e.location.line, 0)
        XCTAssertTrue(e.message.contains("the limit is 10"), e.message)
    }

    /// The deepest tree allowed (256 levels) and the deepest JSON (1024 levels) decode, evaluate and
    /// plan through `LargeStack` even when called from a thread with a 512 KiB stack (a debug build
    /// needs 2–4 MiB for them), so no recursion a deep file reaches can overflow.
    func testDeepestTreeRunsOnASmallStack() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: ##"{"bounds": [0, 0, 10, 10], "position": [6, 6], "backgroundColor": "#00ff0080", "masksToBounds": true, "sublayers": ["##, count: depth - 1)
                + "{}" + String(repeating: "]}", count: depth - 1)
        }
        let e = try XCTUnwrap(sceneError(scene(root: nested(SceneLimits.maxLayerDepth + 1))))
        XCTAssertEqual(e.kind, .limitExceeded)
        XCTAssertTrue(e.message.contains("deeper than 256"), e.message)

        let bytes = Array(scene(root: nested(SceneLimits.maxLayerDepth)).utf8)
        let json = Array((String(repeating: "[", count: SceneLimits.maxJSONDepth) + String(repeating: "]", count: SceneLimits.maxJSONDepth)).utf8)
        // Written by the thread, read after the expectation is fulfilled (which orders the two).
        final class Results: @unchecked Sendable { var violations: [String]?; var parsed = false }
        let results = Results()
        let done = expectation(description: "ran")
        let thread = Thread {
            // decode, evaluate at 3 times, plan, check invariants
            results.violations = try? LargeStack.run { FuzzTarget.scene.run(bytes) }
            results.parsed = (try? LargeStack.run { try JSONParser.parse(json, file: "deep.json") }) != nil
            done.fulfill()
        }
        thread.stackSize = 512 << 10
        thread.start()
        wait(for: [done], timeout: 60)
        XCTAssertEqual(results.violations, [])
        XCTAssertTrue(results.parsed)
        XCTAssertEqual(try decode(String(decoding: bytes, as: UTF8.self)).scene.root.sublayers.count, 1)
    }

    func testAFIFOIsRefusedWithoutOpeningIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("scene.json").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Opening a FIFO for reading blocks until a writer comes: this returns only if it is refused unopened.
        XCTAssertThrowsError(try SceneDecoder.load(path: fifo)) { e in
            XCTAssertEqual((e as? SceneError)?.kind, .io)
            XCTAssertTrue("\(e)".contains("not a regular file"), "\(e)")
        }
        XCTAssertThrowsError(try ImageLoader().load(path: fifo)) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .io)
        }
        XCTAssertThrowsError(try SceneDecoder.load(path: "/dev/zero")) { e in
            XCTAssertEqual((e as? SceneError)?.kind, .io)
        }
        // A symbolic link is followed: to a regular file it reads, to the FIFO it is refused.
        let real = dir.appendingPathComponent("real.json").path
        try Data(#"{"caprof": 1, "canvas": {"width": 1, "height": 1}, "root": {}}"#.utf8).write(to: URL(fileURLWithPath: real))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("link.json").path, withDestinationPath: real)
        XCTAssertNoThrow(try SceneDecoder.load(path: dir.appendingPathComponent("link.json").path))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("fifo-link.json").path, withDestinationPath: fifo)
        XCTAssertThrowsError(try SceneDecoder.load(path: dir.appendingPathComponent("fifo-link.json").path))
    }
}

/// Image sizes come from the PNG header and are checked before a pixel is allocated.
final class ImageLimitTests: XCTestCase {
    func testMinimumPNGBytesByHand() {
        // 16384 rows of 1 filter byte + 2048 bytes (1 bit per pixel) = 33 570 816 bytes of
        // scanlines; deflate expands at most 1032:1, so ≥ 32 529 bytes of file.
        XCTAssertEqual(ImageLimits.minimumPNGBytes(width: 16384, height: 16384), 32_529)
        XCTAssertEqual(ImageLimits.minimumPNGBytes(width: 1, height: 1), 0)
    }

    func testAHeaderDeclaring16384SquaredIsRefusedForItsDecodedSize() {
        // 16384² RGBA = 1 GiB decoded > 256 MiB per image: refused from the header.
        let png = pngBytes(width: 16384, height: 16384, idat: [0x78])
        XCTAssertThrowsError(try PNGCodec.decode(png)) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .tooLarge)
            XCTAssertTrue("\(e)".contains("1024 MiB decoded; the limit is 256 MiB"), "\(e)")
        }
    }

    func testAHeaderLargerThanItsFileCanHoldIsCorrupt() {
        // 8192² is within 256 MiB but needs ≥ 8192·1025/1032 = 8136 bytes of file; 58 cannot hold it.
        let png = pngBytes(width: 8192, height: 8192, idat: [0x78])
        XCTAssertEqual(png.count, 58)
        XCTAssertThrowsError(try PNGCodec.decode(png)) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .corrupt)
            XCTAssertTrue("\(e)".contains("fewer than 8136"), "\(e)")
        }
    }

    func testTheDecodedTotalIsBounded() throws {
        let red = try PNGCodec.encode(premultiplied: [255, 0, 0, 255, 255, 0, 0, 255], width: 2, height: 1)
        let blue = try PNGCodec.encode(premultiplied: [0, 0, 255, 255, 0, 0, 255, 255], width: 2, height: 1)
        var limits = ImageLimits.standard
        limits.maxTotalDecodedBytes = 12   // one 2×1 image is 8 bytes
        let loader = ImageLoader(limits: limits)
        XCTAssertEqual(try loader.decode(bytes: red, key: "red").width, 2)
        XCTAssertEqual(try loader.decode(bytes: red, key: "red").width, 2, "a cached image costs nothing more")
        XCTAssertThrowsError(try loader.decode(bytes: blue, key: "blue")) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .tooLarge)
            XCTAssertTrue("\(e)".contains("--limit image-total-bytes"), "\(e)")
        }
        var raised = ImageLimits.standard
        raised.maxDecodedBytes = 4   // a per-image limit below 8 bytes refuses even the small one
        XCTAssertThrowsError(try PNGCodec.decode(red, limits: raised))
    }
}

/// Duplicate layer names: allowed in the file's tree (Core Animation does not require unique
/// names) but warned about; a transaction may not insert a second layer with a present name.
final class DuplicateNameTests: XCTestCase {
    func testDuplicateNamesInTheTreeAreAWarning() throws {
        let doc = try decode(scene(root: #"{"name": "a", "sublayers": [{"name": "b"}, {"name": "b"}, {"name": "c"}]}"#))
        XCTAssertEqual(doc.warnings.count, 1)
        XCTAssertTrue(doc.warnings[0].feature.hasPrefix("2 layers are named 'b' (at 1:"), doc.warnings[0].feature)
    }

    func testInsertingALayerNamedLikeTheRootIsRefused() throws {
        let json = scene(root: #"{"name": "root", "sublayers": []}"#,
                         extra: #", "transactions": [{"time": 1, "insert": [{"parent": "root", "index": 0, "layer": {"name": "root"}}]}]"#)
        let e = try XCTUnwrap(sceneError(json))
        XCTAssertEqual(e.kind, .invalidValue)
        XCTAssertEqual(e.location.pointer, "/transactions/0/insert/0/layer")
        XCTAssertTrue(e.message.contains("already present (at 1:"), e.message)
    }

    func testANameFreedByRemovalMayBeInsertedAgain() throws {
        let json = scene(root: #"{"name": "root", "sublayers": [{"name": "dot"}]}"#,
                         extra: #", "transactions": [{"time": 1, "removeLayers": ["dot"]}, {"time": 2, "insert": [{"parent": "root", "index": 0, "layer": {"name": "dot"}}]}]"#)
        XCTAssertEqual(try decode(json).transactions.count, 2)
    }
}

/// A run killed mid-write leaves `.NAME.PID.tmp`; the next write into that directory removes it.
final class StaleTemporaryTests: XCTestCase {
    func testTheNextWriteRemovesADeadRunsTemporaries() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-tmp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A process that has exited: its PID is free (kill(pid, 0) → ESRCH).
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        let dead = p.processIdentifier
        p.waitUntilExit()
        XCTAssertGreaterThan(dead, 0)
        let stale = dir.appendingPathComponent(".frame-00003.png.\(dead).tmp").path
        let live = dir.appendingPathComponent(".frame-00004.png.1.tmp").path   // PID 1 is alive
        let mine = dir.appendingPathComponent(".notes.tmp").path               // not caprof's form
        for f in [stale, live, mine] { XCTAssertTrue(FileManager.default.createFile(atPath: f, contents: Data([1]))) }

        try PNGCodec.write(premultiplied: [0, 0, 0, 255], width: 1, height: 1, to: dir.appendingPathComponent("frame-00000.png").path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
        XCTAssertTrue(FileManager.default.fileExists(atPath: mine))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
                       [".frame-00004.png.1.tmp", ".notes.tmp", "frame-00000.png"])
    }

    func testOnlyTheExactFormIsRecognised() {
        XCTAssertEqual(AtomicFile.stalePID(".report.json.123.tmp"), 123)
        XCTAssertNil(AtomicFile.stalePID(".123.tmp"))
        XCTAssertNil(AtomicFile.stalePID("report.json.123.tmp"))
        XCTAssertNil(AtomicFile.stalePID(".report.json.abc.tmp"))
        XCTAssertNil(AtomicFile.stalePID(".report.json.-5.tmp"))
    }
}

/// Chunk lengths are checked against the file before libpng allocates for them.
final class PNGChunkTests: XCTestCase {
    func testAChunkLongerThanTheFileIsCorruptAtOnce() throws {
        // Found by the png fuzz target: a 2×2 palette image whose tEXt chunk claims 2³¹ − 1 bytes
        // made libpng allocate and zero 2 GiB. 108 bytes in all; the chunk starts at byte 51.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Regressions/png/text-chunk-claiming-2-GiB.png")
        let bytes = try [UInt8](Data(contentsOf: url))
        XCTAssertEqual(bytes.count, 108)
        XCTAssertThrowsError(try PNGCodec.decode(bytes)) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .corrupt)
            XCTAssertEqual("\(e)", "corrupt PNG: chunk 'tEXt' at byte 51 claims 2147483647 bytes but only 49 remain")
        }
    }
}
