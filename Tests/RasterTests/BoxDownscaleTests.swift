import XCTest
@testable import Raster

/// The contact sheet's thumbnail filter: each destination pixel is the mean of the source area it
/// covers (expected values computed by hand).
final class BoxDownscaleTests: XCTestCase {
    /// 4×4 → 2×2: each output pixel is the mean of a 2×2 block, per channel, on premultiplied values.
    func testHalvingAveragesTwoByTwoBlocks() {
        // Red channel per pixel (rows top to bottom); green = 255 − red; blue = 7; alpha below.
        let red: [UInt8] = [0, 40, 100, 200,
                            80, 120, 100, 0,
                            10, 10, 255, 255,
                            30, 50, 255, 255]
        let alpha: [UInt8] = [255, 255, 255, 255,
                              255, 255, 255, 255,
                              255, 255, 255, 255,
                              255, 255, 255, 0]
        var px: [UInt8] = []
        for i in 0..<16 { px += [red[i], 255 - red[i], 7, alpha[i]] }
        let out = boxDownscale(px, width: 4, height: 4, toWidth: 2, toHeight: 2)
        // red:   (0+40+80+120)/4 = 60   (100+200+100+0)/4 = 100   (10+10+30+50)/4 = 25   (255·4)/4 = 255
        // green: 255 − each mean (the means are exact)
        // alpha: 255 255 255 and (255·3 + 0)/4 = 191.25 → 191
        XCTAssertEqual(out, [60, 195, 7, 255, 100, 155, 7, 255,
                             25, 230, 7, 255, 255, 0, 7, 191])
    }

    /// A non-integer ratio weights the straddling pixel by the fraction inside each cell:
    /// 3 → 2 pixels, cell 0 = (1 · p0 + 0.5 · p1) / 1.5, cell 1 = (0.5 · p1 + 1 · p2) / 1.5.
    func testFractionalRatioWeightsStraddlingPixels() {
        let px: [UInt8] = [0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255]
        let out = boxDownscale(px, width: 3, height: 1, toWidth: 2, toHeight: 1)
        // (0 + 45) / 1.5 = 30; (45 + 180) / 1.5 = 150
        XCTAssertEqual(out, [30, 30, 30, 255, 150, 150, 150, 255])
    }

    func testWeightsSumToOneAndIdentityKeepsPixels() {
        for (m, n) in [(1170, 240), (7, 3), (5, 5), (2532, 519)] {
            for taps in boxWeights(from: m, to: n) {
                XCTAssertEqual(taps.reduce(0) { $0 + $1.1 }, 1, accuracy: 1e-5, "\(m)→\(n)")
            }
        }
        let px: [UInt8] = (0..<24).map { UInt8($0 * 10) }
        XCTAssertEqual(boxDownscale(px, width: 3, height: 2, toWidth: 3, toHeight: 2), px)
    }

    func testBitmapDownscaledKeepsSizeAndHash() {
        let b = Bitmap(width: 2, height: 2, pixels: [UInt8](repeating: 200, count: 16)).downscaled(toWidth: 1, height: 1)
        XCTAssertEqual(b.pixels, [200, 200, 200, 200])
        XCTAssertEqual(b.contentHash, Bitmap.hash(width: 1, height: 1, pixels: [200, 200, 200, 200]))
    }
}
