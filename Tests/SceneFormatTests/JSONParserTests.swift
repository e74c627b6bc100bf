import XCTest
@testable import SceneFormat

final class JSONParserTests: XCTestCase {
    private func parse(_ s: String) throws -> JSONValue { try JSONParser.parse(Array(s.utf8), file: "t.json") }

    private func assertMalformed(_ s: String, line: Int, column: Int, _ message: String, pointer: String = "",
                                 kind: SceneError.Kind = .malformedJSON, file: StaticString = #filePath, testLine: UInt = #line) {
        do {
            _ = try parse(s)
            XCTFail("parsed: \(s)", file: file, line: testLine)
        } catch let e as SceneError {
            XCTAssertEqual(e.kind, kind, "\(e)", file: file, line: testLine)
            XCTAssertEqual(e.location.line, line, "\(e)", file: file, line: testLine)
            XCTAssertEqual(e.location.column, column, "\(e)", file: file, line: testLine)
            XCTAssertEqual(e.location.pointer, pointer, "\(e)", file: file, line: testLine)
            XCTAssertTrue(e.message.contains(message), "\(e.message)", file: file, line: testLine)
        } catch { XCTFail("\(error)", file: file, line: testLine) }
    }

    func testValuesCarryPositionsAndPointers() throws {
        let v = try parse("{\n  \"a/b\": [1, {\"c~d\": true}],\n  \"e\": \"é\", \"f\": null\n}")
        XCTAssertEqual(v.pointer, "")
        let arr = v["a/b"]!
        XCTAssertEqual(arr.pointer, "/a~1b")
        XCTAssertEqual(arr.line, 2); XCTAssertEqual(arr.column, 10)
        let inner = arr.array![1]["c~d"]!
        XCTAssertEqual(inner.pointer, "/a~1b/1/c~0d")
        XCTAssertEqual(inner.bool, true)
        XCTAssertEqual(v["e"]!.string, "é")
        // Columns count characters, not bytes: "f" comes after the two-byte é.
        XCTAssertEqual(v.members![2].keyLine, 3)
        XCTAssertEqual(v.members![2].keyColumn, 13)
        XCTAssertTrue(v["f"]!.isNull)
    }

    func testNumbersAndEscapes() throws {
        let v = try parse(#"[0, -0.5, 1e3, 2.5E-2, "\u00e9\n\"\\\/", "\ud83d\ude00"]"#)
        let a = v.array!
        XCTAssertEqual(a[0].number, 0); XCTAssertEqual(a[1].number, -0.5)
        XCTAssertEqual(a[2].number, 1000); XCTAssertEqual(a[3].number, 0.025)
        XCTAssertEqual(a[4].string, "é\n\"\\/")
        XCTAssertEqual(a[5].string, "😀")
    }

    func testMalformedInputNamesItsPlace() {
        assertMalformed("{\"a\": 1 \"b\": 2}", line: 1, column: 9, "expected ',' or '}' after object member")
        assertMalformed("[1, 2,]", line: 1, column: 7, "trailing comma before ']'")
        assertMalformed("{\"a\": 1,}", line: 1, column: 9, "trailing comma before '}'")
        assertMalformed("{\n  \"a\": [1\n  2]}", line: 3, column: 3, "expected ',' or ']' after array element", pointer: "/a")
        assertMalformed("{\"a\" 1}", line: 1, column: 6, "expected ':' after object key 'a'")
        assertMalformed("{'a': 1}", line: 1, column: 2, "expected a member key in double quotes")
        assertMalformed("[NaN]", line: 1, column: 2, "JSON has no NaN or Infinity")
        assertMalformed("[-Infinity]", line: 1, column: 3, "JSON has no NaN or Infinity")
        assertMalformed("[01]", line: 1, column: 3, "leading zeros")
        assertMalformed("[1.]", line: 1, column: 4, "expected a digit after '.'")
        assertMalformed("[1e400]", line: 1, column: 7, "out of range", kind: .outOfRange)
        assertMalformed("[\"a\nb\"]", line: 1, column: 4, "control character U+000A")
        assertMalformed(#"["\x"]"#, line: 1, column: 4, "invalid escape '\\x'")
        assertMalformed(#"["\ud800"]"#, line: 1, column: 9, "unpaired surrogate")
        assertMalformed("{} {}", line: 1, column: 4, "after the JSON value")
        assertMalformed("", line: 1, column: 1, "empty")
        assertMalformed("{\"a\": ", line: 1, column: 7, "unexpected end of input")
        assertMalformed("[tru]", line: 1, column: 2, "unknown literal 'tru'")
        assertMalformed("// c\n{}", line: 1, column: 1, "comments are not allowed")
    }

    func testInvalidUTF8IsRefused() {
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xC3, 0x28, 0x22], file: "t.json")) { e in
            XCTAssertTrue("\(e)".contains("invalid UTF-8"), "\(e)")
        }
    }

    func testDuplicateKeysAreAnError() {
        assertMalformed("{\n  \"a\": 1,\n  \"a\": 2\n}", line: 3, column: 3, "duplicate key 'a' (first at line 2, column 3)", pointer: "/a")
    }

    func testNestingDepthIsLimited() {
        let deep = String(repeating: "[", count: SceneLimits.maxJSONDepth + 1) + String(repeating: "]", count: SceneLimits.maxJSONDepth + 1)
        XCTAssertThrowsError(try parse(deep)) { e in
            XCTAssertEqual((e as? SceneError)?.kind, .limitExceeded)
            XCTAssertTrue("\(e)".contains("nested deeper than \(SceneLimits.maxJSONDepth)"))
        }
        let ok = String(repeating: "[", count: SceneLimits.maxJSONDepth) + String(repeating: "]", count: SceneLimits.maxJSONDepth)
        XCTAssertNoThrow(try parse(ok))
    }

    func testByteOrderMarkIsSkipped() throws {
        XCTAssertEqual(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8), file: "t").array?.count, 1)
    }
}
