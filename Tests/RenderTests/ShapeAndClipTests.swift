import Geometry
import Plan
import Render
import XCTest

/// Rounded rectangles, borders and clips (coverage is evaluated per fragment).
final class ShapeAndClipTests: GPUTestCase {
    let white = RGBA(1, 1, 1, 1)
    let opaqueWhite: [UInt8] = [255, 255, 255, 255]

    func testCircularRoundedRect() throws {
        let rect = Rect(0, 0, 40, 40)
        let shape = RoundedShape(rect: rect, radii: [10, 10, 10, 10])
        let frame = try render(FramePlan(pixelWidth: 40, pixelHeight: 40, clearColor: .clear,
                                         items: [solid(rect, white, shape: shape)]))
        assertPixel(frame, 0, 0, Self.transparent)          // the corner: 13.4 from the arc's centre
        assertPixel(frame, 39, 39, Self.transparent)
        assertPixel(frame, 20, 20, opaqueWhite)             // the centre
        assertPixel(frame, 20, 0, opaqueWhite)              // mid-edge: straight, pixel-aligned
        // Pixel (0, 7): centre (0.5, 7.5) is 9.82 from (10, 10), 0.18 px inside the arc: about 68 %.
        let onArc = frame.pixel(0, 7)
        XCTAssertTrue((120...225).contains(onArc[3]), "arc pixel alpha \(onArc[3])")
        XCTAssertEqual(onArc[0], onArc[3])                  // premultiplied white
    }

    func testRadiiAreClampedToHalfTheShorterSide() throws {
        // Radius 100 on a 20×40 rect is clamped to 10: the top-left pixel is outside, (10, 1) inside.
        let rect = Rect(0, 0, 20, 40)
        let frame = try render(FramePlan(pixelWidth: 20, pixelHeight: 40, clearColor: .clear,
                                         items: [solid(rect, white, shape: RoundedShape(rect: rect, radii: [100, 100, 100, 100]))]))
        assertPixel(frame, 0, 0, Self.transparent)
        assertPixel(frame, 10, 1, opaqueWhite)
        assertPixel(frame, 10, 20, opaqueWhite)
    }

    func testContinuousCornerFollowsTheTabulatedCurve() throws {
        // r = 10: the curve starts e = 15.28665 from the corner. For pixels in the top-left corner
        // region compare with the profile computed in Geometry (coverage ≈ 0.5 + distance inside).
        let r = 10.0
        let rect = Rect(0, 0, 64, 64)
        let frame = try render(FramePlan(pixelWidth: 64, pixelHeight: 64, clearColor: .clear, items: [
            solid(rect, white, shape: RoundedShape(rect: rect, radii: [r, r, r, r], curve: .continuous))]))
        let corner = CornerProfile.continuous(radius: r, limit: 32)
        let e = corner.inset
        XCTAssertEqual(e, 15.28665, accuracy: 1e-9)
        var checked = 0
        for y in 0..<15 { for x in 0..<15 {
            let (a, b) = (e - (Double(x) + 0.5), e - (Double(y) + 0.5))
            let inside = corner.radius(at: atan2(b, a)) - (a * a + b * b).squareRoot()
            let expected = min(max(0.5 + inside, 0), 1) * 255
            guard abs(inside) < 3 else { continue }
            checked += 1
            XCTAssertEqual(Double(frame.pixel(x, y)[3]), expected, accuracy: 40, "pixel (\(x), \(y))")
        } }
        XCTAssertGreaterThan(checked, 20)
        assertPixel(frame, 0, 0, Self.transparent)
        assertPixel(frame, 32, 32, opaqueWhite)
    }

    func testAntialiasedEdgeOutsideTheQuadIsDrawn() throws {
        // Shape edge at x = 10.25: pixel 10 (centre 10.5) is 0.25 px outside, coverage 0.25. Its centre
        // lies outside the quad too, so this needs the quad grown by the antialiasing outset.
        let rect = Rect(0, 0, 10.25, 4)
        let frame = try render(FramePlan(pixelWidth: 12, pixelHeight: 4, clearColor: .clear,
                                         items: [solid(rect, white, shape: RoundedShape(rect: rect))]))
        assertPixel(frame, 9, 2, opaqueWhite)
        assertPixel(frame, 10, 2, [64, 64, 64, 64], tolerance: 2)
        assertPixel(frame, 11, 2, Self.transparent)
    }

    func testBorderRingLeavesTheInsideTransparent() throws {
        // A 4-pixel border: shape (0,0,40,40) minus inner (4,4,36,36), both with rounded corners.
        let outer = RoundedShape(rect: Rect(0, 0, 40, 40), radii: [8, 8, 8, 8])
        let inner = RoundedShape(rect: Rect(4, 4, 32, 32), radii: [4, 4, 4, 4])
        let frame = try render(FramePlan(pixelWidth: 40, pixelHeight: 40, clearColor: .clear, items: [
            solid(Rect(0, 0, 40, 40), RGBA(0, 0, 1, 1), shape: outer, inner: inner)]))
        assertPixel(frame, 20, 20, Self.transparent)        // inside the ring
        assertPixel(frame, 5, 20, Self.transparent)         // just inside the inner edge
        assertPixel(frame, 1, 20, [0, 0, 255, 255])         // on the ring
        assertPixel(frame, 20, 38, [0, 0, 255, 255])
        assertPixel(frame, 0, 0, Self.transparent)          // outside the outer corner
    }

    func testRectangularClipWithPixelAlignedEdgesIsExact() throws {
        let clip = Clip(transform: .identity, shape: RoundedShape(rect: Rect(10, 10, 10, 10)), layer: 9)
        let frame = try render(FramePlan(pixelWidth: 32, pixelHeight: 32, clearColor: .clear, items: [
            solid(Rect(0, 0, 32, 32), RGBA(1, 0, 0, 1), clips: [clip])]))
        for i in 10...19 {
            assertPixel(frame, i, 10, [255, 0, 0, 255]); assertPixel(frame, 19, i, [255, 0, 0, 255])
            assertPixel(frame, i, 9, Self.transparent); assertPixel(frame, 20, i, Self.transparent)
        }
    }

    func testRotatedClip() throws {
        // Clip space = local points moved by (−20, −20) then rotated 45°: the clip square
        // (−5…5)² is a diamond |x − 20| + |y − 20| ≤ 7.07 in device pixels.
        let t = Transform3D.translation(-20, -20) * Transform3D.rotation(Double.pi / 4, 0, 0, 1)
        let clip = Clip(transform: t, shape: RoundedShape(rect: Rect(-5, -5, 10, 10)), layer: 9)
        let frame = try render(FramePlan(pixelWidth: 40, pixelHeight: 40, clearColor: .clear, items: [
            solid(Rect(0, 0, 40, 40), white, clips: [clip])]))
        assertPixel(frame, 20, 20, opaqueWhite)
        assertPixel(frame, 15, 20, opaqueWhite)     // centre (15.5, 20.5): 5.0 of 7.07 along the diagonal metric
        assertPixel(frame, 12, 20, Self.transparent) // 8.0 > 7.07 + AA
        assertPixel(frame, 14, 14, Self.transparent) // |−5.5| + |−5.5| = 11
        assertPixel(frame, 25, 25, Self.transparent)
    }

    func testTwoClipsIntersect() throws {
        let a = Clip(transform: .identity, shape: RoundedShape(rect: Rect(0, 0, 20, 32)), layer: 8)
        let b = Clip(transform: .identity, shape: RoundedShape(rect: Rect(10, 0, 22, 32)), layer: 9)
        let frame = try render(FramePlan(pixelWidth: 32, pixelHeight: 32, clearColor: .clear, items: [
            solid(Rect(0, 0, 32, 32), white, clips: [a, b])]))
        assertPixel(frame, 9, 5, Self.transparent); assertPixel(frame, 10, 5, opaqueWhite)
        assertPixel(frame, 19, 5, opaqueWhite); assertPixel(frame, 20, 5, Self.transparent)
    }
}
