/// A syntax error inside a string value (transform functions, SVG path data), at a character offset
/// of that string; the decoder turns it into a `SceneError` at the string's location.
struct GrammarError: Error {
    /// 0-based offset in Unicode scalars.
    var offset: Int
    var message: String
    var suggestion: String?
    init(_ offset: Int, _ message: String, suggestion: String? = nil) {
        self.offset = offset; self.message = message; self.suggestion = suggestion
    }
}

/// A cursor over the scalars of a string with the number syntax shared by CSS transforms and SVG
/// path data: sign, digits, fraction, exponent ("-1.5e3", ".5", "10.").
struct GrammarScanner {
    let scalars: [Unicode.Scalar]
    var i = 0
    init(_ s: String) { scalars = Array(s.unicodeScalars) }

    var atEnd: Bool { i >= scalars.count }
    var current: Unicode.Scalar? { i < scalars.count ? scalars[i] : nil }

    mutating func skipWhitespace() {
        while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" { i += 1 }
    }
    /// Whitespace with at most one comma.
    mutating func skipSeparator() {
        skipWhitespace()
        if current == "," { i += 1; skipWhitespace() }
    }
    static func isDigit(_ c: Unicode.Scalar?) -> Bool { c.map { $0 >= "0" && $0 <= "9" } ?? false }
    static func isLetter(_ c: Unicode.Scalar?) -> Bool {
        c.map { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") } ?? false
    }

    /// True when a number starts here.
    var atNumber: Bool {
        guard let c = current else { return false }
        if Self.isDigit(c) { return true }
        if c == "-" || c == "+" || c == "." {
            let n = i + 1 < scalars.count ? scalars[i + 1] : nil
            if Self.isDigit(n) { return true }
            if c != "." && n == "." { return Self.isDigit(i + 2 < scalars.count ? scalars[i + 2] : nil) }
        }
        return false
    }

    mutating func number(what: String) throws -> Double {
        let start = i
        if current == "-" || current == "+" { i += 1 }
        var mantissaDigits = 0
        while Self.isDigit(current) { i += 1; mantissaDigits += 1 }
        if current == "." {
            i += 1
            while Self.isDigit(current) { i += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else {
            i = start
            throw GrammarError(start, "expected \(what), found \(describeCurrent)")
        }
        if current == "e" || current == "E" {
            let save = i
            i += 1
            if current == "-" || current == "+" { i += 1 }
            if Self.isDigit(current) { while Self.isDigit(current) { i += 1 } } else { i = save }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<i]))
        guard let v = Double(text), v.isFinite else { throw GrammarError(start, "the number \(text) is out of range") }
        return v
    }

    mutating func word() -> String {
        let start = i
        while Self.isLetter(current) || Self.isDigit(current) { i += 1 }
        return String(String.UnicodeScalarView(scalars[start..<i]))
    }

    var describeCurrent: String {
        guard let c = current else { return "the end of the string" }
        return "'\(c)'"
    }
}
