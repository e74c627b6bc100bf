import CZip
#if canImport(Glibc)
import Glibc
#endif

/// Zip archives built in memory for the dotLottie tests: `libzip` through libzip's write API (real
/// deflate, e.g. a bomb), `stored` by hand (uncompressed entries), for what no writer makes —
/// climbing and absolute names, duplicate names, encryption flags; `patchSize` makes an archive lie.
enum ZipFixtures {
    /// Entries deflated at `level` (1 fastest … 9) by libzip, written to a memory buffer.
    static func libzip(_ entries: [(String, [UInt8])], level: UInt32 = 6) -> [UInt8] {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        let source = zip_source_buffer_create(nil, 0, 0, &error)!
        zip_source_keep(source)   // ours after zip_close, to read the archive back
        defer { zip_source_free(source) }
        let za = zip_open_from_source(source, ZIP_TRUNCATE, &error)!
        for (name, data) in entries {
            let copy = malloc(max(data.count, 1))!   // libzip frees it (freep 1)
            data.withUnsafeBytes { if let b = $0.baseAddress { copy.copyMemory(from: b, byteCount: data.count) } }
            let s = zip_source_buffer(za, copy, zip_uint64_t(data.count), 1)!
            let index = zip_file_add(za, name, s, zip_flags_t(ZIP_FL_ENC_UTF_8))
            precondition(index >= 0, "zip_file_add \(name)")
            precondition(zip_set_file_compression(za, zip_uint64_t(index), ZIP_CM_DEFLATE, level) == 0)
        }
        precondition(zip_close(za) == 0, "zip_close")
        precondition(zip_source_open(source) == 0)
        defer { zip_source_close(source) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { zip_source_read(source, $0.baseAddress, zip_uint64_t($0.count)) }
            if n <= 0 { break }
            out += chunk[0..<Int(n)]
        }
        return out
    }

    /// Stored (uncompressed) entries written byte by byte, names as given. `flags` is the general
    /// purpose bit flag of every entry (bit 0: encrypted; bit 11, always set: UTF-8 names).
    static func stored(_ entries: [(String, [UInt8])], flags: UInt16 = 0) -> [UInt8] {
        var out: [UInt8] = [], central: [UInt8] = []
        for (name, data) in entries {
            let offset = UInt32(out.count), crc = crc32(data), n = Array(name.utf8)
            out += le32(0x0403_4B50) + le16(20) + le16(flags | 0x0800) + le16(0) + le16(0) + le16(0x21)
            out += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(UInt16(n.count)) + le16(0) + n + data
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(flags | 0x0800) + le16(0) + le16(0) + le16(0x21)
            central += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(UInt16(n.count))
            central += le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + n
        }
        let cdOffset = UInt32(out.count)
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(cdOffset) + le16(0)
        return out
    }

    /// Rewrites the uncompressed size `name` declares, in its central directory record and its
    /// local header alike (so libzip's consistency check still passes): the archive lies.
    static func patchSize(_ zip: inout [UInt8], entry name: String, to size: UInt32) {
        let n = Array(name.utf8)
        var p = 0
        while p + 46 <= zip.count {
            if u32(zip, p) == 0x0201_4B50, Int(u16(zip, p + 28)) == n.count, Array(zip[(p + 46)..<(p + 46 + n.count)]) == n {
                zip.replaceSubrange((p + 24)..<(p + 28), with: le32(size))
                let local = Int(u32(zip, p + 42))
                zip.replaceSubrange((local + 22)..<(local + 26), with: le32(size))
                return
            }
            p += 1
        }
        preconditionFailure("no central directory record for \(name)")
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in data {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { le16(UInt16(v & 0xFFFF)) + le16(UInt16(v >> 16)) }
    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
}
