import Foundation
import XCTest
import AssetImport
import Pipeline
import SceneFormat

/// `caprof convert` must write a scene file that renders exactly like the asset it came from:
/// every corpus file and its converted scene file are rendered on lavapipe at time 0 and at 0.5 s,
/// and the pixels must be byte-identical (same device, same plan: no tolerance).
final class AssetRoundTripReftests: XCTestCase {
    static let renderer: SceneRenderer = {
        setenv("VK_DRIVER_FILES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json", 0)
        return try! SceneRenderer()
    }()
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus").path

    func testConvertedScenesRenderTheSamePixels() throws {
        guard FileManager.default.fileExists(atPath: Self.corpus) else { throw XCTSkip("corpus not found at \(Self.corpus)") }
        var files: [String] = []
        for dir in ["caar", "caml"] {
            for n in try FileManager.default.contentsOfDirectory(atPath: Self.corpus + "/" + dir).sorted() where AssetKind.isAsset(name: n) {
                files.append(Self.corpus + "/" + dir + "/" + n)
            }
        }
        XCTAssertEqual(files.count, 21)
        for f in files {
            let doc = try AssetLoader.load(path: f)
            let json = SceneJSONWriter.write(doc)
            let back = try SceneDecoder.decode(data: Array(json.utf8), file: "converted.json", baseDirectory: "/")
            // Large documents (3176 pt wallpapers) are compared at a smaller scale: same plan, fewer pixels.
            let side = max(doc.scene.canvas.width, doc.scene.canvas.height)
            let scale = side > 800 ? 800 / side : 1
            let a = AnimatedScene(doc), b = AnimatedScene(back)
            for t in [0.0, 0.5] {
                let fa = try Self.renderer.render(a, at: t, scale: scale)
                let fb = try Self.renderer.render(b, at: t, scale: scale)
                XCTAssertEqual(fa.width, fb.width, f)
                XCTAssertTrue(fa.pixels == fb.pixels, "\(f) at \(t) s: the converted scene renders different pixels")
            }
        }
    }
}
