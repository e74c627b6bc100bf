import XCTest
import Geometry
import LayerModel
import Pipeline
import Plan
import SceneFormat
@testable import Profile

/// Blending from the real coverage: a texture drawn 1:1 on the pixel grid blends only where its
/// texels are not opaque (a filled shape's interior replaces what lies beneath).
final class RealCoverageTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 40, height: 30, scale: 1, backgroundColor: .white)

    /// A 10×10 image whose left five columns are opaque and right five half transparent.
    func halfOpaque() -> OpaqueTexels {
        var px = [UInt8](repeating: 0, count: 10 * 10 * 4)
        for y in 0..<10 { for x in 0..<10 { px[(y * 10 + x) * 4 + 3] = x < 5 ? 255 : 128 } }
        return OpaqueTexels(width: 10, height: 10, rgba: px)
    }

    func blended(at frame: Rect, textures: Bool, opacity: Double = 1, flip: Bool = false) -> (frame: Int, finding: Int?) {
        let img = image("/half.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 42, width: 10, height: 10, isOpaque: false)]
        var l = box("half", frame, nil); l.contents = img; l.contentsScale = 1; l.opacity = opacity
        if flip { l.transform = .scale(-1, 1, 1) }
        let t = tree(root(canvas, [l]))
        let a = FrameAnalyzer(canvasScale: 1).analyze(plan(t, canvas, images: table), tree: t, index: 0, time: 0,
                                                       textures: textures ? [42: halfOpaque()] : [:])
        return (a.counters.blendedPixels, a.observations.first { $0.id == .blended }?.pixels)
    }

    func testOnlyTheTranslucentHalfBlends() {
        // 1:1 on the grid: the right half, 5 × 10 = 50 pixels.
        XCTAssertEqual(blended(at: Rect(10, 10, 10, 10), textures: true).frame, 50)
        XCTAssertEqual(blended(at: Rect(10, 10, 10, 10), textures: true).finding, 50)
        // Without the texture's coverage: the whole quad, 100 pixels.
        XCTAssertEqual(blended(at: Rect(10, 10, 10, 10), textures: false).frame, 100)
    }

    func testResampledOrFadedTexturesBlendWhole() {
        // Scaled 2×: texels are resampled, so neighbouring texels mix: the whole quad, 20 × 20.
        XCTAssertEqual(blended(at: Rect(0, 0, 20, 20), textures: true).frame, 400)
        // Opacity below 1 blends every pixel whatever the texels.
        XCTAssertEqual(blended(at: Rect(10, 10, 10, 10), textures: true, opacity: 0.5).frame, 100)
    }

    func testAMirroredTextureMapsItsOpaqueHalfToTheOtherSide() {
        // Flipped horizontally the opaque half is on the right, and still 50 pixels blend; the
        // mapping is not trusted for mirrored items, so the whole quad counts.
        XCTAssertEqual(blended(at: Rect(10, 10, 10, 10), textures: true, flip: true).frame, 100)
    }

    /// A filled opaque circle (CAShapeLayer, radius 20 pt at 1×) through a plan-only run: only its
    /// antialiased rim and the transparent rest of its texture blend. The texture is 42×42 (one
    /// texel of margin on each side for the antialiased edge). Bounds from the geometry: at least
    /// the quad minus the disc, 1764 − π·20² ≈ 507; at most the quad minus the disc of radius
    /// 20 − 1, whose pixels are surely inside, 1764 − π·19² ≈ 630. (The whole quad, 1764, is what
    /// was counted before coverage was read.)
    func testFilledShapeBlendsOnlyAtItsRimAndOutside() throws {
        let json = """
        {"caprof": 1, "canvas": {"width": 60, "height": 60, "scale": 1, "backgroundColor": "#FFFFFF"},
         "root": {"frame": [0, 0, 60, 60], "backgroundColor": "#FFFFFF", "sublayers": [
           {"class": "CAShapeLayer", "name": "dot", "frame": [10, 10, 40, 40], "path": {"ellipseIn": [0, 0, 40, 40]},
            "fillColor": "#0A84FF"}]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "s.json", baseDirectory: "/")
        let report = try ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
            .run(frames: [(index: 0, time: 0)], fps: 60, file: "s.json", toolVersion: "test").report
        let blended = report.frames[0].counters.blendedPixels
        XCTAssertGreaterThanOrEqual(blended, 507)
        XCTAssertLessThanOrEqual(blended, 630)
    }
}
