import XCTest
@testable import Raster

/// The lottie-ios pass rule (`PerceptualComparison`): published colour-science values for the
/// pieces, and hand-computed cases for the rule's consequences.
final class PerceptualDifferenceTests: XCTestCase {
    typealias P = PerceptualComparison
    typealias Lab = PerceptualComparison.Lab

    // MARK: - Published values

    /// colour-science, `colour.difference.delta_E_CIE1994` documentation example
    /// (https://colour.readthedocs.io/en/v0.4.4/generated/colour.difference.delta_E_CIE1994.html):
    /// Lab_1 = [100, 21.57210357, 272.22819350], Lab_2 = [100, 426.67945353, 72.39590835]
    /// → 83.7792255… with textiles = False (kL = kC = kH = 1, k1 = 0.045, k2 = 0.015).
    func testDeltaE94MatchesColourScienceExample() {
        let d = P.deltaE94(lab1: Lab(l: 100, a: 21.57210357, b: 272.22819350),
                           lab2: Lab(l: 100, a: 426.67945353, b: 72.39590835))
        XCTAssertEqual(d, 83.7792255, accuracy: 1e-6)
    }

    /// The Dart `delta_e` package's documentation (https://pub.dev/documentation/delta_e/latest, a
    /// port of zschuessler's DeltaE): deltaE94(LabColor(36, 60, 41), LabColor(100, 40, 90)) =
    /// 67.97917774753019 (graphic-arts weights).
    func testDeltaE94MatchesDeltaEPackageExample() {
        XCTAssertEqual(P.deltaE94(lab1: Lab(l: 36, a: 60, b: 41), lab2: Lab(l: 100, a: 40, b: 90)),
                       67.97917774753019, accuracy: 1e-9)
    }

    /// ΔE 1994 weights chroma by the reference's (the first argument's) chroma, so it is not
    /// symmetrical (colour-science's note on the same page); identical colours differ by 0.
    func testDeltaE94IsAsymmetricAndZeroForEqualColours() {
        let a = Lab(l: 36, a: 60, b: 41), b = Lab(l: 100, a: 40, b: 90)
        XCTAssertNotEqual(P.deltaE94(lab1: a, lab2: b), P.deltaE94(lab1: b, lab2: a), accuracy: 0.1)
        XCTAssertEqual(P.deltaE94(lab1: a, lab2: a), 0)
    }

    /// colour-science, `colour.XYZ_to_Lab` documentation example
    /// (https://colour.readthedocs.io/en/v0.4.3/generated/colour.XYZ_to_Lab.html):
    /// XYZ [0.20654008, 0.12197225, 0.05136952], illuminant D65 (xy 0.3127, 0.3290)
    /// → Lab [41.5278752, 52.6385830, 26.9231792].
    func testXYZToLabMatchesColourScienceExample() {
        let white = (x: 0.3127 / 0.3290, y: 1.0, z: (1 - 0.3127 - 0.3290) / 0.3290)
        let lab = P.lab(x: 0.20654008, y: 0.12197225, z: 0.05136952, white: white)
        XCTAssertEqual(lab.l, 41.5278752, accuracy: 1e-6)
        XCTAssertEqual(lab.a, 52.6385830, accuracy: 1e-6)
        XCTAssertEqual(lab.b, 26.9231792, accuracy: 1e-6)
    }

    /// sRGB red (255, 0, 0) in Lab D65: 53.237, 80.09, 67.203 (ColorAide's "Lab D65" page,
    /// https://facelessuser.github.io/coloraide/colors/lab_d65, derives its matrix from the
    /// primaries; Lindbloom's tabulated matrix gives L* 53.241, so 0.01 of tolerance). 0 and 255 are
    /// fixed points of the sRGB curve, so both transfers agree here.
    func testSRGBRedToLabMatchesPublishedValue() {
        for transfer in [P.Transfer.sRGB, .unmanaged] {
            let lab = P.lab(r: 255, g: 0, b: 0, transfer: transfer)
            XCTAssertEqual(lab.l, 53.237, accuracy: 0.01)
            XCTAssertEqual(lab.a, 80.09, accuracy: 0.01)
            XCTAssertEqual(lab.b, 67.203, accuracy: 0.01)
        }
    }

    /// The white point is the sRGB matrix's row sums: white is exactly L* 100 with no chroma, and
    /// every grey is neutral.
    func testWhiteBlackAndGreysAreNeutral() {
        let white = P.lab(r: 255, g: 255, b: 255)
        XCTAssertEqual(white.l, 100, accuracy: 1e-9); XCTAssertEqual(white.a, 0, accuracy: 1e-9); XCTAssertEqual(white.b, 0, accuracy: 1e-9)
        let black = P.lab(r: 0, g: 0, b: 0)
        XCTAssertEqual(black.l, 0, accuracy: 1e-9); XCTAssertEqual(black.a, 0, accuracy: 1e-9); XCTAssertEqual(black.b, 0, accuracy: 1e-9)
        for v: UInt8 in [1, 17, 128, 200] {
            let g = P.lab(r: v, g: v, b: v, transfer: .unmanaged)
            XCTAssertEqual(g.a, 0, accuracy: 1e-9); XCTAssertEqual(g.b, 0, accuracy: 1e-9)
        }
    }

    /// The libm-free cube root agrees with `cbrt` over the range Lab uses.
    func testCubeRootMatchesLibm() {
        var x = 216.0 / 24389.0
        while x < 4 {
            XCTAssertEqual(P.cubeRoot(x), cbrt(x), accuracy: cbrt(x) * 1e-13)
            x *= 1.013
        }
    }

    // MARK: - The rule's consequences, computed by hand

    /// Opaque black against (1, 1, 1): with the encoded values taken as linear (Core Image with
    /// colour management off), Y = 1/255 is below ε = 216/24389, so L* = κ·Y = (24389/27)/255 =
    /// 3.5423 > 3: one 8-bit step near black fails. Decoded by the sRGB curve first it would be
    /// Y = (1/255)/12.92, L* = 0.27417, which passes (why `.unmanaged` is the default).
    func testOneStepNearBlackFails() {
        let d = P.pixelDifference((0, 0, 0, 255), (1, 1, 1, 255))
        XCTAssertEqual(d, 3.542338, accuracy: 1e-5)
        XCTAssertGreaterThan(d, 3)
        XCTAssertEqual(P.pixelDifference((0, 0, 0, 255), (1, 1, 1, 255), transfer: .sRGB), 0.274175, accuracy: 1e-5)
    }

    /// Grey 128 against 129 (opaque): Y = 128/255 and 129/255, L* = 116·∛Y − 16, so
    /// ΔE = 116·(∛(129/255) − ∛(128/255)) = 116·(0.796795 − 0.794731) = 0.23945 (no chroma): passes.
    func testOneStepInMidGreyPasses() {
        let d = P.pixelDifference((128, 128, 128, 255), (129, 129, 129, 255))
        XCTAssertEqual(d, 0.23945, accuracy: 1e-4)
        XCTAssertLessThanOrEqual(d, 3)
    }

    /// Transparent against opaque black: over black both are black (0), over white the transparent
    /// pixel is white (L* 100) and the other black (L* 0): ΔE 100, fails. A transparent pixel is
    /// transparent whatever its colour bytes (straight alpha): 0 against another transparent one.
    func testTransparentMatchesOnlyTransparent() {
        XCTAssertEqual(P.pixelDifference((0, 0, 0, 0), (0, 0, 0, 255)), 100, accuracy: 1e-9)
        XCTAssertEqual(P.pixelDifference((0, 0, 0, 0), (255, 255, 255, 255)), 100, accuracy: 1e-9, "over black")
        XCTAssertEqual(P.pixelDifference((12, 200, 7, 0), (0, 0, 0, 0)), 0)
        let r = P.compare(Bitmap(width: 1, height: 1, pixels: [0, 0, 0, 0]), Bitmap(width: 1, height: 1, pixels: [0, 0, 0, 255]))
        XCTAssertEqual(r.failingPixels, 1)
        XCTAssertEqual(r.maxDeltaE, 100, accuracy: 1e-9)
        XCTAssertFalse(r.passes())
    }

    /// White at alpha 1/255 (straight) against transparent: over white both are white; over black
    /// it is 1/255 against 0, L* = κ/255 = 3.5423 as above: fails. One step near transparent.
    func testOneStepNearTransparentFails() {
        let d = P.pixelDifference((255, 255, 255, 1), (0, 0, 0, 0))
        XCTAssertEqual(d, 3.542338, accuracy: 1e-5)
    }

    /// The larger of the two composites counts: black at alpha 128 against black at alpha 150 is
    /// black over black (0) but over white 1 − 128/255 against 1 − 150/255:
    /// 116·(∛0.501961 − ∛0.411765) = 116·(0.794731 − 0.744030) = 5.649 (no chroma): fails.
    func testLargerOfWhiteAndBlackComposites() {
        XCTAssertEqual(P.pixelDifference((0, 0, 0, 128), (0, 0, 0, 150)), 5.6494, accuracy: 1e-3)
    }

    /// A `Bitmap` is premultiplied: (128, 0, 0, 128) there is (255, 0, 0, 128) straight
    /// (255·128/255 = 128), the same composites: no difference. Compared as if both were straight,
    /// they would differ.
    func testPremultipliedAndStraightAgree() {
        let premultiplied = P.Pixels(Bitmap(width: 1, height: 1, pixels: [128, 0, 0, 128]))
        let straight = P.Pixels(width: 1, height: 1, bytes: [255, 0, 0, 128], alpha: .straight)
        let r = P.compare(premultiplied, straight)
        XCTAssertEqual(r.differingPixels, 1)
        XCTAssertEqual(r.maxDeltaE, 0, accuracy: 1e-9)
        XCTAssertEqual(r.failingPixels, 0)
        XCTAssertGreaterThan(P.pixelDifference((128, 0, 0, 128), (255, 0, 0, 128), alpha: .straight), 3)
    }

    // MARK: - Whole images

    private func grey(_ w: Int, _ h: Int, _ v: UInt8 = 128) -> [UInt8] {
        (0..<(w * h)).flatMap { _ in [v, v, v, 255] }
    }

    func testIdenticalImagesHaveNoFailingPixels() {
        var px = grey(37, 5)
        for i in stride(from: 0, to: px.count, by: 4) { px[i] = UInt8(i % 256); px[i + 3] = UInt8((i / 4) % 256) }
        let a = Bitmap(width: 37, height: 5, pixels: px)
        let r = P.compare(a, Bitmap(width: 37, height: 5, pixels: px), recordDeltaE: true)
        XCTAssertEqual(r.totalPixels, 185)
        XCTAssertEqual(r.failingPixels, 0)
        XCTAssertEqual(r.differingPixels, 0)
        XCTAssertEqual(r.maxDeltaE, 0)
        XCTAssertNil(r.failingBounds)
        XCTAssertEqual(r.passingShare, 1)
        XCTAssertTrue(r.passes(precision: 1))
        XCTAssertEqual(r.deltaE, [Float](repeating: 0, count: 185))
    }

    func testSizeMismatchIsAResultNotACrash() {
        let r = P.compare(Bitmap(width: 10, height: 10, pixels: grey(10, 10)), Bitmap(width: 10, height: 9, pixels: grey(10, 9)))
        XCTAssertEqual(r.sizeMismatch?.reference, .init(width: 10, height: 10))
        XCTAssertEqual(r.sizeMismatch?.candidate, .init(width: 10, height: 9))
        XCTAssertEqual(r.passingShare, 0)
        XCTAssertFalse(r.passes(precision: 0))
        XCTAssertNil(P.heatMap(r))
    }

    /// Three pixels of a 10×10 grey-128 image turned grey 200, at (2, 3), (7, 3) and (4, 8):
    /// 97 of 100 pass (share 0.97: passes at 0.97, not at 0.985), the box spans x 2…7, y 3…8.
    /// One pixel turned 129 differs but passes (0.239, above).
    func testShareAndBoundingBoxOfAThreePixelChange() throws {
        let base = grey(10, 10)
        var changed = base
        for (x, y) in [(2, 3), (7, 3), (4, 8)] { for c in 0..<3 { changed[(y * 10 + x) * 4 + c] = 200 } }
        for c in 0..<3 { changed[(9 * 10 + 9) * 4 + c] = 129 }
        let r = P.compare(Bitmap(width: 10, height: 10, pixels: base), Bitmap(width: 10, height: 10, pixels: changed), recordDeltaE: true)
        XCTAssertNil(r.sizeMismatch)
        XCTAssertEqual(r.totalPixels, 100)
        XCTAssertEqual(r.differingPixels, 4)
        XCTAssertEqual(r.failingPixels, 3)
        XCTAssertEqual(r.passingShare, 0.97)
        XCTAssertTrue(r.passes(precision: 0.97))
        XCTAssertFalse(r.passes())
        XCTAssertEqual(r.failingBounds, P.PixelRect(x: 2, y: 3, width: 6, height: 6))
        XCTAssertEqual(r.deltaE.filter { $0 > 3 }.count, 3)
        XCTAssertGreaterThan(r.deltaE[3 * 10 + 2], 3)
        XCTAssertEqual(r.deltaE[99], 0.23945, accuracy: 1e-3)
        XCTAssertEqual(Double(r.deltaE[3 * 10 + 2]), r.maxDeltaE, accuracy: 1e-4)
        // The heat map: failing pixels red, passing differences blue, equal pixels black.
        let heat = try XCTUnwrap(P.heatMap(r))
        XCTAssertEqual(heat.width, 10)
        XCTAssertEqual(heat.pixels[(3 * 10 + 2) * 4], 255)
        XCTAssertEqual(heat.pixels[99 * 4], 0); XCTAssertGreaterThan(heat.pixels[99 * 4 + 2], 0)
        XCTAssertEqual(Array(heat.pixels[0..<4]), [0, 0, 0, 255])
        // Without the map the counts are the same and the map is empty.
        let plain = P.compare(Bitmap(width: 10, height: 10, pixels: base), Bitmap(width: 10, height: 10, pixels: changed))
        XCTAssertEqual(plain.failingPixels, 3)
        XCTAssertTrue(plain.deltaE.isEmpty)
    }

    /// The threshold is inclusive and adjustable: the near-black step (3.5423) passes at 3.6.
    func testPixelThresholdParameter() {
        let a = Bitmap(width: 1, height: 1, pixels: [0, 0, 0, 255]), b = Bitmap(width: 1, height: 1, pixels: [1, 1, 1, 255])
        XCTAssertEqual(P.compare(a, b).failingPixels, 1)
        XCTAssertEqual(P.compare(a, b, pixelThreshold: 3.6).failingPixels, 0)
        XCTAssertEqual(P.compare(a, b, transfer: .sRGB).failingPixels, 0)
    }

    /// The 16-byte fast path and the per-pixel tail agree: a difference in each position of a
    /// row whose width is not a multiple of 4 is found.
    func testEveryPositionOfARowIsCompared() {
        let w = 7
        let base = grey(w, 2)
        for x in 0..<w {
            var changed = base
            changed[(w + x) * 4] = 0
            let r = P.compare(Bitmap(width: w, height: 2, pixels: base), Bitmap(width: w, height: 2, pixels: changed))
            XCTAssertEqual(r.failingPixels, 1, "x = \(x)")
            XCTAssertEqual(r.failingBounds, P.PixelRect(x: x, y: 1, width: 1, height: 1))
        }
    }
}
