import XCTest
import Geometry
import LayerModel
import Plan
@testable import Profile

/// Overlays against hand-computed pixels: a 40×20 px canvas (scale 1) with an opaque white root,
/// an opaque rectangle A over x 0–20 and a translucent rectangle B over x 10–30, drawn after A.
///
///     x:  0        10        20        30       40
///         [ A only ][ A + B  ][ B only ][ root  ]
///
/// Draws per pixel: root 1, A only 2, overlap 3, B only 2, root only 1.
final class OverlayTests: XCTestCase, ProfileTestSupport {
    let canvas = Canvas(width: 40, height: 20, scale: 1)

    func overlays(rendered: [UInt8]? = nil, _ extra: [Layer] = []) -> FrameOverlays {
        let a = box("A", Rect(0, 0, 20, 20), Color(0, 0, 1))
        let b = box("B", Rect(10, 0, 20, 20), Color(1, 0, 0, 0.5))
        let t = tree(root(canvas, [a, b] + extra))
        return OverlayPainter(canvasScale: 1).paint(plan(t, canvas), tree: t, frame: 7, time: 7.0 / 60, rendered: rendered)
    }

    /// The neutral background with `tint` mixed over it, as the painter mixes.
    func expected(_ tint: OverlayPalette.Tint) -> (UInt8, UInt8, UInt8) {
        var px = OverlayPainter.neutralBase(count: 1)
        OverlayPainter.tint(&px, 0, tint)
        return (px[0], px[1], px[2])
    }

    func assertPixel(_ image: OverlayImage?, _ x: Int, _ y: Int, _ want: (UInt8, UInt8, UInt8), _ what: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        guard let image else { return XCTFail("no overlay", file: file, line: line) }
        let p = image.rgb(x, y)
        XCTAssertTrue(p.r == want.0 && p.g == want.1 && p.b == want.2, "\(what): \(p) ≠ \(want)", file: file, line: line)
    }

    func testBlendedOverlayIsGreenWhereOpaqueRedWhereBlended() {
        let o = overlays()
        XCTAssertEqual(o.images.map(\.kind), OverlayKind.allCases)
        XCTAssertEqual(o.background, .neutral)
        XCTAssertEqual(o.frame, 7)
        let blended = o[.blended]
        for img in o.images { XCTAssertEqual(img.width, 40); XCTAssertEqual(img.height, 20); XCTAssertEqual(img.pixels.count, 40 * 20 * 4) }
        // Inside the opaque rectangle only: green.
        assertPixel(blended, 5, 10, expected(OverlayPalette.opaque), "A only")
        let green = blended!.rgb(5, 10)
        XCTAssertGreaterThan(Int(green.g), Int(green.r) + 80)
        // Inside the translucent one (alone or over A): red, one blended layer over an opaque one.
        assertPixel(blended, 25, 10, expected(OverlayPalette.blended[0]), "B only")
        assertPixel(blended, 15, 10, expected(OverlayPalette.blended[0]), "B over A")
        let red = blended!.rgb(25, 10)
        XCTAssertGreaterThan(Int(red.r), Int(red.g) + 80)
        // Only the opaque root: green.
        assertPixel(blended, 35, 10, expected(OverlayPalette.opaque), "root only")
        // Legend: opaque = A only + root only; blended = B's 20×20.
        XCTAssertEqual(blended!.legendPixels, [10 * 20 + 10 * 20, 20 * 20, 0, 0])
    }

    func testStackedBlendingIsRedder() {
        // C: a third, translucent layer over the overlap → two blended layers deep there.
        let o = overlays([box("C", Rect(12, 0, 4, 20), Color(0, 1, 0, 0.5))])
        assertPixel(o[.blended], 14, 10, expected(OverlayPalette.blended[1]), "C over B over A")
        let once = o[.blended]!.rgb(25, 10), twice = o[.blended]!.rgb(14, 10)
        XCTAssertGreaterThan(twice.r, once.r)
        XCTAssertLessThan(twice.g, once.g)
    }

    func testOverdrawOverlayFollowsAndroidsScale() {
        let o = overlays()
        let map = o[.overdraw]
        // Drawn once (the root alone): no tint.
        assertPixel(map, 35, 10, (OverlayPalette.neutral.r, OverlayPalette.neutral.g, OverlayPalette.neutral.b), "root only")
        // Drawn twice (root + A, root + B): overdrawn 1×, blue.
        assertPixel(map, 5, 10, expected(OverlayPalette.overdraw[0]), "A only")
        assertPixel(map, 25, 10, expected(OverlayPalette.overdraw[0]), "B only")
        // The overlap, drawn 3 times: overdrawn 2×, green.
        assertPixel(map, 15, 10, expected(OverlayPalette.overdraw[1]), "overlap")
        let p = map!.rgb(15, 10)
        XCTAssertGreaterThan(Int(p.g), Int(p.r) + 20)
        XCTAssertGreaterThan(Int(p.g), Int(p.b) + 20)
        XCTAssertEqual(map!.legendPixels, [20 * 20, 10 * 20, 0, 0])
        // 3× and 4×+ (drawn 4 and 5+ times).
        let deeper = overlays([box("C", Rect(12, 0, 4, 20), Color(0, 1, 0)), box("D", Rect(14, 0, 1, 20), Color(0, 1, 0))])
        assertPixel(deeper[.overdraw], 13, 10, expected(OverlayPalette.overdraw[2]), "drawn 4 times")
        assertPixel(deeper[.overdraw], 14, 10, expected(OverlayPalette.overdraw[3]), "drawn 5 times")
    }

    func testMisalignedOverlayIsMagentaOffTheGrid() {
        let o = overlays([box("half", Rect(30.5, 2, 5, 5), Color(0, 0, 0))])
        assertPixel(o[.misaligned], 33, 4, expected(OverlayPalette.misaligned), "off-grid layer")
        assertPixel(o[.misaligned], 5, 10, (OverlayPalette.neutral.r, OverlayPalette.neutral.g, OverlayPalette.neutral.b), "aligned A")
        XCTAssertGreaterThan(o[.misaligned]!.legendPixels[0], 0)
        XCTAssertEqual(o[.misaligned]!.legendPixels[1], 0)
    }

    func testMisalignedOverlayIsYellowForScaledImages() {
        let img = image("/a.png")
        let table: ImageTable = [img.origin: ImageInfo(key: 1, width: 10, height: 10, isOpaque: true)]
        var photo = box("photo", Rect(0, 0, 20, 20), nil); photo.contents = img
        let t = tree(root(canvas, [photo]))
        let o = OverlayPainter(canvasScale: 1).paint(plan(t, canvas, images: table), tree: t, frame: 0, time: 0)
        assertPixel(o[.misaligned], 10, 10, expected(OverlayPalette.scaled), "10 px image over 20 px")
        assertPixel(o[.misaligned], 30, 10, (OverlayPalette.neutral.r, OverlayPalette.neutral.g, OverlayPalette.neutral.b), "root")
        XCTAssertEqual(o[.misaligned]!.legendPixels, [0, 20 * 20])
    }

    func testRenderedFrameIsDimmedUnderTheTints() {
        let white = [UInt8](repeating: 255, count: 40 * 20 * 4)
        let o = overlays(rendered: white)
        XCTAssertEqual(o.background, .renderedFrame)
        let dimmed = OverlayPainter.dim([255, 255, 255, 255])
        XCTAssertLessThan(dimmed[0], 128, "dimmed")
        // Where nothing is overdrawn the overdraw map shows the dimmed frame itself.
        let p = o[.overdraw]!.rgb(35, 10)
        XCTAssertEqual([p.r, p.g, p.b], Array(dimmed.prefix(3)))
        // A frame of the wrong size is ignored: the neutral background instead.
        XCTAssertEqual(overlays(rendered: [0, 0, 0, 0]).background, .neutral)
    }

    func testFileNamesSortByFrameThenKind() {
        XCTAssertEqual(FrameOverlays.fileName(frame: 12, kind: .blended), "frame-00012-blended.png")
        XCTAssertEqual(FrameOverlays.fileName(frame: 123456, kind: .overdraw), "frame-123456-overdraw.png")
    }

    func testWorstFrameIsTheMostShadedThenTheMostBlendedThenTheEarliest() {
        func record(_ i: Int, shaded: Int, blended: Int) -> ProfileReport.FrameRecord {
            ProfileReport.FrameRecord(index: i, time: 0, counters: FrameCounters(
                items: 1, offscreenPasses: 0, offscreenPixels: 0, canvasPixels: 100, drawnPixels: min(shaded, 100), shadedPixels: shaded,
                blendedPixels: blended, edgeBlendedPixels: 0, overdraw: Double(shaded) / 100, maxOverdraw: 1, overdrawHistogram: [0, 0, 0, 0, 0]), cost: FrameCost(), findings: [])
        }
        XCTAssertNil(ProfileReport.worstFrame(in: []))
        XCTAssertEqual(ProfileReport.worstFrame(in: [record(0, shaded: 10, blended: 0), record(1, shaded: 20, blended: 0)]), 1)
        XCTAssertEqual(ProfileReport.worstFrame(in: [record(0, shaded: 20, blended: 1), record(1, shaded: 20, blended: 5),
                                                     record(2, shaded: 20, blended: 5)]), 1)
    }

    func testLayerOutlineNamesLayersAsFindingsDo() {
        var named = box("card", Rect(0, 0, 10, 10))
        named.sublayers = [box("", Rect(0, 0, 1, 1))]
        named.sublayers[0].name = nil
        let t = tree(root(canvas, [named, box("bar", Rect(0, 0, 1, 1))]))
        let outline = LayerOutline(t)
        XCTAssertEqual(outline.count, 4)
        XCTAssertEqual(outline.display, "root")
        XCTAssertEqual(outline.children.map(\.display), ["card", "bar"])
        XCTAssertEqual(outline.children[0].children[0].display, "0.0")
        XCTAssertEqual(outline.children[0].children[0].path, [0, 0])
        XCTAssertEqual(outline.layerClass, "CALayer")
        let directory = LayerDirectory(root: t)
        outline.forEach { XCTAssertEqual(directory[$0.id]?.displayName, $0.display) }
    }
}
