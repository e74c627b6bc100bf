import XCTest
import Geometry
import LayerModel
@testable import Plan

/// CAShapeLayer planning without a GPU: the raster request's texture, its cache key and what
/// changes it (design.md: textures are cached by content, never by where they are shown).
final class ShapeContentPlanTests: XCTestCase {
    let canvas = Canvas(width: 200, height: 200, scale: 3, backgroundColor: .white)

    func shapeLayer(_ configure: (inout Layer) -> Void = { _ in }) -> Layer {
        var l = Layer(.shape)
        l.setFrame(Rect(10, 20, 50, 50))
        l.shape.path = .rect(Rect(0, 0, 40, 30))
        configure(&l)
        return l
    }
    func plan(_ layer: Layer) -> FramePlan {
        var root = Layer(); root.setFrame(Rect(0, 0, 200, 200)); root.sublayers = [layer]
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        return FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
    }

    func testFillIsOneImageItemAtDeviceResolutionWithAOneTexelMargin() throws {
        let p = plan(shapeLayer())
        XCTAssertEqual(p.rasterRequests.count, 1)
        let r = p.rasterRequests[0]
        // 40×30 pt at 3× = 120×90 texels, plus one on each side.
        XCTAssertEqual(r.pixelWidth, 122); XCTAssertEqual(r.pixelHeight, 92)
        let item = try XCTUnwrap(p.items.last)
        guard case .image(let index, let sampling, _) = item.paint else { return XCTFail("not an image item") }
        XCTAssertEqual(p.images[index].key, r.key)
        XCTAssertFalse(p.images[index].isOpaque, "shape textures have transparent margins")
        // Layer at (10,20) pt on the pixel grid: texels land 1:1 on device pixels.
        XCTAssertEqual(sampling, .texelFetch)
        XCTAssertEqual(item.transform.apply(item.quad.origin).x, 30 - 1, accuracy: 1e-9)
        XCTAssertTrue(p.unsupported.isEmpty, "shapes are drawn: no 'not rendered' warning")
    }

    /// A dash pattern far finer than its path is drawn solid and reported; an ordinary one is kept.
    /// The rectangle's outline is 2 × (40 + 30) = 140 pt: [2, 2] cuts it into 140 / 4 × 2 = 70
    /// dashes. A zigzag of 1000 diagonals of 141.4 pt with [0.5, 0.5] would be 282,843 dashes,
    /// over the 100,000 budget.
    func testAFineDashPatternOverALongPathIsDrawnSolid() {
        func dashes(_ p: FramePlan) -> [Double]? {
            guard case .shape(let r)? = p.rasterRequests.first?.content else { return nil }
            return r.lineDashPattern
        }
        let ordinary = plan(shapeLayer { $0.shape.strokeColor = Color(0, 0, 0); $0.shape.lineDashPattern = [2, 2] })
        XCTAssertEqual(dashes(ordinary), [2, 2])
        XCTAssertTrue(ordinary.unsupported.isEmpty)
        var zigzag: [Path.Element] = [.move(Point(0, 0))]
        for i in 1...1000 { zigzag.append(.line(i % 2 == 1 ? Point(100, 100) : Point(0, 0))) }
        let fine = plan(shapeLayer { $0.shape.path = Path(zigzag); $0.shape.strokeColor = Color(0, 0, 0); $0.shape.lineDashPattern = [0.5, 0.5] })
        XCTAssertEqual(dashes(fine), [])
        XCTAssertEqual(fine.unsupported.count, 1)
        XCTAssertTrue(fine.unsupported.first?.feature.contains("more than 100000 dashes; the stroke is drawn solid") ?? false)
    }

    func testStrokeGrowsTheTextureByHalfTheLineWidthTimesTheMiterRatio() {
        // A rectangle's corners are 90° joins: miter ratio 1/sin(45°) = √2; width 4 ⇒ 2·√2 pt.
        let p = plan(shapeLayer { $0.shape.fillColor = nil; $0.shape.strokeColor = .black; $0.shape.lineWidth = 4 })
        let r = p.rasterRequests[0]
        let reach = 2 * 2.0.squareRoot()
        // x: from (0 − 2.83)·3 = −8.49 → floor −9, −1 margin = −10; to (40 + 2.83)·3 = 128.49 → 129 + 1 = 130.
        XCTAssertEqual(r.pixelWidth, Int(((40 + reach) * 3).rounded(.up)) + 1 - (Int((-reach * 3).rounded(.down)) - 1))
        XCTAssertEqual(r.pixelWidth, 140)
    }

    func testKeyIgnoresPositionOpacityAndRotationButNotPathStrokeOrScale() {
        let base = plan(shapeLayer()).rasterRequests[0].key
        XCTAssertEqual(plan(shapeLayer { $0.position = Point(100, 90) }).rasterRequests[0].key, base)
        XCTAssertEqual(plan(shapeLayer { $0.opacity = 0.3 }).rasterRequests[0].key, base)
        XCTAssertEqual(plan(shapeLayer { $0.transform = .rotation(0.7, 0, 0, 1) }).rasterRequests[0].key, base)
        XCTAssertNotEqual(plan(shapeLayer { $0.shape.fillColor = .white }).rasterRequests[0].key, base)
        XCTAssertNotEqual(plan(shapeLayer { $0.shape.path = .rect(Rect(0, 0, 41, 30)) }).rasterRequests[0].key, base)
        XCTAssertNotEqual(plan(shapeLayer { $0.transform = .scale(2, 2, 1) }).rasterRequests[0].key, base)
        let stroked = plan(shapeLayer { $0.shape.strokeColor = .black }).rasterRequests[0].key
        XCTAssertNotEqual(plan(shapeLayer { $0.shape.strokeColor = .black; $0.shape.strokeEnd = 0.5 }).rasterRequests[0].key, stroked)
    }

    func testTwoLayersWithTheSameShapeShareOneRasterAndOneImage() {
        var root = Layer(); root.setFrame(Rect(0, 0, 200, 200))
        root.sublayers = [shapeLayer(), shapeLayer { $0.position = Point(120, 120) }]
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
        XCTAssertEqual(p.rasterRequests.count, 1)
        XCTAssertEqual(p.images.count, 1)
        XCTAssertEqual(p.items.count, 2)
    }

    func testNothingToDrawMakesNoRequest() {
        XCTAssertTrue(plan(shapeLayer { $0.shape.fillColor = nil }).rasterRequests.isEmpty)
        XCTAssertTrue(plan(shapeLayer { $0.shape.path = nil }).rasterRequests.isEmpty)
        // strokeStart ≥ strokeEnd strokes nothing (reference §2.1, our choice for the unconfirmed case).
        XCTAssertTrue(plan(shapeLayer { $0.shape.fillColor = nil; $0.shape.strokeColor = .black; $0.shape.strokeStart = 0.6; $0.shape.strokeEnd = 0.4 }).rasterRequests.isEmpty)
    }
}

/// CAGradientLayer planning: one shared colour ramp per stop list, opaque only when every colour is.
final class GradientContentPlanTests: XCTestCase {
    let canvas = Canvas(width: 100, height: 100, scale: 2, backgroundColor: .white)
    func plan(_ layers: [Layer]) -> FramePlan {
        var root = Layer(); root.setFrame(Rect(0, 0, 100, 100)); root.sublayers = layers
        var s = Scene(canvas: canvas, root: root); s.assignIDs()
        return FramePlanner(canvas: canvas, images: [:]).plan(root: s.root)
    }
    func gradient(_ colors: [Color], frame: Rect = Rect(0, 0, 50, 50)) -> Layer {
        var g = Layer(.gradient); g.setFrame(frame); g.gradient.colors = colors; return g
    }

    func testOpaqueOnlyWhenEveryColourIsOpaque() throws {
        let opaque = plan([gradient([.white, .black])])
        XCTAssertEqual(opaque.images.count, 1)
        XCTAssertTrue(opaque.images[0].isOpaque)
        XCTAssertEqual(opaque.images[0].pixelHeight, 1, "a colour ramp, not a texture of the layer's size")
        let item = try XCTUnwrap(opaque.items.last)
        // Default start (0.5, 0) and end (0.5, 1) on 50×50 bounds.
        XCTAssertEqual(item.gradient, GradientPaint(type: .axial, start: Point(25, 0), end: Point(25, 50)))
        XCTAssertFalse(plan([gradient([.white, .clear])]).images[0].isOpaque)
        XCTAssertTrue(opaque.unsupported.isEmpty)
    }

    func testLayersWithTheSameStopsShareOneRamp() {
        let p = plan([gradient([.white, .black]), gradient([.white, .black], frame: Rect(50, 50, 20, 40))])
        XCTAssertEqual(p.images.count, 1)
        XCTAssertEqual(p.rasterRequests.count, 1)
        XCTAssertEqual(p.items.count, 2)
    }

    func testNoColoursDrawNothing() {
        XCTAssertTrue(plan([gradient([])]).items.isEmpty)
    }
}

/// Hostile sizes: textures are capped per side and per frame, with a warning, never unbounded.
final class RasterBudgetPlanTests: XCTestCase {
    func testHugeShapesAreCappedPerSideAndPerFrame() {
        // On a 4000×4000 canvas each 20 000-pt square is cropped to what the canvas shows (about
        // 4002² texels, 16 Mpx): four fit in the 64 Mpx budget, the others are not drawn.
        let canvas = Canvas(width: 4000, height: 4000, scale: 1)
        var root = Layer(); root.setFrame(Rect(0, 0, 4000, 4000))
        for i in 0..<8 {
            var s = Layer(.shape); s.setFrame(Rect(0, 0, 100, 100))
            s.shape.path = .rect(Rect(0, 0, 20_000, 20_000)); s.shape.fillColor = Color(Double(i) / 8, 0, 0)
            root.sublayers.append(s)
        }
        var sc = Scene(canvas: canvas, root: root); sc.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: sc.root)
        XCTAssertTrue(p.rasterRequests.allSatisfy { $0.pixelWidth <= 4096 && $0.pixelHeight <= 4096 })
        let total = p.rasterRequests.reduce(0) { $0 + $1.pixelWidth * $1.pixelHeight }
        XCTAssertLessThanOrEqual(total, 64 << 20)
        XCTAssertEqual(p.rasterRequests.count, 4, "four 16 Mpx textures fill the 64 Mpx budget")
        XCTAssertTrue(p.unsupported.contains { $0.feature.contains("64 Mpx") }, "\(p.unsupported)")
    }
}

extension ShapeContentPlanTests {
    func testNewRasterRequestsAreThoseThePreviousFrameDidNotShow() {
        let a = plan(shapeLayer()), moved = plan(shapeLayer { $0.position = Point(90, 90) })
        let trimmed = plan(shapeLayer { $0.shape.strokeColor = .black; $0.shape.strokeEnd = 0.5 })
        XCTAssertEqual(a.newRasterRequests(since: nil).count, 1)
        XCTAssertEqual(moved.newRasterRequests(since: a).count, 0, "a move re-uses the raster")
        XCTAssertEqual(trimmed.newRasterRequests(since: a).map(\.pixelWidth), [trimmed.rasterRequests[0].pixelWidth])
    }
}

extension RasterBudgetPlanTests {
    func testContentLargerThanATextureIsCroppedToTheCanvasAtFullResolution() {
        // A 390×5000 pt path (a long scroll view's worth) at 3×: 15 000 px tall, over the 4096 cap.
        // Only the part on the 390×844 pt canvas is rasterised, at 3 px per point.
        let canvas = Canvas(width: 390, height: 844, scale: 3)
        var root = Layer(); root.setFrame(Rect(0, 0, 390, 844))
        var s = Layer(.shape); s.setFrame(Rect(0, 0, 390, 5000)); s.shape.path = .rect(Rect(0, 0, 390, 5000))
        root.sublayers = [s]
        var sc = Scene(canvas: canvas, root: root); sc.assignIDs()
        let p = FramePlanner(canvas: canvas, images: [:]).plan(root: sc.root)
        let r = p.rasterRequests[0]
        guard case .shape(let raster) = r.content else { return XCTFail() }
        XCTAssertEqual(raster.scaleX, 3)
        XCTAssertEqual(raster.scaleY, 3)
        XCTAssertLessThanOrEqual(r.pixelHeight, 2532 + 8)
        XCTAssertGreaterThanOrEqual(r.pixelHeight, 2532)
    }
}
