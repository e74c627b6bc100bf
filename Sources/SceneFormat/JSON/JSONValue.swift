/// A parsed JSON value that remembers where it was written: line:column (1-based, columns in
/// Unicode scalars) and its JSON pointer (RFC 6901), so every scene error can name its place.
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
    public let kind: Kind
    private let line32: Int32
    private let column32: Int32
    /// The containing value's pointer, shared by all siblings (one allocation per container, not
    /// one string per value: a 64 MiB file may hold millions of values).
    private let parent: JSONPointerNode?
    /// This value's reference token in its parent (member key or array index); nil for the document.
    public let token: String?

    init(kind: Kind, line: Int, column: Int, parent: JSONPointerNode?, token: String?) {
        self.kind = kind
        self.line32 = Int32(clamping: line); self.column32 = Int32(clamping: column)
        self.parent = parent; self.token = token
    }

    public var line: Int { Int(line32) }
    public var column: Int { Int(column32) }

    /// RFC 6901 pointer: "" for the document, "/root/sublayers/0/bounds" …
    public var pointer: String {
        var tokens: [String] = []
        if let token { tokens.append(token) }
        var node = parent
        while let n = node { if let t = n.token { tokens.append(t) }; node = n.parent }
        return tokens.reversed().map { "/" + JSONPointerNode.escape($0) }.joined()
    }

    /// "a number", "an object" … for "expected …, found …" messages.
    public var typeDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    public var isNull: Bool { if case .null = kind { return true }; return false }
    public var number: Double? { if case .number(let v) = kind { return v }; return nil }
    public var string: String? { if case .string(let v) = kind { return v }; return nil }
    public var bool: Bool? { if case .bool(let v) = kind { return v }; return nil }
    public var array: [JSONValue]? { if case .array(let v) = kind { return v }; return nil }
    public var members: [JSONMember]? { if case .object(let v) = kind { return v }; return nil }

    /// The member's value for `key` of an object (linear: objects in scenes are small, and decoders
    /// reject unknown keys before looking values up).
    public subscript(key: String) -> JSONValue? {
        members?.first { $0.key == key }?.value
    }
}

/// One `"key": value` of an object, with the position of the key (where unknown-key errors point).
public struct JSONMember: Sendable {
    public let key: String
    public let keyLine: Int
    public let keyColumn: Int
    public let value: JSONValue
}

/// A container's place in the document: its token and its parent's node.
final class JSONPointerNode: Sendable {
    let parent: JSONPointerNode?
    let token: String?
    init(parent: JSONPointerNode?, token: String?) { self.parent = parent; self.token = token }

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

    var pointer: String {
        var tokens: [String] = []
        var node: JSONPointerNode? = self
        while let n = node { if let t = n.token { tokens.append(t) }; node = n.parent }
        return tokens.reversed().map { "/" + Self.escape($0) }.joined()
    }
}
