import SystemSupport
import CXMLShim

/// An XML element with the line and column where its start tag ends (where libxml2 stands then),
/// for `file:line:column` warnings. Text content is kept only for plist leaves.
public final class XMLNode {
    public let name: String
    public let attributes: [String: String]
    public var children: [XMLNode] = []
    public var text = ""
    public let line: Int
    public let column: Int
    init(name: String, attributes: [String: String], line: Int, column: Int) {
        self.name = name; self.attributes = attributes; self.line = line; self.column = column
    }
    public subscript(attribute: String) -> String? { attributes[attribute] }
    public func child(_ name: String) -> XMLNode? { children.first { $0.name == name } }
}

/// Reads a whole XML document into `XMLNode`s with libxml2's SAX2 parser (`CXMLShim`): qualified
/// names, namespace declarations as attributes; a document that declares an entity is refused at
/// the declaration (nothing expands, nothing outside is read). Depth and element count are capped
/// against hostile input.
public enum XMLTree {
    public static let maxDepth = 256
    public static let maxElements = 1_000_000

    /// The root element; a `PlistError` with line:column when the XML is not well formed.
    public static func parse(_ data: [UInt8]) throws -> XMLNode {
        try requireUTF8(data)
        try refuseProcessingInstructions(data)
        let builder = Builder()
        var error = caprof_xml_error()
        let failed = withExtendedLifetime(builder) { () -> Int32 in
            var sink = caprof_xml_sink(
                context: Unmanaged.passUnretained(builder).toOpaque(),
                start_element: { context, name, attributes, count, line, column in
                    let builder = Unmanaged<Builder>.fromOpaque(context!).takeUnretainedValue()
                    var dict: [String: String] = [:]
                    for i in 0..<Int(count) {
                        dict[String(cString: attributes![2 * i]!)] = String(cString: attributes![2 * i + 1]!)
                    }
                    return builder.start(String(cString: name!), dict, line: Int(line), column: Int(column)) ? 0 : 1
                },
                end_element: { context in
                    _ = Unmanaged<Builder>.fromOpaque(context!).takeUnretainedValue().stack.popLast()
                },
                characters: { context, bytes, length in
                    let text = UnsafeRawBufferPointer(start: bytes, count: Int(length))
                    Unmanaged<Builder>.fromOpaque(context!).takeUnretainedValue().stack.last?.text += String(decoding: text, as: UTF8.self)
                })
            return data.withUnsafeBufferPointer { caprof_xml_parse($0.baseAddress, $0.count, &sink, &error) }
        }
        if let e = builder.failure { throw e }
        if error.code == CAPROF_XML_ENTITY_DECLARED {
            let name = withUnsafeBytes(of: error.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw PlistError("\(error.line):\(error.column): the document declares the entity '\(name)'; caprof refuses entity declarations (CAML and property lists never need them, and a few declared entities can expand a small file to gigabytes): write the text itself, or a character reference such as &#233;")
        }
        if error.code == CAPROF_XML_ATTLIST_DECLARED {
            let name = withUnsafeBytes(of: error.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw PlistError("\(error.line):\(error.column): the document declares an attribute list ('\(name)'); caprof refuses attribute-list declarations (CAML and property lists never need them, and a default value given to every element can expand a small file many times over)")
        }
        if error.code != 0 {
            throw PlistError("\(error.line):\(error.column): malformed XML (\(describe(code: Int(error.code))))")
        }
        guard failed == 0, let root = builder.root else { throw PlistError("1:1: malformed XML (no root element)") }
        return root
    }

    /// A document without a byte-order mark or an encoding declaration naming another encoding is
    /// UTF-8, so invalid bytes there are refused first, naming the byte and its line:column (found
    /// by fuzzing when Foundation's XMLParser, which trapped on them, read CAML).
    static func requireUTF8(_ data: [UInt8]) throws {
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return }   // UTF-16: libxml2 transcodes
        // Latin-1 is transcoded by libxml2; any other declared encoding is read as UTF-8 below,
        // so a declaration cannot smuggle raw bytes past the check (found by fuzzing too).
        let head = String(decoding: data.prefix(400), as: UTF8.self).lowercased()
        if head.hasPrefix("<?xml"), let r = head.firstRange(of: "encoding=") {
            let declared = head[r.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
            if ["iso-8859-1", "latin1", "latin-1", "iso_8859-1"].contains(String(declared)) { return }
        }
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var offset = 0, line = 1, column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let c):
                offset += UTF8.width(c)
                if c == "\n" { line += 1; column = 1 } else { column += 1 }
            case .emptyInput:
                return
            case .error:
                let byte = offset < data.count ? String(data[offset], radix: 16, uppercase: true) : "?"
                throw PlistError("\(line):\(column): malformed XML (byte 0x\(byte) is not UTF-8; CAML documents are UTF-8)")
            }
        }
    }

    /// CAML and plists use no processing instruction but the XML declaration, so any other `<?`
    /// (even one a comment holds) is refused at its line:column (Foundation's XMLParser, which read
    /// CAML before, dereferenced a null pointer on `<?x?>`: found by fuzzing).
    static func refuseProcessingInstructions(_ data: [UInt8]) throws {
        var line = 1, column = 1, i = 0
        let start = data.starts(with: Array("<?xml ".utf8)) ? (data.firstIndex(of: UInt8(ascii: ">")) ?? 0) + 1 : 0
        while i < data.count {
            if i >= start, data[i] == UInt8(ascii: "<"), i + 1 < data.count, data[i + 1] == UInt8(ascii: "?") {
                throw PlistError("\(line):\(column): malformed XML (a processing instruction '<?'; CAML documents have none but the XML declaration)")
            }
            if data[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else if data[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
    }

    /// libxml2's error codes (xmlerror.h) for the mistakes hand-edited CAML has, in words.
    static let libxml2Errors: [Int: String] = [
        4: "the document is empty", 5: "the document ends early (truncated?)", 9: "an invalid character",
        26: "an undeclared entity", 38: "'<' inside an attribute value", 39: "an attribute value without quotes",
        40: "an unterminated attribute value", 41: "an attribute without a value", 42: "an attribute written twice",
        68: "a name was expected", 73: "'>' was expected", 76: "a closing tag does not match its opening tag",
        77: "an element is not closed", 89: "entities that expand without end (an entity loop or 'billion laughs')",
    ]

    static func describe(code: Int) -> String {
        return libxml2Errors[code].map { "\($0); libxml2 error \(code)" } ?? "libxml2 error \(code)"
    }

    private final class Builder {
        var stack: [XMLNode] = []
        var root: XMLNode?
        var failure: PlistError?
        var count = 0

        /// False (stop) past the depth or element limit.
        func start(_ name: String, _ attributes: [String: String], line: Int, column: Int) -> Bool {
            count += 1
            if stack.count >= XMLTree.maxDepth || count > XMLTree.maxElements {
                failure = PlistError("\(line):\(column): XML nested deeper than \(XMLTree.maxDepth) levels or over \(XMLTree.maxElements) elements")
                return false
            }
            let node = XMLNode(name: name, attributes: attributes, line: line, column: column)
            if let top = stack.last { top.children.append(node) } else if root == nil { root = node }
            stack.append(node)
            return true
        }
    }
}

/// Reads an XML property list (`index.xml` of a `.ca` package; also accepted for archives) from
/// its `XMLNode` tree. `{"CF$UID": n}` dictionaries become `.uid(n)`.
public enum XMLPlistReader {
    public static func parse(_ data: [UInt8]) throws -> PlistValue {
        let root = try XMLTree.parse(data)
        guard root.name == "plist" else { throw PlistError("\(root.line):\(root.column): expected a <plist> root element, found <\(root.name)>") }
        guard let top = root.children.first else { throw PlistError("\(root.line):\(root.column): empty <plist>") }
        return try value(top)
    }

    static func value(_ n: XMLNode) throws -> PlistValue {
        let text = n.text.trimmingWhitespaceAndNewlines()
        func bad(_ what: String) -> PlistError { PlistError("\(n.line):\(n.column): <\(n.name)>: \(what)") }
        switch n.name {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "string": return .string(n.text)
        case "integer":
            guard let i = Int64(text) else { throw bad("expected an integer, found '\(text)'") }
            return .integer(i)
        case "real":
            guard let d = Double(text) ?? (text.lowercased() == "inf" || text == "+infinity" ? .infinity : text == "-infinity" || text.lowercased() == "-inf" ? -.infinity : nil) else {
                throw bad("expected a real number, found '\(text)'")
            }
            return .real(d)
        case "data":
            guard let d = Data(base64Encoded: text.filter { !$0.isWhitespace }) else { throw bad("invalid base64 data") }
            return .data([UInt8](d))
        case "date": return .date(0)
        case "array": return .array(try n.children.map(value))
        case "dict":
            var pairs: [(String, PlistValue)] = []
            var key: String?
            for c in n.children {
                if c.name == "key" { key = c.text; continue }
                guard let k = key else { throw bad("a value without a <key> before it") }
                pairs.append((k, try value(c)))
                key = nil
            }
            if pairs.count == 1, pairs[0].0 == "CF$UID", let u = pairs[0].1.number, u.isFinite, u >= 0, u < 1e12 { return .uid(Int(u)) }
            return .dictionary(pairs)
        default:
            throw bad("unknown property-list element")
        }
    }
}
