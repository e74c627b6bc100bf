/// A decoded image: premultiplied, sRGB-encoded RGBA8, rows top to bottom, no padding.
/// `contentHash` identifies the pixels, so identical images share one GPU texture.
public struct Bitmap: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]
    public var contentHash: UInt64
    /// The source image has an alpha channel (a PNG of colour type grey+alpha or RGBA, or with a
    /// tRNS chunk), whatever its pixels: Core Animation decides whether contents blend from the
    /// image's format, not from its pixels, so an all-opaque image with alpha still blends. true
    /// unless the decoder knows better (a JPEG, an RGB PNG), so nothing is wrongly called opaque.
    public var hasAlphaChannel = true
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "Bitmap: pixel count does not match size")
        self.width = width; self.height = height; self.pixels = pixels
        self.contentHash = Bitmap.hash(width: width, height: height, pixels: pixels)
    }
    /// A bitmap whose identity is known without hashing its pixels (rasterised content, keyed by
    /// what it was rasterised from).
    public init(width: Int, height: Int, pixels: [UInt8], contentHash: UInt64) {
        precondition(pixels.count == width * height * 4, "Bitmap: pixel count does not match size")
        self.width = width; self.height = height; self.pixels = pixels; self.contentHash = contentHash
    }
    /// FNV-1a over size and pixels (64-bit). Fast enough for full-screen images and stable across runs.
    public static func hash(width: Int, height: Int, pixels: [UInt8]) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        func mix(_ v: UInt64) { h = (h ^ v) &* 0x100000001b3 }
        mix(UInt64(width)); mix(UInt64(height))
        pixels.withUnsafeBytes { raw in
            let n = raw.count / 8
            let words = raw.bindMemory(to: UInt64.self)
            for i in 0..<n { mix(words[i]) }
            for i in (n * 8)..<raw.count { mix(UInt64(raw[i])) }
        }
        return h
    }
}
