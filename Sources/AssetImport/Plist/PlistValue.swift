/// A property-list value as both binary (`bplist00`) and XML plists hold it, plus the keyed
/// archiver's `UID` (binary tag 0x80; `{"CF$UID": n}` in XML).
public indirect enum PlistValue: Equatable, Sendable {
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case data([UInt8])
    /// Seconds since 2001-01-01 (CFAbsoluteTime); kept as a number, nothing here reads dates.
    case date(Double)
    case array([PlistValue])
    /// Keys in file order (a keyed archive's field order is kept for messages).
    case dictionary([(String, PlistValue)])
    case uid(Int)
    /// The binary plist `null` marker (0x00); never written by NSKeyedArchiver, accepted anyway.
    case null

    public static func == (a: PlistValue, b: PlistValue) -> Bool {
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.string(let x), .string(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.uid(let x), .uid(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    /// The value under `key` of a dictionary (first match), nil otherwise.
    public subscript(key: String) -> PlistValue? {
        guard case .dictionary(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }
    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var array: [PlistValue]? { if case .array(let a) = self { return a }; return nil }
    public var uid: Int? { if case .uid(let u) = self { return u }; return nil }
    /// Integers, reals and booleans as a number (archives write bools as 0/1 ints and vice versa).
    public var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        // A binary plist can encode NaN, which no Core Animation value is (found by fuzzing: a NaN
        // opacity reached the plan), so it reads as "not a number". Infinity is a value
        // (repeatCount = HUGE_VALF repeats forever).
        case .real(let r): return r.isNaN ? nil : r
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    /// What the value is, for messages ("a dictionary", "an integer").
    public var kindDescription: String {
        switch self {
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .real: return "a real"
        case .string: return "a string"
        case .data: return "data"
        case .date: return "a date"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        case .uid: return "a UID"
        case .null: return "null"
        }
    }
}

/// A property list that cannot be read: the file and what is wrong, with the byte offset (binary)
/// or line:column (XML) where it was found.
public struct PlistError: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    /// A budget on what the file expands to was passed (a `limitExceeded` scene error), rather
    /// than the file being malformed.
    public var isLimit = false
    public init(_ message: String) { self.message = message }
    public static func limit(_ message: String) -> PlistError {
        var e = PlistError(message)
        e.isLimit = true
        return e
    }
    public var description: String { message }
}
