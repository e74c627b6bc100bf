import Geometry
import Plan
import Raster
import Render
import XCTest

/// Images: texelFetch, filtered sampling, texture sharing and residency.
final class ImageDrawingTests: GPUTestCase {
    /// 3×2 premultiplied pixels, all different.
    let bitmap = Bitmap(width: 3, height: 2, pixels: [
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
        10, 20, 30, 40, 128, 64, 32, 255, 0, 0, 0, 0,
    ])

    func testTexelFetchReproducesTheBitmapAtAnIntegerOffset() throws {
        let plan = FramePlan(pixelWidth: 12, pixelHeight: 12, clearColor: .clear,
                             images: [PlannedImage(key: 7, pixelWidth: 3, pixelHeight: 2)],
                             items: [image(0, Rect(0, 0, 3, 2), uv: Rect(0, 0, 3, 2), transform: .translation(5, 7))])
        let frame = try render(plan, images: [7: bitmap])
        for y in 0..<2 { for x in 0..<3 {
            let i = (y * 3 + x) * 4
            assertPixel(frame, 5 + x, 7 + y, Array(bitmap.pixels[i..<i + 4]))
        } }
        assertPixel(frame, 4, 7, Self.transparent); assertPixel(frame, 8, 7, Self.transparent)
        assertPixel(frame, 5, 6, Self.transparent); assertPixel(frame, 5, 9, Self.transparent)
    }

    /// Uploads larger than `uploadChunkBytes` go through the staging buffer a chunk at a time (each
    /// submitted before the frame): every texture still holds its bitmap, texel for texel.
    func testChunkedUploadsGiveEveryTextureItsPixels() throws {
        func pattern(_ w: Int, _ h: Int, _ seed: Int) -> Bitmap {
            Bitmap(width: w, height: h, pixels: (0..<w * h).flatMap { i -> [UInt8] in
                let a = UInt8(128 + (i * 37 + seed) % 128)
                return [UInt8((i * 11 + seed) % Int(a)), UInt8((i * 7 + seed * 3) % Int(a)), UInt8(seed * 20 % Int(a)), a]
            })
        }
        let bitmaps = [pattern(5, 4, 1), pattern(6, 3, 2), pattern(7, 2, 3)]
        let offsets = [(0, 0), (8, 1), (2, 8)]
        let plan = FramePlan(pixelWidth: 16, pixelHeight: 12, clearColor: .clear,
                             images: bitmaps.indices.map { PlannedImage(key: UInt64(100 + $0), pixelWidth: bitmaps[$0].width, pixelHeight: bitmaps[$0].height) },
                             items: bitmaps.indices.map { i in
                                 let b = bitmaps[i]
                                 return image(i, Rect(0, 0, Double(b.width), Double(b.height)), uv: Rect(0, 0, Double(b.width), Double(b.height)),
                                              transform: .translation(Double(offsets[i].0), Double(offsets[i].1)))
                             })
        RenderTestSupport.pinLavapipe()
        let renderer = try Renderer()
        renderer.uploadChunkBytes = 100   // 80, 72 and 56 bytes: three chunks (two would exceed 100)
        let frame = try renderer.render(plan, images: Dictionary(uniqueKeysWithValues: bitmaps.indices.map { (UInt64(100 + $0), bitmaps[$0]) }))
        XCTAssertEqual(frame.stats.uploadedBytes, 80 + 72 + 56)
        XCTAssertTrue(renderer.lastFrameCompiledShadersFirst, "lavapipe: the shaders were compiled before the uploads")
        for (b, o) in zip(bitmaps, offsets) {
            for y in 0..<b.height { for x in 0..<b.width {
                let i = (y * b.width + x) * 4
                assertPixel(frame, o.0 + x, o.1 + y, Array(b.pixels[i..<i + 4]))
            } }
        }
    }

    /// Compiling the canvas's shaders before the chunked uploads (a one-pixel draw with the
    /// frame's pipelines and not-yet-filled textures, `ShaderPrecompile.swift`) leaves no trace:
    /// the frame, pixel (0, 0) included, is byte for byte the one drawn without it. Translucent
    /// images over a solid over a clear colour: two pipelines, blending at the first pixel.
    func testCompilingShadersBeforeUploadsDoesNotChangeTheFrame() throws {
        func texel(_ r: Int, _ g: Int, _ b: Int, _ a: Int) -> [UInt8] { [UInt8(r), UInt8(g), UInt8(b), UInt8(a)] }
        let a = Bitmap(width: 6, height: 5, pixels: (0..<30).flatMap { (i: Int) -> [UInt8] in texel(i * 8, 255 - i * 8, 40, 255) })
        let b = Bitmap(width: 4, height: 6, pixels: (0..<24).flatMap { (i: Int) -> [UInt8] in texel(0, i * 5, i * 4, 120 + i) })
        let plan = FramePlan(pixelWidth: 10, pixelHeight: 8, clearColor: RGBA(1, 1, 1, 1),
                             images: [PlannedImage(key: 1, pixelWidth: 6, pixelHeight: 5), PlannedImage(key: 2, pixelWidth: 4, pixelHeight: 6)],
                             items: [solid(Rect(0, 0, 5, 4), RGBA(0.2, 0.4, 0.6, 0.5)),
                                     image(0, Rect(0, 0, 6, 5), uv: Rect(0, 0, 6, 5), opacity: 0.7),
                                     image(1, Rect(0, 0, 4, 6), uv: Rect(0, 0, 4, 6), opacity: 0.9, transform: .translation(3, 1))])
        RenderTestSupport.pinLavapipe()
        var frames: [[UInt8]] = []
        for first in [true, false] {
            let renderer = try Renderer()
            renderer.uploadChunkBytes = 64   // 120 and 96 bytes: chunked, one image each
            renderer.compilesShadersBeforeUploads = first
            let frame = try renderer.render(plan, images: [1: a, 2: b])
            XCTAssertEqual(renderer.lastFrameCompiledShadersFirst, first)
            frames.append(frame.pixels)
        }
        XCTAssertEqual(frames[0], frames[1])
    }

    /// A damaged frame (the frame cache draws only its damage, onto the previous frame's pixels)
    /// whose new image is uploaded in chunks does not compile its shaders first: that draw would
    /// discard the previous pixels and paint pixel (0, 0), outside the damage here. The frame
    /// equals the same plan drawn whole by a fresh renderer.
    func testADamagedFrameWithChunkedUploadsEqualsTheFrameDrawnWhole() throws {
        func texel(_ r: Int, _ g: Int, _ b: Int, _ a: Int) -> [UInt8] { [UInt8(r), UInt8(g), UInt8(b), UInt8(a)] }
        let a = Bitmap(width: 3, height: 3, pixels: (0..<9).flatMap { (i: Int) -> [UInt8] in texel(i * 20, 200 - i * 20, 30, 255) })
        let b = Bitmap(width: 4, height: 6, pixels: (0..<24).flatMap { (i: Int) -> [UInt8] in texel(0, i * 5, i * 4, 120 + i) })
        let images = [PlannedImage(key: 1, pixelWidth: 3, pixelHeight: 3), PlannedImage(key: 2, pixelWidth: 4, pixelHeight: 6)]
        let base = [solid(Rect(0, 0, 10, 8), RGBA(0.2, 0.4, 0.6, 1)), image(0, Rect(0, 0, 3, 3), uv: Rect(0, 0, 3, 3), opacity: 0.7)]
        var added = image(1, Rect(0, 0, 4, 6), uv: Rect(0, 0, 4, 6), opacity: 0.9, transform: .translation(5, 2))
        added.layer = 3
        let first = FramePlan(pixelWidth: 10, pixelHeight: 8, clearColor: .clear, images: images, items: base)
        let second = FramePlan(pixelWidth: 10, pixelHeight: 8, clearColor: .clear, images: images, items: base + [added])
        RenderTestSupport.pinLavapipe()
        let renderer = try Renderer()
        renderer.frameCacheEnabled = true
        renderer.uploadChunkBytes = 64   // the new image's 96 bytes: chunked
        _ = try renderer.render(first, images: [1: a, 2: b])
        let damaged = try renderer.render(second, images: [1: a, 2: b])
        XCTAssertEqual(damaged.stats.frameCache, .damaged)
        XCTAssertEqual(damaged.stats.uploadedBytes, 96)
        XCTAssertFalse(renderer.lastFrameCompiledShadersFirst)
        let whole = try Renderer().render(second, images: [1: a, 2: b])
        XCTAssertEqual(damaged.pixels, whole.pixels)
    }

    func testImageOpacityScalesPremultipliedTexels() throws {
        let plan = FramePlan(pixelWidth: 3, pixelHeight: 2, clearColor: .clear,
                             images: [PlannedImage(key: 7, pixelWidth: 3, pixelHeight: 2)],
                             items: [image(0, Rect(0, 0, 3, 2), uv: Rect(0, 0, 3, 2), opacity: 0.5)])
        let frame = try render(plan, images: [7: bitmap])
        assertPixel(frame, 0, 0, [128, 0, 0, 128], tolerance: 1)        // 255 · 0.5
        assertPixel(frame, 1, 1, [64, 32, 16, 128], tolerance: 1)
    }

    func testLinearSamplingOfA2x1ImageStretchedTo4x1() throws {
        // Texels: black, white (opaque). Pixel centres 0.5…3.5 map to u = 0.25, 0.75, 1.25, 1.75;
        // texel centres are at 0.5 and 1.5, and CLAMP_TO_EDGE holds the ends:
        // white weight = 0, 0.25, 0.75, 1 -> 0, 63.75, 191.25, 255.
        let ramp = Bitmap(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255])
        let plan = FramePlan(pixelWidth: 4, pixelHeight: 1, clearColor: .clear,
                             images: [PlannedImage(key: 1, pixelWidth: 2, pixelHeight: 1)],
                             items: [image(0, Rect(0, 0, 4, 1), uv: Rect(0, 0, 2, 1), sampling: .linear)])
        let frame = try render(plan, images: [1: ramp])
        assertPixel(frame, 0, 0, [0, 0, 0, 255], tolerance: 1)
        assertPixel(frame, 1, 0, [64, 64, 64, 255], tolerance: 2)
        assertPixel(frame, 2, 0, [191, 191, 191, 255], tolerance: 2)
        assertPixel(frame, 3, 0, [255, 255, 255, 255], tolerance: 1)
    }

    func testNearestSamplingPicksTheTexelUnderThePixelCentre() throws {
        let ramp = Bitmap(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255])
        let plan = FramePlan(pixelWidth: 4, pixelHeight: 1, clearColor: .clear,
                             images: [PlannedImage(key: 1, pixelWidth: 2, pixelHeight: 1)],
                             items: [image(0, Rect(0, 0, 4, 1), uv: Rect(0, 0, 2, 1), sampling: .nearest)])
        let frame = try render(plan, images: [1: ramp])
        XCTAssertEqual(frame.pixels, [0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255])
    }

    func testIdenticalImagesShareOneTextureAndStayResident() throws {
        // Two plan images with different keys but the same pixels, drawn twice each.
        let pixels = [UInt8](repeating: 200, count: 8 * 8 * 4)
        let a = Bitmap(width: 8, height: 8, pixels: pixels), b = Bitmap(width: 8, height: 8, pixels: pixels)
        let plan = FramePlan(pixelWidth: 32, pixelHeight: 32, clearColor: .clear,
                             images: [PlannedImage(key: 101, pixelWidth: 8, pixelHeight: 8),
                                      PlannedImage(key: 102, pixelWidth: 8, pixelHeight: 8)],
                             items: [image(0, Rect(0, 0, 8, 8), uv: Rect(0, 0, 8, 8)),
                                     image(1, Rect(0, 0, 8, 8), uv: Rect(0, 0, 8, 8), transform: .translation(8, 0)),
                                     image(0, Rect(0, 0, 8, 8), uv: Rect(0, 0, 8, 8), transform: .translation(16, 0))])
        let first = try render(plan, images: [101: a, 102: b])
        // Shared texture: one upload of 8·8·4 bytes for three items and two plan images.
        XCTAssertEqual(first.stats.uploadedBytes, 256)
        XCTAssertGreaterThan(first.stats.cpuUploadNanoseconds, 0, "the upload's CPU time is its own stage (the profiler's upload)")
        XCTAssertEqual(first.stats.drawCalls, 1)   // same pipeline and texture: one instanced draw
        assertPixel(first, 20, 4, [200, 200, 200, 200])
        let second = try render(plan, images: [101: a, 102: b])
        XCTAssertEqual(second.stats.uploadedBytes, 0)
        XCTAssertEqual(second.pixels, first.pixels)
        XCTAssertGreaterThanOrEqual(second.stats.textureBytesResident, 256)
    }

    func testFirstUploadOfNewContentIsCountedOnce() throws {
        // Content no other test uses (a seeded pattern), so the first render must upload it.
        var pixels = [UInt8](repeating: 0, count: 16 * 4 * 4)
        for i in pixels.indices { pixels[i] = UInt8((i * 37 + 11) % 256) | 1 }
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        let bitmap = Bitmap(width: 16, height: 4, pixels: pixels)
        let plan = FramePlan(pixelWidth: 16, pixelHeight: 8, clearColor: .clear,
                             images: [PlannedImage(key: 5, pixelWidth: 16, pixelHeight: 4),
                                      PlannedImage(key: 6, pixelWidth: 16, pixelHeight: 4)],
                             items: [image(0, Rect(0, 0, 16, 4), uv: Rect(0, 0, 16, 4)),
                                     image(1, Rect(0, 0, 16, 4), uv: Rect(0, 0, 16, 4), transform: .translation(0, 4))])
        let first = try render(plan, images: [5: bitmap, 6: bitmap])
        XCTAssertEqual(first.stats.uploadedBytes, 16 * 4 * 4)
        let second = try render(plan, images: [5: bitmap, 6: bitmap])
        XCTAssertEqual(second.stats.uploadedBytes, 0)
        XCTAssertEqual(Array(second.pixels[0..<256]), pixels)
        XCTAssertEqual(Array(second.pixels[256..<512]), pixels)
    }

    func testMissingBitmapIsATypedError() throws {
        let plan = FramePlan(pixelWidth: 4, pixelHeight: 4, clearColor: .clear,
                             images: [PlannedImage(key: 99, pixelWidth: 1, pixelHeight: 1)],
                             items: [image(0, Rect(0, 0, 1, 1), uv: Rect(0, 0, 1, 1))])
        XCTAssertThrowsError(try render(plan, images: [:])) { error in
            XCTAssertEqual(error as? RenderError, .missingImage(key: 99))
        }
    }
}
