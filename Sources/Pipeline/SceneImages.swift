import LayerModel
import Plan
import Raster
import SceneFormat

/// Decodes every `contents` image of a layer tree once, for the planner (sizes and identities)
/// and the backend (pixels). Identical pixels share one key, so one texture.
public struct SceneImages {
    public var table: ImageTable = [:]
    public var bitmaps: [UInt64: Bitmap] = [:]

    /// Why an image could not be used, with the place it is named in the scene.
    public struct Failure: Error, CustomStringConvertible {
        public var source: ImageSource
        public var error: PNGError
        public var description: String {
            "\(source.location): error: \(source.location.pointer): cannot use image \(source.displayName): \(error.message)"
        }
    }

    public init(root: Layer, loader: ImageLoader = ImageLoader()) throws {
        var sources: [ImageSource] = []
        root.forEach { if let c = $0.contents { sources.append(c) } }
        for s in sources where table[s.origin] == nil {
            let bitmap: Bitmap
            do {
                switch s.origin {
                case .file(let path): bitmap = try loader.load(path: path)
                case .data(let bytes): bitmap = try loader.decode(bytes: bytes, key: "data:\(s.location.pointer)")
                }
            } catch let e as PNGError {
                throw Failure(source: s, error: e)
            }
            table[s.origin] = ImageInfo(key: bitmap.contentHash, width: bitmap.width, height: bitmap.height)
            bitmaps[bitmap.contentHash] = bitmap
        }
    }
}
