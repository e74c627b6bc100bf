import SystemSupport
import SceneFormat

/// Why the gate could not decide (exit code 1): a malformed budget or baseline file, a scene or
/// report that cannot be read. Written like a compiler's error, with the place when there is one:
///
///     budget.json:4:18: error: /rules/0/level: expected one of off, warn, error, found "fatal"
public struct GateError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// RFC 6901 pointer into the file ("" for the document; nil when the problem has no place).
    public var pointer: String?
    /// 1-based; 0 when unknown.
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, pointer: String? = nil, line: Int = 0, column: Int = 0, _ message: String) {
        self.file = file; self.pointer = pointer; self.line = line; self.column = column; self.message = message
    }

    /// The strict JSON parser's error, at its place (none when it has neither a pointer nor a
    /// line), with `prefix` before its message.
    init(_ e: SceneError, file: String, prefix: String = "") {
        let located = !e.location.pointer.isEmpty || e.location.line > 0
        self.init(file: file, pointer: located ? e.location.pointer : nil, line: e.location.line,
                  column: e.location.column, prefix + e.message)
    }

    public var description: String {
        var s = line > 0 ? "\(file):\(line):\(column): error: " : "\(file): error: "
        if let p = pointer { s += (p.isEmpty ? "/" : p) + ": " }
        return s + message
    }
}

extension GateError {
    /// A caprof JSON file (`what`: "a caprof catalog report") that does not decode, as a located
    /// error: a syntax error at its line and column, a missing or mistyped key at its pointer,
    /// in words rather than Foundation's debug description.
    public static func decoding(_ error: Error, data: Data, file: String, what: String) -> GateError {
        // A syntax error is what Foundation reports as corrupted data at the document's root; the
        // strict parser then says where (its other refusals, such as its size limits, are not ours).
        if case DecodingError.dataCorrupted(let c)? = error as? DecodingError, c.codingPath.isEmpty,
           let syntax = Baseline.syntaxError(data, file: file) {
            return GateError(syntax, file: file, prefix: "reads as \(what) but is not valid JSON: ")
        }
        if let e = error as? DecodingError {
            return GateError(file: file, pointer: Baseline.pointer(e), "reads as \(what) but does not decode: \(Baseline.describe(e))")
        }
        return GateError(file: file, "reads as \(what) but does not decode: \(error)")
    }
}
