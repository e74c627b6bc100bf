import Foundation
import XCTest

/// Every compositingFilter rendered on lavapipe over known colours, against the W3C Compositing
/// and Blending Level 1 formulas computed here by hand (`W3C` below, written from the spec's text),
/// for opaque and half-transparent sources and destinations.
///
/// Each scene (20×8 pt, transparent canvas) holds a destination layer over the whole canvas and
/// two source layers with the mode: A at x 0–8, one draw (a blend state applies to it directly);
/// B at x 8–16, a container whose two halves are two colours (flattened first). x 16–20 is the
/// destination alone, which no mode may touch.
///
/// Tolerance: 1/255 per channel. The inputs are 8-bit values (colours k/255, alphas 1, 0.6 = 153/255
/// and 0.4 = 102/255; the premultiplied colours the targets store are rounded to 8 bits, and the
/// expected values take those stored values as their inputs, as the W3C formulas would see
/// them; no input is a rounding tie), so what remains is the result's own rounding to 8 bits plus
/// float arithmetic.
final class CompositingFilterReftests: ReftestCase {
    /// Straight colours as 8-bit values.
    static let source1: [Double] = [204, 102, 52]
    static let source2: [Double] = [52, 154, 230]
    static let backdrop: [Double] = [78, 178, 128]

    func scene(_ mode: String, sourceAlpha: Double, backdropAlpha: Double) -> String {
        func color(_ c: [Double], _ a: Double) -> String { "[\(c[0] / 255), \(c[1] / 255), \(c[2] / 255), \(a)]" }
        return scene(20, 8, background: "null", """
            {"frame": [0, 0, 20, 8], "backgroundColor": \(color(Self.backdrop, backdropAlpha))},
            {"frame": [0, 0, 8, 8], "backgroundColor": \(color(Self.source1, sourceAlpha)), "compositingFilter": "\(mode)"},
            {"frame": [8, 0, 8, 8], "compositingFilter": "\(mode)", "sublayers": [
                {"frame": [0, 0, 4, 8], "backgroundColor": \(color(Self.source1, sourceAlpha))},
                {"frame": [4, 0, 4, 8], "backgroundColor": \(color(Self.source2, sourceAlpha))}]}
            """)
    }

    /// A premultiplied colour as the 8-bit target stores it, in 0…1.
    static func stored(_ c: [Double], _ a: Double) -> (c: [Double], a: Double) {
        let q = { (v: Double) in (v * 255).rounded() / 255 }
        return (c.map { q($0 / 255 * a) }, q(a))
    }

    func check(_ mode: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for (sa, ba) in [(1.0, 1.0), (0.6, 1.0), (1.0, 0.4), (0.6, 0.4)] {
            let img = try render(scene(mode, sourceAlpha: sa, backdropAlpha: ba))
            let b = Self.stored(Self.backdrop, ba)
            for (x, source) in [(2, Self.source1), (10, Self.source1), (14, Self.source2)] {
                let s = Self.stored(source, sa)
                let (co, ao) = W3C.composite(mode, cs: s.c, αs: s.a, cb: b.c, αb: b.a)
                let expected = (co + [ao]).map { Int(($0 * 255).rounded()) }
                let p = img.pixel(x, 4)
                XCTAssertTrue(zip(p, expected).allSatisfy { abs($0 - $1) <= 1 },
                              "\(mode) αs \(sa) αb \(ba) at x \(x): \(p), expected \(expected) ±1", file: file, line: line)
            }
            let untouched = (b.c + [b.a]).map { Int(($0 * 255).rounded()) }
            XCTAssertEqual(img.pixel(18, 4), untouched, "\(mode): beyond the layers the destination stays", file: file, line: line)
        }
    }

    func testMultiply() throws { try check("multiplyBlendMode") }
    func testScreen() throws { try check("screenBlendMode") }
    func testOverlay() throws { try check("overlayBlendMode") }
    func testDarken() throws { try check("darkenBlendMode") }
    func testLighten() throws { try check("lightenBlendMode") }
    func testColorDodge() throws { try check("colorDodgeBlendMode") }
    func testColorBurn() throws { try check("colorBurnBlendMode") }
    func testSoftLight() throws { try check("softLightBlendMode") }
    func testHardLight() throws { try check("hardLightBlendMode") }
    func testDifference() throws { try check("differenceBlendMode") }
    func testExclusion() throws { try check("exclusionBlendMode") }
    func testHue() throws { try check("hueBlendMode") }
    func testSaturation() throws { try check("saturationBlendMode") }
    func testColor() throws { try check("colorBlendMode") }
    func testLuminosity() throws { try check("luminosityBlendMode") }
    func testSourceAtop() throws { try check("sourceAtop") }
    func testSourceIn() throws { try check("sourceIn") }
    func testSourceOut() throws { try check("sourceOut") }
    func testDestinationOver() throws { try check("destinationOver") }
    func testDestinationIn() throws { try check("destinationIn") }
    func testDestinationOut() throws { try check("destinationOut") }
    func testXor() throws { try check("xor") }
    func testPlusLighter() throws { try check("plusL") }
    func testPlusDarker() throws { try check("plusD") }
    func testLinearBurn() throws { try check("linearBurnBlendMode") }
    func testLinearDodge() throws { try check("linearDodgeBlendMode") }
    func testLinearLight() throws { try check("linearLightBlendMode") }
    func testPinLight() throws { try check("pinLightBlendMode") }
    func testVividLight() throws { try check("vividLightBlendMode") }
    func testSubtract() throws { try check("subtractBlendMode") }
    func testDivide() throws { try check("divideBlendMode") }

    /// The further modes at their branch points and edges, rendered: an opaque grey source (cs)
    /// over an opaque grey backdrop (cb), both 8-bit, so the pixel is B(cb, cs) itself; expected
    /// values worked by hand in 0…255 (±1 for the result's rounding).
    func testCoreImageModesAtTheirEdges() throws {
        let cases: [(String, Double, Double, Int)] = [
            ("linearLightBlendMode", 128, 64, 1),      // 128 + 2·64 − 255 = 1 (the burn half)
            ("linearLightBlendMode", 128, 192, 255),   // 128 + 384 − 255 = 257, clamped (the dodge half)
            ("linearLightBlendMode", 77, 153, 128),    // 77 + 306 − 255
            ("linearBurnBlendMode", 77, 102, 0),       // 77 + 102 − 255 < 0
            ("linearDodgeBlendMode", 77, 102, 179),
            ("pinLightBlendMode", 153, 51, 102),       // min(153, 2·51)
            ("pinLightBlendMode", 51, 204, 153),       // max(51, 2·204 − 255)
            ("vividLightBlendMode", 128, 64, 2),       // burn: 255·(1 − (127/255)/(128/255)) = 1.99
            ("vividLightBlendMode", 64, 192, 130),     // dodge: 255·(64/255)/(1 − 129/255) = 129.5
            ("subtractBlendMode", 77, 128, 0),
            ("divideBlendMode", 51, 204, 64),          // 255·51/204 = 63.75
            ("divideBlendMode", 51, 0, 255),           // by zero: white
            ("divideBlendMode", 0, 0, 0),              // 0/0: black
        ]
        for (mode, cb, cs, expected) in cases {
            let img = try render(scene(2, 2, background: "null", """
                {"frame": [0, 0, 2, 2], "backgroundColor": [\(cb / 255), \(cb / 255), \(cb / 255), 1]},
                {"frame": [0, 0, 2, 2], "backgroundColor": [\(cs / 255), \(cs / 255), \(cs / 255), 1], "compositingFilter": "\(mode)"}
                """))
            let p = img.pixel(1, 1)
            XCTAssertTrue(p[0...2].allSatisfy { abs(Int($0) - expected) <= 1 } && p[3] == 255,
                          "\(mode) cb \(cb) cs \(cs): \(p), expected \(expected) ±1")
        }
    }

    /// A full-screen blend takes what lies beneath off the canvas (it is drawn once, as the
    /// destination): the result is the same formula, over the translucent stack beneath.
    func testAFullScreenBlendOverAStack() throws {
        let img = try render(scene(8, 8, background: "null", """
            {"frame": [0, 0, 8, 8], "backgroundColor": [\(78.0 / 255), \(178.0 / 255), \(128.0 / 255), 0.4]},
            {"frame": [0, 0, 8, 8], "backgroundColor": [\(204.0 / 255), \(102.0 / 255), \(52.0 / 255), 0.6], "compositingFilter": "softLightBlendMode"}
            """))
        let b = Self.stored(Self.backdrop, 0.4), s = Self.stored(Self.source1, 0.6)
        let (co, ao) = W3C.composite("softLightBlendMode", cs: s.c, αs: s.a, cb: b.c, αb: b.a)
        assertPixel(img, 3, 3, (co + [ao]).map { Int(($0 * 255).rounded()) })
    }

    /// Two full-screen blends over the canvas background: the second takes the first's result off
    /// the canvas, and the first still blends with the background.
    func testStackedFullScreenBlendsReadTheCanvasBackground() throws {
        let img = try render(scene(4, 4, background: "[0.4, 0.6, 0.8, 1]", """
            {"frame": [0, 0, 4, 4], "backgroundColor": [0.6, 0.4, 0.2, 1], "compositingFilter": "multiplyBlendMode"},
            {"frame": [0, 0, 4, 4], "backgroundColor": [0.8, 0.8, 0.4, 1], "compositingFilter": "multiplyBlendMode"}
            """))
        // Opaque multiply is Cb·Cs on 8-bit values: 102·153, 153·102, 204·51 over 255 round to 61, 61,
        // 41 (stored), then 61·204, 61·204, 41·102 over 255 round to 49, 49, 16.
        assertPixel(img, 1, 1, [49, 49, 16, 255])
    }

    /// A blend mode on an opaque canvas background blends with it where nothing else lies beneath.
    func testABlendModeReadsTheCanvasBackground() throws {
        let img = try render(scene(4, 4, background: "[0.4, 0.6, 0.8, 1]", """
            {"frame": [0, 0, 4, 4], "backgroundColor": [0.6, 0.4, 0.2, 1], "compositingFilter": "multiplyBlendMode"}
            """))
        // 8-bit inputs 153·102, 102·153, 204·51 over 255: multiply of opaque colours is Cb·Cs.
        assertPixel(img, 1, 1, [Int((153.0 * 102 / 255).rounded()), Int((102.0 * 153 / 255).rounded()),
                                Int((204.0 * 51 / 255).rounded()), 255])
    }
}

/// W3C Compositing and Blending Level 1, written from the spec's text (§5.8 general formula,
/// §9.1 Porter-Duff, §10 blend modes) and Apple's CGBlendMode documentation for plus lighter /
/// plus darker. Colours in 0…1; `cs`, `cb` premultiplied, as the spec's co/cs/cb.
enum W3C {
    static func composite(_ mode: String, cs: [Double], αs: Double, cb: [Double], αb: Double) -> ([Double], Double) {
        let αo = αs + αb * (1 - αs)
        switch mode {
        case "plusL":
            // kCGBlendModePlusLighter: R = MIN(1, S + D), on premultiplied components and alpha.
            return (zip(cs, cb).map { min(1, $0 + $1) }, min(1, αs + αb))
        case "plusD":
            // kCGBlendModePlusDarker: R = MAX(0, 1 − ((1 − D) + (1 − S))); with translucency the
            // 1 is the result's alpha αo (caprof's documented reading).
            return (zip(cs, cb).map { max(0, αo - ((αs - $0) + (αb - $1))) }, αo)
        default: break
        }
        if let (fa, fb) = porterDuff(mode, αs: αs, αb: αb) {
            // co = αs·Fa·Cs + αb·Fb·Cb = cs·Fa + cb·Fb; αo = αs·Fa + αb·Fb.
            return (zip(cs, cb).map { $0 * fa + $1 * fb }, αs * fa + αb * fb)
        }
        // §5.8: Cs' = (1 − αb)·Cs + αb·B(Cb, Cs) on the non-premultiplied colours, then source-over:
        // co = αs·Cs' + cb·(1 − αs).
        let Cs = αs > 0 ? cs.map { $0 / αs } : [0, 0, 0]
        let Cb = αb > 0 ? cb.map { $0 / αb } : [0, 0, 0]
        let B = blend(mode, Cb, Cs)
        let mixed = (0..<3).map { (1 - αb) * Cs[$0] + αb * B[$0] }
        return ((0..<3).map { αs * mixed[$0] + cb[$0] * (1 - αs) }, αo)
    }

    /// §9.1's table.
    static func porterDuff(_ mode: String, αs: Double, αb: Double) -> (Double, Double)? {
        switch mode {
        case "sourceAtop": return (αb, 1 - αs)
        case "sourceIn": return (αb, 0)
        case "sourceOut": return (1 - αb, 0)
        case "destinationOver": return (1 - αb, 1)
        case "destinationIn": return (0, αs)
        case "destinationOut": return (0, 1 - αs)
        case "xor": return (1 - αb, 1 - αs)
        default: return nil
        }
    }

    static func blend(_ mode: String, _ Cb: [Double], _ Cs: [Double]) -> [Double] {
        func each(_ f: (Double, Double) -> Double) -> [Double] { (0..<3).map { f(Cb[$0], Cs[$0]) } }
        switch mode {
        case "multiplyBlendMode": return each { b, s in b * s }
        case "screenBlendMode": return each(screen)
        case "overlayBlendMode": return each { b, s in hardLight(s, b) }
        case "darkenBlendMode": return each { b, s in min(b, s) }
        case "lightenBlendMode": return each { b, s in max(b, s) }
        case "colorDodgeBlendMode":
            return each { b, s in b == 0 ? 0 : s == 1 ? 1 : min(1, b / (1 - s)) }
        case "colorBurnBlendMode":
            return each { b, s in b == 1 ? 1 : s == 0 ? 0 : 1 - min(1, (1 - b) / s) }
        case "hardLightBlendMode": return each(hardLight)
        case "softLightBlendMode":
            return each { b, s in
                if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
                let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
                return b + (2 * s - 1) * (d - b)
            }
        case "differenceBlendMode": return each { b, s in abs(b - s) }
        case "exclusionBlendMode": return each { b, s in b + s - 2 * b * s }
        case "hueBlendMode": return setLum(setSat(Cs, sat(Cb)), lum(Cb))
        case "saturationBlendMode": return setLum(setSat(Cb, sat(Cs)), lum(Cb))
        case "colorBlendMode": return setLum(Cs, lum(Cb))
        case "luminosityBlendMode": return setLum(Cb, lum(Cs))
        // Core Image's modes, as the common (Photoshop) definitions read (not W3C's).
        case "linearBurnBlendMode": return each { b, s in max(0, b + s - 1) }
        case "linearDodgeBlendMode": return each { b, s in min(1, b + s) }
        case "linearLightBlendMode": return each { b, s in min(1, max(0, b + 2 * s - 1)) }
        case "pinLightBlendMode": return each { b, s in s <= 0.5 ? min(b, 2 * s) : max(b, 2 * s - 1) }
        case "vividLightBlendMode":
            return each { b, s in
                s <= 0.5 ? (b == 1 ? 1 : s == 0 ? 0 : 1 - min(1, (1 - b) / (2 * s)))
                         : (b == 0 ? 0 : s == 1 ? 1 : min(1, b / (1 - (2 * s - 1))))
            }
        case "subtractBlendMode": return each { b, s in max(0, b - s) }
        case "divideBlendMode": return each { b, s in b == 0 ? 0 : s == 0 ? 1 : min(1, b / s) }
        default: fatalError("not a blend mode: \(mode)")
        }
    }

    static func screen(_ b: Double, _ s: Double) -> Double { b + s - b * s }
    static func hardLight(_ b: Double, _ s: Double) -> Double { s <= 0.5 ? b * 2 * s : screen(b, 2 * s - 1) }

    // §10.2, as the spec's pseudo-code.
    static func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
    static func clipColor(_ c: [Double]) -> [Double] {
        let l = lum(c), n = c.min()!, x = c.max()!
        var c = c
        if n < 0 { c = c.map { l + (($0 - l) * l) / (l - n) } }
        if x > 1 { c = c.map { l + (($0 - l) * (1 - l)) / (x - l) } }
        return c
    }
    static func setLum(_ c: [Double], _ l: Double) -> [Double] {
        let d = l - lum(c)
        return clipColor(c.map { $0 + d })
    }
    static func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }
    /// Cmax, Cmid, Cmin by index, as the spec names them.
    static func setSat(_ c: [Double], _ s: Double) -> [Double] {
        let order = [0, 1, 2].sorted { c[$0] < c[$1] }
        let (iMin, iMid, iMax) = (order[0], order[1], order[2])
        var out = c
        if c[iMax] > c[iMin] {
            out[iMid] = ((c[iMid] - c[iMin]) * s) / (c[iMax] - c[iMin])
            out[iMax] = s
        } else {
            out[iMid] = 0
            out[iMax] = 0
        }
        out[iMin] = 0
        return out
    }
}
