extension String {
    /// Every occurrence of `target` replaced with `replacement`, matched scalar by scalar, as
    /// Foundation's `replacingOccurrences(of:with:)` matches: "\n" is found inside "\r\n" and "|"
    /// before a combining mark, where the standard library's `replacing(_:with:)`, which matches
    /// whole characters, would pass over them (an escape would then leave them raw).
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        let pattern = Array(target.unicodeScalars)
        guard let first = pattern.first else { return self }
        let scalars = Array(unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if scalars[i] == first, i + pattern.count <= scalars.count, scalars[i..<i + pattern.count].elementsEqual(pattern) {
                out.append(contentsOf: replacement.unicodeScalars)
                i += pattern.count
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }

    /// Padded with spaces on the right to `width` characters (never cut), for aligned columns.
    public func paddedTo(_ width: Int) -> String {
        let n = count
        return n >= width ? self : self + String(repeating: " ", count: width - n)
    }
}
