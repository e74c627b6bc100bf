// The tree-of-values JSON parser that `JSONParser` replaced (SceneFormat at 5c4a933), kept
// unchanged but for names as the oracle of `FlatJSONParserTests`: the flat parser must give the
// same values, positions, pointers and errors.
import LayerModel
@testable import SceneFormat

/// A parsed JSON value that remembers where it was written: line:column (1-based, columns in
/// Unicode scalars) and its JSON pointer (RFC 6901), so every scene error can name its place.
struct LegacyJSONValue: Sendable {
    enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([LegacyJSONValue])
        /// Members in file order (duplicate keys are refused by the parser).
        case object([LegacyJSONMember])
    }
    let kind: Kind
    private let line32: Int32
    private let column32: Int32
    /// The containing value's pointer, shared by all siblings (one allocation per container, not
    /// one string per value: a 64 MiB file may hold millions of values).
    private let parent: LegacyJSONPointerNode?
    /// This value's reference token in its parent; nil for the document.
    private let place: LegacyJSONToken?

    init(kind: Kind, line: Int, column: Int, parent: LegacyJSONPointerNode?, token: LegacyJSONToken?) {
        self.kind = kind
        self.line32 = Int32(clamping: line); self.column32 = Int32(clamping: column)
        self.parent = parent; self.place = token
    }

    var line: Int { Int(line32) }
    var column: Int { Int(column32) }

    /// This value's reference token in its parent (member key or array index); nil for the document.
    var token: String? { place?.text }

    /// RFC 6901 pointer: "" for the document, "/root/sublayers/0/bounds" …
    var pointer: String { LegacyJSONPointerNode.spell(parent: parent, token: place) }

    /// Spells `pointer` when it is read (see `SourceLocation`): one small object, no string.
    var pointerSpeller: LegacyJSONPointerNode { LegacyJSONPointerNode(parent: parent, token: place) }

    /// "a number", "an object" … for "expected …, found …" messages.
    var typeDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    var isNull: Bool { if case .null = kind { return true }; return false }
    var number: Double? { if case .number(let v) = kind { return v }; return nil }
    var string: String? { if case .string(let v) = kind { return v }; return nil }
    var bool: Bool? { if case .bool(let v) = kind { return v }; return nil }
    var array: [LegacyJSONValue]? { if case .array(let v) = kind { return v }; return nil }
    var members: [LegacyJSONMember]? { if case .object(let v) = kind { return v }; return nil }

    /// The member's value for `key` of an object (linear: objects in scenes are small, and decoders
    /// reject unknown keys before looking values up).
    subscript(key: String) -> LegacyJSONValue? {
        members?.first { $0.key == key }?.value
    }
}

/// One `"key": value` of an object, with the position of the key (where unknown-key errors point).
struct LegacyJSONMember: Sendable {
    let key: String
    let keyLine: Int
    let keyColumn: Int
    let value: LegacyJSONValue
}

/// A reference token: a member key, or an array index kept as a number until a pointer is spelled
/// (rather than a String made for every array element: five per layer of a typical scene, its
/// frame's four numbers and its place in `sublayers`).
enum LegacyJSONToken: Sendable {
    case key(String)
    case index(Int)

    var text: String {
        switch self {
        case .key(let k): return k
        case .index(let n): return String(n)
        }
    }
}

/// A container's place in the document: its token and its parent's node. Also what a decoded
/// `SourceLocation` keeps to spell its pointer if a message ever shows it.
final class LegacyJSONPointerNode: Sendable {
    let parent: LegacyJSONPointerNode?
    let token: LegacyJSONToken?
    init(parent: LegacyJSONPointerNode?, token: LegacyJSONToken?) { self.parent = parent; self.token = token }

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
    static func spell(parent: LegacyJSONPointerNode?, token: LegacyJSONToken?) -> String {
        var tokens: [String] = []
        if let token { tokens.append(token.text) }
        var node = parent
        while let n = node { if let t = n.token { tokens.append(t.text) }; node = n.parent }
        return tokens.reversed().map { "/" + escape($0) }.joined()
    }
}
