import Foundation
import Raster
import XCTest

/// minificationFilter = trilinear on a 1-pixel checkerboard, against hand-computed pixels.
///
/// The image: 64×64, opaque, texel (x, y) white where x + y is even, else black. Every mip level
/// from 1 down averages 2×2 blocks holding two white and two black texels, so levels ≥ 1 are a
/// uniform 50 % grey (127.5, stored as 127 or 128 by the blits' rounding): trilinear sampling of any
/// minification ≥ 2× must give grey everywhere. Bilinear reads only level 0, so its result depends
/// on where each pixel centre lands between four texels: aliasing.
final class TrilinearReftests: ReftestCase {
    static let checkerPath: String = {
        var px = [UInt8](repeating: 255, count: 64 * 64 * 4)
        for y in 0..<64 { for x in 0..<64 where (x + y) % 2 == 1 {
            let i = (y * 64 + x) * 4
            px[i] = 0; px[i + 1] = 0; px[i + 2] = 0
        } }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("caprof-reftest-checker1px-\(getpid()).png").path
        try! PNGCodec.write(premultiplied: px, width: 64, height: 64, to: path)
        return path
    }()

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: checkerPath)
        super.tearDown()
    }

    /// The checker in a side×side layer at the canvas origin (1×, contentsScale 1).
    func checkerScene(side: Int, filter: String) -> String {
        scene(side, side, #"{"frame": [0, 0, \#(side), \#(side)], "contents": "\#(Self.checkerPath)", "contentsScale": 1, "minificationFilter": "\#(filter)"}"#)
    }

    func range(_ img: Image) -> ClosedRange<Int> {
        var lo = 255, hi = 0
        for y in 0..<img.height { for x in 0..<img.width {
            let p = img.pixel(x, y)
            XCTAssertEqual(p[0], p[1]); XCTAssertEqual(p[1], p[2]); XCTAssertEqual(p[3], 255)
            lo = min(lo, p[0]); hi = max(hi, p[0])
        } }
        return lo...hi
    }

    func testTrilinearMinificationBy8AveragesTheCheckerToGrey() throws {
        // 64 texels onto 8 pixels: level of detail log2(8) = 3; level 3 (8×8) texel centres fall on
        // the pixel centres, each the mean of an 8×8 block = 32 white + 32 black = 127.5.
        let img = try render(checkerScene(side: 8, filter: "trilinear"))
        for y in 0..<8 { for x in 0..<8 { assertPixel(img, x, y, [128, 128, 128, 255], tolerance: 2) } }
    }

    func testTrilinearMinificationBy7_1IsGreyWhereBilinearAliases() throws {
        // 64 texels onto 9 pixels (7.1×). Bilinear: pixel centre i + 0.5 lands at texel coordinate
        // (i + 0.5) · 64/9, e.g. 3.556 for i = 0, which is 0.056 past texel 3's centre on both axes:
        // white weight (1 − 0.056)² + 0.056² = 0.894 → ≈ 228 at (0, 0); elsewhere the fractions
        // differ, so values swing between near-black and near-white (on lavapipe: 26…229; row 0 reads
        // 229, 52, 178, 103, 128, 152, 77, 203, 26, a moiré of the checker).
        let bilinear = try render(checkerScene(side: 9, filter: "linear"))
        let b = range(bilinear)
        assertPixel(bilinear, 0, 0, [228, 228, 228, 255], tolerance: 4)
        XCTAssertGreaterThan(b.upperBound - b.lowerBound, 150, "bilinear aliases the checker: values \(b)")
        // Trilinear: level of detail log2(7.1) = 2.83, between levels 2 and 3, both uniform grey.
        let trilinear = try render(checkerScene(side: 9, filter: "trilinear"))
        let t = range(trilinear)
        XCTAssertGreaterThanOrEqual(t.lowerBound, 125, "trilinear values \(t)")
        XCTAssertLessThanOrEqual(t.upperBound, 130, "trilinear values \(t)")
    }

    func testExact8xBilinearHappensToSampleTexelCorners() throws {
        // Documents why the contrast above uses 7.1×: at exactly 8× every pixel centre maps to an
        // integer texel coordinate (8i + 4), the corner of four texels (two white, two black), so
        // bilinear also gives 127.5 there; it is aliasing all the same, as 7.1× shows.
        let img = try render(checkerScene(side: 8, filter: "linear"))
        let r = range(img)
        XCTAssertGreaterThanOrEqual(r.lowerBound, 125, "\(r)")
        XCTAssertLessThanOrEqual(r.upperBound, 130, "\(r)")
    }

    func testTrilinearAtOneToOneEqualsTheImage() throws {
        // Not minified on the pixel grid: the plan draws it with texelFetch, exactly.
        let img = try render(checkerScene(side: 64, filter: "trilinear"))
        assertPixel(img, 0, 0, [255, 255, 255, 255], tolerance: 0)
        assertPixel(img, 1, 0, [0, 0, 0, 255], tolerance: 0)
        assertPixel(img, 63, 63, [255, 255, 255, 255], tolerance: 0)
    }
}
