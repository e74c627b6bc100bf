import LayerModel

/// A scene that cannot be loaded: what is wrong, where (file, JSON pointer, line:column) and, when
/// a close spelling exists, what was probably meant. The scene decoder reads on past mistakes in
/// the layer tree and reports them together (`more`, at most `maxReported` in all), so a file
/// with several is fixed in one round, not one mistake per run.
///
///     scene.json:12:5: error: /root/sublayers/0/backgroundColr: unknown key 'backgroundColr' for CALayer; did you mean 'backgroundColor'?
public struct SceneError: Error, CustomStringConvertible, Sendable {
    /// The class of problem; the CLI maps kinds to exit codes.
    public enum Kind: String, Sendable, CaseIterable {
        /// Not strict JSON (RFC 8259): syntax, duplicate keys, bad escapes or UTF-8.
        case malformedJSON
        /// A key the format does not define here (including a subclass property on another class).
        case unknownKey
        /// A value of the wrong JSON type ("expected a point [x, y], found a string").
        case wrongType
        /// A number outside the property's domain (opacity 1.5, canvas scale 0).
        case outOfRange
        /// A right-typed value the format still refuses: a bad color string, transform or path
        /// syntax, an unknown enumeration constant, a corrupt data URI, conflicting keys.
        case invalidValue
        /// A required key is absent.
        case missingKey
        /// A referenced file (an image) does not exist or cannot be read.
        case missingFile
        /// A transaction names a layer that does not exist (then) or whose name is not unique.
        case unresolvedReference
        /// A documented limit (`SceneLimits`, `Canvas.maxPixelSide`) is exceeded.
        case limitExceeded
        /// `"caprof"` is not a format version this build reads.
        case unsupportedVersion
        /// The scene file itself cannot be read.
        case io
    }

    public var kind: Kind
    /// File, JSON pointer and line:column (line 0 when the problem has no position, e.g. an unreadable file).
    public var location: SourceLocation
    /// The whole sentence after the pointer ("expected a number, found a string").
    public var message: String
    /// What was expected, when the problem is a value ("a color (…)"); also part of `message`.
    public var expected: String?
    /// The probably meant spelling ("backgroundColor"), rendered as "; did you mean '…'?".
    public var suggestion: String?
    /// Further mistakes found after this one, in file order.
    public var more: [SceneError] = []
    /// Whether decoding stopped at `maxReported` mistakes (there may be others).
    public var moreNotReported = false
    /// Most mistakes reported at once: enough for a round of fixes, few enough to read.
    public static let maxReported = 20

    public init(_ kind: Kind, at location: SourceLocation, _ message: String,
                expected: String? = nil, suggestion: String? = nil) {
        self.kind = kind; self.location = location; self.message = message
        self.expected = expected; self.suggestion = suggestion
    }

    public var file: String { location.file }

    public var description: String {
        var s: String
        if location.line > 0 {
            s = "\(location.file):\(location.line):\(location.column): error: "
        } else {
            s = "\(location.file): error: "
        }
        if location.line > 0 || !location.pointer.isEmpty {
            // Long tokens (a hostile key) are shortened: the message stays short and linear.
            s += (location.pointer.isEmpty ? "/" : Echo.pointer(location.pointer)) + ": "
        }
        s += message
        if let suggestion { s += "; did you mean '\(suggestion)'?" }
        for e in more { s += "\n" + e.description }
        if moreNotReported { s += "\n\(location.file): stopped after \(Self.maxReported) mistakes; fix these and run again" }
        return s
    }
}
