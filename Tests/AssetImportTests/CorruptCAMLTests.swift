import XCTest
@testable import AssetImport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// Truncated CAML never crashes: a located error (or, when the cut leaves a well-formed prefix, a scene).
final class CorruptCAMLTests: XCTestCase {
    /// Exponential entity expansion is refused by libxml2 (no hang, no memory blow-up), and the
    /// error says what it is.
    func testBillionLaughsIsRefused() {
        var dtd = "<!ENTITY a \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\">"
        let names = ["a", "b", "c", "d", "e", "f", "g", "h"]
        for (prev, name) in zip(names, names.dropFirst()) {
            dtd += "<!ENTITY \(name) \"" + String(repeating: "&\(prev);", count: 16) + "\">"
        }
        let caml = "<?xml version=\"1.0\"?><!DOCTYPE caml [\(dtd)]><caml><CALayer bounds=\"0 0 1 1\" name=\"&h;\"/></caml>"
        XCTAssertThrowsError(try CAMLImporter.decode(data: Array(caml.utf8), file: "laughs.caml", bundle: "/", index: nil)) { e in
            XCTAssertTrue("\(e)".contains("entity loop or 'billion laughs'"), "\(e)")
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
