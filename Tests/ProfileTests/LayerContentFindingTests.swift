import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// The profiler on shapes, gradients and text: blending from real coverage (a rasterised texture
/// has transparent texels; a gradient is opaque only when every colour is), misaligned and
/// low-scale findings on rasterised content.
final class LayerContentFindingTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 100, height: 100, scale: 3, backgroundColor: .white)

    func ids(_ layers: [Layer], named name: String) -> [String] {
        profile([root(canvas, layers)], canvas).filter { $0.layer.display == name }.map(\.id.rawValue).sorted()
    }

    func testShapeTextureIsBlendedEvenOnTheGrid() {
        var s = Layer(.shape); s.name = "shape"; s.setFrame(Rect(10, 10, 40, 40)); s.shape.path = .ellipse(in: Rect(0, 0, 40, 40))
        XCTAssertEqual(ids([s], named: "shape"), ["blended"])
    }

    func testGradientIsOpaqueOnlyWhenEveryColourIs() {
        var g = Layer(.gradient); g.name = "g"; g.setFrame(Rect(10, 10, 40, 40)); g.gradient.colors = [.black, .white]
        XCTAssertEqual(ids([g], named: "g"), [], "opaque colours on the pixel grid: no finding")
        g.gradient.colors = [.black, .clear]
        XCTAssertEqual(ids([g], named: "g"), ["blended"])
    }

    func testTextBelowTheScreenScaleIsLowScaleAndResampled() {
        var t = Layer(.text); t.name = "label"; t.setFrame(Rect(10, 10, 60, 20)); t.text.string = "Hi"
        t.contentsScale = 1     // backing store at 1× on a 3× canvas: magnified 3×
        let found = ids([t], named: "label")
        XCTAssertTrue(found.contains("contents.low-scale"), "\(found)")
        XCTAssertTrue(found.contains("misaligned.scaled"), "\(found)")
        t.contentsScale = 3
        XCTAssertEqual(ids([t], named: "label"), ["blended"])
    }

    func testShapeAtAFractionalPositionIsMisaligned() {
        var s = Layer(.shape); s.name = "shape"; s.setFrame(Rect(10.1, 10, 40, 40)); s.shape.path = .rect(Rect(0, 0, 40, 40))
        XCTAssertTrue(ids([s], named: "shape").contains { $0.hasPrefix("misaligned") })
    }

    /// A blended layer's explanation names what of its content is transparent: a gradient its
    /// translucent colours (it is drawn as a background from its ramp, not as a contents image),
    /// a shape the texture around its fill, a text the space around its glyphs.
    func testABlendedContentSaysWhichContentIsTransparent() {
        var g = Layer(.gradient); g.name = "g"; g.setFrame(Rect(10, 10, 40, 20)); g.gradient.colors = [.black, .clear]
        var s = Layer(.shape); s.name = "shape"; s.setFrame(Rect(10, 40, 20, 20)); s.shape.path = .ellipse(in: Rect(0, 0, 20, 20))
        var t = Layer(.text); t.name = "label"; t.setFrame(Rect(40, 40, 50, 20)); t.text.string = "Hi"; t.contentsScale = 3
        let found = profile([root(canvas, [g, s, t])], canvas).filter { $0.id == .blended }
        func explanation(_ name: String) -> String { found.first { $0.layer.display == name }?.explanation ?? "none" }
        XCTAssertTrue(explanation("g").contains("its gradient has translucent colours"), explanation("g"))
        XCTAssertTrue(explanation("shape").contains("its shape's texture is transparent outside its fill"), explanation("shape"))
        XCTAssertTrue(explanation("label").contains("its text is drawn with transparent space around the glyphs"), explanation("label"))
    }
}
