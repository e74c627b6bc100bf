import XCTest
import Geometry
import LayerModel
@testable import Plan

/// Region flattening (`CanvasExecution`, `RegionFlattening.swift`): which items are flattened,
/// the regions and their stacks, the fallbacks, the counts. Regions are worked out by hand from
/// the items' device-pixel edges in each test.
final class RegionFlatteningTests: XCTestCase {
    let white = RGBA(1, 1, 1, 1), halfBlue = RGBA(0, 0, 0.5, 0.5), halfGreen = RGBA(0, 0.25, 0, 0.25), red = RGBA(1, 0, 0, 1)

    func solid(_ quad: Rect, _ c: RGBA, _ m: Transform3D = .identity, shape: RoundedShape? = nil) -> DrawItem {
        DrawItem(layer: 1, role: .background, paint: .solid(c), transform: m, quad: quad, shape: shape)
    }
    func prepare(_ items: [DrawItem], images: [PlannedImage] = [], size: Int = 100) -> (items: [DrawItem], stats: CanvasExecutionStats) {
        CanvasExecution.prepare(items, images: images, width: size, height: size, flattenOver: white, savingPerRegion: 0)
    }
    /// The regions of `items` as (rect, layers), in the order the plan emits them.
    func regions(_ items: [DrawItem]) -> [(PixelRect, [FlattenedRegion.Layer])] {
        items.compactMap { i in i.flattened.map { ($0.rect, $0.layers) } }
    }
    func px(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect { PixelRect(x: x, y: y, width: w, height: h) }

    /// A (0,0)–(60,40) and B (30,20)–(80,70): edges x 0, 30, 60, 80 and y 0, 20, 40, 70. Rows of
    /// cells: y 0–20: A over x 0–60; y 20–40: A (0–30), A+B (30–60), B (60–80); y 40–70: B over
    /// x 30–80. Spans of different extents do not merge down: five regions.
    func testTwoOverlappingRectanglesMakeFiveRegions() {
        let a = solid(Rect(0, 0, 60, 40), halfBlue), b = solid(Rect(30, 20, 50, 50), halfGreen)
        let (out, stats) = prepare([a, b])
        let r = regions(out)
        XCTAssertEqual(r.map(\.0), [px(0, 0, 60, 20), px(0, 20, 30, 20), px(30, 20, 30, 20), px(60, 20, 20, 20), px(30, 40, 50, 30)])
        XCTAssertEqual(r.map(\.1), [[.solid(halfBlue)], [.solid(halfBlue)], [.solid(halfBlue), .solid(halfGreen)],
                                    [.solid(halfGreen)], [.solid(halfGreen)]])
        XCTAssertEqual(out.count, 5)
        XCTAssertTrue(out.allSatisfy { $0.drawsOpaque && $0.flattened?.base == white })
        XCTAssertEqual(stats.flattenedRegions, 5)
        XCTAssertEqual(stats.flattenedItems, 2)
        XCTAssertEqual(stats.batches, 5, "each region is a draw")
    }

    /// An opaque square in the middle of a stack: beneath it nothing is drawn (the translucent
    /// full-canvas layer below is dropped there), above it the stack goes on.
    func testStacksStartAtTheirTopmostOpaqueLayer() {
        let c = solid(Rect(0, 0, 100, 100), halfBlue), d = solid(Rect(10, 10, 20, 20), red), e = solid(Rect(0, 0, 100, 100), halfGreen)
        let (out, stats) = prepare([c, d, e])
        let r = regions(out)
        XCTAssertEqual(r.map(\.0), [px(0, 0, 100, 10), px(0, 10, 10, 20), px(10, 10, 20, 20), px(30, 10, 70, 20), px(0, 30, 100, 70)])
        XCTAssertEqual(r[2].1, [.solid(red), .solid(halfGreen)])
        XCTAssertEqual(r[0].1, [.solid(halfBlue), .solid(halfGreen)])
        XCTAssertEqual(stats.flattenedItems, 3)
        XCTAssertEqual(stats.culledItems, 0, "the square hides only part of the layer beneath")
    }

    /// The benchmark's stack: full-canvas images at 3× (quad in points, texels 1:1 on pixels).
    func testFullScreenImagesAtScale3AreOneRegion() {
        let images = (0..<3).map { PlannedImage(key: UInt64($0), pixelWidth: 120, pixelHeight: 90) }
        let items = (0..<3).map { i in
            DrawItem(layer: LayerID(i), role: .contents, paint: .image(index: i, sampling: .texelFetch, opacity: 0.8),
                     transform: .scale(3, 3, 1), quad: Rect(0, 0, 40, 30), uv: Rect(0, 0, 120, 90))
        }
        let (out, stats) = prepare(items, images: images, size: 120)
        XCTAssertEqual(regions(out).map(\.0), [px(0, 0, 120, 90)])
        XCTAssertEqual(out[0].flattened?.layers, (0..<3).map { .image(index: $0, opacity: 0.8, originX: 0, originY: 0) })
        XCTAssertEqual(out[0].layer, 2, "the region is named after its top layer")
        XCTAssertEqual(stats.flattenedItems, 3)
    }

    /// An image whose uv starts at texel (5, 7), drawn at device (20, 30): texel = pixel − (15, 23).
    func testImageOriginIsThePixelOfTexelZero() {
        let images = [PlannedImage(key: 1, pixelWidth: 50, pixelHeight: 50)]
        let items = [solid(Rect(0, 0, 10, 10), halfBlue),
                     DrawItem(layer: 2, role: .contents, paint: .image(index: 0, sampling: .texelFetch, opacity: 1),
                              transform: .translation(20, 30, 0), quad: Rect(0, 0, 40, 40), uv: Rect(5, 7, 40, 40))]
        let (out, _) = prepare(items, images: images)
        XCTAssertEqual(regions(out).last?.1, [.image(index: 0, opacity: 1, originX: 15, originY: 23)])
    }

    /// What cannot be drawn as a texel-for-pixel rectangle breaks runs and is left as it is.
    func testIneligibleItemsAreLeftAsTheyAre() {
        let rotated = solid(Rect(0, 0, 10, 10), halfBlue, .rotation(0.1, 0, 0, 1))
        let fractional = solid(Rect(0.5, 0, 10, 10), halfBlue)
        let shaped = solid(Rect(0, 0, 10, 10), halfBlue, shape: RoundedShape(rect: Rect(0, 0, 10, 10), radii: [3, 3, 3, 3]))
        let linear = DrawItem(layer: 2, role: .contents, paint: .image(index: 0, sampling: .linear, opacity: 1),
                              transform: .identity, quad: Rect(0, 0, 10, 10), uv: Rect(0, 0, 20, 20))
        // texelFetch, but reading texels left of the image (the item's shader clamps them).
        let outside = DrawItem(layer: 2, role: .contents, paint: .image(index: 0, sampling: .texelFetch, opacity: 1),
                               transform: .identity, quad: Rect(0, 0, 20, 20), uv: Rect(-3, 0, 20, 20))
        for item in [rotated, fractional, shaped, linear, outside] {
            XCTAssertNil(CanvasExecution.flatLayer(item, [PlannedImage(key: 1, pixelWidth: 20, pixelHeight: 20)], width: 100, height: 100))
        }
        // A lone eligible item is not a run.
        let (out, stats) = prepare([solid(Rect(50, 50, 10, 10), halfBlue), shaped, solid(Rect(60, 60, 10, 10), halfBlue)])
        XCTAssertEqual(stats.flattenedRegions, 0)
        XCTAssertEqual(out.count, 3)
    }

    /// Beneath a run is an item drawn before it: where no opaque layer of the run hides it the
    /// plan cannot start the stack from the clear colour, so the run is left as it is; where an
    /// opaque layer covers it, the run is flattened.
    func testRunsOverEarlierItemsNeedAnOpaqueBottom() {
        let card = solid(Rect(10, 10, 30, 30), halfBlue, shape: RoundedShape(rect: Rect(10, 10, 30, 30), radii: [4, 4, 4, 4]))
        let over = [solid(Rect(0, 0, 50, 50), halfGreen), solid(Rect(20, 20, 50, 50), halfBlue)]
        XCTAssertEqual(prepare([card] + over).stats.flattenedRegions, 0)
        // An opaque square over the whole card culls it; the run above starts from the square or,
        // beside it, from the clear colour with nothing drawn beneath.
        let hidden = [solid(Rect(5, 5, 40, 40), red), solid(Rect(0, 0, 30, 30), halfBlue)]
        let (out, stats) = prepare([card] + hidden)
        XCTAssertGreaterThan(stats.flattenedRegions, 0)
        XCTAssertEqual(stats.culledItems, 1, "the opaque square hides the card entirely")
        XCTAssertEqual(out.count, stats.flattenedRegions)
    }

    /// Eighteen translucent full-canvas layers: the bottom sixteen are one region, the two above
    /// are pieces of their items cut to the region (here the whole canvas: the items themselves).
    func testDeepStacksDrawTheirTopLayersAsPieces() {
        let items = (0..<18).map { _ in solid(Rect(0, 0, 100, 100), halfBlue) }
        let (out, stats) = prepare(items)
        XCTAssertEqual(out.count, 3)
        XCTAssertEqual(out[0].flattened?.layers.count, 16)
        XCTAssertNil(out[1].flattened)
        XCTAssertEqual(out[1].quad, Rect(0, 0, 100, 100))
        XCTAssertEqual(stats.flattenedRegions, 1)
        XCTAssertEqual(stats.flattenedItems, 16)
        XCTAssertEqual(stats.flattenedPieces, 2)
    }

    /// A piece of an image item keeps its texels on the same pixels: the uv is cut with the quad.
    func testPiecesCutTheUVWithTheQuad() {
        let item = DrawItem(layer: 2, role: .contents, paint: .image(index: 0, sampling: .texelFetch, opacity: 1),
                            transform: .scale(2, 2, 1) * .translation(10, 4, 0), quad: Rect(0, 0, 50, 40), uv: Rect(3, 0, 100, 80))
        // Device x 10…110, y 4…84; the piece x 30…50, y 14…24 is local x 10…20, y 5…10.
        let p = CanvasExecution.piece(item, px(30, 14, 20, 10))
        XCTAssertEqual(p.quad, Rect(10, 5, 10, 5))
        XCTAssertEqual(p.uv, Rect(23, 10, 20, 10))
    }

    /// Each region is a draw: a run is flattened only where it saves at least
    /// `savedPixelsPerRegion` (128²) blended pixels per region. Two 200 × 200 squares overlapping
    /// by 100 × 200 save 20,000 px over 3 regions (< 3 · 16,384); overlapping by 180 × 200 they
    /// save 36,000 over 3 (< 49,152); two equal 300 × 300 squares save 90,000 in one region.
    func testSparseRunsAreNotWorthTheirDraws() {
        func run(_ a: Rect, _ b: Rect) -> CanvasExecutionStats {
            CanvasExecution.prepare([solid(a, halfBlue), solid(b, halfGreen)], images: [], width: 400, height: 400, flattenOver: white).stats
        }
        XCTAssertEqual(run(Rect(0, 0, 200, 200), Rect(100, 0, 200, 200)).flattenedRegions, 0)
        XCTAssertEqual(run(Rect(0, 0, 200, 200), Rect(20, 0, 200, 200)).flattenedRegions, 0)
        XCTAssertEqual(run(Rect(0, 0, 300, 300), Rect(0, 0, 300, 300)).flattenedRegions, 1)
    }

    /// Flattening is execution only: the profiler's logical items are the same with it on or off.
    func testLogicalItemsDoNotDependOnFlattening() {
        // Three translucent 200 × 200 pt layers on top of each other at 2×: one 400 × 400 px
        // region saving 2 · 160,000 blended pixels.
        var root = Layer(); root.setFrame(Rect(0, 0, 200, 200)); root.backgroundColor = Color(0, 0, 1, 0.5)
        var a = Layer(); a.setFrame(Rect(0, 0, 200, 200)); a.backgroundColor = Color(1, 0, 0, 0.5)
        var b = Layer(); b.setFrame(Rect(0, 0, 200, 200)); b.backgroundColor = Color(0, 1, 0, 0.5)
        root.sublayers = [a, b]
        var s = Scene(canvas: Canvas(width: 200, height: 200, scale: 2, backgroundColor: .white), root: root); s.assignIDs()
        var planner = FramePlanner(canvas: s.canvas, images: [:])
        let on = planner.plan(root: s.root)
        planner.flattensRegions = false
        let off = planner.plan(root: s.root)
        XCTAssertEqual(on.items, off.items)
        XCTAssertEqual(on.items.count, 3)
        XCTAssertEqual(off.canvasItems.count, 3)
        XCTAssertEqual(off.execution.flattenedRegions, 0)
        XCTAssertEqual(on.canvasItems.count, 1)
        XCTAssertEqual(on.canvasItems[0].flattened?.rect, px(0, 0, 400, 400))
        XCTAssertEqual(on.execution.flattenedRegions, 1)
        XCTAssertEqual(on.execution.flattenedItems, 3)
    }
}
