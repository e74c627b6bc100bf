import XCTest
import Foundation
@testable import SceneFormat
import Geometry
import LayerModel
import Animation

/// Decodes scene JSON written in a test, as the file "scene.json" in `baseDirectory`.
func decodeScene(_ json: String, baseDirectory: String = "/nonexistent") throws -> SceneDocument {
    try SceneDecoder.decode(data: Array(json.utf8), file: "scene.json", baseDirectory: baseDirectory)
}

/// A minimal scene around a root layer (canvas 100×50 at scale 2).
func sceneJSON(root: String, extra: String = "") -> String {
    #"{"caprof": 1, "canvas": {"width": 100, "height": 50, "scale": 2}, "root": "# + root + extra + "}"
}

/// Decodes one root layer.
func decodeRoot(_ root: String, baseDirectory: String = "/nonexistent") throws -> Layer {
    try decodeScene(sceneJSON(root: root), baseDirectory: baseDirectory).scene.root
}

/// Asserts that decoding fails with this kind, place and message.
func assertSceneError(_ json: String, _ kind: SceneError.Kind, pointer: String, line: Int? = nil, column: Int? = nil,
                      message: String? = nil, description: String? = nil, baseDirectory: String = "/nonexistent",
                      file: StaticString = #filePath, testLine: UInt = #line) {
    do {
        _ = try decodeScene(json, baseDirectory: baseDirectory)
        XCTFail("expected a \(kind) error, decoding succeeded", file: file, line: testLine)
    } catch let e as SceneError {
        XCTAssertEqual(e.kind, kind, "\(e)", file: file, line: testLine)
        XCTAssertEqual(e.location.pointer, pointer, "\(e)", file: file, line: testLine)
        if let line { XCTAssertEqual(e.location.line, line, "\(e)", file: file, line: testLine) }
        if let column { XCTAssertEqual(e.location.column, column, "\(e)", file: file, line: testLine) }
        if let message { XCTAssertTrue(e.message.contains(message), "message: \(e.message)", file: file, line: testLine) }
        if let description { XCTAssertEqual(e.description, description, file: file, line: testLine) }
    } catch {
        XCTFail("expected a SceneError, got \(error)", file: file, line: testLine)
    }
}

func assertClose(_ a: Transform3D, _ b: Transform3D, accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertTrue(a.isClose(to: b, tolerance: accuracy), "\(a) != \(b)", file: file, line: line)
}

/// A temporary directory removed at the end of the test.
func makeTemporaryDirectory(_ test: XCTestCase) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-sf-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir.path
}

/// The smallest valid PNG (1×1, opaque black).
let tinyPNG: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x60, 0x60, 0x60, 0xF8,
    0x0F, 0x00, 0x01, 0x04, 0x01, 0x00, 0x5F, 0xE5, 0xC3, 0x4B, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]
