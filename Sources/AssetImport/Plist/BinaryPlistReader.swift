/// A reader for Apple's binary property lists (`bplist00`), the container of `.caar` archives.
///
/// Layout (CFBinaryPList.c): the header `bplist00`, the objects, an offset table, and a 32-byte
/// trailer: 6 unused bytes, the offset-integer size, the object-reference size, the object count,
/// the top object's index and the offset table's position (big-endian 64-bit each). Each object
/// starts with a marker byte: high nibble the type, low nibble a size (0xF: an integer object
/// with the real size follows).
///
/// Written here rather than taken from Foundation: `PropertyListSerialization` on Linux returns
/// UIDs as an opaque `_NSKeyedArchiverUID` with no public accessor (swift-corelibs-foundation
/// #3748), and this reader names the byte offset of every problem. It is hardened against hostile
/// input: every offset and count is checked against the data before use, containers may not
/// contain themselves (a cycle would recurse forever), nesting is capped, and an object referenced
/// many times is decoded once and shared (Swift's strings and arrays share their storage), while
/// what the file expands to, counted each time a shared object is reached, is budgeted (values and
/// bytes of strings and data), so a 4 KB file of shared strings in a DAG cannot become gigabytes
/// for whatever walks the values next.
public struct BinaryPlistReader {
    /// Deepest container nesting accepted.
    public static let maxDepth = 512
    /// Most values one file expands to (objects referenced several times count each time).
    public static let maxValues = 4_000_000
    /// Most bytes of strings and data one file expands to, a shared object counted each time it
    /// is reached: 4× the largest asset file read (`SceneLimits.maxFileBytes`), so an honest
    /// archive that shows one large image a few times passes.
    public static let maxExpandedBytes = 256 << 20

    private let bytes: [UInt8]
    private var offsetSize = 0
    private var refSize = 0
    private var objectCount = 0
    private var offsetTable = 0
    private var built = 0
    private var expandedBytes = 0
    /// Each object decoded so far, with the values and bytes it expands to.
    private var memo: [Int: (value: PlistValue, values: Int, bytes: Int)] = [:]

    /// True when `data` starts with the binary plist magic.
    public static func isBinaryPlist(_ data: [UInt8]) -> Bool {
        data.count >= 8 && Array(data[0..<6]) == Array("bplist".utf8)
    }

    /// Parses a whole binary plist; throws a `PlistError` naming the offset of the first problem.
    public static func parse(_ data: [UInt8]) throws -> PlistValue {
        var r = BinaryPlistReader(bytes: data)
        return try r.parseDocument()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func parseDocument() throws -> PlistValue {
        guard bytes.count >= 8 else {
            throw PlistError(bytes.isEmpty ? "the file is empty (0 bytes)" : "the file is \(bytes.count) bytes, too short for a binary property list")
        }
        guard Self.isBinaryPlist(bytes) else { throw PlistError("not a binary property list: it does not start with 'bplist'") }
        guard bytes[6] == UInt8(ascii: "0") else {
            throw PlistError("binary property list version '\(String(decoding: bytes[6..<8], as: UTF8.self))' is not supported (only bplist00)")
        }
        guard bytes.count >= 8 + 32 else { throw PlistError("truncated binary property list: \(bytes.count) bytes, no room for the 32-byte trailer") }
        let t = bytes.count - 32
        offsetSize = Int(bytes[t + 6])
        refSize = Int(bytes[t + 7])
        let count = readUInt(at: t + 8, size: 8)
        let top = readUInt(at: t + 16, size: 8)
        let table = readUInt(at: t + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw PlistError("corrupt binary property list trailer at byte \(t): offset size \(offsetSize) and reference size \(refSize) must be 1…8 (truncated or not a plist?)")
        }
        guard count > 0, count <= UInt64(bytes.count) else {
            throw PlistError("corrupt binary property list trailer at byte \(t): \(count) objects in a \(bytes.count)-byte file")
        }
        objectCount = Int(count)
        guard table >= 8, table <= UInt64(t), UInt64(t) - table >= UInt64(objectCount) * UInt64(offsetSize) else {
            throw PlistError("corrupt binary property list trailer at byte \(t): the offset table (at \(table), \(objectCount) × \(offsetSize) bytes) is outside the file")
        }
        offsetTable = Int(table)
        guard top < count else { throw PlistError("corrupt binary property list trailer at byte \(t): top object \(top) of \(count)") }
        var visiting = Set<Int>()
        return try object(Int(top), depth: 0, visiting: &visiting)
    }

    private func readUInt(at p: Int, size: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(bytes[p + i]) }
        return v
    }

    private func offset(of index: Int) throws -> Int {
        let o = readUInt(at: offsetTable + index * offsetSize, size: offsetSize)
        guard o >= 8, o < UInt64(offsetTable) else {
            throw PlistError("corrupt binary property list: object \(index) is at byte \(o), outside the object area 8…\(offsetTable - 1)")
        }
        return Int(o)
    }

    /// Checks that `n` bytes from `p` lie before the offset table.
    private func need(_ p: Int, _ n: Int, _ what: String) throws {
        guard n >= 0, p <= offsetTable, n <= offsetTable - p else {
            throw PlistError("truncated binary property list: \(what) at byte \(p) needs \(n) bytes, past the end of the object area (\(offsetTable))")
        }
    }

    /// The length after a marker: its low nibble, or an integer object after it when that is 0xF.
    private func length(_ marker: UInt8, at p: Int) throws -> (count: Int, start: Int) {
        let low = Int(marker & 0x0F)
        if low != 0x0F { return (low, p + 1) }
        try need(p + 1, 1, "a length")
        let m = bytes[p + 1]
        guard m >> 4 == 0x1 else { throw PlistError("corrupt binary property list: byte \(p + 1) should start a length integer (0x1n), found 0x\(String(m, radix: 16))") }
        let size = 1 << Int(m & 0x0F)
        guard size <= 8 else { throw PlistError("corrupt binary property list: a \(size)-byte length at byte \(p + 1)") }
        try need(p + 2, size, "a length")
        let v = readUInt(at: p + 2, size: size)
        guard v <= UInt64(bytes.count) else { throw PlistError("corrupt binary property list: length \(v) at byte \(p + 1) exceeds the file size \(bytes.count)") }
        return (Int(v), p + 2 + size)
    }

    /// The object at `index`, decoded once: a later reference shares the first one's value and
    /// counts what it expands to again against the budgets.
    private mutating func object(_ index: Int, depth: Int, visiting: inout Set<Int>) throws -> PlistValue {
        guard index >= 0, index < objectCount else {
            throw PlistError("corrupt binary property list: reference to object \(index), but there are \(objectCount)")
        }
        guard depth <= Self.maxDepth else { throw PlistError("binary property list nested deeper than \(Self.maxDepth) levels") }
        if let m = memo[index] {
            try count(values: m.values, bytes: m.bytes, at: index)
            return m.value
        }
        let (values0, bytes0) = (built, expandedBytes)
        let v = try decode(index, depth: depth, visiting: &visiting)
        memo[index] = (v, built - values0, expandedBytes - bytes0)
        return v
    }

    /// Adds what one reference expands to; throws past either budget, naming the object's byte.
    private mutating func count(values: Int, bytes: Int, at index: Int) throws {
        built += values
        expandedBytes += bytes
        guard built <= Self.maxValues else {
            throw PlistError.limit("binary property list expands to more than \(Self.maxValues) values through shared references (at the object at byte \((try? offset(of: index)) ?? 0); the file is \(self.bytes.count) bytes; BinaryPlistReader.maxValues)")
        }
        guard expandedBytes <= Self.maxExpandedBytes else {
            throw PlistError.limit("binary property list expands to more than \(Self.maxExpandedBytes >> 20) MiB of strings and data through shared references (at the object at byte \((try? offset(of: index)) ?? 0); the file is \(self.bytes.count) bytes; BinaryPlistReader.maxExpandedBytes)")
        }
    }

    private mutating func decode(_ index: Int, depth: Int, visiting: inout Set<Int>) throws -> PlistValue {
        let p = try offset(of: index)
        try count(values: 1, bytes: 0, at: index)
        let marker = bytes[p]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw PlistError("unsupported binary property list marker 0x\(String(marker, radix: 16)) at byte \(p)")
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16 else { throw PlistError("corrupt binary property list: \(size)-byte integer at byte \(p)") }
            try need(p + 1, size, "an integer")
            // 16-byte integers hold a 64-bit value in their low half (CFBinaryPList).
            let v = readUInt(at: p + 1 + max(0, size - 8), size: min(size, 8))
            // 1-, 2- and 4-byte integers are unsigned; 8-byte ones are signed.
            return .integer(size == 8 ? Int64(bitPattern: v) : Int64(clamping: v))
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            try need(p + 1, size, "a real")
            switch size {
            case 4:
                // A float32 holds the value its author typed, rounded to 24 bits: read it as the
                // shortest decimal that rounds to the same float32 (179.2, not 179.1999969482422),
                // within half a float32 ulp of the stored value, so scenes converted from it carry
                // the author's numbers.
                let f = Float(bitPattern: UInt32(readUInt(at: p + 1, size: 4)))
                return .real(f.isFinite ? Double(f.description) ?? Double(f) : Double(f))
            case 8: return .real(Double(bitPattern: readUInt(at: p + 1, size: 8)))
            default: throw PlistError("corrupt binary property list: \(size)-byte real at byte \(p)")
            }
        case 0x3:
            guard marker == 0x33 else { throw PlistError("corrupt binary property list: date marker 0x\(String(marker, radix: 16)) at byte \(p)") }
            try need(p + 1, 8, "a date")
            return .date(Double(bitPattern: readUInt(at: p + 1, size: 8)))
        case 0x4:
            let (n, s) = try length(marker, at: p)
            try need(s, n, "data")
            try count(values: 0, bytes: n, at: index)
            return .data(Array(bytes[s..<s + n]))
        case 0x5:
            let (n, s) = try length(marker, at: p)
            try need(s, n, "an ASCII string")
            try count(values: 0, bytes: n, at: index)
            return .string(String(decoding: bytes[s..<s + n], as: UTF8.self))
        case 0x6:
            let (n, s) = try length(marker, at: p)
            guard n <= Int.max / 2 else { throw PlistError("corrupt binary property list: string length at byte \(p)") }
            try need(s, n * 2, "a UTF-16 string")
            try count(values: 0, bytes: n * 2, at: index)
            var units: [UInt16] = []
            units.reserveCapacity(n)
            for i in 0..<n { units.append(UInt16(bytes[s + 2 * i]) << 8 | UInt16(bytes[s + 2 * i + 1])) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            try need(p + 1, size, "a UID")
            return .uid(Int(clamping: readUInt(at: p + 1, size: size)))
        case 0xA, 0xC:
            let (n, s) = try length(marker, at: p)
            guard n <= objectCount * 16 else { throw PlistError("corrupt binary property list: an array of \(n) items at byte \(p)") }
            try need(s, n * refSize, "an array")
            guard visiting.insert(index).inserted else { throw PlistError("corrupt binary property list: the array at byte \(p) contains itself") }
            defer { visiting.remove(index) }
            var items: [PlistValue] = []
            items.reserveCapacity(n)
            for i in 0..<n {
                items.append(try object(Int(clamping: readUInt(at: s + i * refSize, size: refSize)), depth: depth + 1, visiting: &visiting))
            }
            return .array(items)
        case 0xD:
            let (n, s) = try length(marker, at: p)
            guard n <= objectCount * 16 else { throw PlistError("corrupt binary property list: a dictionary of \(n) entries at byte \(p)") }
            try need(s, 2 * n * refSize, "a dictionary")
            guard visiting.insert(index).inserted else { throw PlistError("corrupt binary property list: the dictionary at byte \(p) contains itself") }
            defer { visiting.remove(index) }
            var pairs: [(String, PlistValue)] = []
            pairs.reserveCapacity(n)
            for i in 0..<n {
                let k = try object(Int(clamping: readUInt(at: s + i * refSize, size: refSize)), depth: depth + 1, visiting: &visiting)
                guard case .string(let key) = k else {
                    throw PlistError("unsupported binary property list: dictionary at byte \(p) has a key that is \(k.kindDescription), not a string")
                }
                let v = try object(Int(clamping: readUInt(at: s + (n + i) * refSize, size: refSize)), depth: depth + 1, visiting: &visiting)
                pairs.append((key, v))
            }
            return .dictionary(pairs)
        default:
            throw PlistError("unsupported binary property list marker 0x\(String(marker, radix: 16)) at byte \(p)")
        }
    }
}
