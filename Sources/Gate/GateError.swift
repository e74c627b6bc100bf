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

    public var description: String {
        var s = line > 0 ? "\(file):\(line):\(column): error: " : "\(file): error: "
        if let p = pointer { s += (p.isEmpty ? "/" : p) + ": " }
        return s + message
    }
}
