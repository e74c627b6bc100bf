/// A generated binary property list: the file, and the objects it was written from (to count
/// shared references without parsing the file).
public struct GeneratedPlist: Sendable {
    public let file: [UInt8]
    public let objects: [BinaryPlistObject]
    public let top: Int

    /// How many references each object has from containers (the top object's own is not counted).
    public var referenceCounts: [Int] {
        var counts = [Int](repeating: 0, count: objects.count)
        for o in objects { for r in o.references where r >= 0 && r < counts.count { counts[r] += 1 } }
        return counts
    }
    /// The most references any one object has.
    public var maxReferenceCount: Int { referenceCounts.max() ?? 0 }
}

/// Fuzz bytes → a valid `bplist00` file (`BinaryPlistWriter`) whose objects are a DAG on purpose:
/// strings, data, numbers, UIDs, dates and booleans, then arrays, sets and dictionaries that
/// reference earlier objects, an object referenced from many containers (a fan), chains of arrays
/// each referencing the level below several times (expanding as fan-out^levels), long strings and
/// data shared many times. Mutating the bytes mutates decisions, not bytes of the file, so the
/// fuzzer explores well-formed files that expand, which random byte mutations of a plist rarely
/// build. About one decision in 64 writes something corrupt (a reference out of range, a
/// container that contains itself, a key that is not a string, a length past the end), so the
/// reader's refusals stay covered too.
///
/// Deterministic: the same bytes always give the same file. Bytes past the end read as zero; the
/// file ends when the bytes do (or at `maxObjects`).
public struct PlistDAGGenerator {
    public static let maxObjects = 4096
    /// Longest string or data one object holds (a shared one counts each time it is reached).
    static let longLengths = [0, 1, 14, 15, 16, 255, 256, 1000, 4096, 65_535, 65_536, 300_000]
    /// Most bytes of strings and data in one file (keeps each input quick to write and read).
    static let maxPayload = 1 << 20

    private var b: FuzzBytes
    private var objects: [BinaryPlistObject] = []
    private var strings: [Int] = []
    private var containers: [Int] = []
    private var payload = 0

    public init(_ bytes: [UInt8]) { b = FuzzBytes(bytes) }

    public static func generate(_ bytes: [UInt8]) -> GeneratedPlist {
        var g = PlistDAGGenerator(bytes)
        return g.generate()
    }

    public mutating func generate() -> GeneratedPlist {
        // The header's choices: wider references and offsets than needed are valid too.
        let refPad = b.pick([0, 0, 0, 0, 1, 2, 4, 8])
        let offsetPad = b.pick([0, 0, 0, 0, 1, 3, 8])
        _ = add(.ascii(Array("$class".utf8)))
        while !b.exhausted, objects.count < Self.maxObjects - 64 {
            step()
        }
        if containers.isEmpty { _ = add(.array(objects.indices.map { $0 })) }
        // The top object: mostly the last container (what reaches the most), sometimes any object.
        // (Bytes past the end read as zero: zero picks the usual choice.)
        let top = b.byte() % 8 == 7 ? b.below(objects.count) : containers.last!
        let minRef = BinaryPlistWriter.bytesFor(UInt64(max(objects.count - 1, 0)))
        let refSize = refPad == 0 ? minRef : min(8, max(minRef, refPad))
        let file = BinaryPlistWriter.encode(objects, top: top, refSize: refSize,
                                            offsetSize: offsetPad == 0 ? nil : max(offsetPad, 4))
        return GeneratedPlist(file: file, objects: objects, top: top)
    }

    private mutating func add(_ o: BinaryPlistObject) -> Int {
        objects.append(o)
        let i = objects.count - 1
        switch o {
        case .ascii, .utf16: strings.append(i)
        case .array, .set, .dictionary: containers.append(i)
        default: break
        }
        return i
    }

    /// An earlier object: mostly a recent one (so chains form), sometimes any, sometimes a container.
    private mutating func ref() -> Int {
        let n = objects.count
        let c = b.byte()
        switch c % 4 {
        case 0, 1: return n - 1 - Int(c >> 2) % min(n, 8)
        case 2 where !containers.isEmpty: return containers[containers.count - 1 - Int(c >> 2) % min(containers.count, 4)]
        default: return b.below(n)
        }
    }

    private mutating func key() -> Int {
        if strings.isEmpty || b.oneIn(4) { return add(shortString()) }
        return strings[b.below(strings.count)]
    }

    private mutating func length() -> Int {
        let n = b.pick(Self.longLengths)
        return payload + n > Self.maxPayload ? n % 256 : n
    }

    private mutating func shortString() -> BinaryPlistObject {
        let words = ["$class", "$classname", "$classes", "NS.objects", "NS.keys", "root", "a", "", "CALayer",
                     "sublayers", "$null", "NSKeyedArchiver", "é", "\u{1F600}"]
        let w = b.pick(words)
        if w.utf8.allSatisfy({ $0 < 0x80 }) { return .ascii(Array(w.utf8)) }
        return .utf16(Array(w.utf16))
    }

    private mutating func leaf() -> BinaryPlistObject {
        switch b.byte() % 12 {
        case 0: return shortString()
        case 1:
            // A long string: a repeated byte pattern, sometimes invalid UTF-8.
            let n = length(), c = b.byte()
            payload += n
            let unit: [UInt8] = c >= 0xF0 ? [0xC3, c, 0x80] : [0x41 + c % 26, 0x30 + c % 10]
            return .ascii((0..<n).map { unit[$0 % unit.count] })
        case 2:
            let n = length() / 2, c = b.byte()
            payload += 2 * n
            // Some unpaired surrogates.
            let units: [UInt16] = c & 1 == 0 ? [0x00E9, 0x65E5] : [0xD800, 0x0041, 0xDC00]
            return .utf16((0..<n).map { units[$0 % units.count] })
        case 3:
            let n = length(), c = b.byte()
            payload += n
            return .data((0..<n).map { UInt8(truncatingIfNeeded: $0 &* Int(c | 1)) })
        case 4:
            let size = b.pick([1, 2, 4, 8, 16])
            let v = b.pick([0, 1, -1, 255, 256, 65_535, 1 << 31, Int64.max, Int64.min, 42, 1 << 40])
            return .integer(v, size: size)
        case 5:
            let v = b.pick([0, -0.0, 1, 0.5, -1e300, 1e300, .infinity, -.infinity, .nan, 3.5e38, .leastNonzeroMagnitude, 179.2])
            return .real(v, size: b.flag() ? 4 : 8)
        case 6: return .bool(b.flag())
        case 7: return .null
        case 8: return .date(b.pick([0, -1e10, 7e8, .nan]))
        default:
            let size = b.pick([1, 1, 1, 2, 4, 8, 16])
            let v = b.flag() ? UInt64(b.byte()) : UInt64(b.uint16()) << 16 | UInt64(b.uint16())
            return .uid(v, size: size)
        }
    }

    private mutating func step() {
        switch b.byte() % 16 {
        case 0, 1, 2, 3, 4, 5, 12:
            _ = add(leaf())
        case 6, 7:
            let n = Int(b.byte() % 12)
            _ = add(.array((0..<n).map { _ in ref() }))
        case 8:
            let n = Int(b.byte() % 6)
            _ = add(.set((0..<n).map { _ in ref() }))
        case 9, 10:
            let n = Int(b.byte() % 8)
            var k: [Int] = [], v: [Int] = []
            for _ in 0..<n { k.append(key()); v.append(ref()) }
            _ = add(.dictionary(keys: k, values: v))
        case 11:
            // A chain: each level an array (or a dictionary) referencing the level below m times.
            let levels = b.pick([1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 40])
            let fanOut = b.pick([2, 2, 2, 3, 4, 8, 16, 100])
            let asDictionary = b.oneIn(4)
            var below = b.flag() ? ref() : b.below(objects.count)
            var keys: [Int] = []
            if asDictionary { for _ in 0..<fanOut { keys.append(add(.ascii(Array("k\(keys.count)".utf8)))) } }
            for _ in 0..<levels where objects.count < Self.maxObjects - 64 {
                let refs = [Int](repeating: below, count: fanOut)
                below = add(asDictionary ? .dictionary(keys: keys, values: refs) : .array(refs))
            }
        case 13:
            // A fan: one object referenced many times from one array (within the reader's
            // 16 references per object).
            let target = ref()
            let n = min(b.pick([2, 16, 100, 1000, 4096, 60_000]), 16 * (objects.count + 1))
            _ = add(.array([Int](repeating: target, count: n)))
        case 14:
            // Several containers sharing one object.
            let shared = ref()
            for _ in 0..<Int(1 + b.byte() % 8) {
                let n = Int(b.byte() % 4)
                _ = add(.array([shared] + (0..<n).map { _ in ref() }))
            }
        default:
            guard b.oneIn(4) else { _ = add(leaf()); return }
            corrupt()
        }
    }

    /// Something the reader must refuse with an error.
    private mutating func corrupt() {
        let n = objects.count
        switch b.byte() % 6 {
        case 0: _ = add(.array([n + Int(b.byte())]))                       // a reference past the objects
        case 1: _ = add(.array([ref(), n]))                                // an array containing itself
        case 2:
            // A key that is not a string.
            let k = add(leaf())
            _ = add(.dictionary(keys: [k], values: [ref()]))
        case 3:
            // A chain whose last level names the first: a cycle through several containers.
            let first = n
            _ = add(.array([n + 2]))
            _ = add(.array([first]))
            _ = add(.array([first + 1, ref()]))
        case 4: _ = add(.integer(1, size: 32))                             // written as 8: valid; keeps decisions aligned
        default: _ = add(.array([Int](repeating: ref(), count: 16 * (n + 1) + 1)))   // more items than the reader allows
        }
    }
}
