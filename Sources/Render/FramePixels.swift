import Raster

/// An image as the texture cache knows it: which pixels (their hash) and their size, without the
/// pixels themselves.
public struct ImageIdentity: Hashable, Sendable {
    public var contentHash: UInt64
    public var width: Int
    public var height: Int
    public init(contentHash: UInt64, width: Int, height: Int) {
        self.contentHash = contentHash; self.width = width; self.height = height
    }
}

extension Bitmap {
    public var identity: ImageIdentity { ImageIdentity(contentHash: contentHash, width: width, height: height) }
}

/// Where a frame's images come from (`Renderer.render(_:pixels:)`), by `PlannedImage.key`: each
/// image's identity is asked for every frame that draws it, its pixels only when its texture must
/// be filled (not resident yet, evicted, or gaining mip levels).
///
/// Once the pixels are copied into staging memory the renderer calls `uploaded(_:)`, and a source
/// may let its host copy go, decoding it again should `bitmap(_:)` be asked for it later. A
/// resident texture needs no host copy, and on lavapipe textures are process memory too: keeping
/// both made the peak memory of 16 full-screen layers 3.1× their decoded pixels.
public protocol FramePixels: AnyObject {
    /// The identity of image `key`; nil when the source does not know it (`RenderError.missingImage`).
    func identity(_ key: UInt64) -> ImageIdentity?
    /// The pixels of image `key`, whose identity must be what `identity(_:)` said.
    func bitmap(_ key: UInt64) throws -> Bitmap
    /// The pixels of image `key` are in staging memory on their way to its texture.
    func uploaded(_ key: UInt64)
}

/// Bitmaps held in a dictionary, all of them kept (`Renderer.render(_:images:)`).
public final class BitmapTable: FramePixels {
    public let bitmaps: [UInt64: Bitmap]
    public init(_ bitmaps: [UInt64: Bitmap]) { self.bitmaps = bitmaps }
    public func identity(_ key: UInt64) -> ImageIdentity? { bitmaps[key]?.identity }
    public func bitmap(_ key: UInt64) throws -> Bitmap {
        guard let b = bitmaps[key] else { throw RenderError.missingImage(key: key) }
        return b
    }
    public func uploaded(_ key: UInt64) {}
}
