import XCTest
import Foundation
@testable import AssetImport

/// libxml2 read through CXMLShim: names, attributes, text, positions and the entities it expands.
final class XMLTreeTests: XCTestCase {
    func testElementsAttributesTextAndPositions() throws {
        let xml = "<?xml version=\"1.0\"?>\n<caml xmlns=\"http://www.apple.com/CoreAnimation/1.0\">\n  <CALayer name=\"a &amp; b &#x263A;\" x:y=\"1\" xmlns:x=\"urn:x\">t&lt;u</CALayer>\n</caml>"
        let root = try XMLTree.parse(Array(xml.utf8))
        XCTAssertEqual(root.name, "caml")
        XCTAssertEqual(root["xmlns"], "http://www.apple.com/CoreAnimation/1.0", "a namespace declaration is an attribute")
        let layer = try XCTUnwrap(root.child("CALayer"))
        XCTAssertEqual(layer["name"], "a & b ☺", "entity and character references are expanded")
        XCTAssertEqual(layer["x:y"], "1", "qualified names, namespaces not processed")
        XCTAssertEqual(layer["xmlns:x"], "urn:x")
        XCTAssertEqual(layer.text, "t<u")
        // Where the start tag ends: line 3, at the `>` of `<CALayer … xmlns:x="urn:x">` (2 spaces
        // before it; the tag is 59 characters, the `>` its last).
        XCTAssertEqual(layer.line, 3)
        XCTAssertEqual(layer.column, 2 + 59)
    }

    /// libxml2 sees the first four bytes first (a byte-order mark, an encoding declaration) and
    /// transcodes: UTF-16 with its mark, Latin-1 as declared.
    func testOtherEncodingsAreTranscoded() throws {
        let text = "<plist><string>café</string></plist>"
        let utf16: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        guard case .string(let a) = try XMLPlistReader.parse(utf16) else { return XCTFail() }
        XCTAssertEqual(a, "café")
        let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><string>caf".utf8) + [0xE9] + Array("</string></plist>".utf8)
        guard case .string(let b) = try XMLPlistReader.parse(latin1) else { return XCTFail() }
        XCTAssertEqual(b, "café")
    }

    func testCDATAIsText() throws {
        let value = try XMLPlistReader.parse(Array("<plist><string>a<![CDATA[<b>&]]>c</string></plist>".utf8))
        guard case .string(let s) = value else { return XCTFail("\(value)") }
        XCTAssertEqual(s, "a<b>&c")
    }

    /// An external entity is never read: a document cannot pull a local file into a layer's text.
    func testExternalEntitiesAreNeverRead() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-secret-\(UUID().uuidString)").path
        try "SECRET-MARKER".write(toFile: secret, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: secret) }
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE plist [<!ENTITY x SYSTEM \"file://\(secret)\">]><plist><string>&x;</string></plist>"
        do {
            let value = try XMLPlistReader.parse(Array(xml.utf8))
            XCTAssertFalse("\(value)".contains("SECRET-MARKER"), "\(value)")
        } catch {
            XCTAssertFalse("\(error)".contains("SECRET-MARKER"), "\(error)")
            XCTAssertTrue("\(error)".contains("malformed XML"), "\(error)")
        }
    }

    func testInternalEntitiesAreExpanded() throws {
        let xml = "<!DOCTYPE plist [<!ENTITY who \"world\">]><plist><string>hello &who;</string></plist>"
        guard case .string(let s) = try XMLPlistReader.parse(Array(xml.utf8)) else { return XCTFail() }
        XCTAssertEqual(s, "hello world")
    }

    func testDepthIsCappedAtItsLine() {
        let xml = String(repeating: "<a>", count: XMLTree.maxDepth + 1)
        XCTAssertThrowsError(try XMLTree.parse(Array(xml.utf8))) { e in
            XCTAssertTrue("\(e)".hasPrefix("1:\(3 * (XMLTree.maxDepth + 1)): XML nested deeper than \(XMLTree.maxDepth) levels"), "\(e)")
        }
    }
}
