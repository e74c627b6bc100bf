import Foundation
import Pipeline
import Raster
import SceneFormat
import XCTest

/// Decoded images are let go once their textures hold them (`DecodedImages`), and decoded again
/// from their files when a texture must be filled again (evicted from the texture budget): the
/// pixels drawn are the same, and an image whose file changed in between is refused by name.
final class ImagePixelsReleaseTests: ReftestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-release-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A w×h opaque image whose texel (x, y) is (x·step, y·step, seed, 255).
    func writeImage(_ name: String, _ w: Int, _ h: Int, seed: UInt8) throws -> String {
        var px = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h { for x in 0..<w {
            let i = (y * w + x) * 4
            px[i] = UInt8(x * 16 % 256); px[i + 1] = UInt8(y * 16 % 256); px[i + 2] = seed
        } }
        let path = dir.appendingPathComponent(name).path
        try PNGCodec.write(premultiplied: px, width: w, height: h, to: path)
        return path
    }

    func document(_ image: String) throws -> SceneDocument {
        let json = scene(16, 16, #"{"frame": [0, 0, 16, 16], "contents": "\#(image)", "contentsScale": 1}"#)
        return try SceneDecoder.decode(data: Array(json.utf8), file: "release.json", baseDirectory: dir.path)
    }

    func testPixelsAreLetGoAfterUploadAndDecodedAgainAfterEviction() throws {
        let a = try writeImage("a.png", 16, 16, seed: 10), b = try writeImage("b.png", 16, 16, seed: 200)
        let renderer = try SceneRenderer()
        renderer.renderer.frameCacheEnabled = false
        let sceneA = AnimatedScene(try document(a)), sceneB = AnimatedScene(try document(b))

        let first = try renderer.render(sceneA, at: 0)
        XCTAssertEqual(sceneA.images.table.count, 1)
        XCTAssertTrue(sceneA.images.bitmaps.isEmpty, "the texture holds the pixels; the host copy is let go")
        // Opaque image drawn 1:1 over white: the pixels are the image's.
        XCTAssertEqual(Array(first.pixels[(5 * 16 + 3) * 4..<(5 * 16 + 3) * 4 + 4]), [48, 80, 10, 255])

        // Another frame resident again: nothing to decode.
        _ = try renderer.render(sceneA, at: 0)
        XCTAssertEqual(sceneA.images.pixels.decodedAgain, 0)

        // B's frame with no texture budget evicts A's texture; A's next frame decodes a.png again.
        renderer.renderer.textureBudgetBytes = 0
        _ = try renderer.render(sceneB, at: 0)
        let again = try renderer.render(sceneA, at: 0)
        XCTAssertEqual(sceneA.images.pixels.decodedAgain, 1)
        XCTAssertEqual(again.pixels, first.pixels)
        XCTAssertTrue(sceneA.images.bitmaps.isEmpty)
    }

    func testAnImageChangedOnDiskIsRefusedWhenDecodedAgain() throws {
        let a = try writeImage("a.png", 16, 16, seed: 10), b = try writeImage("b.png", 16, 16, seed: 200)
        let renderer = try SceneRenderer()
        renderer.renderer.frameCacheEnabled = false
        let sceneA = AnimatedScene(try document(a)), sceneB = AnimatedScene(try document(b))
        _ = try renderer.render(sceneA, at: 0)
        renderer.renderer.textureBudgetBytes = 0
        _ = try renderer.render(sceneB, at: 0)
        _ = try writeImage("a.png", 16, 16, seed: 99)
        XCTAssertThrowsError(try renderer.render(sceneA, at: 0)) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("a.png") && message.contains("changed while caprof ran"), message)
        }
    }
}
