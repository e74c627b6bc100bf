import SystemSupport   // memcmp (the C library)

/// Object keys, interned: a scene repeats a few keys ("frame", "contents", "opacity"…) on every
/// layer, and making a String of each occurrence, keeping it in `strings` and comparing Strings to
/// find duplicates was ≈ 1/6 of parsing a 10,000-layer scene. A key without escapes is looked up by
/// its bytes; the first time it is read as any string (validated) and remembered. Keys with escapes,
/// long keys and keys past the table's size are read as before, each its own string.
extension JSONParser {
    struct KeyTable {
        /// Keys longer than this are not interned (hashed and compared twice for nothing).
        static let maxLength = 64
        /// Distinct keys interned at most (a hostile file of a million keys stays linear).
        static let capacity = 256
        private struct Entry { var hash: UInt64; var start: Int32; var length: Int32; var string: Int32 }
        private var entries: [Entry] = []
        /// Open addressing over `entries` (index + 1; 0 is empty), twice the capacity.
        private var slots = [Int32](repeating: 0, count: 2 * capacity)

        /// FNV-1a, over the key's bytes.
        @inline(__always)
        static func hash(_ h: UInt64, _ b: UInt8) -> UInt64 { (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        static let seed: UInt64 = 0xCBF2_9CE4_8422_2325

        /// The string index of the key written at `bytes[start..<start + length]`, if interned.
        func find(_ hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>, start: Int, length: Int) -> Int32? {
            var s = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while slots[s] != 0 {
                let e = entries[Int(slots[s]) - 1]
                if e.hash == hash, Int(e.length) == length,
                   memcmp(bytes.baseAddress! + start, bytes.baseAddress! + Int(e.start), length) == 0 {
                    return e.string
                }
                s = (s + 1) & (slots.count - 1)
            }
            return nil
        }

        /// Remembers a key read (and validated) at `start`; false when the table is full.
        mutating func insert(_ hash: UInt64, start: Int, length: Int, string: Int32) -> Bool {
            guard entries.count < Self.capacity else { return false }
            var s = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while slots[s] != 0 { s = (s + 1) & (slots.count - 1) }
            entries.append(Entry(hash: hash, start: Int32(start), length: Int32(length), string: string))
            slots[s] = Int32(entries.count)
            return true
        }
    }

    /// Reads the key at `i` (an opening quote); returns its index in `strings` and whether it is
    /// interned (then equal keys have equal indices). Errors are `parseString`'s.
    mutating func parseKey(parent: Int) throws -> (string: Int32, interned: Bool) {
        let quote = i
        let start = quote + 1
        var k = start
        var hash = KeyTable.seed
        var plain = false
        while k < bytes.count, k - start <= KeyTable.maxLength {
            let b = bytes[k]
            if b == UInt8(ascii: "\"") { plain = true; break }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            hash = KeyTable.hash(hash, b)
            k += 1
        }
        if plain, let string = keys.find(hash, bytes, start: start, length: k - start) {
            i = k + 1
            return (string, true)
        }
        let s = try parseString(parent: parent)
        strings.append(s)
        let string = Int32(strings.count - 1)
        return (string, plain && keys.insert(hash, start: start, length: k - start, string: string))
    }
}
