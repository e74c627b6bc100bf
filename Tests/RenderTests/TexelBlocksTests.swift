import Geometry
import Plan
import Raster
@testable import Render
import XCTest

/// Flattened regions read their image layers from textures in 4×4 blocks on CPU devices
/// (`TexelLayout.blocks`): pixel (x, y) at texel (16·⌊x/4⌋ + 4·(y mod 4) + x mod 4, ⌊y/4⌋) of a
/// texture 16·⌈w/4⌉ × ⌈h/4⌉. The layout is the backend's; the frame must not change by a byte.
final class TexelBlocksTests: GPUTestCase {
    func testExtentAndLimits() {
        XCTAssertTrue(TexelBlocks.extent(width: 5, height: 6) == (32, 2))
        XCTAssertTrue(TexelBlocks.extent(width: 4, height: 4) == (16, 1))
        XCTAssertTrue(TexelBlocks.extent(width: 1, height: 1) == (16, 1))
        XCTAssertTrue(TexelBlocks.extent(width: 1170, height: 2532) == (4688, 633))
        XCTAssertTrue(TexelBlocks.fits(width: 4096, height: 16384, maxDimension: 16384))
        XCTAssertFalse(TexelBlocks.fits(width: 4097, height: 1, maxDimension: 16384), "16 · 1025 = 16,400 texels")
    }

    /// A 5×6 image whose pixel (x, y) holds (x, y, 7, 200): every texel is where the formula puts
    /// it, and the padding (x = 5…7, y = 6…7) is zero.
    func testWriteOrdersPixelsIntoBlocks() {
        let w = 5, h = 6
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h { for x in 0..<w { px.replaceSubrange((y * w + x) * 4 ..< (y * w + x) * 4 + 4, with: [UInt8(x), UInt8(y), 7, 200]) } }
        var out = [UInt8](repeating: 0xEE, count: 32 * 2 * 4)
        px.withUnsafeBytes { src in out.withUnsafeMutableBytes { TexelBlocks.write(src, width: w, height: h, to: $0.baseAddress!) } }
        func texel(_ tx: Int, _ ty: Int) -> [UInt8] { Array(out[(ty * 32 + tx) * 4 ..< (ty * 32 + tx) * 4 + 4]) }
        for y in 0..<8 { for x in 0..<8 {
            let t = texel(16 * (x / 4) + 4 * (y % 4) + x % 4, y / 4)
            XCTAssertEqual(t, x < w && y < h ? [UInt8(x), UInt8(y), 7, 200] : [0, 0, 0, 0], "pixel (\(x), \(y))")
        } }
        // Hand-placed: pixel (4, 5) is in block (1, 1), row 1, column 0 -> texel (20, 1).
        XCTAssertEqual(texel(20, 1), [4, 5, 7, 200])
    }

    /// Three image layers of odd sizes (37×23, 21×19) at whole-pixel offsets, read from texel
    /// offsets, between translucent solids: regions cut at every edge read blocks from inside
    /// blocks and from the padded last block column and row. Blocks, rows and the unflattened
    /// per-item draws give the same bytes; the frame really used blocks.
    func testBlocksRowsAndPerItemDrawsGiveTheSameBytes() throws {
        let w = 48, h = 40
        let a = RegionFlatteningRenderTests.pattern(seed: 5, width: 37, height: 23)
        let b = RegionFlatteningRenderTests.pattern(seed: 9, width: 21, height: 19)
        let images = [PlannedImage(key: 31, pixelWidth: 37, pixelHeight: 23), PlannedImage(key: 32, pixelWidth: 21, pixelHeight: 19)]
        let items = [
            solid(Rect(0, 0, 48, 40), RGBA(0.2, 0.4, 0.6, 0.8)),
            image(0, Rect(3, 5, 34, 18), uv: Rect(3, 5, 34, 18), opacity: 0.8),
            solid(Rect(10, 2, 17, 30), RGBA(0.25, 0, 0.1, 0.35)),
            image(1, Rect(20, 11, 19, 17), uv: Rect(1, 2, 19, 17), opacity: 1),
            image(0, Rect(0, 17, 37, 23), uv: Rect(0, 0, 37, 23), opacity: 0.6),
        ]
        let flat = CanvasExecution.prepare(items, images: images, width: w, height: h, flattenOver: RGBA(1, 1, 1, 1), savingPerRegion: 0)
        let plain = CanvasExecution.prepare(items, images: images, width: w, height: h)
        XCTAssertGreaterThan(flat.stats.flattenedRegions, 5)
        func plan(_ canvas: [DrawItem]) -> FramePlan {
            FramePlan(pixelWidth: w, pixelHeight: h, clearColor: RGBA(1, 1, 1, 1), images: images, items: items, canvasItems: canvas)
        }
        let renderer = try RenderTestSupport.renderer()
        let saved = renderer.blocksRegionTextures
        defer { renderer.blocksRegionTextures = saved }
        let bitmaps: [UInt64: Bitmap] = [31: a, 32: b]
        renderer.blocksRegionTextures = true
        let blocks = try render(plan(flat.items), images: bitmaps)
        XCTAssertEqual(renderer.lastFrameBlockTextures, 2, "lavapipe is a CPU device: both images in blocks")
        renderer.blocksRegionTextures = false
        let rows = try render(plan(flat.items), images: bitmaps)
        XCTAssertEqual(renderer.lastFrameBlockTextures, 0)
        let perItem = try render(plan(plain.items), images: bitmaps)
        XCTAssertEqual(CanvasExecutionRenderTests.difference(blocks.pixels, rows.pixels).pixels, 0)
        XCTAssertEqual(CanvasExecutionRenderTests.difference(blocks.pixels, perItem.pixels).pixels, 0)
        // By hand at (45, 5), which only the bottom solid covers: (0.2, 0.4, 0.6, 0.8) · 255 =
        // (51, 102, 153, 204) over white adds 255 · (255 − 204) / 255 = 51 to every channel.
        assertPixel(blocks, 45, 5, [102, 153, 204, 255])
    }

    /// An image too wide for blocks (16 · ⌈4097/4⌉ texels > lavapipe's 16,384) stays in rows, and
    /// draws the same.
    func testAnImageTooWideForBlocksStaysInRows() throws {
        let w = 4097, h = 2
        let a = RegionFlatteningRenderTests.pattern(seed: 2, width: w, height: h)
        let images = [PlannedImage(key: 41, pixelWidth: w, pixelHeight: h)]
        let items = [image(0, Rect(0, 0, Double(w), 2), uv: Rect(0, 0, Double(w), 2), opacity: 0.5),
                     image(0, Rect(1, 0, Double(w - 1), 2), uv: Rect(0, 0, Double(w - 1), 2), opacity: 0.5)]
        let flat = CanvasExecution.prepare(items, images: images, width: w, height: h, flattenOver: RGBA(1, 1, 1, 1), savingPerRegion: 0)
        let plain = CanvasExecution.prepare(items, images: images, width: w, height: h)
        XCTAssertGreaterThan(flat.stats.flattenedRegions, 0)
        let renderer = try RenderTestSupport.renderer()
        XCTAssertTrue(renderer.blocksRegionTextures)
        func plan(_ canvas: [DrawItem]) -> FramePlan {
            FramePlan(pixelWidth: w, pixelHeight: h, clearColor: RGBA(1, 1, 1, 1), images: images, items: items, canvasItems: canvas)
        }
        let flatFrame = try render(plan(flat.items), images: [41: a])
        XCTAssertEqual(renderer.lastFrameBlockTextures, 0)
        let plainFrame = try render(plan(plain.items), images: [41: a])
        XCTAssertEqual(CanvasExecutionRenderTests.difference(flatFrame.pixels, plainFrame.pixels).pixels, 0)
    }
}
