import XCTest
import Foundation
@testable import Raster
import LayerModel

/// JPEG contents through libjpeg-turbo, and images of other formats refused with their name.
///
/// The fixtures were written by libjpeg-turbo's own encoder at quality 100 with 4:4:4 sampling:
/// `twoBlocks` is 16×8 px, the left 8×8 block rgb(200, 100, 50), the right one rgb(20, 40, 220)
/// (each block flat, so only its DC coefficient is non-zero: the decoded colour is the source
/// colour within the YCbCr round-trip error, ±3); `progressive` is the same image progressive;
/// `grey` is 8×8 px of grey 128, one component.
final class JPEGDecodingTests: XCTestCase {
    static let twoBlocks = [UInt8](Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/2wBDAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAARCAAIABADAREAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDn6/yvP9sD+dev/Q4P+Yc//9k=")!)
    static let progressive = [UInt8](Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/2wBDAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wgARCAAIABADAREAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAABQn/xAAWAQEBAQAAAAAAAAAAAAAAAAAICQr/2gAMAwEAAhADEAAAATyu2J16HJh//8QAFBABAAAAAAAAAAAAAAAAAAAAEP/aAAgBAQABBQI//8QAFBEBAAAAAAAAAAAAAAAAAAAAEP/aAAgBAwEBPwE//8QAFBEBAAAAAAAAAAAAAAAAAAAAEP/aAAgBAgEBPwE//8QAFBABAAAAAAAAAAAAAAAAAAAAEP/aAAgBAQAGPwI//8QAFBABAAAAAAAAAAAAAAAAAAAAEP/aAAgBAQABPyE//9oADAMBAAIAAwAAABAD/8QAFBEBAAAAAAAAAAAAAAAAAAAAEP/aAAgBAwEBPxA//8QAFBEBAAAAAAAAAAAAAAAAAAAAEP/aAAgBAgEBPxA//8QAFBABAAAAAAAAAAAAAAAAAAAAEP/aAAgBAQABPxA//9k=")!)
    static let grey = [UInt8](Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIAAgBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/ACv/2Q==")!)

    func assertColor(_ b: Bitmap, _ x: Int, _ y: Int, _ rgb: (Int, Int, Int), file: StaticString = #filePath, line: UInt = #line) {
        let i = (y * b.width + x) * 4
        let p = (Int(b.pixels[i]), Int(b.pixels[i + 1]), Int(b.pixels[i + 2]), Int(b.pixels[i + 3]))
        XCTAssertTrue(abs(p.0 - rgb.0) <= 3 && abs(p.1 - rgb.1) <= 3 && abs(p.2 - rgb.2) <= 3 && p.3 == 255,
                      "pixel (\(x), \(y)) = \(p), expected ≈ \(rgb), alpha 255", file: file, line: line)
    }

    func testBaselineAndProgressiveDecodeToTheirColours() throws {
        for data in [Self.twoBlocks, Self.progressive] {
            XCTAssertEqual(ImageFormat(signatureOf: data), .jpeg)
            let b = try ImageCodec.decode(data)
            XCTAssertEqual(b.width, 16); XCTAssertEqual(b.height, 8)
            for (x, y) in [(0, 0), (3, 4), (7, 7)] { assertColor(b, x, y, (200, 100, 50)) }
            for (x, y) in [(8, 0), (12, 3), (15, 7)] { assertColor(b, x, y, (20, 40, 220)) }
            XCTAssertTrue(b.isOpaque, "JPEG has no alpha: the layer's image never blends")
            XCTAssertFalse(b.hasAlphaChannel, "nor an alpha channel, which Core Animation would blend")
        }
    }

    func testGreyscaleBecomesRGBA() throws {
        let b = try ImageCodec.decode(Self.grey)
        XCTAssertEqual(b.width, 8)
        assertColor(b, 4, 4, (128, 128, 128))
    }

    func testTruncatedJPEGIsACorruptImageNotACrash() {
        for n in [3, 20, 200] {
            XCTAssertThrowsError(try ImageCodec.decode(Array(Self.twoBlocks.prefix(n)))) { e in
                XCTAssertEqual((e as? PNGError)?.kind, .corrupt, "prefix \(n): \(e)")
                XCTAssertTrue("\(e)".hasPrefix("corrupt JPEG: "), "\(e)")
            }
        }
    }

    /// A progressive JPEG whose scans never end: a `side`×`side` header (SOF2) of `components`
    /// components (4: CMYK, as libjpeg reads four components without an Adobe marker), one Huffman
    /// table (a single code), then `scans` empty DC scans (SOS, one component each in turn). Each
    /// scan is a pass over that component's blocks; more than 200 are refused as corrupt instead
    /// of decoded for minutes.
    static func endlessScans(_ scans: Int, side: Int = 1000, components: Int = 1) -> [UInt8] {
        var j: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        let sofLength = 8 + 3 * components
        j += [0xFF, 0xC2, 0x00, UInt8(sofLength), 0x08, UInt8(side >> 8), UInt8(side & 0xFF), UInt8(side >> 8), UInt8(side & 0xFF), UInt8(components)]
        for c in 0..<components { j += [UInt8(c + 1), 0x11, 0x00] }
        j += [0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]   // one code: DC category 0
        for i in 0..<scans { j += [0xFF, 0xDA, 0x00, 0x08, 0x01, UInt8(i % components + 1), 0x00, 0x00, 0x00, 0x00] }
        return j + [0xFF, 0xD9]
    }

    func testAProgressiveJPEGOfEndlessScansIsRefused() {
        XCTAssertThrowsError(try ImageCodec.decode(Self.endlessScans(5_000))) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .corrupt, "\(e)")
            XCTAssertTrue("\(e)".contains("more than 200 scans"), "\(e)")
        }
    }

    /// 200 empty scans of an 8192² CMYK image in 2.3 KB took 4–18 s and 850 MB: its scans are
    /// decoded through a buffer of every coefficient, 8192² × 4 components × 2 bytes = 512 MiB.
    /// Refused from the header, before any pixel is allocated (the size query refuses it too).
    func testAMultiScanJPEGWhoseCoefficientsPassTheLimitIsRefusedFromItsHeader() {
        let cmyk = Self.endlessScans(200, side: 8192, components: 4)
        XCTAssertLessThan(cmyk.count, 3_000)
        for attempt in [{ _ = try JPEGCodec.size(of: cmyk) }, { _ = try ImageCodec.decode(cmyk) }] {
            XCTAssertThrowsError(try attempt()) { e in
                XCTAssertEqual((e as? PNGError)?.kind, .tooLarge, "\(e)")
                XCTAssertTrue("\(e)".contains("progressive JPEG of 8192×8192 pixels in 4 components needs 512 MiB of coefficients to decode; the limit is 192 MiB"), "\(e)")
            }
        }
        // The same image in one grey component needs 128 MiB: within the limit.
        XCTAssertEqual(try JPEGCodec.size(of: Self.endlessScans(1, side: 8192)).width, 8192)
    }

    /// Fewer than 200 scans can still pass over the image for seconds: 150 scans of a 4096² grey
    /// image are 150 × 512² = 39.3 M blocks, past the 2^25 (33.6 M) the scans may pass over
    /// together; the 129th scan is refused. 120 scans (31.5 M blocks) decode.
    func testScansThatPassOverTooManyBlocksAreRefused() throws {
        XCTAssertThrowsError(try ImageCodec.decode(Self.endlessScans(150, side: 4096))) { e in
            XCTAssertEqual((e as? PNGError)?.kind, .corrupt, "\(e)")
            XCTAssertTrue("\(e)".contains("JPEG whose 129 scans pass over more than 33554432 blocks of 8×8 pixels"), "\(e)")
        }
        XCTAssertEqual(try ImageCodec.decode(Self.endlessScans(120, side: 4096)).width, 4096)
    }

    /// Each format by its published signature, refused with its name.
    func testOtherFormatsAreNamed() {
        let samples: [(String, [UInt8])] = [
            ("GIF", Array("GIF89a".utf8) + [1, 0, 1, 0]),
            ("WebP", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)),
            ("HEIC", [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0]),
            ("AVIF", [0, 0, 0, 24] + Array("ftypavif".utf8) + [0, 0, 0, 0]),
            ("TIFF", [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]),
            ("BMP", Array("BM".utf8) + [UInt8](repeating: 0, count: 20)),
        ]
        for (name, bytes) in samples {
            XCTAssertEqual(ImageFormat(signatureOf: bytes).name, name)
            XCTAssertThrowsError(try ImageCodec.decode(bytes)) { e in
                XCTAssertEqual((e as? PNGError)?.kind, .unsupportedFormat)
                XCTAssertEqual("\(e)", "this is a \(name) image; caprof reads PNG and JPEG contents (convert it to PNG)")
            }
        }
        XCTAssertThrowsError(try ImageCodec.decode(Array("hello, world".utf8))) { e in
            XCTAssertTrue("\(e)".contains("neither PNG nor JPEG (the file starts with 68 65 6C 6C 6F 2C 20 77)"), "\(e)")
        }
    }
}
