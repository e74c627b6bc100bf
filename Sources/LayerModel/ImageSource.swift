/// Where a `contents` image comes from. Decoding happens in the Raster module; the scene keeps the
/// reference and where it was written, so a missing or corrupt image is reported at its place.
public struct ImageSource: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
        /// An absolute path (resolved relative to the scene file).
        case file(String)
        /// Bytes of an inline `data:image/png;base64,…` or `data:image/jpeg;base64,…` URI, or of an
        /// image embedded in an archive.
        case data([UInt8])

        /// Origins key the image tables the planner looks up for every contents draw, every
        /// frame. Hashing an embedded image byte by byte (Array's own hashing: ~1 ns a byte) took
        /// half of profiling an archive of embedded PNGs, so `data` hashes its length, its first
        /// and last 256 bytes and 64 bytes spread between them; `==` still compares the bytes
        /// whole (Array's equality, which returns at once for the same storage).
        public func hash(into h: inout Hasher) {
            switch self {
            case .file(let path):
                h.combine(0); h.combine(path)
            case .data(let bytes):
                h.combine(1); h.combine(bytes.count)
                bytes.withUnsafeBytes { raw in
                    let n = raw.count, edge = min(n, 256)
                    h.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[0..<edge]))
                    guard n > 2 * edge else {
                        if n > edge { h.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[edge..<n])) }
                        return
                    }
                    h.combine(bytes: UnsafeRawBufferPointer(rebasing: raw[(n - edge)..<n]))
                    let step = max((n - 2 * edge) / 64, 1)
                    var i = edge
                    while i < n - edge { h.combine(raw[i]); i += step }
                }
            }
        }
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

/// Makes equal embedded images share one array. The planner looks each layer's image up in a
/// table keyed by its origin every frame; `==` on two arrays returns at once when they share
/// storage, but compares every byte when equal images were decoded separately (an archive or a
/// scene that embeds one image in many layers): 5 % of profiling such an archive. Importers pass
/// each embedded image through one interner per file.
public struct ImageInterner {
    private var seen = Set<ImageSource.Origin>()
    public init() {}

    /// The first origin equal to `origin`, else `origin` (remembered).
    public mutating func intern(_ origin: ImageSource.Origin) -> ImageSource.Origin {
        guard case .data = origin else { return origin }
        if let i = seen.firstIndex(of: origin) { return seen[i] }
        seen.insert(origin)
        return origin
    }
}
