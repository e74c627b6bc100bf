import XCTest

/// `render`'s summary counts draw calls where it says "draw call", apart from the scene's draw
/// items, and says how many items caprof culled under opaque layers (its own saving).
final class DrawCountsCLITests: CLITestCase {
    func testSummaryCountsDrawCallsAndCulledItems() throws {
        // A translucent root background under an opaque full-size sublayer: two draw items (what
        // Core Animation draws), one draw call (the root's background is hidden: culled).
        let scene = try write("culled.json", #"""
        {"caprof": 1, "canvas": {"width": 8, "height": 8},
         "root": {"bounds": [0, 0, 8, 8], "position": [4, 4], "backgroundColor": "#0000FF80",
                  "sublayers": [{"frame": [0, 0, 8, 8], "backgroundColor": "red"}]}}
        """#)
        let r = try caprof(["render", scene, "-o", tmp.appendingPathComponent("culled.png").path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("2 draw items, 1 draw call, 1 culled under opaque layers,"), r.stderr)
        let one = try write("one.json", #"{"caprof": 1, "canvas": {"width": 4, "height": 4}, "root": {"bounds": [0, 0, 4, 4], "position": [2, 2], "backgroundColor": "red"}}"#)
        let f = try caprof(["render", one, "--frames", "0:2f", "-o", tmp.appendingPathComponent("frames").path])
        XCTAssertEqual(f.code, 0, f.stderr)
        XCTAssertTrue(f.stderr.contains("1 draw item, 1 draw call each;"), f.stderr)
    }

    /// Three translucent 200 × 200 layers on top of each other are one flattened region (one
    /// draw, each pixel written once); CAPROF_FLATTEN=off draws them one by one, the same PNG.
    func testSummarySaysWhatWasFlattened() throws {
        let scene = try write("stack.json", #"""
        {"caprof": 1, "canvas": {"width": 200, "height": 200, "backgroundColor": "white"},
         "root": {"bounds": [0, 0, 200, 200], "position": [100, 100], "backgroundColor": "#0000FF80",
                  "sublayers": [{"frame": [0, 0, 200, 200], "backgroundColor": "#FF000080"},
                                {"frame": [0, 0, 200, 200], "backgroundColor": "#00FF0040"}]}}
        """#)
        let on = tmp.appendingPathComponent("on.png").path, off = tmp.appendingPathComponent("off.png").path
        let r = try caprof(["render", scene, "-o", on])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("3 draw items, 1 draw call, 3 blended in 1 flattened region,"), r.stderr)
        let o = try caprof(["render", scene, "-o", off], env: ["CAPROF_FLATTEN": "off"])
        XCTAssertEqual(o.code, 0, o.stderr)
        XCTAssertTrue(o.stderr.contains("3 draw items, 1 draw call,"), o.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: on)), try Data(contentsOf: URL(fileURLWithPath: off)))
    }
}
