import XCTest
import Foundation
@testable import Raster

/// The `fast` PNG writer (bands of rows, each deflated on its own): what it writes decodes to the
/// pixels libpng's writer gives, whatever the height, and a sequence's encoder reuses exactly the
/// bands whose rows did not change while writing the bytes a fresh encoder writes.
final class PNGBandEncoderTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-bands-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dir) }

    /// Premultiplied pixels with transparent, opaque and translucent texels (c ≤ a), varied so
    /// that zlib has something to do.
    func image(width: Int, height: Int, seed: Int = 0) -> [UInt8] {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let a = [0, 255, 128, 37][(x / 3 + y + seed) % 4]
                for c in 0..<3 { px[i + c] = UInt8(((x * 7 + y * 13 + c * 50 + seed * 3) % 256) * a / 255) }
                px[i + 3] = UInt8(a)
            }
        }
        return px
    }

    func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: dir.appendingPathComponent(name))) }

    /// Heights below, at and past one band, and not a multiple of it: the same decoded pixels as
    /// libpng's own writer (`small`: level 6, adaptive filters), which is the reference.
    func testDecodesToWhatLibpngsWriterGives() throws {
        for (w, h) in [(1, 1), (5, 31), (17, 32), (9, 33), (40, 70), (3, 129)] {
            let px = image(width: w, height: h)
            let fast = dir.appendingPathComponent("fast.png").path, small = dir.appendingPathComponent("small.png").path
            try PNGCodec.write(premultiplied: px, width: w, height: h, to: fast, compression: .fast)
            try PNGCodec.write(premultiplied: px, width: w, height: h, to: small, compression: .small)
            let a = try PNGCodec.decode(try read("fast.png")), b = try PNGCodec.decode(try read("small.png"))
            XCTAssertEqual(a.width, w); XCTAssertEqual(a.height, h)
            XCTAssertEqual(a.pixels, b.pixels, "\(w)×\(h)")
            // One IDAT chunk per band of 32 rows.
            let bytes = try read("fast.png")
            var types: [String] = [], i = 8
            while i + 8 <= bytes.count {
                let n = bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
                types.append(String(decoding: bytes[i + 4..<i + 8], as: UTF8.self)); i += 12 + n
            }
            XCTAssertEqual(i, bytes.count, "the chunks end where the file ends")
            XCTAssertEqual(types, ["IHDR", "sRGB"] + Array(repeating: "IDAT", count: (h + 31) / 32) + ["IEND"], "\(w)×\(h)")
        }
    }

    /// A link is written through, not replaced, even when its target does not exist yet (as
    /// libpng's writer, which opened the path with fopen, did).
    func testALinkIsWrittenThroughAndItsMissingTargetCreated() throws {
        let target = dir.appendingPathComponent("target.png").path, link = dir.appendingPathComponent("link.png").path
        XCTAssertEqual(symlink(target, link), 0)
        try PNGCodec.write(premultiplied: image(width: 4, height: 3), width: 4, height: 3, to: link)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), target, "the link stays a link")
        XCTAssertEqual(try PNGCodec.decode(try read("target.png")).height, 3)
    }

    /// Frame B differs from frame A in one row (row 40, band 1 of 3): B re-encodes that band only,
    /// and its file is byte for byte what an encoder that never saw A writes. A frame of another
    /// size reuses nothing.
    func testASequenceReusesTheBandsThatDidNotChange() throws {
        let w = 24, h = 70
        let a = image(width: w, height: h)
        var b = a
        for x in 0..<w { b[(40 * w + x) * 4 + 3] = 255; b[(40 * w + x) * 4] = 255 }
        let encoder = PNGBandEncoder(keepsBands: true)
        try encoder.write(premultiplied: a, width: w, height: h, to: dir.appendingPathComponent("a.png").path)
        XCTAssertEqual(encoder.encodedBands, 3); XCTAssertEqual(encoder.reusedBands, 0)
        try encoder.write(premultiplied: b, width: w, height: h, to: dir.appendingPathComponent("b.png").path)
        XCTAssertEqual(encoder.encodedBands, 4); XCTAssertEqual(encoder.reusedBands, 2)
        try PNGBandEncoder().write(premultiplied: b, width: w, height: h, to: dir.appendingPathComponent("b-alone.png").path)
        XCTAssertEqual(try read("b.png"), try read("b-alone.png"))
        XCTAssertNotEqual(try read("a.png"), try read("b.png"))
        XCTAssertEqual(try PNGCodec.decode(try read("b.png")).pixels[(40 * w) * 4], 255)

        let c = image(width: w, height: h - 1)
        try encoder.write(premultiplied: c, width: w, height: h - 1, to: dir.appendingPathComponent("c.png").path)
        XCTAssertEqual(encoder.reusedBands, 2, "another size reuses nothing")
        XCTAssertEqual(try PNGCodec.decode(try read("c.png")).height, h - 1)
    }
}
