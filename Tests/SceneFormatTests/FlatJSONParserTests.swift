import XCTest
@testable import SceneFormat

/// The flat parser (`JSONParser` into a `JSONDocument`) against the tree parser it replaced
/// (`LegacyJSONParser`, kept unchanged as the oracle): the same values, positions, pointers and
/// keys on success, and the same error (kind, message, line, column, pointer) on failure.
final class FlatJSONParserTests: XCTestCase {
    /// Parses `text` both ways and asserts they agree.
    private func assertAgree(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        assertAgree(Array(text.utf8), label: text, file: file, line: line)
    }

    private func assertAgree(_ bytes: [UInt8], label: String, file: StaticString = #filePath, line: UInt = #line) {
        let flat = Result { try JSONParser.parse(bytes, file: "t.json") }
        let tree = Result { try LegacyJSONParser.parse(bytes, file: "t.json") }
        switch (flat, tree) {
        case (.success(let f), .success(let t)):
            compare(f, t, label, file: file, line: line)
        case (.failure(let f as SceneError), .failure(let t as SceneError)):
            XCTAssertEqual(f.kind, t.kind, label, file: file, line: line)
            XCTAssertEqual(f.message, t.message, label, file: file, line: line)
            XCTAssertEqual(f.location.line, t.location.line, "\(label): \(f.message)", file: file, line: line)
            XCTAssertEqual(f.location.column, t.location.column, "\(label): \(f.message)", file: file, line: line)
            XCTAssertEqual(f.location.pointer, t.location.pointer, "\(label): \(f.message)", file: file, line: line)
        default:
            XCTFail("\(label.prefix(200)): flat \(flat), tree \(tree)", file: file, line: line)
        }
    }

    private func compare(_ f: JSONValue, _ t: LegacyJSONValue, _ label: String, file: StaticString, line: UInt) {
        XCTAssertEqual(f.line, t.line, label, file: file, line: line)
        XCTAssertEqual(f.column, t.column, label, file: file, line: line)
        XCTAssertEqual(f.pointer, t.pointer, label, file: file, line: line)
        XCTAssertEqual(f.pointerSpeller.pointer, t.pointer, label, file: file, line: line)
        XCTAssertEqual(f.token, t.token, label, file: file, line: line)
        XCTAssertEqual(f.typeDescription, t.typeDescription, label, file: file, line: line)
        switch (f.kind, t.kind) {
        case (.null, .null): break
        case (.bool(let a), .bool(let b)): XCTAssertEqual(a, b, label, file: file, line: line)
        case (.number(let a), .number(let b)): XCTAssertEqual(a.bitPattern, b.bitPattern, label, file: file, line: line)
        case (.string(let a), .string(let b)): XCTAssertEqual(a, b, label, file: file, line: line)
        case (.array(let a), .array(let b)):
            XCTAssertEqual(a.count, b.count, label, file: file, line: line)
            for (x, y) in zip(a, b) { compare(x, y, label, file: file, line: line) }
            let inPlace = f.arrayElements!
            XCTAssertEqual(inPlace.count, a.count, label, file: file, line: line)
            XCTAssertEqual(inPlace.map(\.index), a.map(\.index), label, file: file, line: line)
            if a.count == 2 || a.count == 4 {
                let allNumbers = b.allSatisfy { $0.number != nil }
                if let n = f.numbers(count: a.count) {
                    XCTAssertTrue(allNumbers, label, file: file, line: line)
                    let read = [n.0, n.1, n.2, n.3].prefix(a.count)
                    XCTAssertEqual(read.map(\.bitPattern), b.compactMap { $0.number?.bitPattern }, label, file: file, line: line)
                } else {
                    XCTAssertFalse(allNumbers, "numbers(count:) missed \(label.prefix(200))", file: file, line: line)
                }
            }
        case (.object(let a), .object(let b)):
            XCTAssertEqual(a.count, b.count, label, file: file, line: line)
            let inPlace = f.objectMembers!
            XCTAssertEqual(inPlace.count, a.count, label, file: file, line: line)
            XCTAssertEqual(inPlace.map(\.key), a.map(\.key), label, file: file, line: line)
            XCTAssertEqual(inPlace.map(\.value.index), a.map(\.value.index), label, file: file, line: line)
            for (x, y) in zip(a, b) {
                XCTAssertEqual(x.key, y.key, label, file: file, line: line)
                XCTAssertEqual(x.keyLine, y.keyLine, label, file: file, line: line)
                XCTAssertEqual(x.keyColumn, y.keyColumn, label, file: file, line: line)
                compare(x.value, y.value, label, file: file, line: line)
                XCTAssertEqual(f[x.key]?.index, x.value.index, label, file: file, line: line)
            }
        default:
            XCTFail("\(label.prefix(200)): flat \(f.kind), tree \(t.kind)", file: file, line: line)
        }
    }

    func testTrickyValuesAgree() {
        let inputs = [
            #"{}"#, #"[]"#, #"[[], {}, [[]], {"a": {}}]"#, "\u{FEFF}{\"a\": 1}", "\n\r\n\r {\"a\"\r:\n1}",
            #"{"a/b": [1, {"c~d": true}], "e": "é", "f": null, "": 0, "~/": [false]}"#,
            #"["\u00e9\n\"\\\/\b\f\r\t", "\ud83d\ude00", "a\u0000b", "日本語", "\uD834\uDD1E x"]"#,
            #"[0, -0, -0.0, 0.5, 1e22, 1e23, 123456789012345, 1234567890123456, 9007199254740993, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308, 0.1, 1E+2, 1e-22, 1e-23]"#,
            #"{"x": {"y": {"z": [1, [2, [3, {"w": "deep"}]]]}}}"#,
            #"{"é": {"ü": [1, 2]}, "\u00e9x": "s", "a\"b": [{"c": null}]}"#,
            String(repeating: "[", count: 1024) + String(repeating: "]", count: 1024),
            "{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}",
        ]
        for s in inputs { assertAgree(s) }
    }

    func testErrorsAgree() {
        let inputs = [
            "", "   ", "{", "[", "[1", "[1,", "{\"a\"", "{\"a\":", "{\"a\": 1", "{\"a\": 1,", "\"abc", "\"\\", "\"\\u12",
            "{\"a\": 1 \"b\": 2}", "[1, 2,]", "{\"a\": 1,}", "{\n  \"a\": [1\n  2]}", "{\"a\" 1}", "{'a': 1}", "[NaN]",
            "[-Infinity]", "[Infinity]", "[01]", "[1.]", "[1e]", "[-]", "[+1]", "[.5]", "[1e400]", "[-1e400]", "[\"a\nb\"]",
            #"["\x"]"#, #"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#, #"{"a": [1, {"b": "\q"}]}"#,
            "[tru]", "[nul]", "[truex]", "{\"a\": 1} x", "[1] [2]", "// c\n{}", "[1 // c\n]",
            #"{"a": 1, "a": 2}"#, #"{"x": {"a/b": 1, "a/b": 2}}"#, #"[{"é": 1, "é": 2}]"#,
            "{" + (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"k17\": 0}",
            String(repeating: "[", count: 1025) + String(repeating: "]", count: 1025),
            String(repeating: "{\"a\": ", count: 1025) + "1" + String(repeating: "}", count: 1025),
            "[\"é\", 1, \"日本\" x]", "{\"a\": [1, 2, {\"b\": [true, fals]}]}",
        ]
        for s in inputs { assertAgree(s) }
        assertAgree([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], label: "invalid UTF-8")
        assertAgree([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D], label: "invalid UTF-8 in a key")
        assertAgree(Array("[{\"é\": 1}, {\"".utf8) + [0xC3, 0x28] + Array("\": 2}]".utf8), label: "a valid key, then invalid bytes")
    }

    /// Keys are interned by their bytes (`JSONParser.KeyTable`): duplicates must still be found
    /// between interned keys, escaped spellings, long keys and keys past the table's capacity.
    func testInternedKeysAgree() {
        let long = String(repeating: "k", count: 70)
        let many = (0..<300).map { "\"key\($0)\": 0" }.joined(separator: ", ")
        let inputs = [
            #"{"a": 1, "\u0061": 2}"#, #"{"\u0061": 1, "a": 2}"#, #"{"a\"b": 1, "a\"b": 2}"#,
            #"[{"a": 1, "b": 2}, {"b": 1, "a": 2}, {"a": 1, "a": 2}]"#,
            "{\"\(long)\": 1, \"\(long)\": 2}", "[{\"\(long)\": 1}, {\"\(long)\": 2, \"\(long)x\": 3}]",
            "[{\(many)}, {\"key299\": 1, \"key0\": 2, \"key299\": 3}]",
            "[{\(many)}, {\"new\": 1, \"new\": 2}]", "[{\(many)}, {\"new\": 1, \"key1\": 2, \"other\": 3}]",
            #"[{"é": 1, "日本": 2}, {"日本": 1, "é": 2}, {"é": 1, "é": 2}]"#,
            #"[{"ab": 1}, {"ba": 1}, {"abc": 1}, {"a": 1, "ab": 2, "abc": 3}]"#,
        ]
        for s in inputs { assertAgree(s) }
        assertAgree([0x5B, 0x22, 0x5C, 0x6E, 0xFF, 0x22, 0x5D], label: "invalid UTF-8 after an escape")
        assertAgree([0x5B, 0x01, 0x5D], label: "control byte")
    }

    /// Every prefix of a scene-like document (errors at the end of input in every state) and every
    /// one-byte corruption of a smaller one.
    func testPrefixesAndCorruptionsAgree() {
        let doc = """
        {"caprof": 1, "canvas": {"width": 390, "height": 844, "scale": 3},
         "root": {"frame": [0, 0, 390, 844], "sublayers": [
           {"name": "é\\u00e9", "frame": [1.5, -2e1, 24, 24], "backgroundColor": "#43831D", "opacity": 0.9},
           {"contents": "a/b.png", "hidden": true, "mask": {"bounds": [0, 0, 1, 1]}, "x": null}]}}
        """
        let bytes = Array(doc.utf8)
        assertAgree(bytes, label: "whole")
        for n in 0..<bytes.count { assertAgree(Array(bytes[..<n]), label: "prefix \(n)") }
        let small = Array(#"{"a": [1, -2.5e3, "s\u00e9"], "b": {"c": true}}"#.utf8)
        for k in 0..<small.count {
            for b: UInt8 in [0x22, 0x2C, 0x5D, 0x7D, 0x3A, 0x5C, 0x30, 0x20, 0x0A, 0xC3] where small[k] != b {
                var corrupt = small
                corrupt[k] = b
                assertAgree(corrupt, label: "byte \(k) → \(b)")
            }
        }
    }

    /// `JSONNodes` grows by doubling, from malloc'd blocks into mapped ones (huge pages asked for),
    /// keeping every node.
    func testNodeStorageGrowsAcrossBlockKinds() {
        let nodes = JSONNodes(capacity: 1)
        let n = 3 * JSONNodes.hugeBlockBytes / MemoryLayout<JSONNode>.stride
        for k in 0..<n {
            nodes.append(JSONNode(payload: UInt64(k), end: Int32(k + 1), parent: Int32(k - 1), keyOrOrdinal: Int32(k),
                                  line: 1, column: Int32(k), keyLine: 0, keyColumn: 0, tag: .number))
        }
        nodes[7].payload = 99
        XCTAssertEqual(nodes.count, n)
        XCTAssertEqual(nodes[7].payload, 99)
        XCTAssertTrue((0..<n).allSatisfy { $0 == 7 || (nodes[$0].payload == UInt64($0) && nodes[$0].column == Int32($0)) })
    }

    /// A layer's location keeps a pointer node, not the document; siblings share their container's.
    func testSpellersShareTheirContainer() throws {
        let v = try JSONParser.parse(Array(#"{"s": [{"a": 1}, {"a": 2}]}"#.utf8), file: "t.json")
        let items = v["s"]!.array!
        let a = items[0].pointerSpeller, b = items[1].pointerSpeller
        XCTAssertTrue(a.parent === b.parent)
        XCTAssertEqual(a.pointer, "/s/0"); XCTAssertEqual(b.pointer, "/s/1")
        XCTAssertEqual(items[1]["a"]!.pointerSpeller.pointer, "/s/1/a")
        // Out of document order too (the cache is the path to the last container asked for).
        XCTAssertEqual(items[0]["a"]!.pointerSpeller.pointer, "/s/0/a")
        XCTAssertEqual(v.pointerSpeller.pointer, "")
        XCTAssertEqual(items[1]["a"]!.pointerSpeller.pointer, "/s/1/a")
        XCTAssertEqual(v["s"]!.pointerSpeller.pointer, "/s")
    }
}
