extension String {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it:
    /// "/a/b/c" and "/a/b/c/" → "/a/b"; "c" → ""; "/c" and "/" → "/".
    public var deletingLastPathComponent: String {
        var s = Substring(self)
        while s.count > 1, s.hasSuffix("/") { s = s.dropLast() }
        guard let slash = s.lastIndex(of: "/") else { return "" }
        let head = s[..<slash]
        return head.isEmpty ? "/" : String(head)
    }

    /// The last component, as `NSString.lastPathComponent` gives it: "/a/b/" → "b"; "/" → "/".
    public var lastPathComponent: String {
        var s = Substring(self)
        while s.count > 1, s.hasSuffix("/") { s = s.dropLast() }
        if s == "/" { return "/" }
        return String(s.split(separator: "/", omittingEmptySubsequences: true).last ?? "")
    }

    /// `component` joined to the path with one slash, as `NSString.appendingPathComponent`
    /// joins: "a" + "b" and "a/" + "/b" → "a/b"; "" + "b" → "b".
    public func appendingPathComponent(_ component: String) -> String {
        if isEmpty { return component }
        if component.isEmpty { return self }
        var head = Substring(self)
        while head.count > 1, head.hasSuffix("/") { head = head.dropLast() }
        let tail = component.drop { $0 == "/" }
        return head == "/" ? "/" + tail : head + "/" + tail
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (Unicode's space separators, U+0009 and the
    /// zero-width space U+200B), as Foundation's `trimmingCharacters(in: .whitespaces)` trims:
    /// scalar by scalar.
    public func trimmingWhitespace() -> String { trimmingScalars(Self.isWhitespace) }

    /// Without leading and trailing white space and line breaks, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` trims.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars { s in
            Self.isWhitespace(s) || ("\n"..."\r").contains(s) || s == "\u{85}" || s == "\u{2028}" || s == "\u{2029}"
        }
    }

    private static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s == "\t" || s == "\u{200B}" || s.properties.generalCategory == .spaceSeparator
    }

    private func trimmingScalars(_ trim: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !trim($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !trim($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
