import Foundation
import Pipeline
import Plan
import Raster
import SceneFormat
import XCTest

/// The frame cache (damage-only redraws, unchanged frames reused) gives the pixels of rendering
/// every frame alone, byte for byte: a moving layer, an animated opacity, a spinner inside a
/// shouldRasterize layer (a raster-cache miss every frame), a moving rasterised card (hits),
/// shadows, a mask and group opacity (offscreen passes), a cross-dissolve.
final class FrameCacheReftests: ReftestCase {
    /// Renders `times` in order through one renderer with the cache on, then each frame alone
    /// (cache off, raster cache empty), and compares.
    /// `count` of each frame of `doc` rendered as one sequence at `times` (the frame cache on).
    func sequenceCounts(_ doc: SceneDocument, times: [Double], _ count: (SceneRenderer.Frame) -> Int) throws -> [Int] {
        let sequence = try SceneRenderer()
        return try times.map { count(try sequence.render(AnimatedScene(doc), at: $0)) }
    }

    func assertSequenceMatchesFramesAlone(_ doc: SceneDocument, times: [Double], scale: Double? = nil,
                                          file: StaticString = #filePath, line: UInt = #line) throws -> [FrameCacheUse] {
        let scene = AnimatedScene(doc)
        let sequence = try SceneRenderer()
        XCTAssertTrue(sequence.renderer.frameCacheEnabled, "sequences use the frame cache by default")
        var frames: [(pixels: [UInt8], use: FrameCacheUse)] = []
        for t in times {
            let f = try sequence.render(scene, at: t, scale: scale)
            frames.append((f.pixels, f.stats.frameCache))
        }
        let alone = Self.renderer
        alone.renderer.frameCacheEnabled = false
        defer { alone.renderer.frameCacheEnabled = true }
        for (t, seq) in zip(times, frames) {
            alone.resetRasterCache()
            let f = try alone.render(scene, at: t, scale: scale)
            XCTAssertEqual(f.stats.frameCache, .full)
            let a = Image(width: f.width, height: f.height, pixels: f.pixels)
            assertImagesMatch(Image(width: f.width, height: f.height, pixels: seq.pixels), a,
                              "frame-cache-t\(t)", file: file, line: line)
        }
        return frames.map(\.use)
    }

    func testEffectsSequenceEqualsEachFrameAlone() throws {
        let doc = try SceneDecoder.load(path: Self.repoRoot.appendingPathComponent("Examples/effects.json").path)
        let uses = try assertSequenceMatchesFramesAlone(doc, times: (0..<8).map { Double($0) / 30 }, scale: 1)
        XCTAssertEqual(uses.first, .full)
        // The spinner turns every frame: damaged, never reused.
        XCTAssertEqual(Array(uses.dropFirst()), Array(repeating: .damaged, count: 7))
    }

    /// A static blur is not drawn again (its filter steps compare equal); a frame holding a
    /// backdrop capture is drawn whole while anything changes (a capture over the previous frame
    /// would read that frame's pixels) and reused once nothing does.
    func testFiltersAndABackdropEqualEachFrameAlone() throws {
        let json = scene(120, 80, scale: 1, """
        {"name": "split", "frame": [0, 0, 60, 80], "backgroundColor": "#FF3B30"},
        {"name": "blurred", "frame": [70, 5, 40, 30], "backgroundColor": "#34C759",
         "filters": [{"type": "gaussianBlur", "name": "blur", "inputRadius": 4}]},
        {"name": "mover", "frame": [0, 50, 20, 20], "backgroundColor": "#007AFF",
         "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 10, "toValue": 100,
                         "duration": 0.1, "fillMode": "both"}]},
        {"class": "CABackdropLayer", "name": "bar", "frame": [30, 40, 60, 20],
         "filters": [{"type": "gaussianBlur", "name": "blur", "inputRadius": 3}]}
        """)
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "frame-cache-filters.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let uses = try assertSequenceMatchesFramesAlone(doc, times: [0, 0.05, 0.1, 0.15, 0.2])
        XCTAssertEqual(uses, [.full, .full, .full, .reused, .reused])
    }

    /// A layer moving over and under blurred layers: the damaged frames execute only the filter
    /// passes the damage needs (renumbered), and give each frame alone.
    func testMovingOverBlurredLayersEqualsEachFrameAlone() throws {
        let json = scene(120, 80, scale: 1, """
        {"name": "blurred", "frame": [10, 5, 40, 30], "backgroundColor": "#34C759",
         "filters": [{"type": "gaussianBlur", "inputRadius": 4}, {"type": "colorSaturate", "inputAmount": 2}]},
        {"name": "mover", "frame": [0, 20, 20, 20], "backgroundColor": "#007AFF",
         "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 10, "toValue": 100,
                         "duration": 0.1, "fillMode": "both"}]},
        {"name": "far", "frame": [80, 50, 30, 25], "backgroundColor": "#FF9500",
         "filters": [{"type": "gaussianBlur", "inputRadius": 2}]}
        """)
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "frame-cache-blur.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let uses = try assertSequenceMatchesFramesAlone(doc, times: [0, 0.05, 0.1, 0.15, 0.2])
        XCTAssertEqual(uses, [.full, .damaged, .damaged, .reused, .reused])
    }

    /// Blend modes (a shader blend over a moving layer's path, a blend state elsewhere): damaged
    /// while something moves beneath, reused once nothing does.
    func testBlendModesEqualEachFrameAlone() throws {
        let json = scene(120, 80, scale: 1, """
        {"name": "ground", "frame": [0, 0, 120, 80], "backgroundColor": "#FFCC00"},
        {"name": "mover", "frame": [0, 20, 20, 20], "backgroundColor": "#007AFF", "cornerRadius": 4,
         "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 10, "toValue": 100,
                         "duration": 0.1, "fillMode": "both"}]},
        {"name": "multiply", "frame": [30, 10, 40, 40], "backgroundColor": [0.2, 0.6, 0.9, 0.8], "compositingFilter": "multiplyBlendMode"},
        {"name": "screen", "frame": [80, 50, 30, 25], "backgroundColor": "#FF2D55", "compositingFilter": "screenBlendMode"}
        """)
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "frame-cache-blend.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let uses = try assertSequenceMatchesFramesAlone(doc, times: [0, 0.05, 0.1, 0.15, 0.2])
        XCTAssertEqual(uses, [.full, .damaged, .damaged, .reused, .reused])
    }

    func testMovingLayerAndAnimatedOpacityEqualEachFrameAlone() throws {
        let json = scene(120, 80, scale: 2, """
        {"name": "stripes", "frame": [0, 0, 120, 80], "backgroundColor": "#3366CC",
         "sublayers": [{"frame": [10, 10, 100, 10], "backgroundColor": [1, 1, 1, 0.5]}]},
        {"name": "mover", "frame": [0, 30, 20, 20], "backgroundColor": "#FF2D55", "cornerRadius": 6,
         "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 10.3, "toValue": 100,
                         "duration": 0.2, "fillMode": "both"}]},
        {"name": "fader", "frame": [60, 55, 40, 20], "backgroundColor": "#FFCC00", "borderWidth": 2, "borderColor": "#000000",
         "animations": [{"class": "CABasicAnimation", "keyPath": "opacity", "fromValue": 1, "toValue": 0.2,
                         "duration": 0.1, "fillMode": "both"}]}
        """)
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "frame-cache.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        // 0.1 s: the fader has ended; 0.2 s on: nothing moves, the frames are reused.
        let uses = try assertSequenceMatchesFramesAlone(doc, times: [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3])
        XCTAssertEqual(uses, [.full, .damaged, .damaged, .damaged, .damaged, .reused, .reused])
    }

    /// Offscreen results taken from the previous frame (`RetainedPasses`): a moving group's pass
    /// (its content unchanged: whole-pixel positions, 15 → 95 pt over 0.1 s) and a shouldRasterize bitmap larger than the raster cache (2.5
    /// canvases), evicted after every frame and stored again from the same content. Both are taken,
    /// not rendered, after the first frame, and every frame is the frame rendered alone.
    func testRetainedPassesEqualEachFrameAlone() throws {
        let json = scene(100, 60, scale: 1, """
        {"name": "big", "frame": [-100, -70, 300, 200], "backgroundColor": "#5856D6", "shouldRasterize": true,
         "sublayers": [{"frame": [110, 80, 60, 30], "backgroundColor": [1, 1, 1, 0.6], "cornerRadius": 8}]},
        {"name": "group", "frame": [0, 20, 30, 30], "opacity": 0.5, "allowsGroupOpacity": true, "backgroundColor": "#FF9500",
         "sublayers": [{"frame": [5, 5, 20, 20], "backgroundColor": "#34C759"}],
         "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 15, "toValue": 95,
                         "duration": 0.1, "fillMode": "both"}]}
        """)
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "retained.json", baseDirectory: "/")
        let retained = try sequenceCounts(doc, times: [0, 0.025, 0.05, 0.075]) { $0.stats.retainedPasses }
        XCTAssertEqual(retained, [0, 2, 2, 2], "the group's pass and the rasterised bitmap, after the first frame")
        _ = try assertSequenceMatchesFramesAlone(doc, times: [0, 0.025, 0.05, 0.075])
    }

    /// A frame with a backdrop is drawn whole when anything in it changes (its capture must read
    /// the canvas drawn anew), but its unchanged passes are still taken from the previous frame: the
    /// last of a blurred card's passes (content, two blur passes) and of the backdrop's (a capture
    /// and two blur passes; the layer that moves is drawn after it), and the passes they read are
    /// not rendered at all. 2 passes taken after the first frame, and every frame is the frame
    /// rendered alone.
    func testAFrameDrawnWholeStillTakesItsUnchangedPasses() throws {
        let json = scene(100, 60, scale: 1, """
        {"name": "card", "frame": [5, 5, 40, 40], "backgroundColor": "#FF9500", "cornerRadius": 6,
         "filters": [{"type": "gaussianBlur", "inputRadius": 3}],
         "sublayers": [{"frame": [10, 10, 20, 20], "backgroundColor": "#34C759"}]},
        {"name": "bar", "class": "CABackdropLayer", "frame": [50, 0, 50, 30], "filters": [{"type": "gaussianBlur", "inputRadius": 2}]},
        {"name": "mover", "frame": [0, 45, 10, 10], "backgroundColor": "#5856D6",
         "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 5, "toValue": 85,
                         "duration": 0.1, "fillMode": "both"}]}
        """)
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "whole.json", baseDirectory: "/")
        let retained = try sequenceCounts(doc, times: [0, 0.025, 0.05, 0.075]) { $0.stats.retainedPasses }
        XCTAssertEqual(retained, [0, 2, 2, 2], "the card's result and the backdrop's, after the first frame")
        let uses = try assertSequenceMatchesFramesAlone(doc, times: [0, 0.025, 0.05, 0.075])
        XCTAssertEqual(uses, [.full, .full, .full, .full], "a frame with a backdrop that changed is drawn whole")
    }

    /// Offscreen passes redrawn only where they changed (`PassDamage`): a spinner turning inside a
    /// full-canvas group with a colour filter over a shape and a gradient. The group's pass and the
    /// colour filter over it are redrawn in part after the first frame (2 passes), the rest of each
    /// kept from the frame before, and every frame is the frame rendered alone.
    func testPassesRedrawnInPartEqualEachFrameAlone() throws {
        let json = scene(100, 60, scale: 2, """
        {"name": "group", "frame": [0, 0, 100, 60], "filters": [{"type": "colorSaturate", "inputAmount": 1.5}],
         "sublayers": [
           {"class": "CAGradientLayer", "frame": [0, 0, 100, 60], "colors": ["#1D4ED8", "#F43F5E"]},
           {"frame": [5, 5, 40, 20], "backgroundColor": [1, 1, 1, 0.4], "cornerRadius": 6},
           {"name": "spinner", "frame": [60, 30, 16, 16], "backgroundColor": "#FACC15", "cornerRadius": 4,
            "animations": [{"class": "CABasicAnimation", "keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.283,
                            "duration": 0.1, "fillMode": "both"}]}]}
        """)
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "partial.json", baseDirectory: "/")
        let partial = try sequenceCounts(doc, times: [0, 0.025, 0.05, 0.075]) { $0.stats.partialPasses }
        XCTAssertEqual(partial, [0, 2, 2, 2], "the group's draw and its colour filter, after the first frame")
        _ = try assertSequenceMatchesFramesAlone(doc, times: [0, 0.025, 0.05, 0.075])
    }

    func testStaticCardsAreDrawnOnceThenReused() throws {
        let doc = try SceneDecoder.load(path: Self.repoRoot.appendingPathComponent("Examples/cards.json").path)
        let uses = try assertSequenceMatchesFramesAlone(doc, times: [0, 1.0 / 60, 2.0 / 60], scale: 1)
        XCTAssertEqual(uses, [.full, .reused, .reused])
    }
}
