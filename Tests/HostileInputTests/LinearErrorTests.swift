import XCTest
@testable import SceneFormat

/// Errors stay linear in the input and short whatever it holds: a 4-million-character key is
/// refused without a quadratic "did you mean" search and echoed shortened, once in the message and
/// once in the pointer.
final class LinearErrorTests: XCTestCase {
    func testAHugeUnknownKeyIsEchoedShortened() throws {
        let key = String(repeating: "a", count: 4 << 20)
        let e = try XCTUnwrap(sceneError(scene(root: "{\"\(key)\": 1}")))
        XCTAssertEqual(e.kind, .unknownKey)
        XCTAssertNil(e.suggestion, "no candidate is within 3 edits of a 4 Mi-character word")
        // Echo keeps 40 characters and the length, in the message and in the pointer.
        XCTAssertTrue(e.message.contains("'" + String(repeating: "a", count: 40) + "…' (4194304 characters)"), e.message)
        XCTAssertEqual(e.location.pointer.utf8.count, "/root/".utf8.count + (4 << 20), "the error keeps the exact pointer")
        XCTAssertLessThan(e.description.utf8.count, 300, e.description)
        XCTAssertTrue(e.description.contains("/root/" + String(repeating: "a", count: 40) + "…(4194304 characters)"), e.description)
    }

    func testADuplicateHugeKeyIsEchoedShortened() throws {
        let key = String(repeating: "k", count: 100_000)
        let e = try XCTUnwrap(sceneError("{\"\(key)\": 1, \"\(key)\": 2}"))
        XCTAssertEqual(e.kind, .malformedJSON)
        XCTAssertLessThan(e.description.utf8.count, 300, e.description)
        XCTAssertTrue(e.message.contains("(100000 characters)"), e.message)
    }

    func testSuggestionsStillFindTypos() {
        let keys = ["backgroundColor", "borderColor", "bounds", "opacity"]
        XCTAssertEqual(Suggestion.nearest(to: "backgroundColr", among: keys), "backgroundColor")   // one deletion
        XCTAssertEqual(Suggestion.nearest(to: "BACKGROUNDCOLOR", among: keys), "backgroundColor")  // case only
        XCTAssertEqual(Suggestion.nearest(to: "opcaity", among: keys), "opacity")                  // one transposition
        XCTAssertNil(Suggestion.nearest(to: "zzzzzzz", among: keys))
        // Longest candidate (15) + 3 edits = 18 characters: a 19-character word is never within reach.
        XCTAssertNil(Suggestion.nearest(to: "backgroundColorXYZW", among: keys))
        XCTAssertNil(Suggestion.nearest(to: String(repeating: "é", count: 1_000_000), among: keys))
    }

    func testEchoKeepsShortTextWhole() {
        XCTAssertEqual(Echo.quoted("opacity"), "'opacity'")
        XCTAssertEqual(Echo.pointer("/root/sublayers/0/opacity"), "/root/sublayers/0/opacity")
        let long = String(repeating: "x", count: 65)
        XCTAssertEqual(Echo.quoted(long), "'" + String(repeating: "x", count: 40) + "…' (65 characters)")
    }
}
