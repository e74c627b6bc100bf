import LayerModel
import Plan
import Raster
import Render
import SceneFormat

/// Decodes every `contents` image of a layer tree once, for the planner (sizes and identities)
/// and the backend (pixels). Identical pixels share one key, so one texture.
///
/// Across the frames of an animated scene, `add(root:)` decodes only the sources not seen before:
/// contents may change over time (transactions), so the table grows by image source, and each
/// source is decoded once whatever the number of frames that show it.
///
/// The pixels are held by `pixels` (`DecodedImages`, shared by every copy of this value), which
/// the renderer takes them from as it fills textures and which then lets them go.
public struct SceneImages {
    public var table: ImageTable = [:]
    /// The decoded pixels, by key; an image whose texture was filled may have been let go
    /// (`pixels.bitmap(_:)` decodes it again).
    public let pixels: DecodedImages
    /// The pixels held now (all of them until the renderer has uploaded some).
    public var bitmaps: [UInt64: Bitmap] { pixels.held }
    private let loader: ImageLoader
    /// Translucent images of at least this many pixels are scanned for their opaque parts and
    /// their least alpha (for stack culling; a smaller one saves little, and each scan is a pass
    /// over its alpha).
    static let opaquePartsMinimumPixels = 256 * 256

    /// Why an image could not be used, with the place it is named in the scene.
    public struct Failure: Error, CustomStringConvertible {
        public var source: ImageSource
        public var error: PNGError
        public var description: String {
            // file:line:column, then the JSON pointer once (as every scene error prints it).
            let l = source.location
            return "\(l.file):\(l.line):\(l.column): error: \(l.pointer.isEmpty ? "/" : l.pointer): cannot use image \(source.displayName): \(error.message)"
        }
    }

    /// An empty table; fill it with `add(root:)`.
    public init(loader: ImageLoader = ImageLoader()) { self.loader = loader; pixels = DecodedImages(loader: loader) }

    /// The images of one tree.
    public init(root: Layer, loader: ImageLoader = ImageLoader()) throws {
        self.init(loader: loader)
        try add(root: root)
    }

    /// Decodes the images of `root` that are not in the table yet. Returns how many were decoded.
    @discardableResult
    public mutating func add(root: Layer) throws -> Int {
        var sources: [ImageSource] = []
        root.forEach { layer in
            if let c = layer.contents, table[c.origin] == nil { sources.append(c) }
            // variableBlur's mask images, read by the plan like contents.
            for f in layer.filters + layer.backgroundFilters {
                if let m = f.inputMaskImage, table[m.origin] == nil { sources.append(m) }
            }
            // CAEmitterLayer cells' images (particles draw them).
            if layer.layerClass == .emitter { sources += layer.emitter.cellContents.filter { table[$0.origin] == nil } }
        }
        var decoded = 0
        // Files only (the common case): decoded on all cores, the results taken in order, so the
        // first failure is the one loading them one by one would meet.
        var files: [String: Result<Bitmap, PNGError>] = [:]
        let paths = sources.compactMap { s -> String? in if case .file(let p) = s.origin { return p }; return nil }
        if paths.count > 1, paths.count == sources.count {
            for (p, r) in zip(paths, loader.load(paths: paths)) { files[p] = r }
        }
        for s in sources where table[s.origin] == nil {
            let bitmap: Bitmap
            do {
                switch s.origin {
                case .file(let path): bitmap = try files[path]?.get() ?? loader.load(path: path)
                // Keyed by the bytes themselves (the table), not by where they are written: two
                // different data URIs may come from the same place at different times.
                case .data(let bytes): bitmap = try loader.decodeUncached(bytes)
                }
            } catch let e as PNGError {
                throw Failure(source: s, error: e)
            }
            // Opacity is known once decoded: the plan culls what an opaque image hides, and what
            // lies deep beneath the opaque parts of large translucent ones (StackCulling).
            let opaque = bitmap.isOpaque
            let large = !opaque && bitmap.width * bitmap.height >= Self.opaquePartsMinimumPixels
            let parts = large ? bitmap.opaqueRects() ?? [] : []
            table[s.origin] = ImageInfo(key: bitmap.contentHash, width: bitmap.width, height: bitmap.height,
                                        isOpaque: opaque, opaqueRects: parts.map { PixelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
                                        minimumAlpha: large ? bitmap.minimumAlpha : 0,
                                        hasAlphaChannel: bitmap.hasAlphaChannel,
                                        opaquePixels: opaque ? bitmap.width * bitmap.height
                                            : bitmap.hasAlphaChannel ? bitmap.opaquePixelCount : nil)
            // `pixels` holds them from here: the loader's copy would outlive their upload.
            if case .file(let path) = s.origin { loader.forget(path: path) }
            pixels.add(bitmap, source: s)
            decoded += 1
        }
        return decoded
    }
}
