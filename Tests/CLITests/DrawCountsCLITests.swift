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
}
