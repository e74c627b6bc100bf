import Geometry
import Plan
import Render
import XCTest

/// Solid quads, blending, transforms (lavapipe; expected values computed by hand).
final class SolidDrawingTests: GPUTestCase {
    func testClearColor() throws {
        let frame = try render(FramePlan(pixelWidth: 8, pixelHeight: 4, clearColor: RGBA(0.2, 0.4, 0.6, 1)))
        XCTAssertEqual(frame.width, 8)
        XCTAssertEqual(frame.height, 4)
        XCTAssertEqual(frame.pixels.count, 8 * 4 * 4)
        // 0.2·255 = 51, 0.4·255 = 102, 0.6·255 = 153 (UNORM rounds to nearest).
        for y in 0..<4 { for x in 0..<8 { assertPixel(frame, x, y, [51, 102, 153, 255]) } }
        XCTAssertEqual(frame.stats.items, 0)
        XCTAssertEqual(frame.stats.drawCalls, 0)
    }

    func testOpaqueRectAtIntegerPixelsHasExactEdges() throws {
        // A 10×10 quad at (10, 10): pixels 10…19 inside, 9 and 20 outside, no antialiasing.
        let plan = FramePlan(pixelWidth: 32, pixelHeight: 32, clearColor: .clear,
                             items: [solid(Rect(10, 10, 10, 10), RGBA(0, 1, 0, 1))])
        let frame = try render(plan)
        for i in 10...19 {
            assertPixel(frame, i, 10, [0, 255, 0, 255]); assertPixel(frame, i, 19, [0, 255, 0, 255])
            assertPixel(frame, 10, i, [0, 255, 0, 255]); assertPixel(frame, 19, i, [0, 255, 0, 255])
            assertPixel(frame, i, 9, Self.transparent); assertPixel(frame, i, 20, Self.transparent)
            assertPixel(frame, 9, i, Self.transparent); assertPixel(frame, 20, i, Self.transparent)
        }
        XCTAssertEqual(frame.stats.drawCalls, 1)
        XCTAssertNotNil(frame.stats.gpuNanoseconds)
    }

    func testPremultipliedSourceOverHalfBlueOnOpaqueRed() throws {
        // dst = red (255, 0, 0, 255); src = 50 % blue premultiplied (0, 0, 0.5, 0.5).
        // out = src + dst·(1 − 0.5) = (127.5, 0, 127.5, 255).
        let plan = FramePlan(pixelWidth: 4, pixelHeight: 4, clearColor: Self.opaqueRed,
                             items: [solid(Rect(0, 0, 4, 4), RGBA(0, 0, 0.5, 0.5))])
        let frame = try render(plan)
        assertPixel(frame, 1, 1, [128, 0, 128, 255], tolerance: 1)
    }

    func testConsecutiveItemsWithOnePipelineAreOneDraw() throws {
        let plan = FramePlan(pixelWidth: 8, pixelHeight: 8, clearColor: .clear, items: [
            solid(Rect(0, 0, 2, 2), RGBA(1, 0, 0, 1)), solid(Rect(2, 0, 2, 2), RGBA(0, 1, 0, 1)),
            solid(Rect(4, 0, 2, 2), RGBA(0, 0, 1, 1)),
            solid(Rect(0, 4, 4, 4), RGBA(1, 1, 1, 1), shape: RoundedShape(rect: Rect(0, 4, 4, 4), radii: [1, 1, 1, 1])),
        ])
        let frame = try render(plan)
        XCTAssertEqual(frame.stats.items, 4)
        XCTAssertEqual(frame.stats.drawCalls, 2)   // three plain quads, then a shaped one
        assertPixel(frame, 0, 0, [255, 0, 0, 255]); assertPixel(frame, 3, 1, [0, 255, 0, 255])
        assertPixel(frame, 5, 1, [0, 0, 255, 255]); assertPixel(frame, 2, 6, [255, 255, 255, 255])
    }

    func testTransformTranslatesAndScalesLocalPoints() throws {
        // Local quad (0,0,2,2) · scale 3 then translate (5, 6) -> device (5…11, 6…12).
        let t = Transform3D.scale(3, 3) * Transform3D.translation(5, 6)
        let frame = try render(FramePlan(pixelWidth: 16, pixelHeight: 16, clearColor: .clear,
                                         items: [solid(Rect(0, 0, 2, 2), RGBA(1, 1, 1, 1), transform: t)]))
        assertPixel(frame, 5, 6, [255, 255, 255, 255]); assertPixel(frame, 10, 11, [255, 255, 255, 255])
        assertPixel(frame, 4, 6, Self.transparent); assertPixel(frame, 11, 11, Self.transparent)
        assertPixel(frame, 5, 12, Self.transparent)
    }

    func testPerspectiveDrawsATrapezoid() throws {
        // A 40×40 quad centred on its origin, rotated 45° about y, seen with eye distance 100, moved
        // to the centre of a 64×64 target. For x = ±20: z = ∓x·sin45°, w = 1 − z/100 = 1 ± 0.1414,
        // so the left edge (w = 0.8586) spans y = 32 ± 23.29 and the right edge (w = 1.1414) only
        // 32 ± 17.52; x spans 32 − 16.47 … 32 + 12.39.
        let t = Transform3D.rotation(Double.pi / 4, 0, 1, 0) * Transform3D.perspective(100) * Transform3D.translation(32, 32)
        let left = t.apply(-20, -20), right = t.apply(20, -20)
        XCTAssertEqual(left.w, 1 - 20 * sin(Double.pi / 4) / 100, accuracy: 1e-9)
        XCTAssertEqual(right.w, 1 + 20 * sin(Double.pi / 4) / 100, accuracy: 1e-9)
        let frame = try render(FramePlan(pixelWidth: 64, pixelHeight: 64, clearColor: .clear,
                                         items: [solid(Rect(-20, -20, 40, 40), RGBA(1, 1, 1, 1), transform: t)]))
        // Near the tall left edge, rows 10 and 53 are inside (top edge there at y ≈ 9.1, bottom ≈ 54.9)…
        assertPixel(frame, 17, 10, [255, 255, 255, 255]); assertPixel(frame, 17, 53, [255, 255, 255, 255])
        // …near the short right edge the same rows are outside (top edge at y ≈ 14.1, bottom ≈ 49.9).
        assertPixel(frame, 42, 10, Self.transparent); assertPixel(frame, 42, 53, Self.transparent)
        assertPixel(frame, 42, 32, [255, 255, 255, 255])
        // Left of x ≈ 15.5 and right of x ≈ 44.4 nothing is drawn.
        assertPixel(frame, 14, 32, Self.transparent); assertPixel(frame, 45, 32, Self.transparent)
    }

    func testItemBehindTheEyeDrawsNothing() throws {
        // m44 = −1: every vertex has w = −1 < 0, so the whole quad is clipped away.
        var t = Transform3D.identity
        t.m44 = -1
        let frame = try render(FramePlan(pixelWidth: 16, pixelHeight: 16, clearColor: .clear,
                                         items: [solid(Rect(-8, -8, 16, 16), RGBA(1, 1, 1, 1), transform: t)]))
        XCTAssertTrue(frame.pixels.allSatisfy { $0 == 0 })
    }
}
