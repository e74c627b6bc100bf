import Foundation
import Pipeline
import Plan
import Raster
import SceneFormat
import XCTest

/// Stack culling on lavapipe (`StackCulling` in the plan): what lies beneath K translucent veils
/// is not drawn, and the pixels stay within 1/255 of drawing every layer.
final class StackCullingReftests: ReftestCase {
    /// A 4×4 opaque green image as a data: URI: stretched over a layer it is (0, 255, 0, 255)
    /// everywhere (bilinear taps of equal texels), the same green as a solid, but an image, whose
    /// shading culling saves (`StackCulling.shadingWeight`: culling plain solids saves nothing).
    static let green: String = {
        var px = [UInt8](repeating: 0, count: 4 * 4 * 4)
        for i in stride(from: 0, to: px.count, by: 4) { px[i + 1] = 255; px[i + 3] = 255 }
        return "data:image/png;base64," + ((try? PNGCodec.encode(premultiplied: px, width: 4, height: 4)).map { Data($0).base64EncodedString() } ?? "")
    }()

    /// White canvas (the clear colour), an opaque red layer, five green image layers at opacity
    /// 0.2 (alpha byte 51: no veils; turned 1° so that they are not flattened into one region) and
    /// four veils on top: dark red at opacity 0.8 (premultiplied (102, 0, 0, 204)), rotated 10°
    /// and scaled 1.5 about the centre, so they cover the canvas.
    var under: String {
        """
        {"frame": [0, 0, 64, 64], "backgroundColor": "#FF0000"},
        """ + greens(5, opacity: 0.2).joined(separator: ",\n")
    }
    func greens(_ n: Int, opacity: Double, frame: String = "[0, 0, 64, 64]") -> [String] {
        Array(repeating: """
        {"frame": \(frame), "contents": "\(Self.green)", "opacity": \(opacity), "transform": "rotate(1deg)"}
        """, count: n)
    }
    func veils(_ n: Int) -> String {
        Array(repeating: """
        {"frame": [0, 0, 64, 64], "backgroundColor": [0.5, 0, 0, 1], "opacity": 0.8, "transform": "rotate(10deg) scale(1.5)"}
        """, count: n).joined(separator: ",\n")
    }
    var json: String { under + ",\n" + veils(4) }

    /// 8-bit source-over, `s + round(d · (255 − A) / 255)` per channel, by hand at the centre:
    /// - every layer: red (255, 0, 0, 255); five greens (0, 51, 0, 51) keep 204/255: red 204, 163,
    ///   130, 104, 83 and green 51, 92, 125, 151, 172; four veils (102, 0, 0, 204) keep 51/255: red
    ///   119, 126, 127, 127 and green 34, 7, 1, 0. (127, 0, 0, 255).
    /// - culled (K = 4 veils cover it): the veils over the white clear colour: red 153, 133, 129,
    ///   128, green and blue 51, 10, 2, 0. (128, 0, 0, 255): one level apart, as the bound allows.
    func testWhatLiesBeneathFourVeilsIsNotDrawnAndMovesAPixelByAtMostOneLevel() throws {
        let doc = try SceneDecoder.decode(data: Array(scene(64, 64, json).utf8), file: "stack-culling.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let renderer = Self.renderer
        let culled = try renderer.render(doc)
        XCTAssertEqual(culled.plan.execution.stackDepth, 4)
        XCTAssertEqual(culled.plan.execution.stackVeils, 4,
                       "the four; the opaque red (K = 1 ≤ 4) has nothing beneath it to cull and is not marked")
        renderer.cullsStacks = false
        defer { renderer.cullsStacks = true }
        let whole = try renderer.render(doc)
        XCTAssertEqual(whole.plan.execution.stackDepth, 0)
        let a = Image(width: culled.width, height: culled.height, pixels: culled.pixels)
        let b = Image(width: whole.width, height: whole.height, pixels: whole.pixels)
        XCTAssertEqual(b.pixel(32, 32), [127, 0, 0, 255], "every layer drawn")
        XCTAssertEqual(a.pixel(32, 32), [128, 0, 0, 255], "the red and green layers not drawn beneath the veils")
        assertImagesMatch(a, b, tolerance: 1, maxDiffering: 64 * 64)
        // The stencil is per pixel: where a veil's rotated corner leaves a pixel to three veils
        // or fewer, everything is drawn (none here: they cover the canvas); and the whole frame
        // differs only where the culled layers would have rounded differently.
        var differing = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) where a.pixels[i..<(i + 4)] != b.pixels[i..<(i + 4)] { differing += 1 }
        XCTAssertGreaterThan(differing, 0)
    }

    /// Ranks between veils, with opaque veils (K = 1), where a mistake shows whole: five green
    /// images, an opaque red veil covering the canvas, a green image at 0.4 (not a veil), and an opaque
    /// blue veil over the left part only. At (56, 32) the red veil is the top one (the K-th), so
    /// the greens beneath it are not drawn but the green above it is: (0, 102, 0, 102) over red
    /// gives (153, 102, 0, 255). At (8, 32) the blue veil is the K-th and everything beneath it
    /// goes: pure blue. Opaque veils change nothing: the frame equals drawing every layer.
    func testTheKthVeilFromTheTopDecidesPerPixelAndALayerBetweenVeilsIsDrawnAboveTheLower() throws {
        let json = (greens(5, opacity: 0.2) + ["""
        {"frame": [0, 0, 64, 64], "backgroundColor": "#FF0000", "transform": "rotate(10deg) scale(1.5)"}
        """] + greens(1, opacity: 0.4) + ["""
        {"frame": [0, 0, 32, 64], "backgroundColor": "#0000FF", "transform": "rotate(10deg) scale(1.5)"}
        """]).joined(separator: ",\n")
        let doc = try SceneDecoder.decode(data: Array(scene(64, 64, json).utf8), file: "stack-culling-ranks.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let renderer = Self.renderer
        let culled = try renderer.render(doc)
        XCTAssertEqual(culled.plan.execution.stackDepth, 1)
        XCTAssertEqual(culled.plan.execution.stackVeils, 2)
        renderer.cullsStacks = false
        defer { renderer.cullsStacks = true }
        let whole = try renderer.render(doc)
        let a = Image(width: culled.width, height: culled.height, pixels: culled.pixels)
        XCTAssertEqual(a.pixel(56, 32), [153, 102, 0, 255], "the green above the red veil is drawn")
        XCTAssertEqual(a.pixel(8, 32), [0, 0, 255, 255])
        XCTAssertEqual(culled.pixels, whole.pixels)
    }

    /// The profile reports the plan's estimate of what stack culling did not draw, apart from the
    /// findings: the red and the five greens beneath the four veils, 6 × 64 × 64 pixels (the
    /// veils cover every 16-pixel cell; the red is a solid, not worth culling by itself, but
    /// it goes with the greens).
    func testTheProfileReportsWhatStackCullingDidNotDraw() throws {
        let doc = try SceneDecoder.decode(data: Array(scene(64, 64, json).utf8), file: "stack-culling.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let report = try ProfileRunner(scene: AnimatedScene(doc), renderer: Self.renderer)
            .run(frames: [(0, 0)], fps: 60, file: "stack-culling.json", toolVersion: "test").report
        XCTAssertEqual(report.frames.first?.cost.stackCulledPixels, 6 * 64 * 64)
        XCTAssertEqual(report.frames.first?.cost.culledItems, 0)
        XCTAssertEqual(report.totals.meanStackCulledPixels, Double(6 * 64 * 64))
    }

    /// A backdrop capture cuts the canvas into segments, each culled on its own (the depth and
    /// stencil are cleared at each): green images under four veils over the left half, a
    /// blurring backdrop bar, green images again under four veils over the bottom half. Within
    /// 1/255 of drawing every layer.
    func testEachCanvasSegmentIsCulledOnItsOwn() throws {
        func veils(_ frame: String, _ colour: String) -> [String] {
            Array(repeating: """
            {"frame": \(frame), "backgroundColor": \(colour), "opacity": 0.8, "transform": "rotate(1deg)"}
            """, count: 4)
        }
        let bar = """
        {"class": "CABackdropLayer", "frame": [20, 110, 160, 80], "filters": [{"type": "gaussianBlur", "inputRadius": 6}],
         "sublayers": [{"frame": [0, 0, 160, 80], "backgroundColor": [1, 1, 1, 0.25]}]}
        """
        let full = "[0, 0, 200, 300]"
        let json = (greens(6, opacity: 0.3, frame: full) + veils("[0, 0, 100, 300]", "[0.5, 0.1, 0, 1]") + [bar]
                    + greens(6, opacity: 0.3, frame: full) + veils("[0, 150, 200, 150]", "[0, 0.2, 0.5, 1]")).joined(separator: ",\n")
        let doc = try SceneDecoder.decode(data: Array(scene(200, 300, json).utf8), file: "stack-culling-segments.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let renderer = Self.renderer
        let culled = try renderer.render(doc)
        XCTAssertEqual(culled.plan.execution.stackVeils, 8, "four in each segment")
        renderer.cullsStacks = false
        defer { renderer.cullsStacks = true }
        let whole = try renderer.render(doc)
        assertImagesMatch(Image(width: culled.width, height: culled.height, pixels: culled.pixels),
                          Image(width: whole.width, height: whole.height, pixels: whole.pixels), tolerance: 1, maxDiffering: 200 * 300)
    }

    static func half(opaqueLeft: Bool) -> String {
        var px = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for y in 0..<256 { for x in 0..<256 {
            let a: UInt8 = (x < 128) == opaqueLeft ? 255 : 128
            px[(y * 256 + x) * 4 + 2] = a; px[(y * 256 + x) * 4 + 3] = a
        } }
        return "data:image/png;base64," + ((try? PNGCodec.encode(premultiplied: px, width: 256, height: 256)).map { Data($0).base64EncodedString() } ?? "")
    }

    /// Culling by order: six image veils at opacity 0.8 over the red layer and five greens,
    /// alternating halves from the top (A: opaque on the left, B: on the right; both alpha ≥ 128
    /// elsewhere), turned 1° and scaled 1.05 to cover the 256×256 canvas. No pixel has more than
    /// three veils' opaque parts above it, so counting (K = 4) culls nothing; by order the fifth
    /// veil from the top culls on the left, the sixth on the right (the plan test
    /// `testVeilsCullByOrderWhereFourNeverStack`). By hand, `s + round(d · (255 − A) / 255)` with pieces
    /// (0, 0, 204, 204) and sheers (0, 0, 102, 102) (0.8 · 128 = 102.4), from red 83 and green
    /// 172 after the greens (above), or from white where culled:
    /// - left (64, 128), veils B A B A B A from the bottom: red 50, 10, 6, 1, 1, 0, green 103,
    ///   21, 13, 3, 2, 0, blue 102, 224, 236, 251, 253, 255: (0, 0, 255, 255). Culled beneath the
    ///   fifth (the lowest A): red and green 51, 31, 6, 4, 1, blue 255: (1, 1, 255, 255).
    /// - right (192, 128), the same veils, pieces where sheers were: red 17, 10, 2, 1, 0, 0, green
    ///   34, 20, 4, 2, 0, 0, blue 204, 224, 249, 251, 254, 254: (0, 0, 254, 255). Culled beneath
    ///   the sixth: red and green 51, 31, 6, 4, 1, 1, blue 255: (1, 1, 255, 255).
    func testVeilsCullByOrderWithinALevel() throws {
        let veils = (0..<6).map { i in """
        {"frame": [0, 0, 256, 256], "contents": "\(Self.half(opaqueLeft: i % 2 == 1))", "opacity": 0.8,
         "transform": "rotate(1deg) scale(1.05)"}
        """ }
        let json = ["""
        {"frame": [0, 0, 256, 256], "backgroundColor": "#FF0000"}
        """] + greens(5, opacity: 0.2, frame: "[0, 0, 256, 256]") + veils
        let doc = try SceneDecoder.decode(data: Array(scene(256, 256, json.joined(separator: ",\n")).utf8), file: "stack-culling-order.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let renderer = Self.renderer
        let culled = try renderer.render(doc)
        XCTAssertEqual(culled.plan.execution.stackDepth, 4)
        XCTAssertEqual(culled.plan.execution.stackVeils, 6)
        XCTAssertEqual(culled.plan.canvasItems.filter { $0.stackStencil?.role == .markBit }.count, culled.plan.execution.stackPieces)
        renderer.cullsStacks = false
        defer { renderer.cullsStacks = true }
        let whole = try renderer.render(doc)
        let a = Image(width: culled.width, height: culled.height, pixels: culled.pixels)
        let b = Image(width: whole.width, height: whole.height, pixels: whole.pixels)
        XCTAssertEqual(b.pixel(64, 128), [0, 0, 255, 255], "every layer drawn")
        XCTAssertEqual(a.pixel(64, 128), [1, 1, 255, 255], "culled beneath the fifth veil")
        XCTAssertEqual(b.pixel(192, 128), [0, 0, 254, 255])
        XCTAssertEqual(a.pixel(192, 128), [1, 1, 255, 255], "culled beneath the sixth veil")
        assertImagesMatch(a, b, tolerance: 1, maxDiffering: 256 * 256)
    }


    /// Translucent layers on top of too few veils: three veils (premultiplied 2 at 0.8) under two
    /// sheers (3 at 0.4) over the red layer and greens, where 8-bit blending turns 0 beneath into
    /// 5 and 255 into 7 (`testLayersOnTopOfTooFewVeilsDoNotLetThemCull`): nothing may be culled
    /// beneath them, by count or by order, and the frame equals drawing every layer.
    func testLayersOnTopOfTooFewVeilsCullNothing() throws {
        let over = [(2.0, 0.8), (2.0, 0.8), (2.0, 0.8), (3.0, 0.4), (3.0, 0.4)].map { c, o in """
        {"frame": [0, 0, 64, 64], "backgroundColor": [\(c / 255 / o), 0, 0, 1], "opacity": \(o), "transform": "rotate(10deg) scale(1.5)"}
        """ }
        let json = under + ",\n" + over.joined(separator: ",\n")
        let doc = try SceneDecoder.decode(data: Array(scene(64, 64, json).utf8), file: "stack-culling-on-top.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let renderer = Self.renderer
        let culled = try renderer.render(doc)
        XCTAssertEqual(culled.plan.execution.stackVeils, 0)
        renderer.cullsStacks = false
        defer { renderer.cullsStacks = true }
        XCTAssertEqual(culled.pixels, try renderer.render(doc).pixels)
    }

    /// Where fewer than K veils cover, the layers beneath are drawn: the same veils, only three of
    /// them, over the same stack, give every layer's pixels exactly.
    func testFewerThanKVeilsDrawEverything() throws {
        let doc = try SceneDecoder.decode(data: Array(scene(64, 64, under + ",\n" + veils(3)).utf8), file: "stack-culling-3.json",
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let renderer = Self.renderer
        let on = try renderer.render(doc)
        XCTAssertEqual(on.plan.execution.stackDepth, 0, "three veils: nothing to cull")
        // Red after three veils: 83 → 119, 126, 127; green 172 → 34, 7, 1.
        XCTAssertEqual(Image(width: on.width, height: on.height, pixels: on.pixels).pixel(32, 32), [127, 1, 0, 255])
    }
}
