import XCTest
import Foundation
import SystemSupport

/// The JSON string literal the hand-built writers (scene files, traces, the schema) share.
final class JSONStringTests: XCTestCase {
    /// RFC 8259 §7: quotation mark, reverse solidus and U+0000–U+001F must be escaped; the short
    /// forms where they exist, \u00XX for the rest; everything else may stand as itself.
    func testEscapesWhatRFC8259Requires() {
        XCTAssertEqual(JSONString.quoted(#"say "hi" \ bye"#), #""say \"hi\" \\ bye""#)
        XCTAssertEqual(JSONString.quoted("a\nb\rc\td"), #""a\nb\rc\td""#)
        XCTAssertEqual(JSONString.quoted("\u{0}\u{1}\u{1F}"), #""\u0000\u0001\u001f""#)
        XCTAssertEqual(JSONString.quoted("é → 🎞 \u{7F}"), "\"é → 🎞 \u{7F}\"", "non-ASCII and DEL are written as themselves")
        XCTAssertEqual(JSONString.quoted(""), "\"\"")
    }

    /// Whatever the string, a JSON parser reads back the same string.
    func testRoundTripsThroughAJSONParser() throws {
        let samples = ["", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{8}\u{C}\u{1B}\u{1F}",
                       "line\nbreaks\r\n", "emoji 👩‍👩‍👧 and combining e\u{301}", String((0..<128).map { Character(Unicode.Scalar($0)!) })]
        for s in samples {
            let back = try JSONDecoder().decode([String].self, from: Data("[\(JSONString.quoted(s))]".utf8))
            XCTAssertEqual(back, [s])
        }
    }
}
