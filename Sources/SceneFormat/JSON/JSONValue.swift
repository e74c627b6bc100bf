import LayerModel

/// A parsed JSON value that remembers where it was written: line:column (1-based, columns in
/// Unicode scalars) and its JSON pointer (RFC 6901), so every scene error can name its place.
///
/// A handle: the document's flat node array (`JSONDocument`) and this value's index in it. Copying
/// one is a single retain (the tree of enum values it replaced retained a payload, a pointer node
/// and a key per copy, and freed a tree of arrays at the end: ≈ 1/5 of decoding 10,000 layers).
/// Containers' elements and members are made when asked for.
public struct JSONValue: Sendable {
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        /// Members in file order (duplicate keys are refused by the parser).
        case object([JSONMember])
    }

    let document: JSONDocument
    let index: Int

    init(_ document: JSONDocument, _ index: Int) { self.document = document; self.index = index }

    private var node: JSONNode { document.nodes[index] }

    public var kind: Kind {
        let n = node
        switch n.tag {
        case .null: return .null
        case .bool: return .bool(n.payload != 0)
        case .number: return .number(Double(bitPattern: n.payload))
        case .string: return .string(document.strings[Int(n.payload)])
        case .array: return .array(array!)
        case .object: return .object(members!)
        }
    }

    public var line: Int { Int(node.line) }
    public var column: Int { Int(node.column) }

    /// This value's reference token in its parent (member key or array index); nil for the document.
    public var token: String? { document.token(of: index)?.text }

    /// RFC 6901 pointer: "" for the document, "/root/sublayers/0/bounds" …
    public var pointer: String { document.pointer(of: index) }

    /// Spells `pointer` when it is read (see `SourceLocation`): one small object, no string.
    var pointerSpeller: JSONPointerNode { document.speller(of: index) }

    /// "a number", "an object" … for "expected …, found …" messages.
    public var typeDescription: String {
        switch node.tag {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public var isNull: Bool { node.tag == .null }
    public var number: Double? { let n = node; return n.tag == .number ? Double(bitPattern: n.payload) : nil }
    public var string: String? { let n = node; return n.tag == .string ? document.strings[Int(n.payload)] : nil }
    public var bool: Bool? { let n = node; return n.tag == .bool ? n.payload != 0 : nil }

    /// The elements of an array, made when asked for (one array of handles).
    public var array: [JSONValue]? {
        let n = node
        guard n.tag == .array else { return nil }
        return document.children(of: index, count: Int(n.payload)) { JSONValue(document, $0) }
    }

    /// The members of an object, in file order.
    public var members: [JSONMember]? {
        let n = node
        guard n.tag == .object else { return nil }
        return document.children(of: index, count: Int(n.payload)) { document.member($0) }
    }

    /// The elements of an array of exactly `count` (≤ 4) numbers, read in place (points, sizes,
    /// rects: making their elements was an allocation per layer); nil for anything else.
    func numbers(count: Int) -> (Double, Double, Double, Double)? {
        let n = node
        guard n.tag == .array, Int(n.payload) == count, count <= 4 else { return nil }
        var out: (Double, Double, Double, Double) = (0, 0, 0, 0)
        let nodes = document.nodes
        for k in 0..<count {
            // Numbers are leaves: the elements are the nodes right after the array's.
            let e = nodes[index + 1 + k]
            guard e.tag == .number else { return nil }
            let x = Double(bitPattern: e.payload)
            switch k {
            case 0: out.0 = x
            case 1: out.1 = x
            case 2: out.2 = x
            default: out.3 = x
            }
        }
        return out
    }

    /// The member's value for `key` of an object (linear: objects in scenes are small, and decoders
    /// reject unknown keys before looking values up).
    public subscript(key: String) -> JSONValue? {
        let n = node
        guard n.tag == .object else { return nil }
        var c = index + 1
        while c < Int(n.end) {
            if document.strings[Int(document.nodes[c].keyOrOrdinal)] == key { return JSONValue(document, c) }
            c = Int(document.nodes[c].end)
        }
        return nil
    }
}

/// One `"key": value` of an object, with the position of the key (where unknown-key errors point).
public struct JSONMember: Sendable {
    public let key: String
    public let keyLine: Int
    public let keyColumn: Int
    public let value: JSONValue
}

/// A reference token: a member key, or an array index kept as a number until a pointer is spelled
/// (rather than a String made for every array element: five per layer of a typical scene, its
/// frame's four numbers and its place in `sublayers`).
enum JSONToken: Sendable {
    case key(String)
    case index(Int)

    var text: String {
        switch self {
        case .key(let k): return k
        case .index(let n): return String(n)
        }
    }
}

/// RFC 6901 pointer tokens, for modules that spell pointers into JSON they read themselves (the
/// gate's baselines): the escaping the scene parser's own pointers use.
public enum JSONPointer {
    public static func escape(_ token: String) -> String { JSONPointerNode.escape(token) }
}

/// A container's place in the document: its token and its parent's node. What a decoded
/// `SourceLocation` keeps to spell its pointer if a message ever shows it (not the document: a
/// scene's layers outlive the parse, and keeping every node and string for them would not do).
final class JSONPointerNode: SourcePointer {
    let parent: JSONPointerNode?
    let token: JSONToken?
    init(parent: JSONPointerNode?, token: JSONToken?) { self.parent = parent; self.token = token }

    /// RFC 6901: "~" → "~0", "/" → "~1".
    static func escape(_ token: String) -> String {
        // Byte scan: Foundation's String.contains(String) converts to UTF-16 (slow on a 5 MB key).
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var out = ""
        for ch in token {
            switch ch {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.append(ch)
            }
        }
        return out
    }

    var pointer: String { Self.spell(parent: parent, token: token) }

    /// The pointer of the value with `token` in the container `parent`.
    static func spell(parent: JSONPointerNode?, token: JSONToken?) -> String {
        var tokens: [String] = []
        if let token { tokens.append(token.text) }
        var node = parent
        while let n = node { if let t = n.token { tokens.append(t.text) }; node = n.parent }
        return spell(reversedTokens: tokens)
    }

    /// "/a/b" from ["b", "a"] (tokens from the value up to the document).
    static func spell(reversedTokens tokens: [String]) -> String {
        tokens.reversed().map { "/" + escape($0) }.joined()
    }
}
