import Geometry
import Plan
import Raster
import Render
import XCTest

/// The plan's execution decisions (`CanvasExecution`: culling, blending off, coverage levels,
/// batches) change how much work a frame costs, never its pixels: each scene here is drawn as
/// planned and as the logical items drawn one by one with the full corner code, and the two
/// frames must be byte-identical on lavapipe.
final class CanvasExecutionRenderTests: GPUTestCase {
    /// Draws `items` as they are, with every shape's corner code at its most general level (what
    /// caprof ran for every shaped item before coverage levels existed).
    func reference(_ items: [DrawItem], size: Int) throws -> RenderedFrame {
        let general = items.map { item -> DrawItem in
            var i = item
            if item.requiredCoverage > .none { i.coverageVariant = .continuousCorners }
            return i
        }
        return try render(FramePlan(pixelWidth: size, pixelHeight: size, clearColor: RGBA(1, 1, 1, 1), items: general))
    }

    func executed(_ items: [DrawItem], size: Int) throws -> (RenderedFrame, CanvasExecutionStats) {
        let e = CanvasExecution.prepare(items, images: [], width: size, height: size)
        let plan = FramePlan(pixelWidth: size, pixelHeight: size, clearColor: RGBA(1, 1, 1, 1), items: items, canvasItems: e.items)
        return (try render(plan), e.stats)
    }

    /// Small layers at fractional positions: rounded (circular and continuous), square, rotated
    /// (unshaped), some translucent, overlapping: one instanced draw instead of a run per change.
    func testSmallMixedLayersAreOneDrawWithTheSamePixels() throws {
        var items: [DrawItem] = []
        for i in 0..<300 {
            let x = Double((i * 37) % 180) + 0.3, y = Double((i * 53) % 180) + 0.6
            let a: Float = i % 3 == 0 ? 0.9 : 1
            let c = RGBA(Float((i * 67) % 256) / 255 * a, Float((i * 131) % 256) / 255 * a, Float((i * 29) % 256) / 255 * a, a)
            let rect = Rect(0, 0, 18, 18), m = Transform3D.translation(x, y, 0)
            let item: DrawItem
            switch i % 5 {
            case 0: item = DrawItem(layer: 1, role: .background, paint: .solid(c), transform: .rotation(0.2, 0, 0, 1) * m, quad: rect)
            case 1: item = DrawItem(layer: 1, role: .background, paint: .solid(c), transform: m, quad: rect.insetBy(dx: -1, dy: -1),
                                    shape: RoundedShape(rect: rect, radii: [5, 5, 5, 5]))
            case 2: item = DrawItem(layer: 1, role: .background, paint: .solid(c), transform: m, quad: rect.insetBy(dx: -1, dy: -1),
                                    shape: RoundedShape(rect: rect, radii: [4, 4, 4, 4], curve: .continuous))
            default: item = DrawItem(layer: 1, role: .background, paint: .solid(c), transform: m, quad: rect.insetBy(dx: -1, dy: -1),
                                     shape: RoundedShape(rect: rect))
            }
            items.append(item)
        }
        let ref = try reference(items, size: 200)
        let (frame, stats) = try executed(items, size: 200)
        XCTAssertEqual(stats.batches, 1)
        XCTAssertEqual(frame.stats.drawCalls, 1)
        XCTAssertGreaterThan(ref.stats.drawCalls, 100)
        XCTAssertEqual(Self.difference(frame.pixels, ref.pixels).pixels, 0)
    }

    /// Rotated translucent rounded rectangles with circular corners: the circular level reads no
    /// curve table and gives the pixels of the general code, byte for byte.
    func testCircularCornersWithoutTheCurveLookupAreByteIdentical() throws {
        let items = roundedRects()
        XCTAssertEqual(Set(items.map(\.executedCoverage)), [.circularCorners])
        let ref = try reference(items, size: 300)
        let circular = try render(FramePlan(pixelWidth: 300, pixelHeight: 300, clearColor: RGBA(1, 1, 1, 1), items: items))
        XCTAssertEqual(Self.difference(circular.pixels, ref.pixels).pixels, 0)
    }

    /// The same rectangles split into interiors, edge bands and corner zones: pixel centres fall in
    /// exactly one piece (no seam, no double blend); the local point is interpolated across each
    /// piece instead of the whole quad, which moves a few edge pixels by 1/255.
    /// (Stretched 10 % along one axis: rotated isotropic items are drawn whole, see below.)
    func testSplitItemsDrawTheirPixelsOnceWithin1Of255() throws {
        let items = roundedRects().map { item -> DrawItem in
            var i = item
            i.transform = .scale(1.1, 1, 1) * item.transform
            return i
        }
        XCTAssertFalse(items.contains { $0.hasIsotropicCoverage })
        let ref = try reference(items, size: 300)
        let (frame, stats) = try executed(items, size: 300)
        // Every rectangle is ≥ 128² device pixels on the canvas but the one the canvas edge cuts.
        XCTAssertGreaterThanOrEqual(stats.splitItems, 11)
        XCTAssertEqual(stats.promotedItems, 0)
        let d = Self.difference(frame.pixels, ref.pixels)
        XCTAssertLessThanOrEqual(d.max, 1)
        XCTAssertLessThan(d.pixels, 300 * 300 / 200, "\(d.pixels) pixels differ")
    }

    /// Under a similarity (rotation, uniform scale) the shape's coverage runs with one pixel size
    /// from the vertex shader instead of per-fragment derivatives (`ISOTROPIC`), and rotated
    /// items are drawn whole, not split: the same formulas, so pixels move by at most 1/255 (the
    /// derivatives' rounding) against the general code, and rarely.
    func testIsotropicCoverageMatchesTheDerivativeCodeWithin1Of255() throws {
        let items = roundedRects()
        XCTAssertTrue(items.allSatisfy { $0.hasIsotropicCoverage })
        let ref = try reference(items.map { var i = $0; i.derivativeCoverage = true; return i }, size: 300)
        let (frame, stats) = try executed(items, size: 300)
        XCTAssertEqual(stats.splitItems, 0)
        XCTAssertEqual(frame.stats.drawCalls, 1)
        let d = Self.difference(frame.pixels, ref.pixels)
        XCTAssertLessThanOrEqual(d.max, 1)
        XCTAssertLessThan(d.pixels, 300 * 300 / 200, "\(d.pixels) pixels differ")
        // Scaled 3× (a Retina canvas) and continuous corners: the same.
        let scaled = items.map { item -> DrawItem in
            var i = item
            i.transform = item.transform * .scale(3, 3, 1) * .translation(-300, -250, 0)
            i.shape = RoundedShape(rect: item.shape!.rect, radii: item.shape!.radii, curve: .continuous)
            return i
        }
        XCTAssertTrue(scaled.allSatisfy { $0.hasIsotropicCoverage })
        let ref3 = try reference(scaled.map { var i = $0; i.derivativeCoverage = true; return i }, size: 300)
        let (frame3, _) = try executed(scaled, size: 300)
        let d3 = Self.difference(frame3.pixels, ref3.pixels)
        XCTAssertLessThanOrEqual(d3.max, 1)
        XCTAssertLessThan(d3.pixels, 300 * 300 / 200, "\(d3.pixels) pixels differ")
    }

    /// The AFFINE fragment shaders (varyings interpolated linearly in screen space) against the
    /// general, perspective-correct ones on the same geometry: each item drawn once as it is
    /// (w = 1) and once with m14 = 1e-9, which makes w vary (by < 3e-7 over the canvas) and so
    /// selects the general shaders, on what is the same geometry to float precision. Covers every
    /// interpolated varying: the local point (rounded rectangles), texel coordinates (a rotated
    /// image, bilinear) and clip coordinates (a solid under a rotated rounded clip). Both runs use
    /// the derivative coverage code, so interpolation is the only difference.
    func testAffineInterpolationMatchesPerspectiveCorrectWithin1Of255() throws {
        var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
        for y in 0..<64 {
            for x in 0..<64 {
                let a = UInt8(128 + (x * y) % 128)   // premultiplied: every channel ≤ alpha
                pixels[(y * 64 + x) * 4 ..< (y * 64 + x) * 4 + 4] = [UInt8(x * 4 * Int(a) / 255), UInt8(y * 4 * Int(a) / 255), a / 2, a]
            }
        }
        let bitmap = Bitmap(width: 64, height: 64, pixels: pixels)
        let clipShape = RoundedShape(rect: Rect(0, 0, 120, 100), radii: [25, 25, 25, 25])
        // The clip maps device points (the solid has no transform) into its own units: its centre at (150, 220).
        let clip = Clip(transform: .translation(-150, -220, 0) * .rotation(0.4, 0, 0, 1) * .translation(60, 50, 0),
                        shape: clipShape, layer: 9)
        var items = roundedRects()
        items.append(image(0, Rect(0, 0, 64, 64), uv: Rect(0, 0, 64, 64), sampling: .linear, opacity: 0.9,
                           transform: .translation(-32, -32, 0) * .rotation(0.35, 0, 0, 1) * .scale(1.7, 1.7, 1) * .translation(220, 70, 0)))
        items.append(solid(Rect(90, 170, 120, 100), RGBA(0.1, 0.3, 0.5, 0.8), clips: [clip]))
        items = items.map { var i = $0; i.derivativeCoverage = true; return i }
        XCTAssertTrue(items.allSatisfy(\.interpolatesAffinely))
        let general = items.map { item -> DrawItem in
            var i = item
            i.transform.m14 = 1e-9
            return i
        }
        XCTAssertFalse(general.contains(where: \.interpolatesAffinely))
        let plan = { (items: [DrawItem]) in
            FramePlan(pixelWidth: 300, pixelHeight: 300, clearColor: RGBA(1, 1, 1, 1),
                      images: [PlannedImage(key: bitmap.contentHash, pixelWidth: 64, pixelHeight: 64)], items: items)
        }
        let affine = try render(plan(items), images: [bitmap.contentHash: bitmap])
        let ref = try render(plan(general), images: [bitmap.contentHash: bitmap])
        // The scene draws: every rectangle, the image and the clipped solid show.
        XCTAssertNotEqual(affine.pixel(220, 70), [255, 255, 255, 255])
        XCTAssertNotEqual(affine.pixel(150, 220), [255, 255, 255, 255])
        let d = Self.difference(affine.pixels, ref.pixels)
        XCTAssertLessThanOrEqual(d.max, 1)
        XCTAssertLessThan(d.pixels, 300 * 300 / 1000, "\(d.pixels) pixels differ")   // 25 on lavapipe
    }

    /// Coverage at the arc of a rotated circular corner, computed by hand: a black 40 × 40 square
    /// with 16-unit corners, turned 30° about its centre at (32, 32) on white, scale 1. A pixel
    /// whose centre lies in a corner's quadrant at distance d from that corner's centre is covered
    /// clamp(0.5 + 16 − d, 0, 1) (the corner's normal distance in device pixels).
    func testIsotropicCircularCornerCoverageByHand() throws {
        let rect = Rect(0, 0, 40, 40), angle = Double.pi / 6
        let m = Transform3D.translation(-20, -20, 0) * .rotation(angle, 0, 0, 1) * .translation(32, 32, 0)
        let item = DrawItem(layer: 1, role: .background, paint: .solid(RGBA(0, 0, 0, 1)), transform: m,
                            quad: rect.insetBy(dx: -2, dy: -2), shape: RoundedShape(rect: rect, radii: [16, 16, 16, 16]))
        XCTAssertTrue(item.hasIsotropicCoverage)
        let frame = try render(FramePlan(pixelWidth: 64, pixelHeight: 64, clearColor: RGBA(1, 1, 1, 1), items: [item]))
        var checked = 0
        for py in 0..<64 {
            for px in 0..<64 {
                // The pixel centre back in the square's local units (the inverse rotation).
                let dx = Double(px) + 0.5 - 32, dy = Double(py) + 0.5 - 32
                let lx = dx * cos(angle) + dy * sin(angle) + 20, ly = -dx * sin(angle) + dy * cos(angle) + 20
                // The nearest corner's centre, 16 in from both edges; only its quadrant.
                let cx = lx < 20 ? 16.0 : 24.0, cy = ly < 20 ? 16.0 : 24.0
                let ox = lx < 20 ? cx - lx : lx - cx, oy = ly < 20 ? cy - ly : ly - cy
                guard ox > 0.5, oy > 0.5 else { continue }
                let d = (ox * ox + oy * oy).squareRoot()
                let coverage = min(max(0.5 + 16 - d, 0), 1)
                guard coverage > 0.02, coverage < 0.98 else { continue }
                let expected = (1 - coverage) * 255
                let got = Double(frame.pixels[(py * 64 + px) * 4])
                XCTAssertEqual(got, expected, accuracy: 1.0, "pixel (\(px), \(py)), d = \(d)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 40)
    }

    /// Twelve 150 × 90 rounded rectangles (radii 6…17, 20, 3, 30), each turned and at 50 %.
    func roundedRects() -> [DrawItem] {
        (0..<12).map { i in
            let rect = Rect(0, 0, 150, 90)
            let m = Transform3D.translation(-75, -45, 0) * .rotation(Double(i) * 0.27 + 0.05, 0, 0, 1)
                * .translation(100 + Double(i % 3) * 40, 90 + Double(i / 3) * 25, 0)
            return DrawItem(layer: 1, role: .background, paint: .solid(RGBA(0.4, 0.1, 0.25, 0.5)), transform: m,
                            quad: rect, shape: RoundedShape(rect: rect, radii: [6 + Double(i), 20, 3, 30]))
        }
    }

    /// Pixels that differ and the largest difference of one byte (never prints the arrays).
    static func difference(_ a: [UInt8], _ b: [UInt8]) -> (pixels: Int, max: Int) {
        guard a.count == b.count else { return (Int.max, 255) }
        var pixels = 0, worst = 0
        for p in stride(from: 0, to: a.count, by: 4) {
            var d = 0
            for c in 0..<4 { d = max(d, abs(Int(a[p + c]) - Int(b[p + c]))) }
            if d > 0 { pixels += 1; worst = max(worst, d) }
        }
        return (pixels, worst)
    }

    /// Dense overlapping small layers, opaque, rounded and translucent, at fractional positions:
    /// many are hidden only by the union of several opaque ones above them; culled, the frame is
    /// byte-identical.
    func testItemsHiddenByTheUnionOfSeveralAreCulledWithTheSamePixels() throws {
        var items: [DrawItem] = []
        for i in 0..<600 {
            let x = Double((i * 37) % 110) + 0.3, y = Double((i * 53) % 110) + 0.6
            let a: Float = i % 4 == 0 ? 0.8 : 1
            let c = RGBA(Float((i * 67) % 256) / 255 * a, Float((i * 131) % 256) / 255 * a, Float((i * 29) % 256) / 255 * a, a)
            let rect = Rect(0, 0, 20, 20), m = Transform3D.translation(x, y, 0)
            items.append(i % 3 == 1
                ? DrawItem(layer: 1, role: .background, paint: .solid(c), transform: m, quad: rect.insetBy(dx: -1, dy: -1),
                           shape: RoundedShape(rect: rect, radii: [5, 5, 5, 5]))
                : DrawItem(layer: 1, role: .background, paint: .solid(c), transform: m, quad: rect))
        }
        let ref = try reference(items, size: 128)
        let (frame, stats) = try executed(items, size: 128)
        XCTAssertGreaterThan(stats.culledItems, 100)
        XCTAssertEqual(Self.difference(frame.pixels, ref.pixels).pixels, 0)
    }

    /// Rounded cards (continuous corners) inside a masksToBounds list, and one crossing its edge:
    /// the clips that contain their cards are dropped, the frame is byte-identical. (A clip maps
    /// the item's local space to the clip's: here the list's space is the device's.)
    func testClipsContainingTheirItemsAreDroppedWithTheSamePixels() throws {
        let listShape = RoundedShape(rect: Rect(0, 20.5, 120, 90))
        var items: [DrawItem] = []
        for i in 0..<4 {
            let rect = Rect(0, 0, 100, 24)
            let y = 25.3 + Double(i) * 26 + (i == 3 ? 4 : 0)   // the last one reaches past the list's bottom
            let card = Transform3D.translation(8.4, y, 0), label = Transform3D.translation(14.7, y + 6, 0)
            items.append(DrawItem(layer: 1, role: .background, paint: .solid(RGBA(0.9, 0.95, 1, 1)), transform: card,
                                  quad: rect.insetBy(dx: -1, dy: -1), shape: RoundedShape(rect: rect, radii: [8, 8, 8, 8], curve: .continuous),
                                  clips: [Clip(transform: card, shape: listShape, layer: 9)]))
            items.append(DrawItem(layer: 1, role: .background, paint: .solid(RGBA(0, 0, 0.4, 0.5)), transform: label,
                                  quad: Rect(0, 0, 40, 8), clips: [Clip(transform: label, shape: listShape, layer: 9)]))
        }
        let ref = try reference(items, size: 128)
        let (frame, stats) = try executed(items, size: 128)
        XCTAssertEqual(stats.droppedClips, 6, "all but the last card's and its label's, which reach past the list")
        XCTAssertEqual(Self.difference(frame.pixels, ref.pixels).pixels, 0)
        // The last card is cut by the list's bottom edge at y = 110.5.
        assertPixel(frame, 60, 112, [255, 255, 255, 255])
    }

    /// An opaque full-canvas layer on top: everything beneath is culled and it is drawn with
    /// blending off; the pixels are the top layer's, as before.
    func testOpaqueTopLayerCullsWithTheSamePixels() throws {
        var items = (0..<8).map { i in
            DrawItem(layer: 1, role: .background, paint: .solid(RGBA(0, 0, 0.5, 0.5)), transform: .translation(Double(i) * 3.25, 0, 0),
                     quad: Rect(0, 0, 60, 60), shape: RoundedShape(rect: Rect(0, 0, 60, 60), radii: [8, 8, 8, 8]))
        }
        items.append(DrawItem(layer: 2, role: .background, paint: .solid(RGBA(0.2, 0.6, 0.4, 1)), transform: .identity,
                              quad: Rect(0, 0, 100, 100)))
        let ref = try reference(items, size: 100)
        let (frame, stats) = try executed(items, size: 100)
        XCTAssertEqual(stats.culledItems, 8)
        XCTAssertEqual(stats.opaqueItems, 1)
        XCTAssertEqual(frame.stats.drawCalls, 1)
        XCTAssertEqual(Self.difference(frame.pixels, ref.pixels).pixels, 0)
        // 0.2·255 = 51, 0.6·255 = 153, 0.4·255 = 102.
        assertPixel(frame, 50, 50, [51, 153, 102, 255])
    }
}
