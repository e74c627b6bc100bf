import XCTest
import Foundation
import Pipeline
import Report
import SceneFormat
@testable import Profile

/// Blending as Core Animation decides it for contents images: from the image's format, not its
/// pixels. An image with an alpha channel blends even where every pixel is opaque (Instruments'
/// Color Blended Layers shows it red); one without (an RGB PNG, a JPEG) replaces what lies beneath.
/// The images are decoded for real (data URIs), through a plan-only profile run.
final class ImageAlphaChannelTests: XCTestCase {
    /// 4×4 PNGs of the same opaque colour (0, 128, 255), built by hand (zlib + CRC in a script):
    /// colour type 2 (RGB, no alpha) and colour type 6 (RGBA, every alpha 255).
    static let rgb = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAD0lEQVR42mNgaPiPQMRxAF7CF/HtDqjDAAAAAElFTkSuQmCC"
    static let opaqueRGBA = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAEUlEQVR42mNgaPj/HwWTLgAAMG8n4VwEGIwAAAAASUVORK5CYII="
    /// The same RGBA image with its right-hand column at alpha 128: 12 of its 16 pixels opaque.
    static let partlyTranslucentRGBA = "iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAAE0lEQVR42mNgaPj/Hwk3MJAuAAD7yiXlxDvYVAAAAABJRU5ErkJggg=="

    /// One 4×4 pt layer per image at 1×, each drawn texel for pixel on the grid.
    func report(_ images: [(name: String, png: String)]) throws -> ProfileReport {
        let layers = images.enumerated().map { i, image in
            """
            {"name": "\(image.name)", "frame": [\(10 * i), 0, 4, 4], "contents": "data:image/png;base64,\(image.png)"}
            """
        }.joined(separator: ", ")
        let json = """
        {"caprof": 1, "canvas": {"width": 40, "height": 10, "scale": 1, "backgroundColor": "#FFFFFF"},
         "root": {"frame": [0, 0, 40, 10], "backgroundColor": "#FFFFFF", "sublayers": [\(layers)]}}
        """
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: "s.json", baseDirectory: "/")
        return try ProfileRunner(scene: AnimatedScene(doc), renderer: nil)
            .run(frames: [(index: 0, time: 0)], fps: 60, file: "s.json", toolVersion: "test").report
    }

    func blended(_ r: ProfileReport, _ layer: String) -> Finding? {
        r.findings.flatMap { $0.members ?? [$0] }.first { $0.id == .blended && $0.layer.display == layer }
    }

    func testAnAllOpaqueRGBAImageBlendsWholeAndIsToldToDropItsAlphaChannel() throws {
        let r = try report([("rgba", Self.opaqueRGBA)])
        // Its whole quad blends: 4 × 4 = 16 pixels (before, 0: its pixels were taken as opaque).
        XCTAssertEqual(r.frames[0].counters.blendedPixels, 16)
        let f = try XCTUnwrap(blended(r, "rgba"))
        XCTAssertEqual(f.maxPixels, 16)
        XCTAssertEqual(f.evidence.blendReasons, [.alphaChannel])
        XCTAssertEqual(f.evidence.imageOpaquePixels, [16, 16])
        XCTAssertTrue(f.explanation.contains("all 16 of its pixels are opaque"), f.explanation)
        XCTAssertTrue(f.fix.contains("without an alpha channel"), f.fix)
        // Every report format shows the advice.
        let advice = "re-export the image without an alpha channel"
        XCTAssertTrue(TextReport(colors: false).render(r).contains(advice))
        XCTAssertTrue(MarkdownReport().render(r).contains(advice))
        XCTAssertTrue(HTMLReport().render(r).contains(advice))
        // The JSON report, with the new reason and evidence, still follows its schema.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-alpha-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ReportSchema.jsonSchema.write(toFile: dir + "/schema.json", atomically: false, encoding: .utf8)
        let encoded = try JSONReport.encode(r)
        XCTAssertTrue(String(decoding: encoded, as: UTF8.self).contains("\"alpha-channel\""))
        try encoded.write(to: URL(fileURLWithPath: dir + "/report.json"))
        let (status, message) = try ReportTests.validate(dir + "/report.json", dir + "/schema.json")
        XCTAssertEqual(status, 0, message)
    }

    func testTheSamePixelsWithoutAnAlphaChannelAreOpaque() throws {
        // The RGB file decodes to the very pixels of the RGBA one (one texture), yet is not blended.
        let r = try report([("rgb", Self.rgb), ("rgba", Self.opaqueRGBA)])
        XCTAssertNil(blended(r, "rgb"))
        XCTAssertNotNil(blended(r, "rgba"))
        XCTAssertEqual(r.frames[0].counters.blendedPixels, 16, "the RGBA layer's 16 pixels only")
    }

    func testAPartlyTranslucentImageSaysHowMuchOfItIsOpaque() throws {
        let r = try report([("icon", Self.partlyTranslucentRGBA)])
        let f = try XCTUnwrap(blended(r, "icon"))
        XCTAssertEqual(f.evidence.blendReasons, [.imageAlpha])
        XCTAssertEqual(f.evidence.imageOpaquePixels, [12, 16], "4 × 3 opaque columns")
        XCTAssertTrue(f.explanation.contains("12 of its 16 pixels are opaque"), f.explanation)
    }
}
