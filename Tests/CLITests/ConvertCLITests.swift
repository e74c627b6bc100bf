import Foundation
import XCTest

/// `caprof convert` and the asset importers through the CLI, end to end.
final class ConvertCLITests: CLITestCase {
    static var corpus: String { repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus").path }

    func corpusFile(_ p: String) throws -> String {
        let f = Self.corpus + "/" + p
        guard FileManager.default.fileExists(atPath: f) else { throw CorpusMissing(message: "corpus not found at \(Self.corpus)") }
        return f
    }

    func testTreeOfAnArchive() throws {
        let r = try caprof(["convert", try corpusFile("caar/CheckmarkDemo_Checkmark.caar"), "--format", "tree"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("canvas 400×400 pt, 3 layers, 2 animations, 0 warnings"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  CAShapeLayer \"Shape\" 100×100 at (135, 199) [path 3 elements]"), r.stdout)
        XCTAssertTrue(r.stdout.contains("~ CABasicAnimation strokeEnd"), r.stdout)
    }

    func testConvertWritesASceneFileThatLoads() throws {
        let out = tmp.appendingPathComponent("scene.json").path
        let r = try caprof(["convert", try corpusFile("caml/CAPlayground_GitHub_Floating.ca"), "--state", "Locked", "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let text = try String(contentsOfFile: out, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("{\n  \"caprof\": 1,"), text)
        XCTAssertTrue(text.contains("\"position\": [79, 156]"), text)
        let p = try caprof(["profile", out, "--no-gpu", "--format", "json"])
        XCTAssertEqual(p.code, 0, p.stderr)
    }

    func testWarningsNameTheirPlaceAndBadStatesAreErrors() throws {
        let r = try caprof(["convert", try corpusFile("caml/TrollLock-Reborn_lockglyph_main.caml"), "--format", "tree"])
        XCTAssertEqual(r.code, 0)
        XCTAssertTrue(r.stdout.contains("states: Sleep, Locked, Unlocked, Error\ntransitions: *→Unlocked (1 element), Unlocked→* (0 elements)"), r.stdout)
        XCTAssertTrue(r.stderr.contains("TrollLock-Reborn_lockglyph_main.caml:11:91: warning: image '/var/mobile/Media/TrollLock/trollformation1.png' is an absolute device path"), r.stderr)
        let bad = try caprof(["convert", try corpusFile("caml/TrollLock-Reborn_lockglyph_main.caml"), "--state", "Open"])
        XCTAssertEqual(bad.code, 65)
        XCTAssertTrue(bad.stderr.contains("no state 'Open' in this file; its states are 'Sleep', 'Locked', 'Unlocked', 'Error'"), bad.stderr)
        let archive = try caprof(["convert", try corpusFile("caar/WWDC_Share.caar"), "--state", "on"])
        XCTAssertEqual(archive.code, 65)
        XCTAssertTrue(archive.stderr.contains("--state and --transition apply to .ca packages and .caml files"), archive.stderr)
    }

    func testCorruptArchiveIsAClearError() throws {
        let bad = tmp.appendingPathComponent("bad.caar").path
        try Data("bplist00 this is not really a plist at all............".utf8).write(to: URL(fileURLWithPath: bad))
        let r = try caprof(["convert", bad, "--format", "tree"])
        XCTAssertEqual(r.code, 65)
        XCTAssertTrue(r.stderr.contains("bad.caar: error: cannot read the Core Animation archive: corrupt binary property list trailer"), r.stderr)
        let missing = try caprof(["convert", tmp.appendingPathComponent("none.caar").path])
        XCTAssertEqual(missing.code, 66)
    }

    func testCatalogIncludesAssets() throws {
        let dir = tmp.appendingPathComponent("cat")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try #"{"caprof": 1, "canvas": {"width": 10, "height": 10}, "root": {"frame": [0, 0, 10, 10], "backgroundColor": "red"}}"#
            .write(to: dir.appendingPathComponent("cards.json"), atomically: false, encoding: .utf8)
        // A link, not a copy: the corpus stays outside the repository.
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("Share.caar").path,
                                                   withDestinationPath: try corpusFile("caar/WWDC_Share.caar"))
        let r = try caprof(["profile", dir.path, "--no-gpu", "--format", "json"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Share.caar"), r.stdout)
        XCTAssertTrue(r.stdout.contains("cards.json"), r.stdout)
    }

    /// `caprof render PACKAGE --transition A:B --frames`: frames of the state transition (the
    /// spring moves the images from the Locked to the Unlock positions over 0.8 s).
    func testRenderTransitionFrames() throws {
        let pkg = try corpusFile("caml/CAPlayground_GitHub_Floating.ca")
        let dir = tmp.appendingPathComponent("frames").path
        let r = try caprof(["render", pkg, "--transition", "Locked:Unlock", "--frames", "0:1", "--fps", "4", "-o", dir, "-q"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(),
                       ["frame-00000.png", "frame-00001.png", "frame-00002.png", "frame-00003.png"])
        let first = try Data(contentsOf: URL(fileURLWithPath: dir + "/frame-00000.png"))
        let second = try Data(contentsOf: URL(fileURLWithPath: dir + "/frame-00001.png"))
        XCTAssertNotEqual(first, second, "the transition moves the layers")
        let bad = try caprof(["render", pkg, "--transition", "Locked", "-o", dir + "/x.png"])
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderr.contains("--transition takes FROM:TO"), bad.stderr)
    }

    /// Profile reports of assets are valid against the report schema: archive warnings and layers
    /// have no line (a binary file has none), so they carry no location rather than line 0.
    func testAssetReportsValidateAgainstTheReportSchema() throws {
        let schema = try write("report.schema.json", try caprof(["profile", "--schema"]).stdout)
        for asset in ["caar/VirtualBuddy_FirstLaunchExperience.caar", "caml/OpenPoster_test3.ca"] {
            let out = tmp.appendingPathComponent("report.json").path
            let r = try caprof(["profile", try corpusFile(asset), "--no-gpu", "--frames", "0:0.2", "--format", "json", "-o", out])
            XCTAssertEqual(r.code, 0, r.stderr)
            try assertValidates(out, against: schema)
        }
    }
}
