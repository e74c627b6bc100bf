import LayerModel

/// A strict RFC 8259 JSON parser that keeps positions and pointers (Foundation's JSONSerialization
/// gives neither). Refuses: trailing commas, comments, single quotes, NaN/Infinity, leading zeros,
/// unescaped control characters, invalid UTF-8, unpaired surrogates, duplicate keys. Bounded by
/// `SceneLimits.maxJSONDepth` and `maxJSONValues`, so hostile input ends in a `SceneError`.
public struct JSONParser {
    // The file's bytes, read in place: through `[UInt8]` every read was bounds-checked and the
    // array retained (≈ 1/3 of parsing).
    let bytes: UnsafeBufferPointer<UInt8>
    private let file: String
    var i = 0
    private var line = 1
    private var lineStart = 0
    // Column cache on the current line: positions are asked for in increasing order, so counting
    // scalars from the last asked position keeps column computation linear overall.
    private var columnIndex = 0
    private var columnValue = 1
    private var valueCount = 0
    // The document being built (see `JSONDocument`): values in preorder, strings apart. A
    // container's node is written when it opens and gets its `end` and `count` when it closes.
    private let nodes: JSONNodes
    var strings: [String] = []
    var keys = KeyTable()
    // The keys of the objects being parsed, innermost last (index in `strings`, key position,
    // interned or not), for duplicate keys.
    private var keyStack: [(key: Int32, line: Int32, column: Int32, interned: Bool)] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes; self.file = file
        nodes = JSONNodes(capacity: min(Self.valueCountBound(bytes), SceneLimits.maxJSONValues + 1))
    }

    /// Parses one JSON document.
    public static func parse(_ bytes: [UInt8], file: String) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            var p = JSONParser(bytes: buffer, file: file)
            return try p.parseDocument()
        }
    }

    private mutating func parseDocument() throws -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3; lineStart = 3; columnIndex = 3 }
        // Strings (keys and values) take two bytes each at least, their quotes.
        strings.reserveCapacity(min(Self.valueCountBound(bytes), 2 * SceneLimits.maxJSONValues + 1))
        skipWhitespace()
        if i >= bytes.count { throw error("the file is empty, expected a JSON object", parent: -1) }
        try parseValue(parent: -1, ordinal: 0, key: nil, depth: 0)
        skipWhitespace()
        if i < bytes.count { throw error("unexpected \(describeByte(at: i)) after the JSON value", parent: -1) }
        return JSONDocument(nodes: nodes, strings: strings).root
    }

    // MARK: values

    /// Parses one value into `nodes`. `parent` is the containing value's index (-1 for the
    /// document); `key`, for a member, is its key's index in `strings` and position.
    /// At most this many values in a valid document: every value takes a byte and all but the
    /// first a separator. Reserved, not touched: only the pages `nodes` fills are ever made (a
    /// scan for a tighter bound cost more than the growth copies it spared).
    static func valueCountBound(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        (bytes.count + 1) / 2
    }

    private mutating func parseValue(parent: Int, ordinal: Int, key: (key: Int32, line: Int32, column: Int32)?, depth: Int) throws {
        skipWhitespace()
        guard i < bytes.count else { throw error("unexpected end of input, expected a value", parent: parent) }
        valueCount += 1
        if valueCount > SceneLimits.maxJSONValues {
            throw error("more than \(SceneLimits.maxJSONValues) JSON values in one file", kind: .limitExceeded, parent: parent)
        }
        let (l, c) = position()
        func append(_ tag: JSONNode.Tag, _ payload: UInt64) {
            let index = Int32(nodes.count)
            nodes.append(JSONNode(payload: payload, end: index + 1, parent: Int32(parent),
                                  keyOrOrdinal: key?.key ?? Int32(ordinal), line: Int32(clamping: l), column: Int32(clamping: c),
                                  keyLine: key?.line ?? 0, keyColumn: key?.column ?? 0, tag: tag))
        }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            let index = nodes.count
            append(.object, 0)
            let count = try parseObject(node: index, depth: depth + 1)
            nodes[index].payload = UInt64(count); nodes[index].end = Int32(nodes.count)
        case UInt8(ascii: "["):
            let index = nodes.count
            append(.array, 0)
            let count = try parseArray(node: index, depth: depth + 1)
            nodes[index].payload = UInt64(count); nodes[index].end = Int32(nodes.count)
        case UInt8(ascii: "\""):
            let s = try parseString(parent: parent)
            strings.append(s)
            append(.string, UInt64(strings.count - 1))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            append(.number, try parseNumber(parent: parent).bitPattern)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "I"):
            let literal = try parseLiteral(parent: parent)
            append(literal == nil ? .null : .bool, literal == true ? 1 : 0)
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

    private mutating func enter(_ depth: Int, _ node: Int) throws {
        if depth > SceneLimits.maxJSONDepth {
            throw error("arrays and objects nested deeper than \(SceneLimits.maxJSONDepth) levels", kind: .limitExceeded, parent: node)
        }
    }

    /// Members an object may have before duplicate keys are found through a dictionary.
    static let keyIndexThreshold = 16

    /// Parses the members of the object whose node is at `node`; returns how many.
    private mutating func parseObject(node: Int, depth: Int) throws -> Int {
        try enter(depth, node)
        i += 1  // {
        let base = keyStack.count
        defer { keyStack.removeSubrange(base...) }
        // Duplicate keys: a linear look through the keys up to `keyIndexThreshold`, a dictionary
        // beyond (a hostile object of a million keys stays linear). A dictionary for every object
        // was ≈ 1/6 of parsing a 10,000-layer scene (perf), whose objects have 1 to 5 keys.
        var keyIndex: [String: Int]? = nil
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { i += 1; return 0 }
        while true {
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input inside an object, expected a key", parent: node) }
            guard bytes[i] == UInt8(ascii: "\"") else {
                if bytes[i] == UInt8(ascii: "}") { throw error("trailing comma before '}'", parent: node) }
                throw error("expected a member key in double quotes, found \(describeByte(at: i))", parent: node)
            }
            let (kl, kc) = position()
            let (keyString, interned) = try parseKey(parent: node)
            let key = strings[Int(keyString)]
            // Interned keys are equal when their indices are; others are compared as strings.
            if let k = keyIndex.map({ $0[key] }) ?? keyStack[base...].firstIndex(where: {
                $0.key == keyString || (!(interned && $0.interned) && strings[Int($0.key)] == key)
            }) {
                let first = keyStack[k]
                throw SceneError(.malformedJSON, at: SourceLocation(file: file, pointer: pointer(of: node) + "/" + JSONPointerNode.escape(key), line: kl, column: kc),
                                 "duplicate key \(Echo.quoted(key)) (first at line \(first.line), column \(first.column))")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error(i < bytes.count ? "expected ':' after object key \(Echo.quoted(key)), found \(describeByte(at: i))"
                                            : "unexpected end of input, expected ':' after object key \(Echo.quoted(key))", parent: node)
            }
            i += 1
            let entry = (key: keyString, line: Int32(clamping: kl), column: Int32(clamping: kc))
            try parseValue(parent: node, ordinal: keyStack.count - base, key: entry, depth: depth)
            keyStack.append((keyString, entry.line, entry.column, interned))
            if keyIndex != nil {
                keyIndex![key] = keyStack.count - 1
            } else if keyStack.count - base == Self.keyIndexThreshold {
                keyIndex = Dictionary(uniqueKeysWithValues: (base..<keyStack.count).map { (strings[Int(keyStack[$0].key)], $0) })
            }
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input, expected ',' or '}' after object member", parent: node) }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") {
                i += 1
                return keyStack.count - base
            }
            throw error("expected ',' or '}' after object member, found \(describeByte(at: i))", parent: node)
        }
    }

    /// Parses the elements of the array whose node is at `node`; returns how many.
    private mutating func parseArray(node: Int, depth: Int) throws -> Int {
        try enter(depth, node)
        i += 1  // [
        var count = 0
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { i += 1; return 0 }
        while true {
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'", parent: node) }
            try parseValue(parent: node, ordinal: count, key: nil, depth: depth)
            count += 1
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of input, expected ',' or ']' after array element", parent: node) }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return count
            }
            throw error("expected ',' or ']' after array element, found \(describeByte(at: i))", parent: node)
        }
    }

    // MARK: scalars

    /// true, false, or nil for null.
    private mutating func parseLiteral(parent: Int) throws -> Bool? {
        func at(_ word: StaticString) -> Bool {
            let n = word.utf8CodeUnitCount
            guard i + n <= bytes.count, UnsafeBufferPointer(start: word.utf8Start, count: n).elementsEqual(bytes[i..<i + n]),
                  i + n == bytes.count || !isIdentifierByte(bytes[i + n]) else { return false }
            i += n
            return true
        }
        if at("true") { return true }
        if at("false") { return false }
        if at("null") { return nil }
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

    private mutating func parseNumber(parent: Int) throws -> Double {
        let start = i
        func digits() -> Int { let s = i; while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }; return i - s }
        if peek(UInt8(ascii: "-")) {
            i += 1
            if i + 8 <= bytes.count, bytes[i..<i + 8].elementsEqual("Infinity".utf8) {
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
        if let v = Self.exactDouble(bytes[start..<i]) { return v }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            throw error("the number \(text.prefix(40)) is out of range of a double", kind: .outOfRange, parent: parent)
        }
        return v
    }

    mutating func parseString(parent: Int) throws -> String {
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
                let text = UnsafeBufferPointer(rebasing: bytes[start..<i - 1])
                if high < 0x80 { return String(decoding: text, as: UTF8.self) }
                guard let s = String(validating: text, as: UTF8.self) else {
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

    private mutating func hex4(parent: Int) throws -> UInt32 {
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
        columnValue += Self.scalarCount(bytes, from: columnIndex, to: end)
        columnIndex = max(columnIndex, end)
        return (line, columnValue)
    }

    private mutating func error(_ message: String, kind: SceneError.Kind = .malformedJSON, parent: Int) -> SceneError {
        let (l, c) = position()
        return SceneError(kind, at: SourceLocation(file: file, pointer: pointer(of: parent), line: l, column: c), message)
    }

    /// The pointer of the value at `index` of the nodes so far ("" for -1: no container).
    private func pointer(of index: Int) -> String {
        index < 0 ? "" : JSONDocument.pointer(of: index, nodes: nodes, strings: strings)
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
