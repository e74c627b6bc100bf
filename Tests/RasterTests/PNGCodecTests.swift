import Foundation
import XCTest
@testable import Raster

/// PNG decoding of every colour type to premultiplied RGBA8, encoding back, and the error paths.
/// The small PNGs below were built by hand (zlib + CRC in a script) so their pixels are known.
final class PNGCodecTests: XCTestCase {
    func bytes(_ b64: String) -> [UInt8] { [UInt8](Data(base64Encoded: b64)!) }

    func testGrayIsExpandedToOpaqueRGBA() throws {
        // 2×1 grey 8-bit: values 0, 200
        let b = try PNGCodec.decode(bytes("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAAAAADRSSBWAAAAC0lEQVR4nGNgOAEAAMsAyWnIw2wAAAAASUVORK5CYII="))
        XCTAssertEqual(b.pixels, [0, 0, 0, 255, 200, 200, 200, 255])
    }

    func testPaletteWithTransparencyIsPremultiplied() throws {
        // palette [red α=128, blue α=255]: red premultiplied by 128/255 → round(255·128/255) = 128
        let b = try PNGCodec.decode(bytes("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAMAAADD/I+4AAAABlBMVEX/AAAAAP9sof2OAAAAAXRSTlOArV5bRgAAAAtJREFUeJxjYGAEAAAEAAK/ej9KAAAAAElFTkSuQmCC"))
        XCTAssertEqual(b.pixels, [128, 0, 0, 128, 0, 0, 255, 255])
    }

    func testSixteenBitIsStrippedToEight() throws {
        // (0xFFFF, 0x8080, 0, 0xFFFF) → (255, 128, 0, 255): libpng keeps the high byte
        let b = try PNGCodec.decode(bytes("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABEAYAAABPhRjKAAAAEUlEQVR4nGP4/7+hgYHh/38AF3cE/YhI4ZIAAAAASUVORK5CYII="))
        XCTAssertEqual(b.pixels, [255, 128, 0, 255])
    }

    /// Whether the source had alpha is kept through decoding (every PNG decodes to RGBA): Core
    /// Animation blends an image with an alpha channel even where all its pixels are opaque.
    func testTheSourcesAlphaChannelIsKept() throws {
        let grey = try PNGCodec.decode(bytes("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAAAAADRSSBWAAAAC0lEQVR4nGNgOAEAAMsAyWnIw2wAAAAASUVORK5CYII="))
        XCTAssertFalse(grey.hasAlphaChannel, "colour type 0, no tRNS")
        let palette = try PNGCodec.decode(bytes("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAMAAADD/I+4AAAABlBMVEX/AAAAAP9sof2OAAAAAXRSTlOArV5bRgAAAAtJREFUeJxjYGAEAAAEAAK/ej9KAAAAAElFTkSuQmCC"))
        XCTAssertTrue(palette.hasAlphaChannel, "a tRNS chunk gives a palette image alpha")
        // 4×4 of (0, 128, 255): colour type 2 (RGB), then 6 (RGBA) with every alpha 255.
        let rgb = try PNGCodec.decode(bytes("iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAD0lEQVR42mNgaPiPQMRxAF7CF/HtDqjDAAAAAElFTkSuQmCC"))
        let rgba = try PNGCodec.decode(bytes("iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAEUlEQVR42mNgaPj/HwWTLgAAMG8n4VwEGIwAAAAASUVORK5CYII="))
        XCTAssertEqual(rgb.pixels, rgba.pixels, "the same pixels")
        XCTAssertTrue(rgb.isOpaque && rgba.isOpaque)
        XCTAssertFalse(rgb.hasAlphaChannel)
        XCTAssertTrue(rgba.hasAlphaChannel)
        XCTAssertEqual(rgba.opaquePixelCount, 16)
    }

    func testRoundTripUnpremultipliesOnWrite() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-png-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("rt.png").path
        // premultiplied (100, 50, 0, 200) is straight (128, 64, 0, 200): 100·255/200 = 127.5 → 128
        let px: [UInt8] = [100, 50, 0, 200, 255, 255, 255, 255, 0, 0, 0, 0]
        try PNGCodec.write(premultiplied: px, width: 3, height: 1, to: path, compression: .small)
        let back = try PNGCodec.decode([UInt8](FileManager.default.contents(atPath: path)!))
        XCTAssertEqual(back.width, 3)
        // premultiplying 128·200/255 = 100.4 → 100 and 64·200/255 = 50.2 → 50: the round trip is exact here
        XCTAssertEqual(back.pixels, px)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["rt.png"], "no temporary file left")
    }

    func testFailedWriteLeavesNoFile() {
        let path = "/nonexistent-dir-caprof/out.png"
        XCTAssertThrowsError(try PNGCodec.write(premultiplied: [0, 0, 0, 0], width: 1, height: 1, to: path)) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .io)
            XCTAssertTrue("\(e)".contains(path))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testNotAPNG() {
        XCTAssertThrowsError(try PNGCodec.decode(Array("GIF89a not a png".utf8))) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .notPNG)
        }
    }

    func testTruncatedPNGIsCorruptNotACrash() {
        let full = bytes("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAAAAADRSSBWAAAAC0lEQVR4nGNgOAEAAMsAyWnIw2wAAAAASUVORK5CYII=")
        for n in [9, 20, 33, 40, full.count - 13] {
            XCTAssertThrowsError(try PNGCodec.decode(Array(full.prefix(n))), "prefix \(n)") { e in
                XCTAssertEqual((e as? PNGError)?.kind, .corrupt, "prefix \(n): \(e)")
            }
        }
    }

    func testHugeDimensionsAreRefusedBeforeAllocation() throws {
        // A header claiming 20000×20000 (over the 16384 limit) and a tiny IDAT: refused from the header.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr: [UInt8] = [0x49, 0x48, 0x44, 0x52, 0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 6, 0, 0, 0]
        png += [0, 0, 0, 13] + ihdr + crc32(ihdr)
        let idat: [UInt8] = [0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x03, 0, 0, 0, 0, 1]
        png += [0, 0, 0, 8] + idat + crc32(idat)
        XCTAssertThrowsError(try PNGCodec.decode(png)) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .tooLarge, "\(e)")
        }
    }

    func testPremultiplyRounding() {
        var px: [UInt8] = [255, 128, 1, 128, 10, 20, 30, 0]
        premultiply(&px)
        XCTAssertEqual(px, [128, 64, 1, 128, 0, 0, 0, 0])
    }

    func testIdenticalPixelsHashEqually() {
        let a = Bitmap(width: 1, height: 1, pixels: [1, 2, 3, 4]), b = Bitmap(width: 1, height: 1, pixels: [1, 2, 3, 4])
        XCTAssertEqual(a.contentHash, b.contentHash)
        XCTAssertNotEqual(a.contentHash, Bitmap(width: 1, height: 1, pixels: [1, 2, 3, 5]).contentHash)
    }

    private func crc32(_ d: [UInt8]) -> [UInt8] {
        var c: UInt32 = 0xFFFF_FFFF
        for b in d { c ^= UInt32(b); for _ in 0..<8 { c = (c >> 1) ^ (0xEDB8_8320 & (0 &- (c & 1))) } }
        c ^= 0xFFFF_FFFF
        return [UInt8(c >> 24), UInt8(c >> 16 & 0xFF), UInt8(c >> 8 & 0xFF), UInt8(c & 0xFF)]
    }
}
