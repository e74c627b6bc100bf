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
            XCTAssertTrue("\(error)".contains("declares the entity 'x'"), "\(error)")
        }
    }

    /// CAML and plists never declare entities; a declaration is refused where it stands, with its
    /// name, so no entity can expand (a flat fan-out of large entities is not exponential, and
    /// libxml2's own amplification check let 220 KB expand to 6.3 GB). Predefined entities and
    /// character references still read as text.
    func testEntityDeclarationsAreRefusedAtTheirPlace() throws {
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n  <!ENTITY who \"world\">]><plist><string>hello &who;</string></plist>"
        XCTAssertThrowsError(try XMLPlistReader.parse(Array(xml.utf8))) { e in
            XCTAssertTrue("\(e)".hasPrefix("3:"), "\(e)")
            XCTAssertTrue("\(e)".contains("declares the entity 'who'"), "\(e)")
        }
        let parameter = "<!DOCTYPE plist [<!ENTITY % p \"<!ENTITY q 'x'>\"> %p;]><plist><string>&q;</string></plist>"
        XCTAssertThrowsError(try XMLPlistReader.parse(Array(parameter.utf8))) { e in
            XCTAssertTrue("\(e)".contains("declares the entity 'p'"), "\(e)")
        }
        let plain = "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\"><plist><string>a &lt; b &amp; &#233;</string></plist>"
        guard case .string(let s) = try XMLPlistReader.parse(Array(plain.utf8)) else { return XCTFail() }
        XCTAssertEqual(s, "a < b & é")
    }

    /// A document over 10 MB reads like any other (libxml2 refuses a single pushed chunk over
    /// 10,000,000 bytes with a bare "error 1"; the shim pushes it in pieces).
    func testADocumentOverTenMegabytesIsRead() throws {
        let text = String(repeating: "abcdefghij", count: 1_200_000)
        guard case .string(let s) = try XMLPlistReader.parse(Array("<plist><string>\(text)</string></plist>".utf8)) else { return XCTFail() }
        XCTAssertEqual(s.utf8.count, 12_000_000)
    }

    /// An attribute-list declaration gives its default to every element it names: one 10 KB
    /// default on CALayer turned 357 KB of CAML into 6.7 MB of names (a fuzz finding). Refused at
    /// the declaration, as entity declarations are; so is an unparsed (NDATA) entity.
    func testAttributeListAndUnparsedEntityDeclarationsAreRefused() {
        let attlist = "<!DOCTYPE caml [\n<!ATTLIST CALayer name CDATA \"\(String(repeating: "x", count: 10_000))\">]><caml><CALayer/><CALayer/></caml>"
        XCTAssertThrowsError(try XMLTree.parse(Array(attlist.utf8))) { e in
            XCTAssertTrue("\(e)".hasPrefix("2:"), "\(e)")
            XCTAssertTrue("\(e)".contains("declares an attribute list ('name')"), "\(e)")
        }
        let ndata = "<!DOCTYPE caml [<!NOTATION png SYSTEM \"png\"><!ENTITY pic SYSTEM \"x.png\" NDATA png>]><caml/>"
        XCTAssertThrowsError(try XMLTree.parse(Array(ndata.utf8))) { e in
            XCTAssertTrue("\(e)".contains("declares the entity 'pic'"), "\(e)")
        }
    }

    func testDepthIsCappedAtItsLine() {
        let xml = String(repeating: "<a>", count: XMLTree.maxDepth + 1)
        XCTAssertThrowsError(try XMLTree.parse(Array(xml.utf8))) { e in
            XCTAssertTrue("\(e)".hasPrefix("1:\(3 * (XMLTree.maxDepth + 1)): XML nested deeper than \(XMLTree.maxDepth) levels"), "\(e)")
        }
    }
}
