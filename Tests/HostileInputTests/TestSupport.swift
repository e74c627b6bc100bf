import Foundation
import XCTest
import SceneFormat

/// Decodes scene JSON written in a test (as "scene.json"); image paths resolve nowhere.
func decode(_ json: String, limits: DecodingLimits = .standard) throws -> SceneDocument {
    try SceneDecoder.decode(data: Array(json.utf8), file: "scene.json", baseDirectory: "/nonexistent", limits: limits)
}

/// A scene around `root` (canvas 100×50 at scale 2) with `extra` top-level members.
func scene(root: String, extra: String = "") -> String {
    #"{"caprof": 1, "canvas": {"width": 100, "height": 50, "scale": 2}, "root": "# + root + extra + "}"
}

/// The SceneError decoding throws (fails the test when it does not throw one).
func sceneError(_ json: String, limits: DecodingLimits = .standard, file: StaticString = #filePath, line: UInt = #line) -> SceneError? {
    do {
        _ = try decode(json, limits: limits)
        XCTFail("decoding succeeded", file: file, line: line)
    } catch let e as SceneError {
        return e
    } catch {
        XCTFail("not a SceneError: \(error)", file: file, line: line)
    }
    return nil
}

/// A PNG file's bytes: signature, IHDR (width, height, bit depth, colour type) and the given IDAT
/// payload, with correct CRCs (PNG spec §5.3), so libpng reads up to the data.
func pngBytes(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6, idat: [UInt8]) -> [UInt8] {
    func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }
    let ihdr = be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
}

/// CRC-32 (ISO 3309, the PNG and zlib polynomial 0xEDB88320), bit by bit.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
}
