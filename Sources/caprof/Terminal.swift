import SystemSupport

/// Terminal output: colours only on a TTY and never with NO_COLOR set (https://no-color.org).
struct Terminal {
    let fd: Int32
    static let stderr = Terminal(fd: 2)
    static let stdout = Terminal(fd: 1)

    var colors: Bool {
        if let v = ProcessInfo.processInfo.environment["NO_COLOR"], !v.isEmpty { return false }
        if ProcessInfo.processInfo.environment["TERM"] == "dumb" { return false }
        return isatty(fd) != 0
    }

    func paint(_ s: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { paint(s, "1") }
    func dim(_ s: String) -> String { paint(s, "2") }
    func green(_ s: String) -> String { paint(s, "32") }

    func write(_ s: String) {
        let line = s.hasSuffix("\n") ? s : s + "\n"
        StandardStreams.write(line.utf8, to: fd)
    }
    /// `error:` / `warning:` highlighted wherever they appear first in the line.
    func error(_ s: String) { write(highlight(s, "error:", "1;31")) }
    func warning(_ s: String) { write(highlight(s, "warning:", "1;33")) }
    private func highlight(_ s: String, _ word: String, _ code: String) -> String {
        guard colors, let r = s.firstRange(of: word) else { return s }
        return s[..<r.lowerBound] + paint(word, code) + s[r.upperBound...]
    }
}
