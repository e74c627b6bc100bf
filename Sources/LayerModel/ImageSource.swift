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
