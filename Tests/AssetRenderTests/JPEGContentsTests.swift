import Foundation
import XCTest
import AssetImport
import LayerModel
import Pipeline

/// JPEG contents in Core Animation assets: a `.caml` image file and an image embedded in a `.caar`
/// archive reach the renderer like a scene file's JPEG does, and an image of a format caprof does
/// not read (WebP, GIF) is a warning that names the format, its layer drawn without contents.
final class JPEGContentsTests: XCTestCase {
    static let renderer: SceneRenderer = {
        setenv("VK_DRIVER_FILES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json", 0)
        return try! SceneRenderer()
    }()

    /// 16×8 px, written by libjpeg-turbo at quality 100 with 4:4:4 sampling: the left 8×8 block
    /// rgb(200, 100, 50), the right one rgb(20, 40, 220); each block flat, so it decodes to its
    /// colour within the YCbCr round trip (±3). The same fixture as RasterTests' JPEG tests.
    static let twoBlocks = [UInt8](Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/2wBDAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAARCAAIABADAREAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDn6/yvP9sD+dev/Q4P+Yc//9k=")!)
    /// The first bytes of a WebP file (RIFF … WEBP), enough for its signature.
    static let webp: [UInt8] = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0, count: 32)

    func assertPixel(_ f: SceneRenderer.Frame, _ x: Int, _ y: Int, _ rgb: (Int, Int, Int), file: StaticString = #filePath, line: UInt = #line) {
        let i = (y * f.width + x) * 4
        let p = (Int(f.pixels[i]), Int(f.pixels[i + 1]), Int(f.pixels[i + 2]), Int(f.pixels[i + 3]))
        XCTAssertTrue(abs(p.0 - rgb.0) <= 3 && abs(p.1 - rgb.1) <= 3 && abs(p.2 - rgb.2) <= 3 && p.3 == 255,
                      "pixel (\(x), \(y)) = \(p), expected ≈ \(rgb)", file: file, line: line)
    }

    /// A bare `.caml` whose first layer shows `assets/blocks.jpg` at its pixel size and whose second,
    /// below it on the right half, names a WebP: the JPEG's two colours are drawn; the WebP is a
    /// located warning and its layer shows only its white background.
    func testACAMLImageThatIsAJPEGIsDrawn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-jpeg-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("assets"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.twoBlocks).write(to: dir.appendingPathComponent("assets/blocks.jpg"))
        try Data(Self.webp).write(to: dir.appendingPathComponent("assets/photo.webp"))
        let caml = """
        <caml xmlns="http://www.apple.com/CoreAnimation/1.0">
        <CALayer bounds="0 0 16 16" position="8 8" backgroundColor="0 0 0">
        <sublayers>
        <CALayer bounds="0 0 16 8" position="8 4"><contents type="CGImage" src="assets/blocks.jpg"/></CALayer>
        <CALayer bounds="0 0 16 8" position="8 12" backgroundColor="1 1 1"><contents type="CGImage" src="assets/photo.webp"/></CALayer>
        </sublayers>
        </CALayer>
        </caml>
        """
        let file = dir.appendingPathComponent("t.caml")
        try Data(caml.utf8).write(to: file)
        let doc = try AssetLoader.load(path: file.path)
        let layers = doc.scene.root.sublayers
        guard case .file(let path)? = layers[0].contents?.origin else { return XCTFail("the JPEG layer has no contents: \(doc.warnings.map(\.feature))") }
        XCTAssertTrue(path.hasSuffix("assets/blocks.jpg"), path)
        XCTAssertNil(layers[1].contents)
        let warnings = doc.warnings.map(\.feature)
        XCTAssertFalse(warnings.contains { $0.contains("blocks.jpg") }, "\(warnings)")
        let webp = try XCTUnwrap(doc.warnings.first { $0.feature.contains("photo.webp") }, "\(warnings)")
        XCTAssertTrue(webp.feature.contains("is WebP") && webp.feature.contains("PNG and JPEG"), webp.feature)
        XCTAssertEqual(webp.location?.line, 5, "the warning points at the WebP layer's <contents> line")

        let frame = try Self.renderer.render(AnimatedScene(doc), at: 0, scale: 1)
        XCTAssertEqual(frame.width, 16)
        for (x, y) in [(0, 0), (3, 4), (7, 7)] { assertPixel(frame, x, y, (200, 100, 50)) }
        for (x, y) in [(8, 0), (12, 3), (15, 7)] { assertPixel(frame, x, y, (20, 40, 220)) }
        for (x, y) in [(0, 8), (15, 15)] { assertPixel(frame, x, y, (255, 255, 255)) }
    }
}
