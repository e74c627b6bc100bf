import XCTest
@testable import AssetImport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// Truncated CAML never crashes: a located error (or, when the cut leaves a well-formed prefix, a scene).
final class CorruptCAMLTests: XCTestCase {
    /// Entity expansion of every shape (exponential "billion laughs", and the flat fan-out of one
    /// large entity referenced thousands of times that libxml2's own check lets through) is refused
    /// at the first declaration: no hang, no memory blow-up, and the error names the entity.
    func testEntityExpansionIsRefusedAtTheDeclaration() {
        var dtd = "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"]
        for (prev, name) in zip(names, names.dropFirst()) {
            dtd += "<!ENTITY \(name) \"" + String(repeating: "&\(prev);", count: 16) + "\">"
        }
        let laughs = "<?xml version=\"1.0\"?><!DOCTYPE caml [\(dtd)]><caml><CALayer bounds=\"0 0 1 1\" name=\"&h;\"/></caml>"
        let flat = "<?xml version=\"1.0\"?><!DOCTYPE caml [<!ENTITY big \"\(String(repeating: "x", count: 10_000))\">]><caml><CALayer bounds=\"0 0 1 1\">"
            + String(repeating: "<CALayer name=\"&big;\"/>", count: 2_000) + "</CALayer></caml>"
        for (name, caml) in [("laughs", laughs), ("flat", flat)] {
            XCTAssertThrowsError(try CAMLImporter.decode(data: Array(caml.utf8), file: "\(name).caml", bundle: "/", index: nil)) { e in
                XCTAssertTrue("\(e)".hasPrefix("\(name).caml:1:"), "\(e)")
                XCTAssertTrue("\(e)".contains("declares the entity '\(name == "flat" ? "big" : "a")'"), "\(e)")
            }
        }
    }

    func testMismatchedTagIsLocated() {
        XCTAssertThrowsError(try CAMLImporter.decode(data: Array("<caml><CALayer></caml>".utf8), file: "bad.caml", bundle: "/", index: nil)) { e in
            XCTAssertEqual("\(e)", "bad.caml:1:23: error: /: malformed XML (a closing tag does not match its opening tag; libxml2 error 76)")
        }
    }

    func testTruncationsAreLocatedErrors() throws {
        let path = CorpusImportTests.corpus + "/caml/CAPlayground_SideStore_Floating.ca/main.caml"
        guard let data = FileManager.default.contents(atPath: path) else { throw CorpusMissing(message: "corpus not found") }
        let bytes = [UInt8](data)
        for n in stride(from: 1, to: bytes.count, by: 997) {
            XCTAssertThrowsError(try CAMLImporter.decode(data: Array(bytes.prefix(n)), file: "cut.caml", bundle: "/", index: nil)) { e in
                guard let s = e as? SceneError else { return XCTFail("\(e)") }
                XCTAssertEqual(s.file, "cut.caml")
            }
        }
    }
}
