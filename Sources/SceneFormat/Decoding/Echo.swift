/// Text from the scene file repeated in a message, shortened: an error about a 4-million-character
/// key must not be 4 million characters long (nor 8, with the pointer). Quoting stays linear: the
/// length check is O(1) for short text and the kept prefix is a fixed number of scalars.
enum Echo {
    /// Longest text echoed whole, in UTF-8 bytes; longer text keeps `keptScalars` and says how long it was.
    static let maxBytes = 64
    static let keptScalars = 40

    /// `'text'`, or `'first 40 characters…' (4194304 characters)` for long text.
    static func quoted(_ s: String) -> String {
        if s.utf8.count <= maxBytes { return "'\(s)'" }
        return "'\(String(String.UnicodeScalarView(s.unicodeScalars.prefix(keptScalars))))…' (\(s.unicodeScalars.count) characters)"
    }

    /// A JSON pointer with each over-long token shortened the same way (`/root/aaaa…(4194304 characters)`).
    static func pointer(_ p: String) -> String {
        if p.utf8.count <= maxBytes * 4 { return p }
        // Split on the bytes (a Character split of a 5 MB token is ten times slower).
        return p.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { bytes -> String in
            let token = Substring(bytes)
            if token.utf8.count <= maxBytes { return String(token) }
            return String(String.UnicodeScalarView(token.unicodeScalars.prefix(keptScalars))) + "…(\(token.unicodeScalars.count) characters)"
        }.joined(separator: "/")
    }
}
