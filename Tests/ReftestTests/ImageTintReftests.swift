import Foundation
import Raster
import XCTest

/// Image tinting: CAReplicatorLayer's instanceColor and its offsets multiply image contents as
/// they multiply solid colours (reference §2.3: "instanceColor … multiplied into the instances'
/// colours"). A premultiplied texel T under tint (r, g, b, a) becomes (T.r·r·a, T.g·g·a, T.b·b·a, T.a·a).
final class ImageTintReftests: ReftestCase {
    /// A w×h opaque image of one colour, as a data: URI.
    func solidImage(_ w: Int, _ h: Int, _ rgb: [UInt8]) throws -> String {
        var px: [UInt8] = []
        for _ in 0..<(w * h) { px += rgb + [255] }
        return "data:image/png;base64," + Data(try PNGCodec.encode(premultiplied: px, width: w, height: h)).base64EncodedString()
    }

    func testReplicatedImageIsTintedByInstanceColorAndOffsets() throws {
        // A 10×10 image of (200, 160, 80) replicated 3 times, 10 pt apart, over black.
        // C_k = (1, 0.5, 1, 1) + k·(0, 0, −0.5, −0.25): k0 (1, .5, 1, 1), k1 (1, .5, .5, .75), k2 (1, .5, 0, .5).
        // k0: (200, 80, 80); k1: (200, 80, 40)·0.75 = (150, 60, 30); k2: (200, 80, 0)·0.5 = (100, 40, 0).
        let uri = try solidImage(10, 10, [200, 160, 80])
        let img = try render(scene(30, 10, background: "\"#000000\"", """
        {"class": "CAReplicatorLayer", "frame": [0, 0, 30, 10], "instanceCount": 3, "instanceTransform": "translate(10, 0)",
         "instanceColor": [1, 0.5, 1, 1], "instanceBlueOffset": -0.5, "instanceAlphaOffset": -0.25,
         "sublayers": [{"frame": [0, 0, 10, 10], "contents": "\(uri)"}]}
        """))
        assertPixel(img, 5, 5, [200, 80, 80, 255], tolerance: 1)
        assertPixel(img, 15, 5, [150, 60, 30, 255], tolerance: 1)
        assertPixel(img, 25, 5, [100, 40, 0, 255], tolerance: 1)
    }

    func testWhiteInstanceColorLeavesImagesByteIdentical() throws {
        // The same image drawn with and without a white-tinting replicator: identical pixels.
        let uri = try solidImage(10, 10, [13, 77, 201])
        let plain = try render(scene(10, 10, """
        {"frame": [0, 0, 10, 10], "contents": "\(uri)", "opacity": 0.6}
        """))
        let replicated = try render(scene(10, 10, """
        {"class": "CAReplicatorLayer", "frame": [0, 0, 10, 10],
         "sublayers": [{"frame": [0, 0, 10, 10], "contents": "\(uri)", "opacity": 0.6}]}
        """))
        XCTAssertEqual(plain, replicated)
        assertPixel(plain, 5, 5, [110, 148, 223, 255], tolerance: 1)   // 0.6·(13, 77, 201) + 0.4·255
    }
}
