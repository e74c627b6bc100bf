import SystemSupport
import Animation

/// A small ordered JSON value for writing the JSON Schema (keys keep their order, so the schema
/// reads well and is byte-stable).
indirect enum SchemaJSON {
    case object([(String, SchemaJSON)])
    case array([SchemaJSON])
    case string(String)
    case number(Double)
    case bool(Bool)

    // MARK: building blocks
    static func ref(_ def: String) -> SchemaJSON { .object([("$ref", .string("#/$defs/\(def)"))]) }
    static func type(_ t: String, _ extra: [(String, SchemaJSON)] = []) -> SchemaJSON { .object([("type", .string(t))] + extra) }
    static func anyOf(_ options: [SchemaJSON]) -> SchemaJSON { .object([("anyOf", .array(options))]) }
    static func strings(_ values: [String]) -> SchemaJSON { .object([("enum", .array(values.map(SchemaJSON.string)))]) }
    static func constant(_ s: String) -> SchemaJSON { .object([("const", .string(s))]) }
    static func arrayOf(_ items: SchemaJSON, min: Int? = nil, max: Int? = nil) -> SchemaJSON {
        var o: [(String, SchemaJSON)] = [("type", .string("array")), ("items", items)]
        if let min { o.append(("minItems", .number(Double(min)))) }
        if let max { o.append(("maxItems", .number(Double(max)))) }
        return .object(o)
    }
    static let null = type("null")
    /// Every key path the decoder resolves: the properties and their fields by name, filter
    /// inputs and emitter cells' keys by pattern (their NAMEs are the scene's own).
    static let keyPath = anyOf([strings(KeyPathTable.allKeyPaths)]
        + KeyPathTable.keyPathPatterns.map { type("string", [("pattern", .string($0))]) })
    static func number(_ domain: NumberDomain?, integer: Bool = false) -> SchemaJSON {
        var o: [(String, SchemaJSON)] = [("type", .string(integer ? "integer" : "number"))]
        if let d = domain {
            if let lo = d.minimum { o.append((d.minimumIsExclusive ? "exclusiveMinimum" : "minimum", .number(lo))) }
            if let hi = d.maximum { o.append((d.maximumIsExclusive ? "exclusiveMaximum" : "maximum", .number(hi))) }
        }
        return .object(o)
    }

    /// Adds (or replaces) a key of an object.
    func with(_ key: String, _ value: SchemaJSON) -> SchemaJSON {
        guard case .object(var o) = self else { return self }
        o.removeAll { $0.0 == key }
        o.append((key, value))
        return .object(o)
    }
    func described(_ text: String) -> SchemaJSON { with("description", .string(text)) }

    // MARK: writing
    func render(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1), end = String(repeating: "  ", count: indent)
        switch self {
        case .object(let o):
            if o.isEmpty { return "{}" }
            return "{\n" + o.map { pad + Self.quote($0.0) + ": " + $0.1.render(indent: indent + 1) }.joined(separator: ",\n") + "\n" + end + "}"
        case .array(let a):
            if a.isEmpty { return "[]" }
            if a.allSatisfy({ if case .object = $0 { return false }; if case .array = $0 { return false }; return true }) {
                return "[" + a.map { $0.render() }.joined(separator: ", ") + "]"
            }
            return "[\n" + a.map { pad + $0.render(indent: indent + 1) }.joined(separator: ",\n") + "\n" + end + "]"
        case .string(let s): return Self.quote(s)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        }
    }

    static func quote(_ s: String) -> String { JSONString.quoted(s) }
}
