import Geometry
import Plan
import Raster
@testable import Render
import XCTest

/// Trilinear sampling in the backend: mip levels made once per texture, premultiplied averaging,
/// and the CPU fallback for formats that cannot be blitted.
final class MipmapTests: GPUTestCase {
    /// side×side premultiplied pixels: `a` where x + y is even, else `b`.
    func checker(_ side: Int, _ a: [UInt8], _ b: [UInt8]) -> Bitmap {
        var px: [UInt8] = []
        px.reserveCapacity(side * side * 4)
        for y in 0..<side { for x in 0..<side { px += (x + y) % 2 == 0 ? a : b } }
        return Bitmap(width: side, height: side, pixels: px)
    }

    /// `bitmap` (side×side) drawn into an 8×8 target: minified side/8 ×.
    func minifiedPlan(_ side: Int, key: UInt64, _ sampling: DrawItem.Sampling) -> FramePlan {
        FramePlan(pixelWidth: 8, pixelHeight: 8, clearColor: .clear,
                  images: [PlannedImage(key: key, pixelWidth: side, pixelHeight: side)],
                  items: [image(0, Rect(0, 0, 8, 8), uv: Rect(0, 0, Double(side), Double(side)), sampling: sampling)])
    }

    func testPremultipliedTexelsAverageWithoutDarkFringes() throws {
        // Opaque red and transparent texels: the average is half-covered red, (128, 0, 0, 128)
        // premultiplied, i.e. pure red at 50 % when un-premultiplied (no black mixed in).
        let bmp = checker(64, [255, 0, 0, 255], [0, 0, 0, 0])
        let frame = try render(minifiedPlan(64, key: 9001, .trilinear), images: [9001: bmp])
        for y in 0..<8 { for x in 0..<8 { assertPixel(frame, x, y, [128, 0, 0, 128], tolerance: 2) } }
    }

    func testATextureGetsItsLevelsOnceWhenFirstSampledTrilinearly() throws {
        let bmp = checker(16, [255, 255, 255, 255], [0, 0, 0, 255])
        let bytes = 16 * 16 * 4, chain = (256 + 64 + 16 + 4 + 1) * 4
        let linear = minifiedPlan(16, key: 9002, .linear), trilinear = minifiedPlan(16, key: 9002, .trilinear)
        let first = try render(linear, images: [9002: bmp])
        XCTAssertEqual(first.stats.uploadedBytes, bytes)
        // First trilinear use: replaced by a texture with the full chain (level 0 uploaded again,
        // levels 1…4 blitted on the device).
        let upgraded = try render(trilinear, images: [9002: bmp])
        XCTAssertEqual(upgraded.stats.uploadedBytes, bytes)
        XCTAssertEqual(upgraded.stats.textureBytesResident - first.stats.textureBytesResident, chain - bytes)
        // From then on both kinds of items use it: nothing is uploaded again.
        for plan in [linear, trilinear, linear] {
            let f = try render(plan, images: [9002: bmp])
            XCTAssertEqual(f.stats.uploadedBytes, 0)
            XCTAssertEqual(f.stats.textureBytesResident, upgraded.stats.textureBytesResident)
        }
        // The mipmapped texture still reads level 0 for bilinear items.
        XCTAssertEqual(try render(linear, images: [9002: bmp]).pixels, first.pixels)
    }

    func testTrilinearFirstThenLinearSharesTheMipmappedTexture() throws {
        let bmp = checker(32, [10, 20, 30, 255], [200, 100, 50, 255])
        let first = try render(minifiedPlan(32, key: 9003, .trilinear), images: [9003: bmp])
        XCTAssertEqual(first.stats.uploadedBytes, 32 * 32 * 4)
        XCTAssertEqual(try render(minifiedPlan(32, key: 9003, .linear), images: [9003: bmp]).stats.uploadedBytes, 0)
    }

    func testCPUFallbackMatchesDeviceBlits() throws {
        RenderTestSupport.pinLavapipe()
        let cpuRenderer = try Renderer()
        cpuRenderer.mipmapGeneration = .cpu
        // A pattern with structure at every scale (power-of-two sides, where a linear blit and the
        // CPU's 2×2 box are the same filter; they differ only in rounding).
        var px: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 {
            let a = UInt8(128 + ((x / 4 + y / 8) % 2) * 127)
            px += [UInt8((x * 4) * Int(a) / 255), UInt8((y * 4) * Int(a) / 255), UInt8(((x ^ y) & 0x3F) * 4 * Int(a) / 255), a]
        } }
        let bmp = Bitmap(width: 64, height: 64, pixels: px)
        let plan = minifiedPlan(64, key: 9004, .trilinear)
        let cpu = try cpuRenderer.render(plan, images: [9004: bmp])
        let device = try render(plan, images: [9004: bmp])
        // The CPU uploads every level; the device blits levels 1… from level 0.
        XCTAssertEqual(cpu.stats.uploadedBytes, (4096 + 1024 + 256 + 64 + 16 + 4 + 1) * 4)
        XCTAssertEqual(device.stats.uploadedBytes, 4096 * 4)
        let worst = zip(cpu.pixels, device.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 2, "CPU and device mip levels differ by \(worst)")
    }

    func testCPULevelsAreRoundedBoxAverages() {
        // 3×2 → 1×1: the one 2×2 block is columns 0…1 (column 2, the odd one, falls outside).
        let px: [UInt8] = [0, 0, 0, 0, 4, 4, 4, 4, 9, 9, 9, 9,
                           2, 2, 2, 2, 6, 6, 6, 6, 1, 1, 1, 1]
        let levels = MipChain.cpuLevels(px, width: 3, height: 2, levels: GPUImage.fullMipChainLength(3, 2))
        XCTAssertEqual(levels.count, 1)
        XCTAssertEqual(levels[0], [3, 3, 3, 3])          // (0 + 4 + 2 + 6) / 4 = 3
        XCTAssertEqual(GPUImage.fullMipChainLength(1170, 2532), 12)   // 2532 → 1266 → … → 1
        XCTAssertEqual(GPUImage.levelExtent(1170, 2532, 11).0, 1)
    }

    func testDeviceCanBlitRGBA8OnLavapipe() throws {
        // lavapipe (the CI device) supports the blit path; the fallback is for other devices.
        let r = try RenderTestSupport.renderer()
        if r.deviceName.contains("llvmpipe") { XCTAssertEqual(r.mipmapGeneration, .deviceBlit) }
    }
}
