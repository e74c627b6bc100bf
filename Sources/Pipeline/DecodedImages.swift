import SystemSupport
import LayerModel
import Raster
import Render

/// The decoded pixels of a scene's images, by key (`Bitmap.contentHash`), as the renderer's
/// `FramePixels`: once an image's pixels are copied on their way to its texture they are let go,
/// and decoded again from their source (file or data URI) only if a texture needs them again
/// (evicted from the texture budget, or remade with mip levels).
///
/// Why: a resident texture needs no host copy, and on lavapipe the textures are process memory as
/// well, so keeping both held every image twice: `caprof render` of 16 full-screen layers peaked
/// at 3.1× their decoded pixels with them kept.
public final class DecodedImages: FramePixels {
    public private(set) var held: [UInt64: Bitmap] = [:]
    private var identities: [UInt64: ImageIdentity] = [:]
    /// Where each key was first decoded from (to decode it again).
    private var sources: [UInt64: ImageSource] = [:]
    private let loader: ImageLoader
    /// Let pixels go once uploaded (on unless `CAPROF_KEEP_PIXELS=1`, which keeps every decoded
    /// image in memory: to compare).
    public var releasesUploadedPixels = ProcessInfo.processInfo.environment["CAPROF_KEEP_PIXELS"] != "1"
    /// Images decoded again after being let go.
    public private(set) var decodedAgain = 0

    init(loader: ImageLoader) { self.loader = loader }

    func add(_ bitmap: Bitmap, source: ImageSource) {
        held[bitmap.contentHash] = bitmap
        identities[bitmap.contentHash] = bitmap.identity
        if sources[bitmap.contentHash] == nil { sources[bitmap.contentHash] = source }
    }

    public func identity(_ key: UInt64) -> ImageIdentity? { identities[key] }

    public func bitmap(_ key: UInt64) throws -> Bitmap {
        if let b = held[key] { return b }
        guard let source = sources[key] else { throw RenderError.missingImage(key: key) }
        let bitmap: Bitmap
        do {
            switch source.origin {
            case .file(let path): bitmap = try loader.decodeAgain(path: path)
            case .data(let bytes): bitmap = try loader.decodeAgain(bytes: bytes)
            }
        } catch let e as PNGError {
            throw SceneImages.Failure(source: source, error: e)
        }
        // The file may have changed since it was first read.
        guard bitmap.contentHash == key else {
            throw SceneImages.Failure(source: source, error: PNGError(kind: .io,
                message: "its pixels changed while caprof ran (decoded again for a texture, they are not those first read)"))
        }
        decodedAgain += 1
        held[key] = bitmap
        return bitmap
    }

    public func uploaded(_ key: UInt64) {
        if releasesUploadedPixels { held[key] = nil }
    }
}

/// A frame's images for the renderer: the scene's decoded images and the frame's rasterised
/// content (shapes, text; kept by `ContentRasterizer` while frames show them).
final class FrameImages: FramePixels {
    let decoded: DecodedImages
    let rasterized: [UInt64: Bitmap]
    init(_ decoded: DecodedImages, rasterized: [UInt64: Bitmap]) { self.decoded = decoded; self.rasterized = rasterized }

    func identity(_ key: UInt64) -> ImageIdentity? { rasterized[key]?.identity ?? decoded.identity(key) }
    func bitmap(_ key: UInt64) throws -> Bitmap { try rasterized[key] ?? decoded.bitmap(key) }
    func uploaded(_ key: UInt64) { if rasterized[key] == nil { decoded.uploaded(key) } }
}
