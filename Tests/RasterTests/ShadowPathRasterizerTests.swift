import Foundation
import Geometry
@testable import Raster
import XCTest

/// The CPU blur of shadowPath shadows: its kernel, its skipping of constant runs against a plain
/// convolution, and the rasterised shadow against hand-computed values.
final class ShadowPathRasterizerTests: XCTestCase {
    /// Taps at −⌈3σ⌉…⌈3σ⌉, symmetric, summing to 1, in the ratio exp(−k²/2σ²).
    /// A path scaled below what cairo can invert (10⁻³⁰⁰ a side: "invalid matrix", which failed the
    /// whole frame) covers no texel: a transparent bitmap of the size asked for.
    func testAPathScaledBeyondCairosMatrixIsTransparent() throws {
        var shape = ShapeRasterJob(fillPath: .rect(Rect(0, 0, 40, 30)), strokePath: Path(), pixelWidth: 8, pixelHeight: 6)
        shape.fill = [1, 1, 1, 1]
        shape.scaleX = 1e-300; shape.scaleY = 1e-300
        let b = try ShapeRasterizer.rasterize(shape, key: 1)
        XCTAssertEqual([b.width, b.height], [8, 6])
        XCTAssertTrue(b.pixels.allSatisfy { $0 == 0 })
        var job = ShadowPathRasterJob(path: .rect(Rect(0, 0, 40, 30)), color: [0, 0, 0, 1], sigmaX: 0, sigmaY: 0, pixelWidth: 8, pixelHeight: 6)
        job.scaleX = 1e-300; job.scaleY = 1e-300
        XCTAssertTrue(try ShadowPathRasterizer.rasterize(job, key: 2).pixels.allSatisfy { $0 == 0 })
    }

    /// A σ whose square underflows (10⁻³⁰⁰) is no blur, not 0/0: the kernel is [0, 1, 0] and the
    /// rasterised shadow has no NaN to convert (it trapped).
    func testAVanishingSigmaIsTheIdentity() throws {
        XCTAssertEqual(GaussianBlur.kernel(sigma: 1e-300), [0, 1, 0])
        var image: [Float] = [0, 1, 0.5, 0]
        GaussianBlur.blur(&image, width: 4, height: 1, sigmaX: 1e-300, sigmaY: 1e-300)
        XCTAssertEqual(image, [0, 1, 0.5, 0])
    }

    func testTheKernelIsTheNormalisedSampledGaussianOutToThreeSigma() {
        let k = GaussianBlur.kernel(sigma: 2)
        XCTAssertEqual(k.count, 13)
        XCTAssertEqual(k.reduce(0, +), 1, accuracy: 1e-6)
        for i in 0..<6 { XCTAssertEqual(k[i], k[12 - i]) }
        XCTAssertEqual(Double(k[7] / k[6]), exp(-1.0 / 8), accuracy: 1e-6)
        XCTAssertEqual(GaussianBlur.kernel(sigma: 0), [1])
        XCTAssertEqual(GaussianBlur.kernel(sigma: 0.1).count, 3)   // ⌈0.3⌉ = 1
    }

    /// Coverage made of runs of 0 and 1 with a few fractional texels, blurred with the constant
    /// runs skipped, equals the direct convolution (zero beyond the image) at every texel.
    func testSkippingConstantRunsGivesTheDirectConvolution() {
        // A fixed pattern per row (Knuth's multiplicative hash of the row), so failures reproduce.
        func r(_ y: Int, _ k: Int) -> Int { Int((UInt32(truncatingIfNeeded: y * 4 + k) &* 2_654_435_761) >> 16) }
        let w = 97, h = 61
        var image = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            // A filled span per row, with an antialiased texel at each end, and a hole sometimes.
            let a = r(y, 0) % 40, b = a + 10 + r(y, 1) % 50
            for x in a..<min(b, w) { image[y * w + x] = 1 }
            if a > 0 { image[y * w + a - 1] = Float(r(y, 2) % 256) / 255 }
            if b < w { image[y * w + b] = Float(r(y, 3) % 256) / 255 }
            if y % 7 == 3 { image[y * w + a + 5] = 0 }
        }
        for (sx, sy) in [(1.5, 1.5), (4.0, 2.5), (0.0, 3.0)] {
            var fast = image
            GaussianBlur.blur(&fast, width: w, height: h, sigmaX: sx, sigmaY: sy)
            let slow = direct(direct(image, w, h, sx, horizontal: true), w, h, sy, horizontal: false)
            for i in 0..<(w * h) {
                XCTAssertEqual(fast[i], slow[i], accuracy: 1e-5, "σ \(sx)×\(sy) texel \(i % w), \(i / w)")
            }
        }
    }

    /// A half-plane of coverage 1 blurred by σ: one texel inside the edge the value is the share of
    /// the kernel at k ≤ 0, 0.5 + w₀/2 (hand computation from the sampled weights); far inside 1,
    /// far outside 0. The colour multiplies it once: black at opacity 1 gives alpha 255 · value.
    func testAHalfPlaneShadowRisesAcrossItsEdge() throws {
        // The path covers x ≥ 20 of a 60 × 8 bitmap (1 point = 1 texel).
        let path = Path.rect(Rect(20, -10, 100, 30))
        let job = ShadowPathRasterJob(path: path, color: [0, 0, 0, 1], sigmaX: 3, sigmaY: 0, pixelWidth: 60, pixelHeight: 8)
        let bitmap = try ShadowPathRasterizer.rasterize(job, key: 1)
        let k = GaussianBlur.kernel(sigma: 3)
        let half = k[0...9].reduce(0, +)   // texel 20 reads texels 11…29: taps k = 0…9 fall inside, by symmetry k[0...9]
        func alpha(_ x: Int) -> Int { Int(bitmap.pixels[(4 * 60 + x) * 4 + 3]) }
        XCTAssertEqual(alpha(20), Int((half * 255).rounded()))
        XCTAssertEqual(Double(half), 0.5 + Double(k[9]) / 2, accuracy: 1e-6)
        XCTAssertEqual(alpha(45), 255, "deep inside")
        XCTAssertEqual(alpha(5), 0, "beyond 3σ outside")
        XCTAssertEqual(bitmap.pixels[(4 * 60 + 45) * 4], 0, "black")
    }

    /// The plain convolution the fast path must equal.
    private func direct(_ a: [Float], _ w: Int, _ h: Int, _ sigma: Double, horizontal: Bool) -> [Float] {
        let k = GaussianBlur.kernel(sigma: sigma), r = k.count / 2
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var s: Float = 0
                for j in -r...r {
                    let (xx, yy) = horizontal ? (x + j, y) : (x, y + j)
                    if xx >= 0, xx < w, yy >= 0, yy < h { s += k[j + r] * a[yy * w + xx] }
                }
                out[y * w + x] = s
            }
        }
        return out
    }
}
