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

/// A package rendered against an equivalent scene written by hand from its CAML text.
final class PackageReftests: XCTestCase {
    /// CAPlayground_GitHub_Floating.ca in its Locked state: a 390×844 root ("Website") and three
    /// 200×200 layers showing assets/pasted-1757764477577.png, moved by the Locked state's
    /// LKStateSetValue elements to (79, 156), (181, 353) and (284, 551) (main.caml lines 26–43).
    func testLockedStateMatchesTheHandWrittenScene() throws {
        let pkg = AssetRoundTripReftests.corpus + "/caml/CAPlayground_GitHub_Floating.ca"
        guard FileManager.default.fileExists(atPath: pkg) else { throw XCTSkip("corpus not found") }
        let png = pkg + "/assets/pasted-1757764477577.png"
        func image(_ x: Int, _ y: Int) -> String {
            #"{"bounds": [0, 0, 200, 200], "position": [\#(x), \#(y)], "contents": "\#(png)", "contentsScale": 1, "allowsEdgeAntialiasing": true}"#
        }
        let json = """
        {"caprof": 1, "canvas": {"width": 390, "height": 844, "scale": 1},
         "root": {"name": "Website", "bounds": [0, 0, 390, 844], "position": [195, 422], "allowsEdgeAntialiasing": true,
                  "sublayers": [\(image(79, 156)), \(image(181, 353)), \(image(284, 551))]}}
        """
        let expected = try SceneDecoder.decode(data: Array(json.utf8), file: "hand.json", baseDirectory: "/")
        let actual = try AssetLoader.load(path: pkg, states: StateSelection(state: "Locked"))
        let a = try AssetRoundTripReftests.renderer.render(AnimatedScene(actual), at: 0)
        let e = try AssetRoundTripReftests.renderer.render(AnimatedScene(expected), at: 0)
        XCTAssertEqual(a.width, 390); XCTAssertEqual(a.height, 844)
        XCTAssertTrue(a.pixels == e.pixels, "the Locked state renders differently from the hand-written scene")
        // And something is drawn: the logo's ring, 8 pt inside the middle image's left edge, is opaque
        // (the octocat in its centre is a transparent cut-out).
        XCTAssertEqual(a.pixels[(353 * 390 + 181 - 92) * 4 + 3], 255)
        XCTAssertEqual(a.pixels[(20 * 390 + 380) * 4 + 3], 0, "no image covers the top-right corner")
    }
}
