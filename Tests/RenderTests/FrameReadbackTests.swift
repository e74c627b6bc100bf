import Geometry
import Plan
import Raster
@testable import Render
import XCTest

/// How the host reads a finished frame: in place from a linear target on CPU devices, through a
/// readback buffer elsewhere (`RenderTarget`). Both must give the same bytes, whole frames and
/// damaged ones, and a single-frame renderer lets its textures go before the copy.
final class FrameReadbackTests: GPUTestCase {
    /// 37 × 23: rows of 148 bytes, not a multiple of any alignment a linear image's row pitch may
    /// have, so a padded pitch must be unpadded when copying out.
    func plan(square at: Double, colour: RGBA) -> FramePlan {
        let ramp = DrawItem(layer: 2, role: .contents, paint: .image(index: 0, sampling: .linear, opacity: 0.75),
                            transform: .rotation(0.2, 0, 0, 1), quad: Rect(0, 0, 12, 8), uv: Rect(0, 0, 3, 2))
        return FramePlan(pixelWidth: 37, pixelHeight: 23, clearColor: RGBA(0.2, 0.4, 0.6, 1),
                         images: [PlannedImage(key: 9, pixelWidth: 3, pixelHeight: 2)],
                         items: [ramp, solid(Rect(at, 5, 6, 6), colour, shape: RoundedShape(rect: Rect(at, 5, 6, 6), radii: [2, 2, 2, 2]))])
    }

    let bitmap = Bitmap(width: 3, height: 2, pixels: [255, 0, 0, 255, 0, 128, 0, 128, 0, 0, 255, 255,
                                                     20, 40, 60, 255, 0, 0, 0, 0, 200, 200, 0, 200])

    /// The frames of a short sequence with the frame cache on: a full frame, a damaged one (the
    /// square moves), a reused one.
    func sequence(_ r: Renderer) throws -> [RenderedFrame] {
        r.forgetPreviousFrame()
        return try [plan(square: 3, colour: RGBA(0, 0.5, 0, 0.5)), plan(square: 20, colour: RGBA(0, 0.5, 0, 0.5)),
                    plan(square: 20, colour: RGBA(0, 0.5, 0, 0.5))].map { try r.render($0, images: [9: bitmap]) }
    }

    func testInPlaceAndBufferReadbackGiveTheSameFrames() throws {
        let r = try RenderTestSupport.renderer()
        r.frameCacheEnabled = true
        defer { r.frameCacheEnabled = false; r.readsTargetInPlace = true }
        r.readsTargetInPlace = true
        let inPlace = try sequence(r)
        // lavapipe (the CI device) is a CPU device whose linear images can be rendered to: the
        // in-place path must really have been taken, or this test compares the buffer with itself.
        XCTAssertEqual(r.readsLastFrameInPlace, r.deviceReport.kind == .cpu)
        r.readsTargetInPlace = false
        let buffered = try sequence(r)
        XCTAssertFalse(r.readsLastFrameInPlace)
        XCTAssertEqual(inPlace.map(\.stats.frameCache), [.full, .damaged, .reused])
        XCTAssertEqual(buffered.map(\.stats.frameCache), [.full, .damaged, .reused])
        for (a, b) in zip(inPlace, buffered) {
            XCTAssertEqual(a.pixels.count, 37 * 23 * 4)
            XCTAssertEqual(a.pixels, b.pixels)
        }
        // The damaged frame is the frame drawn alone (outside the damage, the previous frame's
        // pixels are kept in the target itself when read in place).
        r.forgetPreviousFrame()
        let alone = try r.render(plan(square: 20, colour: RGBA(0, 0.5, 0, 0.5)), images: [9: bitmap])
        XCTAssertEqual(inPlace[1].pixels, alone.pixels)
        // Clear colour where nothing is drawn (0.2, 0.4, 0.6 · 255: no rounding); the square's
        // premultiplied (0, 128, 0, 128) over it: 51 · 127 / 255 = 25.4, 128 + 102 · 127 / 255 =
        // 178.8, 153 · 127 / 255 = 76.2 (the ramp, rotated about the origin, ends left of x = 13).
        assertPixel(inPlace[1], 36, 22, [51, 102, 153, 255])
        assertPixel(inPlace[1], 23, 8, [25, 179, 76, 255], tolerance: 1)
    }

    func testSingleFrameRendererReleasesTexturesAfterTheFrame() throws {
        let r = try RenderTestSupport.renderer()
        defer { r.releasesTexturesAfterFrame = false }
        let p = plan(square: 3, colour: RGBA(1, 0, 0, 1))
        let kept = try r.render(p, images: [9: bitmap])
        XCTAssertEqual(try r.render(p, images: [9: bitmap]).stats.uploadedBytes, 0, "resident from the frame before")
        r.releasesTexturesAfterFrame = true
        let first = try r.render(p, images: [9: bitmap])
        // The frame reports the textures it drew with, then they are gone: the next frame uploads
        // its image again.
        XCTAssertEqual(first.stats.textureBytesResident, kept.stats.textureBytesResident)
        let second = try r.render(p, images: [9: bitmap])
        XCTAssertEqual(second.stats.uploadedBytes, 3 * 2 * 4)
        XCTAssertEqual(first.pixels, kept.pixels)
        XCTAssertEqual(second.pixels, kept.pixels)
    }
}
