import CZip
import SceneFormat

/// One entry of the central directory, as libzip reported it at open. Sizes are declarations.
struct ZipEntry: Sendable {
    let name: String
    let index: UInt64
    let size: Int
    let compressedSize: Int
    var isDirectory: Bool { name.hasSuffix("/") }
}

/// A zip archive held in memory and read through libzip, one short-lived libzip handle per read
/// (the bytes are the state, so the archive is a plain `Sendable` value). libzip opens with
/// `ZIP_CHECKCONS` (local headers must agree with the central directory; duplicate names are an
/// error) and verifies each entry's CRC when it is read to its end. What libzip does not bound
/// (how much an entry inflates to) is bounded here: declared sizes and ratios are checked at
/// open, before anything is inflated, and a read stops at the declared size + 1 regardless.
struct ZipArchive: Sendable {
    let bytes: [UInt8]
    let errors: DotLottieErrors
    let limits: DotLottiePackage.Limits
    /// Archive order.
    let entries: [ZipEntry]
    let entryByName: [String: ZipEntry]

    init(bytes: [UInt8], errors: DotLottieErrors, limits: DotLottiePackage.Limits) throws {
        self.bytes = bytes; self.errors = errors; self.limits = limits
        if bytes.count > limits.maxPackageBytes {
            throw errors.error(.limitExceeded, entry: nil, "the package is \(bytes.count) bytes; the limit is \(limits.maxPackageBytes)")
        }
        // libzip opens an empty buffer as an empty archive; a package is never one.
        guard let declared = ZipEndRecord.largestDeclaredEntryCount(bytes) else {
            throw errors.error(.invalidValue, entry: nil, "not a zip archive, or a truncated one (no end of central directory record); expected a dotLottie package (a zip archive with manifest.json)")
        }
        if declared > UInt64(limits.maxEntries) {
            throw errors.error(.limitExceeded, entry: nil, "the zip archive declares \(declared) entries; the limit is \(limits.maxEntries)")
        }
        var list: [ZipEntry] = []
        try Self.withArchive(bytes, errors: errors) { za in
            let count = zip_get_num_entries(za, 0)
            guard count >= 0, count <= Int64(limits.maxEntries) else {
                throw errors.error(.limitExceeded, entry: nil, "the zip archive has \(count) entries; the limit is \(limits.maxEntries)")
            }
            for i in 0..<UInt64(count) {
                var st = zip_stat_t()
                zip_stat_init(&st)
                guard zip_stat_index(za, i, 0, &st) == 0, let cName = st.name else {
                    throw errors.error(.invalidValue, entry: nil, "cannot read entry \(i) of the central directory: \(Self.message(zip_get_error(za)))")
                }
                let name = String(cString: cName)
                if let problem = ZipEntryName.problem(name) { throw errors.error(.invalidValue, entry: name, problem) }
                if st.valid & zip_uint64_t(ZIP_STAT_ENCRYPTION_METHOD) != 0, st.encryption_method != UInt16(ZIP_EM_NONE) {
                    throw errors.error(.invalidValue, entry: name, "the entry is encrypted; expected a package without a password")
                }
                if st.valid & zip_uint64_t(ZIP_STAT_COMP_METHOD) != 0,
                   st.comp_method != UInt16(ZIP_CM_STORE), st.comp_method != UInt16(ZIP_CM_DEFLATE) {
                    throw errors.error(.invalidValue, entry: name, "compression method \(st.comp_method); expected stored (0) or deflate (8), as dotLottie writers use")
                }
                guard st.valid & zip_uint64_t(ZIP_STAT_SIZE) != 0, st.valid & zip_uint64_t(ZIP_STAT_COMP_SIZE) != 0 else {
                    throw errors.error(.invalidValue, entry: name, "the central directory gives no size for the entry")
                }
                // Clamped, not trapped: a declared 2^64 - 1 is simply over every limit.
                let size = Int(clamping: st.size), compressed = Int(clamping: st.comp_size)
                list.append(ZipEntry(name: name, index: i, size: size, compressedSize: compressed))
            }
        }
        var byName: [String: ZipEntry] = [:]
        var total = 0
        for e in list {
            if byName[e.name] != nil {
                throw errors.error(.invalidValue, entry: e.name, "two entries have this name; expected unique names")
            }
            byName[e.name] = e
            try Self.checkDeclared(e, limit: limits.maxEntryBytes, limits: limits, errors: errors)
            total = total.addingReportingOverflow(e.size).overflow ? .max : total + e.size
        }
        if total > limits.maxTotalBytes {
            throw errors.error(.limitExceeded, entry: nil, "the entries declare \(total) bytes uncompressed in all; the limit is \(limits.maxTotalBytes)")
        }
        entries = list; entryByName = byName
    }

    /// The declared size and compression ratio against the limits, before inflating anything.
    static func checkDeclared(_ e: ZipEntry, limit: Int, limits: DotLottiePackage.Limits, errors: DotLottieErrors) throws {
        if e.size > limit {
            throw errors.error(.limitExceeded, entry: e.name, "declares \(e.size) bytes uncompressed; the limit is \(limit)")
        }
        if e.size > limits.ratioCheckedAbove, e.size / max(e.compressedSize, 1) > limits.maxCompressionRatio {
            throw errors.error(.limitExceeded, entry: e.name, "declares \(e.size) bytes from \(e.compressedSize) compressed, a ratio over \(limits.maxCompressionRatio):1 (a decompression bomb?)")
        }
    }

    /// An entry's bytes: at most its declared size (checked against `limit`), CRC verified.
    func read(_ e: ZipEntry, limit: Int) throws -> [UInt8] {
        try Self.checkDeclared(e, limit: limit, limits: limits, errors: errors)
        return try Self.withArchive(bytes, errors: errors) { za in
            guard let zf = zip_fopen_index(za, e.index, 0) else {
                throw errors.error(.invalidValue, entry: e.name, "cannot open the entry: \(Self.message(zip_get_error(za)))")
            }
            defer { zip_fclose(zf) }
            // One byte more than declared: reading it proves the declaration a lie.
            let cap = e.size + 1
            var out = [UInt8](repeating: 0, count: cap)
            var filled = 0
            while filled < cap {
                let n = out.withUnsafeMutableBytes { zip_fread(zf, $0.baseAddress! + filled, zip_uint64_t(cap - filled)) }
                if n < 0 {
                    let code = zip_error_code_zip(zip_file_get_error(zf))
                    let what = code == ZIP_ER_CRC ? "CRC error: the data is corrupt" : Self.message(zip_file_get_error(zf))
                    throw errors.error(.invalidValue, entry: e.name, "cannot read the entry (\(what)); expected intact zip data")
                }
                if n == 0 { break }
                filled += Int(n)
            }
            if filled > e.size {
                throw errors.error(.invalidValue, entry: e.name, "inflates to more than its declared \(e.size) bytes; the archive lies about its sizes")
            }
            if filled < e.size {
                throw errors.error(.invalidValue, entry: e.name, "ends after \(filled) of its declared \(e.size) bytes (truncated or corrupt)")
            }
            out.removeLast()
            return out
        }
    }

    /// A libzip handle on the bytes for the duration of `body` (read-only, consistency-checked).
    static func withArchive<R>(_ bytes: [UInt8], errors: DotLottieErrors, _ body: (OpaquePointer) throws -> R) throws -> R {
        try bytes.withUnsafeBytes { raw in
            var error = zip_error_t()
            zip_error_init(&error)
            defer { zip_error_fini(&error) }
            // freep 0: libzip reads the caller's buffer in place and never frees it.
            guard let source = zip_source_buffer_create(raw.baseAddress, zip_uint64_t(raw.count), 0, &error) else {
                throw errors.error(.io, entry: nil, "cannot read the package: \(message(&error))")
            }
            guard let za = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
                zip_source_free(source)
                let code = zip_error_code_zip(&error)
                if code == ZIP_ER_EXISTS, let name = duplicateName(raw) {
                    throw errors.error(.invalidValue, entry: name, "two entries of the zip archive have this name; expected unique names")
                }
                throw openError(code, message(&error), errors: errors)
            }
            defer { zip_discard(za) }
            return try body(za)
        }
    }

    /// The name libzip found twice (it says only that one exists): without `ZIP_CHECKCONS` it opens
    /// such an archive, so the names can be listed. The entry count was checked before.
    static func duplicateName(_ raw: UnsafeRawBufferPointer) -> String? {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(raw.baseAddress, zip_uint64_t(raw.count), 0, &error) else { return nil }
        guard let za = zip_open_from_source(source, ZIP_RDONLY, &error) else { zip_source_free(source); return nil }
        defer { zip_discard(za) }
        var seen = Set<String>()
        for i in 0..<UInt64(max(zip_get_num_entries(za, 0), 0)) {
            guard let cName = zip_get_name(za, i, 0) else { continue }
            let name = String(cString: cName)
            if !seen.insert(name).inserted { return name }
        }
        return nil
    }

    static func openError(_ code: Int32, _ text: String, errors: DotLottieErrors) -> SceneError {
        switch code {
        case ZIP_ER_NOZIP:
            return errors.error(.invalidValue, entry: nil, "not a zip archive, or a truncated one (\(text)); expected a dotLottie package (a zip archive with manifest.json)")
        case ZIP_ER_EXISTS:
            return errors.error(.invalidValue, entry: nil, "two entries of the zip archive have the same name; expected unique names")
        case ZIP_ER_INCONS, ZIP_ER_EOF, ZIP_ER_READ, ZIP_ER_SEEK:
            return errors.error(.invalidValue, entry: nil, "the zip archive is truncated or corrupt (\(text)); expected its local headers to agree with its central directory")
        case ZIP_ER_MEMORY:
            return errors.error(.limitExceeded, entry: nil, "the zip archive needs more memory than there is (\(text))")
        default:
            return errors.error(.invalidValue, entry: nil, "cannot open the zip archive (\(text))")
        }
    }

    static func message(_ error: UnsafeMutablePointer<zip_error_t>) -> String {
        String(cString: zip_error_strerror(error))
    }
}
