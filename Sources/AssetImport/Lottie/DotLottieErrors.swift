import LayerModel
import SceneFormat

/// Builds the package's `SceneError`s: each names the `.lottie` file (the location) and, when one is
/// concerned, the zip entry ("entry 'animations/x.json': …"), so a message says where to look
/// inside the archive, which no path on disk can.
struct DotLottieErrors: Sendable {
    let file: String

    func error(_ kind: SceneError.Kind, entry: String?, _ message: String) -> SceneError {
        SceneError(kind, at: SourceLocation(file: file, pointer: "", line: 0, column: 0), Self.prefix(entry) + message)
    }

    /// An error at a value of the manifest: its JSON pointer and line:column.
    func error(_ kind: SceneError.Kind, at value: JSONValue, entry: String, _ message: String) -> SceneError {
        SceneError(kind, at: SourceLocation(file: file, pointer: value.pointer, line: value.line, column: value.column),
                   Self.prefix(entry) + message)
    }

    /// Hostile names are echoed shortened and with control characters escaped, so a message stays one short line.
    static func quote(_ name: String) -> String {
        var s = ""
        for u in name.unicodeScalars.prefix(120) {
            if u.value < 0x20 || u.value == 0x7F { s += "\\u{\(String(u.value, radix: 16))}" } else { s.unicodeScalars.append(u) }
        }
        if name.unicodeScalars.count > 120 { s += "…" }
        return "'" + s + "'"
    }

    static func prefix(_ entry: String?) -> String { entry.map { "entry \(quote($0)): " } ?? "" }
}
