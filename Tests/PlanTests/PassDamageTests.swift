import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Which offscreen passes a frame redraws only in part, and where (caprof's own saving): the
/// rectangles are decided by hand here from the items' positions.
final class PassDamageTests: XCTestCase {
    let bounds = PixelRect(x: 0, y: 0, width: 100, height: 100)

    /// A 10×10 square of layer `layer` at (x, y) in a pass.
    func square(_ layer: LayerID, _ x: Double, _ y: Double, _ c: RGBA = RGBA(1, 0, 0, 1)) -> DrawItem {
        DrawItem(layer: layer, role: .background, paint: .solid(c), transform: .translation(x, y), quad: Rect(0, 0, 10, 10))
    }
    /// A 100×100 group (layer 9) holding a still backdrop square and a moving one.
    func group(_ x: Double) -> OffscreenPass {
        OffscreenPass(reasons: [.filter], layer: 9, bounds: bounds, width: 100, height: 100,
                      operation: .draw([square(10, 80, 80, RGBA(0, 0, 1, 1)), square(11, x, 20)]))
    }
    func colour(of source: Int) -> OffscreenPass {
        OffscreenPass(reasons: [.filter], layer: 9, bounds: bounds, width: 100, height: 100,
                      operation: .filter(FilterOperation(source: source, kind: .colorMatrix([Float](repeating: 0.5, count: 20)))))
    }
    func blur(of source: Int) -> OffscreenPass {
        OffscreenPass(reasons: [.filter], layer: 9, bounds: bounds, width: 100, height: 100,
                      operation: .blur(source: source, sigma: 2, horizontal: true, tint: RGBA(0, 0, 0, 1), downsample: 1))
    }
    /// The filtered group drawn back whole at (0, 0) with texelFetch, as a pass's result is.
    func shown(_ pass: Int) -> DrawItem {
        DrawItem(layer: 9, role: .offscreen, paint: .offscreen(.pass(pass), sampling: .texelFetch, opacity: 1),
                 transform: .identity, quad: Rect(0, 0, 100, 100), uv: Rect(0, 0, 100, 100))
    }
    func plan(_ items: [DrawItem], _ passes: [OffscreenPass]) -> FramePlan {
        FramePlan(pixelWidth: 100, pixelHeight: 100, clearColor: .clear, items: items, offscreenPasses: passes)
    }
    func between(_ a: FramePlan, _ b: FramePlan, held: Set<Int>) -> [Int: PassDamage.Partial] {
        PassDamage.between(a, b, held: held, retained: RetainedPasses.between(a, b, held: held))
    }

    /// The square moves from (20, 20) to (30, 20) inside a group with a colour filter: the group's
    /// draw changes where it was and where it is, each grown by a pixel for rounding (DamageBounds):
    /// x 19..<31 and 29..<41, rows 19..<31, which touch and merge into (19, 19, 22, 12); the
    /// colour matrix over it changes there too, texel for texel.
    func testAMovedItemDamagesItsGroupAndTheColourFilterOverIt() {
        let before = plan([shown(1)], [group(20), colour(of: 0)])
        let after = plan([shown(1)], [group(30), colour(of: 0)])
        let rect = PixelRect(x: 19, y: 19, width: 22, height: 12)
        XCTAssertEqual(between(before, after, held: [0, 1]),
                       [0: PassDamage.Partial(counterpart: 0, rects: [rect]), 1: PassDamage.Partial(counterpart: 1, rects: [rect])])
        // Only the results the backend holds can be redrawn in part.
        XCTAssertEqual(between(before, after, held: [1]).keys.sorted(), [], "the group's held result is gone: drawn whole, and so the filter")
        XCTAssertEqual(between(before, after, held: [0]).keys.sorted(), [0])
        XCTAssertEqual(between(before, before, held: [0, 1]), [:], "unchanged: retained whole, not redrawn")
    }

    /// A blur spreads a change by its reach along its axis: a shadow's blur with σ 2 reaches
    /// ⌈3σ⌉ = 6 texels, so the horizontal pass changes in (19 − 6, 19, 22 + 12, 12) and the colour
    /// filter over it there too; the vertical pass after it grows that by 6 rows.
    func testABlurSpreadsTheChangeByItsReach() {
        func vertical(of source: Int) -> OffscreenPass {
            OffscreenPass(reasons: [.filter], layer: 9, bounds: bounds, width: 100, height: 100,
                          operation: .blur(source: source, sigma: 2, horizontal: false, tint: RGBA(0, 0, 0, 1), downsample: 1))
        }
        let before = plan([shown(3)], [group(20), blur(of: 0), colour(of: 1), vertical(of: 1)])
        let after = plan([shown(3)], [group(30), blur(of: 0), colour(of: 1), vertical(of: 1)])
        let d = between(before, after, held: [0, 1, 2, 3])
        XCTAssertEqual(d[1]?.rects, [PixelRect(x: 13, y: 19, width: 34, height: 12)])
        XCTAssertEqual(d[2]?.rects, [PixelRect(x: 13, y: 19, width: 34, height: 12)])
        XCTAssertEqual(d[3]?.rects, [PixelRect(x: 13, y: 13, width: 34, height: 24)])
        // A filter's blur reaches ⌈3.5σ⌉ and a downsampling one averages 2×2 texels: (19, 19, 22, 12)
        // at ½ is (9, 9, 12, 7) (rounded out), grown by ⌈3.5 × 1⌉ = 4 columns: (5, 9, 20, 7).
        func half(of source: Int) -> OffscreenPass {
            OffscreenPass(reasons: [.filter], layer: 9, bounds: bounds, width: 50, height: 50,
                          operation: .filter(FilterOperation(source: source, kind: .blur(sigma: 1, horizontal: true, downsample: 2,
                                                                                         normalizeEdges: false))))
        }
        let d2 = between(plan([shown(1)], [group(20), half(of: 0)]), plan([shown(1)], [group(30), half(of: 0)]), held: [0, 1])
        XCTAssertEqual(d2[1]?.rects, [PixelRect(x: 5, y: 9, width: 20, height: 7)])
    }

    /// A group drawn back by another pass (a 1:1 composite at a whole-pixel offset) changes that
    /// pass only where the group changed, moved by the offset; a composite that filters (linear
    /// sampling at a fractional offset) a texel further each way, and a pixel for rounding.
    func testAPartialResultCompositedOneToOneStaysPartial() {
        func outer(_ inner: Int, x: Double, sampling: DrawItem.Sampling) -> OffscreenPass {
            var item = shown(inner)
            item.paint = .offscreen(.pass(inner), sampling: sampling, opacity: 1)
            item.transform = .translation(x, 0)
            item.quad = Rect(0, 0, 50, 50); item.uv = Rect(0, 0, 50, 50)
            return OffscreenPass(reasons: [.groupOpacity], layer: 8, bounds: bounds, width: 100, height: 100, operation: .draw([item]))
        }
        let before = plan([shown(1)], [group(20), outer(0, x: 5, sampling: .texelFetch)])
        let after = plan([shown(1)], [group(30), outer(0, x: 5, sampling: .texelFetch)])
        // (19, 19, 22, 12) moved right by 5, inside the composite's bounds (columns 4..<56, rows 0..<51).
        XCTAssertEqual(between(before, after, held: [0, 1])[1]?.rects, [PixelRect(x: 24, y: 19, width: 22, height: 12)])
        let blurred = plan([shown(1)], [group(20), outer(0, x: 5.5, sampling: .linear)])
        let blurredAfter = plan([shown(1)], [group(30), outer(0, x: 5.5, sampling: .linear)])
        // Bilinear at (5.5, 0): texels 18..<42 (the rectangle grown by one) land at x 23.5..<47.5,
        // rounded out and grown by a pixel: 22..<49; rows 18..<32 → 17..<33.
        XCTAssertEqual(between(blurred, blurredAfter, held: [0, 1])[1]?.rects, [PixelRect(x: 22, y: 17, width: 27, height: 16)])
    }

    /// A pass changed over most of its area is drawn whole (the scissored draws would save little).
    func testAPassChangedAlmostEverywhereIsDrawnWhole() {
        func big(_ c: RGBA) -> OffscreenPass {
            OffscreenPass(reasons: [.filter], layer: 9, bounds: bounds, width: 100, height: 100,
                          operation: .draw([DrawItem(layer: 10, role: .background, paint: .solid(c), transform: .identity,
                                                     quad: Rect(0, 0, 100, 90))]))
        }
        XCTAssertEqual(between(plan([shown(0)], [big(RGBA(1, 0, 0, 1))]), plan([shown(0)], [big(RGBA(0, 1, 0, 1))]), held: [0]), [:])
    }
}
