import Foundation
import Geometry
import Plan
import Raster
import Render
import XCTest

/// Region flattening (the plan's `CanvasExecution` step) draws each disjoint rectangle once,
/// blending its stack in registers; the region shader rounds to 8 bits after every layer exactly
/// as the target's fixed-function blend does, so the frame must equal, byte for byte on lavapipe,
/// the same items drawn one blended quad at a time.
final class RegionFlatteningRenderTests: GPUTestCase {
    /// `items` drawn as planned with and without region flattening (everything else alike).
    func frames(_ items: [DrawItem], images: [PlannedImage] = [], bitmaps: [UInt64: Bitmap] = [:],
                width: Int, height: Int, clear: RGBA) throws -> (flat: RenderedFrame, plain: RenderedFrame, stats: CanvasExecutionStats) {
        let flat = CanvasExecution.prepare(items, images: images, width: width, height: height, flattenOver: clear, savingPerRegion: 0)
        let plain = CanvasExecution.prepare(items, images: images, width: width, height: height)
        func plan(_ canvas: [DrawItem]) -> FramePlan {
            FramePlan(pixelWidth: width, pixelHeight: height, clearColor: clear, images: images, items: items, canvasItems: canvas)
        }
        return (try render(plan(flat.items), images: bitmaps), try render(plan(plain.items), images: bitmaps), flat.stats)
    }

    /// A translucent pattern with every alpha level's neighbours (premultiplied), different per seed.
    static func pattern(seed: Int, width: Int, height: Int) -> Bitmap {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height { for x in 0..<width {
            let i = (y * width + x) * 4
            let a = (x * 7 + y * 13 + seed * 29) % 256
            px[i] = UInt8((x * 11 + seed * 16) % 256 * a / 255)
            px[i + 1] = UInt8((y * 5 + seed * 8) % 256 * a / 255)
            px[i + 2] = UInt8((seed * 15 + x) % 256 * a / 255)
            px[i + 3] = UInt8(a)
        } }
        return Bitmap(width: width, height: height, pixels: px)
    }

    /// The benchmark's case in small: 16 full-canvas image layers at opacity 0.8 over white, one
    /// region of depth 16, one draw.
    func testSixteenImageLayersAreOneDrawWithTheSameBytes() throws {
        let w = 96, h = 64
        var images: [PlannedImage] = [], bitmaps: [UInt64: Bitmap] = [:], items: [DrawItem] = []
        for i in 0..<16 {
            let b = Self.pattern(seed: i, width: w, height: h)
            images.append(PlannedImage(key: UInt64(100 + i), pixelWidth: w, pixelHeight: h))
            bitmaps[UInt64(100 + i)] = b
            items.append(image(i, Rect(0, 0, Double(w), Double(h)), uv: Rect(0, 0, Double(w), Double(h)), opacity: 0.8))
        }
        let (flat, plain, stats) = try frames(items, images: images, bitmaps: bitmaps, width: w, height: h, clear: RGBA(1, 1, 1, 1))
        XCTAssertEqual(stats.flattenedRegions, 1)
        XCTAssertEqual(stats.flattenedItems, 16)
        XCTAssertEqual(flat.stats.drawCalls, 1)
        XCTAssertEqual(plain.stats.drawCalls, 16, "a draw per texture unflattened")
        XCTAssertEqual(CanvasExecutionRenderTests.difference(flat.pixels, plain.pixels).pixels, 0)
    }

    /// Solid rectangles of every kind of alpha (0, 1/255, ½, opaque) overlapping at pixel-aligned
    /// edges, with images beside them, over a translucent clear colour: many regions, stacks cut at
    /// opaque layers, the same bytes.
    func testOverlappingSolidsAndImagesGiveTheSameBytes() throws {
        let w = 120, h = 90
        let b = Self.pattern(seed: 3, width: 60, height: 45)
        let images = [PlannedImage(key: 7, pixelWidth: 60, pixelHeight: 45)]
        var items: [DrawItem] = []
        let alphas: [Float] = [0.5, 1, 1.0 / 255, 0.25, 0.8, 0, 0.999, 0.6]
        for i in 0..<10 {
            let a = alphas[i % alphas.count]
            let c = RGBA(Float((i * 67) % 256) / 255 * a, Float((i * 131) % 256) / 255 * a, Float((i * 29) % 256) / 255 * a, a)
            let rect = Rect(Double((i * 17) % 80), Double((i * 23) % 60), Double(20 + (i * 7) % 30), Double(15 + (i * 11) % 25))
            items.append(solid(rect, c))
            if i % 4 == 1 {
                // An image at a whole-pixel offset, from texel (3, 2).
                let o = (i * 13) % 70
                items.append(image(0, Rect(Double(o), Double(o / 2), 50, 35), uv: Rect(3, 2, 50, 35), opacity: i % 8 == 1 ? 1 : 0.7))
            }
        }
        let (flat, plain, stats) = try frames(items, images: images, bitmaps: [7: b], width: w, height: h,
                                              clear: RGBA(0.2, 0.1, 0, 0.4))
        XCTAssertGreaterThan(stats.flattenedRegions, 10)
        XCTAssertEqual(stats.flattenedItems, items.count - stats.culledItems)
        XCTAssertEqual(CanvasExecutionRenderTests.difference(flat.pixels, plain.pixels).pixels, 0)
    }

    /// Twenty translucent full-canvas solids: the bottom 16 are one region, the 4 above it are
    /// drawn as pieces over it (source-over is associative), with the same bytes.
    func testDeeperStacksThanTheShaderHoldsFallBackPerItem() throws {
        let items = (0..<20).map { i in
            solid(Rect(0, 0, 50, 40), RGBA(Float(i) / 40, 0.3 * 0.45, Float(20 - i) / 50, 0.45))
        }
        let (flat, plain, stats) = try frames(items, width: 50, height: 40, clear: RGBA(1, 1, 1, 1))
        XCTAssertEqual(stats.flattenedRegions, 1)
        XCTAssertEqual(stats.flattenedItems, 16)
        XCTAssertEqual(stats.flattenedPieces, 4)
        XCTAssertEqual(CanvasExecutionRenderTests.difference(flat.pixels, plain.pixels).pixels, 0)
    }

    /// The region shader divides by 255 as lavapipe's blend unit does, (t + (t >> 8) + 128) >> 8,
    /// with one multiply: floor(t · C + 0.5) in float32 must agree for every product t of an
    /// 8-bit colour and 255 − an 8-bit alpha (C read from Shaders/flatten.glsl), rounded after the
    /// multiply and after the add or once (fused).
    func testBlendDivisionConstantMatchesTheBlendUnitForEveryProduct() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Shaders/flatten.glsl").standardizedFileURL
        let text = try String(contentsOf: url, encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("const float BLEND_DIVIDE = ") })
        let c = try XCTUnwrap(Float(line.dropFirst("const float BLEND_DIVIDE = ".count).dropLast()))
        var wrong = 0
        for d in 0...255 { for a in 0...255 {
            let t = d * (255 - a)
            let unit = (t + (t >> 8) + 128) >> 8
            // The shader's float32 steps, associated either way: (255 − a) · C first (as the
            // shader writes it), or t = d · (255 − a) exactly first.
            let shader: Float = Float(d) * (Float(255 - a) * c), exactFirst: Float = Float(d) * Float(255 - a) * c
            // Image layers fuse the multiply and the + ½ (fma): one rounding of the exact value,
            // which Double holds exactly here (8 × 24 significant bits, plus ½).
            let fused = Float(Double(d) * Double(Float(255 - a) * c) + 0.5)
            if Int((shader + 0.5).rounded(.down)) != unit || Int((exactFirst + 0.5).rounded(.down)) != unit
                || Int(fused.rounded(.down)) != unit { wrong += 1 }
        } }
        XCTAssertEqual(wrong, 0)
    }

    /// A hand-built plan with a region deeper than one draw blends is refused with the item named,
    /// not drawn short of its top layers.
    func testTooDeepARegionIsAClearError() throws {
        var region = solid(Rect(0, 0, 4, 4), RGBA(0, 0, 0, 0))
        region.flattened = FlattenedRegion(base: RGBA(1, 1, 1, 1), layers: Array(repeating: .solid(RGBA(0, 0, 0.5, 0.5)), count: 17),
                                           rect: PixelRect(x: 0, y: 0, width: 4, height: 4))
        let plan = FramePlan(pixelWidth: 4, pixelHeight: 4, clearColor: RGBA(1, 1, 1, 1), items: [], canvasItems: [region])
        XCTAssertThrowsError(try render(plan)) { error in
            XCTAssertEqual("\(error)", "Canvas item 0 is a flattened region of 17 layers; one region draw blends 1…16.")
        }
    }

    /// A bitmap of another size than the plan saw is refused (the region shader reads the texels
    /// the plan found inside the image, without clamping).
    func testABitmapOfAnotherSizeIsAClearError() throws {
        let items = (0..<2).map { _ in image(0, Rect(0, 0, 8, 8), uv: Rect(0, 0, 8, 8), opacity: 0.5) }
        let images = [PlannedImage(key: 9, pixelWidth: 8, pixelHeight: 8)]
        let e = CanvasExecution.prepare(items, images: images, width: 8, height: 8, flattenOver: RGBA(1, 1, 1, 1), savingPerRegion: 0)
        XCTAssertEqual(e.stats.flattenedRegions, 1)
        let plan = FramePlan(pixelWidth: 8, pixelHeight: 8, clearColor: RGBA(1, 1, 1, 1), images: images, items: items, canvasItems: e.items)
        XCTAssertThrowsError(try render(plan, images: [9: Self.pattern(seed: 1, width: 4, height: 8)])) { error in
            XCTAssertEqual("\(error)", "Image 9 is 4×8 pixels, but the frame plan was made for 8×8.")
        }
    }

    /// Layer i of a region reads binding i: a solid below two different images must not shift
    /// them down a binding. Over white, by hand in 8 bits (dst · (255 − a) / 255 as the blend
    /// unit rounds it): the solid (0.5, 0, 0, 0.5) -> (128, 0, 0, 128) gives (255, 127, 127, 255);
    /// image A (0, 128, 0, 128): 127 · 127 / 255 -> 63, so (127, 191, 63, 255); image B
    /// (0, 0, 64, 64): 127 · 191 -> 95, 191 · 191 -> 143, 63 · 191 -> 47 + 64, so (95, 143, 111, 255).
    func testASolidBelowTwoImagesReadsEachImagesOwnTexture() throws {
        let a = Bitmap(width: 4, height: 4, pixels: [UInt8]((0..<16).flatMap { _ in [UInt8(0), 128, 0, 128] }))
        let b = Bitmap(width: 4, height: 4, pixels: [UInt8]((0..<16).flatMap { _ in [UInt8(0), 0, 64, 64] }))
        let images = [PlannedImage(key: 51, pixelWidth: 4, pixelHeight: 4), PlannedImage(key: 52, pixelWidth: 4, pixelHeight: 4)]
        let items = [solid(Rect(0, 0, 4, 4), RGBA(0.5, 0, 0, 0.5)),
                     image(0, Rect(0, 0, 4, 4), uv: Rect(0, 0, 4, 4)), image(1, Rect(0, 0, 4, 4), uv: Rect(0, 0, 4, 4))]
        let (flat, plain, stats) = try frames(items, images: images, bitmaps: [51: a, 52: b], width: 4, height: 4, clear: RGBA(1, 1, 1, 1))
        XCTAssertEqual(stats.flattenedRegions, 1)
        XCTAssertEqual(stats.flattenedItems, 3)
        assertPixel(flat, 1, 2, [95, 143, 111, 255])
        assertPixel(plain, 1, 2, [95, 143, 111, 255])
    }

    /// A hand computation the region shader must reproduce: 50 % red over white is
    /// 127.5 → 128 (round to nearest) + 255 · (255 − 128) / 255 = 127 → (255, 127, 127).
    func testHalfRedOverWhite() throws {
        let items = [solid(Rect(0, 0, 4, 4), RGBA(0.5, 0, 0, 0.5)), solid(Rect(2, 0, 2, 4), RGBA(0, 0, 0, 0))]
        let (flat, _, stats) = try frames(items, width: 4, height: 4, clear: RGBA(1, 1, 1, 1))
        XCTAssertEqual(stats.flattenedRegions, 2)
        assertPixel(flat, 0, 0, [255, 127, 127, 255])
        assertPixel(flat, 3, 3, [255, 127, 127, 255])
    }
}
