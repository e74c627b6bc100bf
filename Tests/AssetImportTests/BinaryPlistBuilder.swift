import Foundation
@testable import AssetImport

/// A minimal bplist00 writer for tests (CFBinaryPList layout: header, objects, offset table,
/// trailer), so the tests build their own archives instead of copying files. Containers refer to
/// objects by index into `objects`, which lets a test write shared and cyclic references.
struct BinaryPlistBuilder {
    enum Object {
        case int(Int64), real(Double), bool(Bool), string(String), data([UInt8]), uid(Int)
        case array([Int]), dict([(Int, Int)])
    }
    var objects: [Object] = []

    mutating func add(_ o: Object) -> Int { objects.append(o); return objects.count - 1 }

    func build(top: Int) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        func marker(_ type: UInt8, _ count: Int) {
            if count < 15 { out.append(type << 4 | UInt8(count)) } else {
                out.append(type << 4 | 0xF); out.append(0x13)
                for s in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(count) >> UInt64(s))) }
            }
        }
        for o in objects {
            offsets.append(out.count)
            switch o {
            case .int(let v):
                out.append(0x13)
                for s in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(bitPattern: v) >> UInt64(s))) }
            case .real(let d):
                out.append(0x23)
                for s in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: d.bitPattern >> UInt64(s))) }
            case .bool(let b): out.append(b ? 0x09 : 0x08)
            case .string(let s): marker(0x5, s.utf8.count); out += Array(s.utf8)
            case .data(let d): marker(0x4, d.count); out += d
            case .uid(let u): out.append(0x81); out.append(UInt8(u >> 8)); out.append(UInt8(u & 0xFF))
            case .array(let items): marker(0xA, items.count); for i in items { out.append(UInt8(i >> 8)); out.append(UInt8(i & 0xFF)) }
            case .dict(let pairs):
                marker(0xD, pairs.count)
                for (k, _) in pairs { out.append(UInt8(k >> 8)); out.append(UInt8(k & 0xFF)) }
                for (_, v) in pairs { out.append(UInt8(v >> 8)); out.append(UInt8(v & 0xFF)) }
            }
        }
        let table = out.count
        for o in offsets { for s in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: o >> s)) } }
        out += [0, 0, 0, 0, 0, 0, 4, 2]
        for v in [objects.count, top, table] { for s in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(v) >> UInt64(s))) } }
        return out
    }
}

/// Builds NSKeyedArchiver archives: `$objects` entries are added as plist objects; `object(...)`
/// adds an archived object with a class entry.
struct ArchiveBuilder {
    var b = BinaryPlistBuilder()
    /// Indices (in the plist) of the `$objects` entries, in archive order.
    var entries: [Int] = []
    private var classEntries: [String: Int] = [:]

    init() { entries.append(b.add(.string("$null"))) }

    /// Adds a `$objects` entry holding a plain plist value; returns its archive index (UID).
    mutating func plain(_ o: BinaryPlistBuilder.Object) -> Int { entries.append(b.add(o)); return entries.count - 1 }

    /// Reserves the archive index the next `object` call will get (for self references).
    var nextIndex: Int { entries.count }

    mutating func classEntry(_ chain: [String]) -> Int {
        if let c = classEntries[chain[0]] { return c }
        let name = b.add(.string("$classname")), classes = b.add(.string("$classes"))
        let names = chain.map { b.add(.string($0)) }
        let arr = b.add(.array(names)), cn = b.add(.string(chain[0]))
        entries.append(b.add(.dict([(name, cn), (classes, arr)])))
        classEntries[chain[0]] = entries.count - 1
        return entries.count - 1
    }

    /// An archived object: fields are inline plist values (use `.uid(n)` for references).
    mutating func object(_ chain: [String], _ fields: [(String, BinaryPlistBuilder.Object)]) -> Int {
        let cls = classEntry(chain)
        var pairs: [(Int, Int)] = [(b.add(.string("$class")), b.add(.uid(cls)))]
        for (k, v) in fields { pairs.append((b.add(.string(k)), b.add(v))) }
        entries.append(b.add(.dict(pairs)))
        return entries.count - 1
    }

    /// The archive bytes with `$top.root = UID(root)`.
    mutating func build(root: Int) -> [UInt8] {
        let objs = b.add(.array(entries))
        let top = b.add(.dict([(b.add(.string("root")), b.add(.uid(root)))]))
        let doc = b.add(.dict([(b.add(.string("$archiver")), b.add(.string("NSKeyedArchiver"))),
                               (b.add(.string("$version")), b.add(.int(100000))),
                               (b.add(.string("$top")), top), (b.add(.string("$objects")), objs)]))
        return b.build(top: doc)
    }
}
