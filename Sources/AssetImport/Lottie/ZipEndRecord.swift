/// The entry counts an archive's end records declare, read before libzip opens it: libzip
/// allocates a record for every entry the central directory declares, so a few bytes could
/// otherwise make it allocate millions. Every candidate end record in the last 64 KiB (+ 22) is
/// counted (libzip may choose any of them), with its zip64 record's count when one is located.
enum ZipEndRecord {
    /// The largest entry count any candidate declares; nil when there is no end record at all.
    static func largestDeclaredEntryCount(_ bytes: [UInt8]) -> UInt64? {
        let n = bytes.count
        guard n >= 22 else { return nil }
        var largest: UInt64?
        var p = n - 22
        let lowest = max(0, n - 22 - 0xFFFF)
        while p >= lowest {
            if u32(bytes, p) == 0x0605_4B50 {
                var count = UInt64(max(u16(bytes, p + 8), u16(bytes, p + 10)))
                // A zip64 end-of-central-directory locator right before: the real count is 64-bit.
                if p >= 20, u32(bytes, p - 20) == 0x0706_4B50 {
                    let offset = u64(bytes, p - 20 + 8)
                    if n >= 56, offset <= UInt64(n - 56), u32(bytes, Int(offset)) == 0x0606_4B50 {
                        count = max(count, u64(bytes, Int(offset) + 24), u64(bytes, Int(offset) + 32))
                    }   // A locator to nowhere: libzip refuses the archive itself.
                }
                largest = max(largest ?? 0, count)
            }
            p -= 1
        }
        return largest
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}
