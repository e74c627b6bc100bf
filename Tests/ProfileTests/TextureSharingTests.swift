import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Identical images and identical rasterised content are one texture, whatever the number of
/// layers showing them; the report says how much memory that saves.
final class TextureSharingTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 200, height: 100, scale: 1, backgroundColor: .white)

    func icon(_ name: String, x: Double, _ path: String) -> Layer {
        var l = box(name, Rect(x, 10, 50, 50), nil); l.contents = image(path); l.contentsScale = 1; return l
    }

    func sharing(_ layers: [Layer], images: ImageTable = [:]) -> TextureSharing? {
        let t = tree(root(canvas, layers))
        return FrameAnalyzer(canvasScale: 1).analyze(plan(t, canvas, images: images), tree: t, index: 0, time: 0).counters.textureSharing
    }

    func testThreeLayersShowingOneImageShareItsTexture() throws {
        let table: ImageTable = [image("/star.png").origin: ImageInfo(key: 7, width: 50, height: 50, isOpaque: true),
                                 image("/moon.png").origin: ImageInfo(key: 8, width: 20, height: 10, isOpaque: true)]
        let s = try XCTUnwrap(sharing([icon("a", x: 0, "/star.png"), icon("b", x: 60, "/star.png"), icon("c", x: 120, "/star.png"),
                                       icon("d", x: 150, "/moon.png")], images: table))
        // Two textures: 50·50·4 = 10,000 B and 20·10·4 = 800 B; the star shown by three layers
        // would need two more copies: 20,000 B saved.
        XCTAssertEqual(s, TextureSharing(textures: 2, layers: 4, bytes: 10_800, savedBytes: 20_000))
    }

    func testIdenticalLabelsAreOneRasterisedTexture() throws {
        func label(_ name: String, y: Double, _ text: String) -> Layer {
            var t = Layer(.text); t.name = name; t.setFrame(Rect(10, y, 80, 20)); t.text.string = text; t.contentsScale = 1; return t
        }
        let same = try XCTUnwrap(sharing([label("l1", y: 0, "OK"), label("l2", y: 30, "OK")]))
        XCTAssertEqual(same.textures, 1)
        XCTAssertEqual(same.layers, 2)
        XCTAssertEqual(same.savedBytes, same.bytes, "the second label would need a texture of its own")
        let different = try XCTUnwrap(sharing([label("l1", y: 0, "OK"), label("l2", y: 30, "No")]))
        XCTAssertEqual(different.textures, 2)
        XCTAssertEqual(different.savedBytes, 0)
    }

    func testNoImagesNoFigure() {
        XCTAssertNil(sharing([box("plain", Rect(0, 0, 10, 10))]))
    }
}
