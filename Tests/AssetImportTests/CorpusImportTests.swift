import XCTest
import Foundation
@testable import AssetImport
import SceneFormat
import LayerModel
import Animation
import Geometry

/// The importers on the shared corpus (`<repo>/../shared/corpus`, never copied into the repository).
/// Expected values were read by hand from the files (plistlib dumps of the archives, the CAML text).
final class CorpusImportTests: XCTestCase {
    static let corpus: String = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repo.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
    }()

    func path(_ p: String) throws -> String {
        let full = Self.corpus + "/" + p
        guard FileManager.default.fileExists(atPath: full) else { throw CorpusMissing(message: "corpus not found at \(Self.corpus)") }
        return full
    }

    /// Checkmark.caar: Kite root "Background Layer" 400×400 with two CAShapeLayers ("Shape": 3 path
    /// elements, "Oval": 9), each with one strokeEnd CABasicAnimation of 0.43142578125 s, fill
    /// forwards, on Kite's ease-in-ease-out control points stored as floats (0.42, 0, 0.58, 1).
    func testCheckmarkArchive() throws {
        let doc = try AssetLoader.load(path: try path("caar/CheckmarkDemo_Checkmark.caar"))
        let root = doc.scene.root
        XCTAssertEqual(root.name, "Background Layer")
        XCTAssertEqual(doc.scene.canvas.width, 400); XCTAssertEqual(doc.scene.canvas.height, 400)
        XCTAssertFalse(root.geometryFlipped, "Kite's flipped root is shown as iOS loaders show it")
        XCTAssertEqual(root.sublayers.map(\.layerClass), [.shape, .shape])
        XCTAssertEqual(root.sublayers.map(\.name), ["Shape", "Oval"])
        XCTAssertEqual(root.sublayers[0].shape.path?.elements.count, 3)
        XCTAssertEqual(root.sublayers[0].shape.lineWidth, 11)
        XCTAssertEqual(root.sublayers[0].position, Point(135, 199))
        XCTAssertEqual(root.sublayers[1].shape.path?.elements.count, 9)
        for id in [1, 2] {
            let anims = try XCTUnwrap(doc.animations[id])
            XCTAssertEqual(anims.count, 1)
            XCTAssertEqual(anims[0].keyPath?.keyPath, "strokeEnd")
            XCTAssertEqual(anims[0].duration, .seconds(0.43142578125))
            XCTAssertEqual(anims[0].fillMode, .forwards)
            XCTAssertFalse(anims[0].removedOnCompletion)
            guard case .controlPoints(let a, let b, let c, let d)? = anims[0].timingFunction else { return XCTFail("no timing function") }
            XCTAssertEqual(a, 0.42, accuracy: 1e-6); XCTAssertEqual(b, 0); XCTAssertEqual(c, 0.58, accuracy: 1e-6); XCTAssertEqual(d, 1)
        }
        XCTAssertTrue(doc.warnings.isEmpty, "\(doc.warnings)")
    }

    /// FirstLaunchExperience.caar embeds the same images in several layers (NSKeyedArchiver
    /// stores each as its own NSData). Equal images come out as one array, so the planner's
    /// per-frame image lookups compare them by identity, not byte by byte.
    func testEqualEmbeddedImagesShareOneArray() throws {
        let doc = try AssetLoader.load(path: try path("caar/VirtualBuddy_FirstLaunchExperience.caar"))
        var byContent: [[UInt8]: Set<UnsafeRawPointer?>] = [:]
        var layers = 0
        doc.scene.root.forEach { l in
            guard case .data(let bytes)? = l.contents?.origin else { return }
            layers += 1
            byContent[bytes, default: []].insert(bytes.withUnsafeBytes { $0.baseAddress })
        }
        XCTAssertLessThan(byContent.count, layers, "some image is shown by more than one layer")
        for (bytes, storages) in byContent { XCTAssertEqual(storages.count, 1, "an image of \(bytes.count) bytes") }
    }

    /// Emoji.caar (Kite's sample): 8 layers, 5 CAShapeLayers, 12 animations of which 6 keyframe
    /// ones (transform / sublayerTransform) and 6 basic ones (transform.scale.y among them).
    func testKiteEmojiArchive() throws {
        let doc = try AssetLoader.load(path: try path("caar/KiteArchiveExample_Emoji.caar"))
        var shapes = 0
        doc.scene.root.forEach { if $0.layerClass == .shape { shapes += 1 } }
        XCTAssertEqual(doc.scene.root.subtreeCount, 8)
        XCTAssertEqual(shapes, 5)
        let all = doc.animations.values.flatMap { $0 }
        XCTAssertEqual(all.count, 12)
        XCTAssertEqual(all.filter { $0.animationClass == .keyframe }.count, 6)
        XCTAssertEqual(Set(all.compactMap { $0.keyPath?.keyPath }), ["transform", "sublayerTransform", "transform.scale.y"])
    }

    /// Private classes, filters and the 0-byte image are reported with their object paths.
    func testPrivateFeaturesAreReported() throws {
        let blur = try AssetLoader.load(path: try path("caar/VirtualBuddy_FullBleedBlurHash.caar"))
        let text = blur.warnings.map(\.feature).joined(separator: "\n")
        // The CAFilters become the scene's filters, in order (quality hints are dropped silently).
        XCTAssertEqual(blur.scene.root.filters.map(\.type), [.gaussianBlur, .colorSaturate, .colorContrast, .colorBrightness])
        XCTAssertFalse(text.contains("/rootLayer/filters"), text)
        XCTAssertTrue(text.contains("/rootLayer/contents: the image is empty (0 bytes)"), text)
        let first = try AssetLoader.load(path: try path("caar/VirtualBuddy_FirstLaunchExperience.caar"))
        let w = first.warnings.map(\.feature).joined(separator: "\n")
        XCTAssertTrue(w.contains("CAPortalLayer is not drawn yet"), w)
        var backdrops = 0
        first.scene.root.forEach { if $0.layerClass == .backdrop { backdrops += 1 } }
        XCTAssertGreaterThan(backdrops, 0, "CABackdropLayer is imported as itself")
        XCTAssertTrue(w.contains("the alphaThreshold filter is not drawn; left out"), w)
        XCTAssertTrue(w.contains("beginTimeMode 'absolute'"), w)
        XCTAssertEqual(first.animations.values.flatMap { $0 }.filter { $0.animationClass == .spring }.count, 4)
    }

    /// GitHub_Floating.ca: the Locked state moves the three images (values in main.caml), and the
    /// Locked→Unlock transition (`*`→Unlock, CASpringAnimation on position.x/y) animates from the
    /// Locked values to the Unlock ones.
    func testStatesAndTransition() throws {
        let p = try path("caml/CAPlayground_GitHub_Floating.ca")
        let base = try AssetLoader.load(path: p)
        XCTAssertEqual(base.scene.root.sublayers.map(\.position), [Point(2, 122), Point(101, 347), Point(199, 563)])
        let locked = try AssetLoader.load(path: p, states: StateSelection(state: "Locked"))
        XCTAssertEqual(locked.scene.root.sublayers.map(\.position), [Point(79, 156), Point(181, 353), Point(284, 551)])
        let t = try AssetLoader.load(path: p, states: StateSelection(transition: ("Locked", "Unlock")))
        XCTAssertEqual(t.scene.root.sublayers[1].position, Point(204, 344), "the model is in the Unlock state")
        let anims = try XCTUnwrap(t.animations[2])
        XCTAssertEqual(anims.map(\.animationClass), [.spring, .spring])
        let x = try XCTUnwrap(anims.first { $0.keyPath?.keyPath == "position.x" })
        XCTAssertEqual(x.fromValue, .number(181)); XCTAssertEqual(x.toValue, .number(204))
        XCTAssertEqual(x.duration, .seconds(0.8)); XCTAssertEqual(x.fillMode, .backwards)
        XCTAssertThrowsError(try AssetLoader.load(path: p, states: StateSelection(state: "Lock"))) { e in
            XCTAssertTrue("\(e)".contains("no state 'Lock'"), "\(e)")
        }
    }

    /// Missing images, absolute device paths, private animation classes: warnings at XML lines.
    func testCAMLWarningsAreLocated() throws {
        let troll = try AssetLoader.load(path: try path("caml/TrollLock-Reborn_lockglyph_main.caml"))
        let w = try XCTUnwrap(troll.warnings.first { $0.feature.contains("absolute device path") })
        XCTAssertEqual(w.location?.line, 11)
        let op = try AssetLoader.load(path: try path("caml/OpenPoster_test3.ca"))
        XCTAssertTrue(op.warnings.contains { $0.feature.contains("CAMatchMoveAnimation is not supported") })
        XCTAssertTrue(op.warnings.contains { $0.feature.contains("'assets/83593.png' is missing") })
    }

    /// Every corpus file imports without a crash or hang, each well under a second, and its scene
    /// file (caprof convert) decodes back to the same tree and animations; writing that again gives
    /// the same text.
    func testEveryCorpusFileImportsAndRoundTrips() throws {
        let root = try path("")
        var files: [String] = []
        for dir in ["caar", "caml"] {
            for n in try FileManager.default.contentsOfDirectory(atPath: root + dir).sorted() where AssetKind.isAsset(name: n) {
                files.append(root + dir + "/" + n)
            }
        }
        XCTAssertEqual(files.count, 21)
        for f in files {
            let t0 = Date()
            let doc = try AssetLoader.load(path: f)
            XCTAssertLessThan(Date().timeIntervalSince(t0), 1.0, f)
            let json = SceneJSONWriter.write(doc)
            let back = try SceneDecoder.decode(data: Array(json.utf8), file: "roundtrip.json", baseDirectory: "/")
            XCTAssertEqual(back.scene.root.subtreeCount, doc.scene.root.subtreeCount, f)
            XCTAssertEqual(back.animations.mapValues(\.count), doc.animations.mapValues(\.count), f)
            XCTAssertEqual(SceneJSONWriter.write(back), json, f)
        }
    }
}
