// The tree-of-values JSON parser that `JSONParser` replaced (SceneFormat at 5c4a933), kept
// unchanged but for names as the oracle of `FlatJSONParserTests`: the flat parser must give the
// same values, positions, pointers and errors.
import LayerModel
@testable import SceneFormat

/// A strict RFC 8259 JSON parser that keeps positions and pointers (Foundation's JSONSerialization
/// gives neither). Refuses: trailing commas, comments, single quotes, NaN/Infinity, leading zeros,
/// unescaped control characters, invalid UTF-8, unpaired surrogates, duplicate keys. Bounded by
/// `SceneLimits.maxJSONDepth` and `maxJSONValues`, so hostile input ends in a `SceneError`.
struct LegacyJSONParser {
    private let bytes: [UInt8]
    private let file: String
    private var i = 0
    private var line = 1
    private var lineStart = 0
    // Column cache on the current line: positions are asked for in increasing order, so counting
    // scalars from the last asked position keeps column computation linear overall.
    private var columnIndex = 0
    private var columnValue = 1
    private var valueCount = 0
    // The members and elements of the containers being parsed, innermost last: a container's
    // array is made once, at its exact size, when it closes (appending to its own array grew it
    // 1 → 2 → 4, an allocation and a copy each time: ≈ 1/7 of parsing a 10,000-layer scene).
    private var memberStack: [LegacyJSONMember] = []
    private var elementStack: [LegacyJSONValue] = []

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes; self.file = file
    }

    /// Parses one JSON document.
    static func parse(_ bytes: [UInt8], file: String) throws -> LegacyJSONValue {
        var p = LegacyJSONParser(bytes: bytes, file: file)
        return try p.parseDocument()
    }

    mutating func parseDocument() throws -> LegacyJSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3; lineStart = 3; columnIndex = 3 }
        skipWhitespace()
        if i >= bytes.count { throw error("the file is empty, expected a JSON object", parent: nil) }
        let v = try parseValue(parent: nil, token: nil, depth: 0)
        skipWhitespace()
        if i < bytes.count { throw error("unexpected \(describeByte(at: i)) after the JSON value", parent: nil) }
        return v
    }

    // MARK: values

    private mutating func parseValue(parent: LegacyJSONPointerNode?, token: LegacyJSONToken?, depth: Int) throws -> LegacyJSONValue {
        skipWhitespace()
        guard i < bytes.count else { throw error("unexpected end of input, expected a value", parent: parent) }
        valueCount += 1
        if valueCount > SceneLimits.maxJSONValues {
            throw error("more than \(SceneLimits.maxJSONValues) JSON values in one file", kind: .limitExceeded, parent: parent)
        }
        let (l, c) = position()
        func make(_ k: LegacyJSONValue.Kind) -> LegacyJSONValue { LegacyJSONValue(kind: k, line: l, column: c, parent: parent, token: token) }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            return make(.object(try parseObject(node: node(parent, token), depth: depth + 1)))
        case UInt8(ascii: "["):
            return make(.array(try parseArray(node: node(parent, token), depth: depth + 1)))
        case UInt8(ascii: "\""):
            return make(.string(try parseString(parent: parent)))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return make(.number(try parseNumber(parent: parent)))
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "I"):
            return make(try parseLiteral(parent: parent))
        case UInt8(ascii: "'"):
            throw error("strings use double quotes (\"…\"), found a single quote", parent: parent)
        case UInt8(ascii: "+"):
            throw error("a number cannot start with '+'", parent: parent)
        case UInt8(ascii: "."):
            throw error("a number needs a digit before '.'", parent: parent)
        case UInt8(ascii: "/"):
            throw error("comments are not allowed in JSON", parent: parent)
        default:
            throw error("unexpected \(describeByte(at: i)), expected a value", parent: parent)
        }
    }

    private func node(_ parent: LegacyJSONPointerNode?, _ token: LegacyJSONToken?) -> LegacyJSONPointerNode {
        LegacyJSONPointerNode(parent: parent, token: token)
    }

    private mutating func enter(_ depth: Int, _ node: LegacyJSONPointerNode) throws {
        if depth > SceneLimits.maxJSONDepth {
            throw error("arrays and objects nested deeper than \(SceneLimits.maxJSONDepth) levels", kind: .limitExceeded, parent: node)
        }
    }

    /// Members an object may have before duplicate keys are found through a dictionary.
    static let keyIndexThreshold = 16

    private mutating func parseObject(node: LegacyJSONPointerNode, depth: Int) throws -> [LegacyJSONMember] {
        try enter(depth, node)
        i += 1  // {
        let base = memberStack.count
        // Duplicate keys: a linear look through the members up to `keyIndexThreshold`, a dictionary
        // beyond (a hostile object of a million keys stays linear). A dictionary for every object
        // was ≈ 1/6 of parsing a 10,000-layer scene (perf), whose objects have 1 to 5 keys.
        var keyIndex: [String: Int]? = nil
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { i += 1; return [] }
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input inside an object, expected a key", parent: node) }
            guard bytes[i] == UInt8(ascii: "\"") else {
                if bytes[i] == UInt8(ascii: "}") { throw error("trailing comma before '}'", parent: node) }
                throw error("expected a member key in double quotes, found \(describeByte(at: i))", parent: node)
            }
            let (kl, kc) = position()
            let key = try parseString(parent: node)
            if let k = keyIndex.map({ $0[key] }) ?? memberStack[base...].firstIndex(where: { $0.key == key }) {
                let first = memberStack[k]
                throw SceneError(.malformedJSON, at: SourceLocation(file: file, pointer: node.pointer + "/" + LegacyJSONPointerNode.escape(key), line: kl, column: kc),
                                 "duplicate key \(Echo.quoted(key)) (first at line \(first.keyLine), column \(first.keyColumn))")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error(i < bytes.count ? "expected ':' after object key \(Echo.quoted(key)), found \(describeByte(at: i))"
                                            : "unexpected end of input, expected ':' after object key \(Echo.quoted(key))", parent: node)
            }
            i += 1
            let value = try parseValue(parent: node, token: .key(key), depth: depth)
            memberStack.append(LegacyJSONMember(key: key, keyLine: kl, keyColumn: kc, value: value))
            if keyIndex != nil {
                keyIndex![key] = memberStack.count - 1
            } else if memberStack.count - base == Self.keyIndexThreshold {
                keyIndex = Dictionary(uniqueKeysWithValues: (base..<memberStack.count).map { (memberStack[$0].key, $0) })
            }
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input, expected ',' or '}' after object member", parent: node) }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                defer { memberStack.removeSubrange(base...) }
                return Array(memberStack[base...])
            }
            throw error("expected ',' or '}' after object member, found \(describeByte(at: i))", parent: node)
        }
    }

    private mutating func parseArray(node: LegacyJSONPointerNode, depth: Int) throws -> [LegacyJSONValue] {
        try enter(depth, node)
        i += 1  // [
        let base = elementStack.count
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { i += 1; return [] }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'", parent: node) }
            let value = try parseValue(parent: node, token: .index(elementStack.count - base), depth: depth)
            elementStack.append(value)
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input, expected ',' or ']' after array element", parent: node) }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                defer { elementStack.removeSubrange(base...) }
                return Array(elementStack[base...])
            }
            throw error("expected ',' or ']' after array element, found \(describeByte(at: i))", parent: node)
        }
    }

    // MARK: scalars

    private mutating func parseLiteral(parent: LegacyJSONPointerNode?) throws -> LegacyJSONValue.Kind {
        for (word, kind) in [("true", LegacyJSONValue.Kind.bool(true)), ("false", .bool(false)), ("null", .null)] {
            let w = Array(word.utf8)
            if i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w,
               i + w.count == bytes.count || !isIdentifierByte(bytes[i + w.count]) {
                i += w.count
                return kind
            }
        }
        var end = i
        while end < bytes.count, end - i < 32, isIdentifierByte(bytes[end]) { end += 1 }
        let word = String(decoding: bytes[i..<end], as: UTF8.self)
        if word == "NaN" || word == "Infinity" || word == "inf" || word == "nan" {
            throw error("'\(word)' is not JSON: JSON has no NaN or Infinity (write \"infinity\" where the format allows it)", parent: parent)
        }
        throw error("unknown literal '\(word)', expected true, false or null", parent: parent)
    }

    private func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
    }

    private mutating func parseNumber(parent: LegacyJSONPointerNode?) throws -> Double {
        let start = i
        func digits() -> Int { let s = i; while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }; return i - s }
        if peek(UInt8(ascii: "-")) {
            i += 1
            if i + 8 <= bytes.count, Array(bytes[i..<i + 8]) == Array("Infinity".utf8) {
                throw error("'-Infinity' is not JSON: JSON has no NaN or Infinity", parent: parent)
            }
        }
        guard i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 else {
            throw error("expected a digit in a number, found \(i < bytes.count ? describeByte(at: i) : "the end of input")", parent: parent)
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { throw error("numbers cannot have leading zeros", parent: parent) }
        } else {
            _ = digits()
        }
        if peek(UInt8(ascii: ".")) {
            i += 1
            if digits() == 0 { throw error("expected a digit after '.' in a number", parent: parent) }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            i += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { i += 1 }
            if digits() == 0 { throw error("expected a digit in the exponent of a number", parent: parent) }
        }
        if let v = JSONParser.exactDouble(bytes[start..<i]) { return v }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            throw error("the number \(text.prefix(40)) is out of range of a double", kind: .outOfRange, parent: parent)
        }
        return v
    }

    private mutating func parseString(parent: LegacyJSONPointerNode?) throws -> String {
        i += 1  // opening quote
        // Fast path: a string with no escape and no control character (nearly every key and value)
        // becomes a String straight from the file's bytes, with no buffer in between; ASCII needs
        // no validation. The first escape or control character goes on the general path below.
        let start = i
        var high: UInt8 = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                if high < 0x80 { return String(decoding: bytes[start..<i - 1], as: UTF8.self) }
                guard let s = String(validating: bytes[start..<i - 1], as: UTF8.self) else {
                    throw error("invalid UTF-8 inside a string", parent: parent)
                }
                return s
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            high |= b
            i += 1
        }
        var out: [UInt8] = Array(bytes[start..<i])
        var segmentStart = i
        while true {
            guard i < bytes.count else { throw error("unexpected end of input inside a string", parent: parent) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[segmentStart..<i])
                i += 1
                break
            }
            if b < 0x20 {
                throw error("control character U+\(hex(UInt32(b), 4)) inside a string; escape it (\\n, \\t, \\u00XX)", parent: parent)
            }
            if b == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[segmentStart..<i])
                i += 1
                guard i < bytes.count else { throw error("unexpected end of input in an escape sequence", parent: parent) }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4(parent: parent)
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate \\u\(hex(scalar, 4)) in a string", parent: parent)
                        }
                        i += 2
                        let low = try hex4(parent: parent)
                        guard low >= 0xDC00 && low <= 0xDFFF else {
                            throw error("unpaired surrogate \\u\(hex(scalar, 4)) in a string", parent: parent)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                        throw error("unpaired surrogate \\u\(hex(scalar, 4)) in a string", parent: parent)
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    i -= 1
                    throw error("invalid escape '\\\(describeRaw(e))' in a string", parent: parent)
                }
                segmentStart = i
                continue
            }
            i += 1
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw error("invalid UTF-8 inside a string", parent: parent)
        }
        return s
    }

    private mutating func hex4(parent: LegacyJSONPointerNode?) throws -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard i < bytes.count, let d = hexDigit(bytes[i]) else {
                throw error("expected 4 hex digits after \\u", parent: parent)
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30...0x39: return UInt32(b - 0x30)
        case 0x41...0x46: return UInt32(b - 0x41 + 10)
        case 0x61...0x66: return UInt32(b - 0x61 + 10)
        default: return nil
        }
    }

    // MARK: positions and errors

    private func peek(_ b: UInt8) -> Bool { i < bytes.count && bytes[i] == b }

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09: i += 1
            case 0x0A: i += 1; line += 1; lineStart = i
            case 0x0D:
                i += 1
                if !(i < bytes.count && bytes[i] == 0x0A) { line += 1; lineStart = i }
            default: return
            }
        }
    }

    /// line:column of `i`; columns count Unicode scalars (UTF-8 lead bytes) from the line start.
    private mutating func position() -> (Int, Int) {
        if columnIndex < lineStart || columnIndex > i { columnIndex = lineStart; columnValue = 1 }
        let end = min(i, bytes.count)
        columnValue += JSONParser.scalarCount(bytes, from: columnIndex, to: end)
        columnIndex = max(columnIndex, end)
        return (line, columnValue)
    }

    private mutating func error(_ message: String, kind: SceneError.Kind = .malformedJSON, parent: LegacyJSONPointerNode?) -> SceneError {
        let (l, c) = position()
        return SceneError(kind, at: SourceLocation(file: file, pointer: parent?.pointer ?? "", line: l, column: c), message)
    }

    private func describeByte(at k: Int) -> String {
        describeRaw(bytes[k]).hasPrefix("byte") ? describeRaw(bytes[k]) : "'\(describeRaw(bytes[k]))'"
    }

    private func describeRaw(_ b: UInt8) -> String {
        if b >= 0x21 && b < 0x7F { return String(UnicodeScalar(b)) }
        return "byte 0x\(hex(UInt32(b), 2))"
    }

    private func hex(_ v: UInt32, _ width: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }
}
