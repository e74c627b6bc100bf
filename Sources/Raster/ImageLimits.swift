/// How big an image caprof decodes, checked from the PNG header before any pixel is decoded (a
/// 58-byte file may declare 16384 × 16384 pixels: 1 GiB). Raised with `--limit image-bytes=N` /
/// `--limit image-total-bytes=N` where a scene honestly needs more.
public struct ImageLimits: Sendable, Equatable {
    /// Widest or tallest image (`PNGCodec.maxImageSide`, the canvas side limit).
    public var maxSide = Int(PNGCodec.maxImageSide)
    /// Largest decoded image, RGBA8 bytes: 256 MiB = 8192 × 8192. A 16384² image (1 GiB decoded)
    /// is refused rather than decoded for a small layer: we do not decode at reduced size.
    public var maxDecodedBytes = 256 << 20
    /// Most decoded bytes of all a scene's images together (they stay resident across frames).
    public var maxTotalDecodedBytes = 1 << 30
    public init() {}
    public static let standard = ImageLimits()

    /// The smallest deflate stream that can hold `width` × `height` pixels of any PNG: each row is a
    /// filter byte + at least one bit per pixel, and deflate expands at most 1032:1 (RFC 1951: a
    /// 258-byte match costs at least 2 bits). A file shorter than this declares a size it cannot hold.
    public static func minimumPNGBytes(width: Int, height: Int) -> Int {
        height * (1 + (width + 7) / 8) / 1032
    }
}
