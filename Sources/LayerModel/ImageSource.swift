/// Where a `contents` image comes from. Decoding happens in the Raster module; the scene keeps the
/// reference and where it was written, so a missing or corrupt image is reported at its place.
public struct ImageSource: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
        /// An absolute path (resolved relative to the scene file).
        case file(String)
        /// Bytes of an inline `data:image/png;base64,…` URI.
        case data([UInt8])
    }
    public var origin: Origin
    /// Where the reference is written, for messages ("scene.json:12:5 (/root/sublayers/0/contents)").
    public var location: SourceLocation
    public init(origin: Origin, location: SourceLocation) { self.origin = origin; self.location = location }

    public var displayName: String {
        switch origin {
        case .file(let p): return p
        case .data(let b): return "data URI (\(b.count) bytes)"
        }
    }
}

/// A place in a source file: the file, a JSON pointer and line:column (1-based).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var pointer: String
    public var line: Int
    public var column: Int
    public init(file: String, pointer: String, line: Int, column: Int) {
        self.file = file; self.pointer = pointer; self.line = line; self.column = column
    }
    public var description: String { "\(file):\(line):\(column) (\(pointer.isEmpty ? "/" : pointer))" }
}
