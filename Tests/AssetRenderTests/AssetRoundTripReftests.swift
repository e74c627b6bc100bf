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
        guard FileManager.default.fileExists(atPath: Self.corpus) else { throw CorpusMissing(message: "corpus not found at \(Self.corpus)") }
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
        guard FileManager.default.fileExists(atPath: pkg) else { throw CorpusMissing(message: "corpus not found") }
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

/// The static end frame of a simple vector archive against a scene written by hand from its
/// contents (Checkmark.caar, dumped with Python's plistlib; its 4-byte reals written as the
/// shortest decimals that round to the same float32, as caprof reads them): after both strokeEnd animations have
/// ended (fill forwards, not removed), at 1 s, the tick and the ring are fully stroked.
/// The shapes are drawn, so this is a pixel test of the import: the two frames must be identical.
final class VectorArchiveReftests: XCTestCase {
    func testCheckmarkEndFrameMatchesTheHandWrittenScene() throws {
        let file = AssetRoundTripReftests.corpus + "/caar/CheckmarkDemo_Checkmark.caar"
        guard FileManager.default.fileExists(atPath: file) else { throw CorpusMissing(message: "corpus not found") }
        let k1 = 212.6630096435547, k2 = 61.33699035644531   // the path's points are 8-byte reals
        let oval = "M137 274 C\(k1) 274 274 \(k1) 274 137 C274 \(k2) \(k1) 0 137 0 C\(k2) 0 0 \(k2) 0 137 C0 \(k1) \(k2) 274 137 274 Z M137 274 Z M137 274"
        let c = 0.7193398, d = 0.6946584
        let json = """
        {"caprof": 1, "canvas": {"width": 400, "height": 400, "scale": 1},
         "root": {"name": "Background Layer", "bounds": [0, 0, 400, 400], "anchorPoint": [0, 0], "position": [0, 0],
                  "allowsEdgeAntialiasing": true, "contentsScale": 1, "rasterizationScale": 1,
           "sublayers": [
             {"class": "CAShapeLayer", "name": "Shape", "bounds": [0, 0, 100, 100], "position": [135, 199], "anchorPoint": [0, 0],
              "path": "M0 0 L45 65 L138 -59", "fillColor": [0, 0, 0, 0], "lineWidth": 11,
              "strokeColor": [0.4518807, 0.8134803, 0.059981696, 1],
              "allowsEdgeAntialiasing": true, "contentsScale": 1, "rasterizationScale": 1},
             {"class": "CAShapeLayer", "name": "Oval", "bounds": [0, 0, 274, 274], "position": [200, 203],
              "transform": [-\(d), -\(c), 0, 0, \(c), -\(d), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
              "path": "\(oval)", "fillRule": "evenOdd", "fillColor": [0, 0, 0, 0], "lineWidth": 8,
              "strokeColor": [0.45490196, 0.8117647, 0.0627451, 1],
              "allowsEdgeAntialiasing": true, "contentsScale": 2, "rasterizationScale": 1}]}}
        """
        let expected = try SceneDecoder.decode(data: Array(json.utf8), file: "hand.json", baseDirectory: "/")
        let actual = try AssetLoader.load(path: file)
        let a = try AssetRoundTripReftests.renderer.render(AnimatedScene(actual), at: 1)
        let e = try AssetRoundTripReftests.renderer.render(AnimatedScene(expected), at: 0)
        XCTAssertEqual(a.width, e.width); XCTAssertEqual(a.height, e.height)
        XCTAssertTrue(a.pixels == e.pixels, "the archive's end frame differs from the hand-written scene")
        // What the shapes will be drawn from, compared now: the presentation trees at 1 s.
        let pa = AnimatedScene(actual).presentation(at: 1), pe = AnimatedScene(expected).presentation(at: 0)
        for i in 0..<2 {
            XCTAssertEqual(pa.sublayers[i].shape, pe.sublayers[i].shape, "sublayer \(i)")
            XCTAssertEqual(pa.sublayers[i].transform, pe.sublayers[i].transform, "sublayer \(i)")
            XCTAssertEqual(pa.sublayers[i].frame, pe.sublayers[i].frame, "sublayer \(i)")
        }
        XCTAssertEqual(pa.sublayers.map(\.shape.strokeEnd), [1, 1])
    }
}
