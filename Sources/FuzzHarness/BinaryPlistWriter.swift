/// One object of a binary property list as the fuzz generators build it: containers hold object
/// *indices* (references), so one object can be referenced from many containers (a DAG), as
/// `CFBinaryPList` writes shared strings and numbers. Indices are written as given: one that is out
/// of range or names its own container makes a corrupt file on purpose.
public enum BinaryPlistObject: Equatable, Sendable {
    case null
    case bool(Bool)
    /// `size`: 1, 2, 4 or 8 bytes (1–4 unsigned, 8 signed), or 16 (the value in the low half).
    case integer(Int64, size: Int)
    /// `size`: 4 (float32) or 8 (float64).
    case real(Double, size: Int)
    case date(Double)
    case data([UInt8])
    /// Marker 0x5: bytes written as they are (not necessarily ASCII, as hostile files are).
    case ascii([UInt8])
    /// Marker 0x6: big-endian UTF-16 code units (unpaired surrogates allowed).
    case utf16([UInt16])
    /// Marker 0x8: `size` bytes (1…16).
    case uid(UInt64, size: Int)
    case array([Int])
    /// Marker 0xC; read as an array.
    case set([Int])
    case dictionary(keys: [Int], values: [Int])

    /// The references this object holds (keys and values for a dictionary).
    public var references: [Int] {
        switch self {
        case .array(let r), .set(let r): return r
        case .dictionary(let k, let v): return k + v
        default: return []
        }
    }
}

/// Encodes objects as a `bplist00` file, the layout `BinaryPlistReader` reads (CFBinaryPList.c):
/// the header, each object in order (a marker byte: type in the high nibble, a length or size in
/// the low one, 0xF then an integer object for lengths of 15 and more), the offset table (one
/// `offsetSize`-byte big-endian offset per object), and the 32-byte trailer: 5 unused bytes, the
/// sort version, the offset size, the reference size, the object count, the top object and the
/// offset table's position (big-endian 64-bit each).
public enum BinaryPlistWriter {
    /// The file. `refSize`/`offsetSize` default to the fewest bytes that hold every reference and
    /// offset; a larger size is valid too (and what some writers use); a smaller one truncates.
    public static func encode(_ objects: [BinaryPlistObject], top: Int, refSize: Int? = nil, offsetSize: Int? = nil) -> [UInt8] {
        let refs = refSize ?? bytesFor(UInt64(max(objects.count - 1, 0)))
        var out: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for o in objects {
            offsets.append(out.count)
            write(o, refSize: refs, to: &out)
        }
        let table = out.count
        let offs = offsetSize ?? bytesFor(UInt64(max(table, 1)))
        for o in offsets { append(UInt64(o), size: offs, to: &out) }
        out += [0, 0, 0, 0, 0, 0, UInt8(truncatingIfNeeded: offs), UInt8(truncatingIfNeeded: refs)]
        append(UInt64(objects.count), size: 8, to: &out)
        append(UInt64(bitPattern: Int64(top)), size: 8, to: &out)
        append(UInt64(table), size: 8, to: &out)
        return out
    }

    /// 1, 2, 4 or 8: the fewest bytes (of the sizes integers use) that hold `v`.
    static func bytesFor(_ v: UInt64) -> Int {
        v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
    }

    /// `v`'s low `size` bytes, big-endian (sizes past 8 are zero-padded on the left).
    static func append(_ v: UInt64, size: Int, to out: inout [UInt8]) {
        for i in stride(from: size - 1, through: 0, by: -1) {
            out.append(i >= 8 ? 0 : UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))))
        }
    }

    /// A marker with a length: inline below 15, else 0xF and an integer object.
    static func marker(_ type: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(type << 4 | UInt8(count))
        } else {
            out.append(type << 4 | 0x0F)
            let size = bytesFor(UInt64(count))
            out.append(0x10 | UInt8(size.trailingZeroBitCount))
            append(UInt64(count), size: size, to: &out)
        }
    }

    static func write(_ o: BinaryPlistObject, refSize: Int, to out: inout [UInt8]) {
        switch o {
        case .null: out.append(0x00)
        case .bool(let b): out.append(b ? 0x09 : 0x08)
        case .integer(let v, let size):
            let s = [1, 2, 4, 8, 16].contains(size) ? size : 8
            out.append(0x10 | UInt8(s.trailingZeroBitCount))
            if s == 16 { append(v < 0 ? UInt64.max : 0, size: 8, to: &out) }
            append(UInt64(bitPattern: v), size: min(s, 8), to: &out)
        case .real(let d, let size):
            if size == 4 {
                out.append(0x22)
                append(UInt64(Float(d).bitPattern), size: 4, to: &out)
            } else {
                out.append(0x23)
                append(d.bitPattern, size: 8, to: &out)
            }
        case .date(let d):
            out.append(0x33)
            append(d.bitPattern, size: 8, to: &out)
        case .data(let d):
            marker(0x4, count: d.count, to: &out)
            out += d
        case .ascii(let s):
            marker(0x5, count: s.count, to: &out)
            out += s
        case .utf16(let u):
            marker(0x6, count: u.count, to: &out)
            for c in u { out.append(UInt8(c >> 8)); out.append(UInt8(c & 0xFF)) }
        case .uid(let v, let size):
            let s = min(max(size, 1), 16)
            out.append(0x80 | UInt8(s - 1))
            append(v, size: s, to: &out)
        case .array(let r), .set(let r):
            marker(o.isSet ? 0xC : 0xA, count: r.count, to: &out)
            for i in r { append(UInt64(bitPattern: Int64(i)), size: refSize, to: &out) }
        case .dictionary(let k, let v):
            marker(0xD, count: k.count, to: &out)
            for i in k + v { append(UInt64(bitPattern: Int64(i)), size: refSize, to: &out) }
        }
    }
}

extension BinaryPlistObject {
    var isSet: Bool { if case .set = self { return true }; return false }
}
