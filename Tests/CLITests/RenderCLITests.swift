import Foundation
import XCTest

/// `caprof render`, `devices`, `schema` and `--help`, end to end.
final class RenderCLITests: CLITestCase {
    func testHelpListsSubcommandsAndExitCodes() throws {
        let r = try caprof(["--help"])
        XCTAssertEqual(r.code, 0)
        for word in ["render", "devices", "schema", "65", "69"] { XCTAssertTrue(r.stdout.contains(word), word) }
        XCTAssertEqual(try caprof(["render", "--help"]).code, 0)
    }

    func testRendersTheCardsExampleAtCanvasSize() throws {
        let out = tmp.appendingPathComponent("cards.png").path
        let r = try caprof(["render", Self.example("cards.json"), "-o", out])
        XCTAssertEqual(r.code, 0, r.stderr)
        let (w, h) = try pngSize(out)
        XCTAssertEqual(w, 1170); XCTAssertEqual(h, 2532)
        XCTAssertTrue(r.stderr.contains("wrote"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\u{1B}["), "no colour codes when stderr is not a terminal")
    }

    func testScaleOverridesCanvasScale() throws {
        let out = tmp.appendingPathComponent("g.png").path
        XCTAssertEqual(try caprof(["render", Self.example("gravity.json"), "-o", out, "--scale", "1"]).code, 0)
        let (w, h) = try pngSize(out)
        XCTAssertEqual(w, 390); XCTAssertEqual(h, 844)
    }

    func testUnsupportedFeaturesAreWarningsWithTheirPlace() throws {
        let scene = try write("shape.json", """
        {"caprof": 1, "canvas": {"width": 10, "height": 10},
         "root": {"sublayers": [
           {"class": "CATextLayer", "name": "tick", "frame": [0, 0, 10, 10], "string": "✓", "font": "Avenir"}]}}
        """)
        let r = try caprof(["render", scene, "-o", tmp.appendingPathComponent("s.png").path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("shape.json:3:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: font \"Avenir\" is not installed; drawn with Liberation Sans"), r.stderr)
    }

    func testUnknownKeyIsADataErrorWithPlaceAndSuggestion() throws {
        let scene = try write("typo.json", """
        {"caprof": 1, "canvas": {"width": 10, "height": 10},
         "root": {"backgroundColr": "red"}}
        """)
        let out = tmp.appendingPathComponent("t.png").path
        let r = try caprof(["render", scene, "-o", out])
        XCTAssertEqual(r.code, 65)
        XCTAssertTrue(r.stderr.contains("typo.json:2:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("/root/backgroundColr"), r.stderr)
        XCTAssertTrue(r.stderr.contains("backgroundColor"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testMalformedJSONNamesLineAndColumn() throws {
        let scene = try write("bad.json", "{\"caprof\": 1,\n  \"canvas\": {\"width\": 10 \"height\": 10}}")
        let r = try caprof(["render", scene, "-o", tmp.appendingPathComponent("b.png").path])
        XCTAssertEqual(r.code, 65)
        XCTAssertTrue(r.stderr.contains("bad.json:2:"), r.stderr)
    }

    func testMissingSceneAndMissingImageAreNoInput() throws {
        XCTAssertEqual(try caprof(["render", tmp.appendingPathComponent("nope.json").path, "-o", "x.png"]).code, 66)
        let scene = try write("img.json", """
        {"caprof": 1, "canvas": {"width": 10, "height": 10},
         "root": {"contents": "missing.png"}}
        """)
        let r = try caprof(["render", scene, "-o", tmp.appendingPathComponent("i.png").path])
        XCTAssertEqual(r.code, 66, r.stderr)
        XCTAssertTrue(r.stderr.contains("/root/contents"), r.stderr)
    }

    func testCorruptImageIsADataError() throws {
        try Data("not a png at all".utf8).write(to: tmp.appendingPathComponent("corrupt.png"))
        let scene = try write("c.json", """
        {"caprof": 1, "canvas": {"width": 10, "height": 10}, "root": {"contents": "corrupt.png"}}
        """)
        let r = try caprof(["render", scene, "-o", tmp.appendingPathComponent("c.png").path])
        XCTAssertEqual(r.code, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("corrupt.png") && r.stderr.contains("/root/contents"), r.stderr)
    }

    func testCanvasOverTheLimit() throws {
        let scene = try write("huge.json", """
        {"caprof": 1, "canvas": {"width": 6000, "height": 10, "scale": 3}, "root": {}}
        """)
        let r = try caprof(["render", scene, "-o", tmp.appendingPathComponent("h.png").path])
        XCTAssertEqual(r.code, 65, r.stderr)
        XCTAssertTrue(r.stderr.contains("16384"), r.stderr)
    }

    func testNoVulkanDriverNamesThePackageToInstall() throws {
        let r = try caprof(["render", Self.example("cards.json"), "-o", tmp.appendingPathComponent("n.png").path],
                           env: ["VK_DRIVER_FILES": "/nonexistent/icd.json", "VK_ICD_FILENAMES": "/nonexistent/icd.json"])
        XCTAssertEqual(r.code, 69, r.stderr)
        XCTAssertTrue(r.stderr.contains("mesa-vulkan-drivers"), r.stderr)
        let d = try caprof(["devices"], env: ["VK_DRIVER_FILES": "/nonexistent/icd.json", "VK_ICD_FILENAMES": "/nonexistent/icd.json"])
        XCTAssertEqual(d.code, 69)
    }

    func testUnwritableOutputIsCantCreate() throws {
        let r = try caprof(["render", Self.example("cards.json"), "-o", "/nonexistent-dir-caprof/out.png"])
        XCTAssertEqual(r.code, 73, r.stderr)
    }

    func testBadArgumentsAreUsageErrors() throws {
        XCTAssertEqual(try caprof(["render", Self.example("cards.json"), "-o", "x.png", "--scale", "0"]).code, 64)
        XCTAssertEqual(try caprof(["render"]).code, 64)
    }

    func testDevicesListsLavapipeAsUsable() throws {
        let r = try caprof(["devices"])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stdout.lowercased().contains("llvmpipe"), r.stdout)
    }

    func testSchemaIsJSON() throws {
        let r = try caprof(["schema"])
        XCTAssertEqual(r.code, 0)
        let obj = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        XCTAssertNotNil(obj?["$schema"])
    }
}
