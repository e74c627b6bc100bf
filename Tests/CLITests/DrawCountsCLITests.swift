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

    /// Stack culling, said apart: three landscape images under five rotated solids covering the
    /// canvas, from the top a veil (dark red at 0.8), a sheer (black at 0.4), a veil, a sheer, a
    /// veil. Four veils never stack, but the lowest has a sheer, a veil, a sheer and a veil above
    /// it, in that order: 51, 31, 7, 5, 1 levels of a difference beneath it at most, so what lies
    /// beneath it is not drawn (culling by order).
    /// `CAPROF_STACK_CULLING=off` draws everything.
    func testSummarySaysWhatLiesBeneathTranslucentLayersWasNotDrawn() throws {
        let image = Self.example("assets/landscape.png")
        let under = (0..<3).map { _ in #"{"frame": [0, 0, 64, 64], "contents": "\#(image)", "opacity": 0.5, "transform": "rotate(1deg)"}"# }
        let over = (0..<5).map { i in
            #"{"frame": [0, 0, 64, 64], "backgroundColor": \#(i % 2 == 0 ? "[0.5, 0, 0, 1]" : "[0, 0, 0, 1]"), "opacity": \#(i % 2 == 0 ? 0.8 : 0.4), "transform": "rotate(10deg) scale(1.5)"}"#
        }
        let scene = try write("order.json", #"{"caprof": 1, "canvas": {"width": 64, "height": 64, "backgroundColor": "white"}, "root": {"bounds": [0, 0, 64, 64], "position": [32, 32], "sublayers": ["#
                              + (under + over).joined(separator: ",\n") + "]}}")
        let r = try caprof(["render", scene, "-o", tmp.appendingPathComponent("on.png").path])
        XCTAssertEqual(r.code, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains(", nothing drawn beneath 3 translucent layers where their order hides it, "), r.stderr)
        let o = try caprof(["render", scene, "-o", tmp.appendingPathComponent("off.png").path], env: ["CAPROF_STACK_CULLING": "off"])
        XCTAssertEqual(o.code, 0, o.stderr)
        XCTAssertTrue(o.stderr.contains("8 draw items, 2 draw calls, "), o.stderr)
    }
}
