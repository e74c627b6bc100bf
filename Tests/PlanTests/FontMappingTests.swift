import XCTest
import Geometry
import LayerModel
@testable import Plan

/// The documented Apple-name → installed-family table, and substitution warnings once per font.
final class FontMappingTests: XCTestCase {
    func testAppleNamesMapToTheDocumentedFamilies() {
        XCTAssertEqual(FontMapping.resolve("Helvetica").family, "Liberation Sans")
        XCTAssertEqual(FontMapping.resolve("Helvetica Neue").family, "Liberation Sans")
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFont").family, "Inter")
        XCTAssertEqual(FontMapping.resolve("SF Pro Text").family, "Inter")
        XCTAssertEqual(FontMapping.resolve("Menlo").family, "Liberation Mono")
        XCTAssertEqual(FontMapping.resolve("SF Mono").family, "Liberation Mono")
        XCTAssertEqual(FontMapping.resolve("Times New Roman").family, "Liberation Serif")
        XCTAssertEqual(FontMapping.resolve("Avenir").family, "Liberation Sans")
        XCTAssertTrue(FontMapping.resolve("Avenir").substituted)
        XCTAssertFalse(FontMapping.resolve("Inter").substituted)
    }

    func testPostScriptSuffixesPickWeightAndStyle() {
        XCTAssertEqual(FontMapping.resolve("HelveticaNeue-Bold"), .init(family: "Liberation Sans", weight: 700, italic: false, substituted: true))
        XCTAssertEqual(FontMapping.resolve("SFProText-Semibold").weight, 600)
        XCTAssertEqual(FontMapping.resolve("Menlo-Italic"), .init(family: "Liberation Mono", weight: 400, italic: true, substituted: true))
        XCTAssertEqual(FontMapping.resolve("Helvetica-BoldOblique"), .init(family: "Liberation Sans", weight: 700, italic: true, substituted: true))
    }

    /// The system font's private names glue the style on without a hyphen (found in Kite archives).
    func testSystemFontNamesWithAGluedStyle() {
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFontMedium"), .init(family: "Inter", weight: 500, italic: false, substituted: true))
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFontBold").weight, 700)
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFontDemi").weight, 600)
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFontEmphasized").weight, 700)
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFontItalic"), .init(family: "Inter", weight: 400, italic: true, substituted: true))
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFontBoldItalic"), .init(family: "Inter", weight: 700, italic: true, substituted: true))
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFontBold-Italic"), .init(family: "Inter", weight: 700, italic: true, substituted: true))
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFont"), .init(family: "Inter", weight: 400, italic: false, substituted: true))
        // Not a style: the default family, as for any unknown name.
        XCTAssertEqual(FontMapping.resolve(".AppleSystemUIFontCondensed").family, "Liberation Sans")
    }

    func testEachSubstitutedFontIsReportedOncePerFrame() {
        let canvas = Canvas(width: 100, height: 100, scale: 2)
        var root = Layer(); root.setFrame(Rect(0, 0, 100, 100))
        for i in 0..<3 {
            var t = Layer(.text); t.setFrame(Rect(0, Double(i) * 30, 100, 30)); t.text.string = "label \(i)"
            root.sublayers.append(t)
        }
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
        XCTAssertEqual(p.unsupported.map(\.feature), [#"font "Helvetica" is not installed; drawn with Liberation Sans, its stand-in (caprof draws only the fonts tools/setup installs)"#])
        XCTAssertEqual(p.rasterRequests.count, 3)
    }

    /// FreeType sets no face above 65,535 px per em: a text whose fontSize × contentsScale is
    /// larger is rasterised at the backing scale that makes it 65,535 px (10,000 pt, the largest
    /// fontSize a scene may give, at contentsScale 12: scale 6.5535, a 656-texel store for 100 pt),
    /// and one that fits keeps its contentsScale.
    func testTextBeyondFreeTypesLargestFaceIsRasterisedAtTheScaleThatFits() throws {
        let canvas = Canvas(width: 100, height: 100, scale: 12)
        func request(fontSize: Double) throws -> (TextRaster, Int) {
            var t = Layer(.text); t.setFrame(Rect(0, 0, 100, 100)); t.text.string = "H"
            t.text.fontSize = fontSize; t.contentsScale = 12
            var s = Scene(canvas: canvas, root: t); s.assignIDs()
            let r = try XCTUnwrap(FramePlanner(canvas: canvas, images: [:]).plan(root: s.root).rasterRequests.first)
            let text: TextRaster? = if case .text(let t) = r.content { t } else { nil }
            return (try XCTUnwrap(text, "a text request, not \(r.content)"), r.pixelWidth)
        }
        let giant = try request(fontSize: 10_000)
        XCTAssertEqual(giant.0.scale, 6.5535, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(giant.0.fontSize * giant.0.scale, 65_535)
        XCTAssertEqual(giant.1, 656)
        // fontSize × (65,535 / fontSize) rounds one ulp above 65,535 for these two (in doubles):
        // the product the rasteriser forms must stay within the limit.
        for fontSize in [6_553.5 + 1e-9, 9_876.54321, 9_999.9] {
            let r = try request(fontSize: fontSize)
            XCTAssertLessThanOrEqual(r.0.fontSize * r.0.scale, 65_535, "\(fontSize)")
        }
        let fits = try request(fontSize: 5_000)
        XCTAssertEqual(fits.0.scale, 12)
        XCTAssertEqual(fits.1, 1200)
    }
}
