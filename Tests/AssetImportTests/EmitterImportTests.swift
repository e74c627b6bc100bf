import XCTest
import Foundation
@testable import AssetImport
import SceneFormat
import LayerModel
import Animation
import Geometry

/// CAEmitterLayer and CAEmitterCell from real assets of the shared corpus (never copied into the
/// repository). Expected values were read by hand: a plistlib dump of the archive's objects, the CAML text.
final class EmitterImportTests: XCTestCase {
    func path(_ p: String) throws -> String {
        let full = CorpusImportTests.corpus + "/" + p
        guard FileManager.default.fileExists(atPath: full) else { throw CorpusMissing(message: "corpus not found at \(CorpusImportTests.corpus)") }
        return full
    }

    func emitters(_ root: Layer) -> [Layer] {
        var out: [Layer] = []
        root.forEach { if $0.layerClass == .emitter { out.append($0) } }
        return out
    }

    /// ChampagneView.caar: two CAEmitterLayers "Emitter" (seeds 1 and 2, rectangle shape, surface
    /// mode), each with one cell "Emitter Cell": birthRate 21, lifetime 2.7 / 1.9 (floats),
    /// lifetimeRange 0.5, velocity 20 ± 5, scale 0.0125 ± 0.025 growing 0.03/s, emissionLongitude
    /// −1.5708 (up), contentsScale 9, duration inf (emits for ever: 0 in the scene format).
    func testChampagneArchiveEmitters() throws {
        let doc = try AssetLoader.load(path: try path("caar/CalendarExporter_ChampagneView.caar"))
        let found = emitters(doc.scene.root)
        XCTAssertEqual(found.count, 2)
        XCTAssertEqual(found.map(\.name), ["Emitter", "Emitter"])
        XCTAssertEqual(found.map(\.emitter.seed), [1, 2])
        for (e, lifetime) in zip(found, [2.7, 1.9]) {
            XCTAssertEqual(e.emitter.emitterShape, .rectangle)
            XCTAssertEqual(e.emitter.emitterMode, .surface)
            XCTAssertEqual(e.emitter.emitterCells.count, 1)
            let c = e.emitter.emitterCells[0]
            XCTAssertEqual(c.name, "Emitter Cell")
            XCTAssertEqual(c.birthRate, 21)
            XCTAssertEqual(c.lifetime, lifetime, accuracy: 1e-6)
            XCTAssertEqual(c.lifetimeRange, 0.5)
            XCTAssertEqual(c.velocity, 20); XCTAssertEqual(c.velocityRange, 5)
            XCTAssertEqual(c.scale, 0.0125); XCTAssertEqual(c.scaleRange, 0.025); XCTAssertEqual(c.scaleSpeed, 0.03)
            XCTAssertEqual(c.emissionLongitude, -1.5708, accuracy: 1e-6)
            XCTAssertEqual(c.contentsScale, 9)
            XCTAssertEqual(c.duration, 0)
            XCTAssertNotNil(c.contents)
        }
        // The presentation emits them: 21/s for 1 s gives 21 live particles per emitter at t = 1.
        let tree = PresentationTimeline(scene: doc.scene, animations: doc.animations).presentation(at: 1)
        XCTAssertEqual(emitters(tree).map(\.particles.count), [21, 21])
        // Converted to a scene file and read back: the same cells.
        let json = SceneJSONWriter.write(doc)
        let back = try SceneDecoder.decode(data: Array(json.utf8), file: "champagne.json", baseDirectory: "/")
        func withoutPlaces(_ e: EmitterProperties) -> EmitterProperties {
            var e = e
            for i in e.emitterCells.indices { e.emitterCells[i].contents?.location = SourceLocation(file: "", pointer: "", line: 0, column: 0) }
            return e
        }
        XCTAssertEqual(emitters(back.scene.root).map { withoutPlaces($0.emitter) }, found.map { withoutPlaces($0.emitter) })
    }

    /// micasa wallpaper main.caml: a hidden CAEmitterLayer "Black bg" (emitterMode points) with one
    /// cell "black" (birthRate 1, lifetime 1, scale 15, color 0 0 0, contents assets/justblack.png,
    /// which the bare .caml has no package for: reported, drawn without); its private keys mass,
    /// rotation and rotationRange are reported, not applied.
    func testMicasaCAMLEmitter() throws {
        let doc = try AssetLoader.load(path: try path("caml/OpenPoster_micasa_wallpaper_main.caml"))
        let e = try XCTUnwrap(emitters(doc.scene.root).first)
        XCTAssertEqual(e.name, "Black bg")
        XCTAssertTrue(e.hidden)
        XCTAssertEqual(e.emitter.emitterMode, .points)
        let c = try XCTUnwrap(e.emitter.emitterCells.first)
        XCTAssertEqual(c.name, "black")
        XCTAssertEqual(c.birthRate, 1); XCTAssertEqual(c.lifetime, 1); XCTAssertEqual(c.scale, 15)
        XCTAssertEqual(c.color, Color(0, 0, 0))
        XCTAssertNil(c.contents)
        XCTAssertTrue(doc.warnings.contains { $0.feature.contains("assets/justblack.png") && $0.feature.contains("missing") }, "\(doc.warnings.map(\.feature))")
        XCTAssertTrue(doc.warnings.contains { $0.feature.contains("mass, rotation, rotationRange") }, "\(doc.warnings.map(\.feature))")
        XCTAssertFalse(doc.warnings.contains { $0.feature.contains("CAEmitterLayer is not drawn") })
    }
}
