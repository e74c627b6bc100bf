import LayerModel
import Plan

/// How many layers share the frame's textures, and the memory sharing saves. caprof keys every
/// texture by its content (decoded images by their pixels' origin, shape and text rasters by
/// `RasterRequest.key`), so two layers showing the same image or the same rasterised text use one
/// texture; Core Animation shares a `CGImage`'s backing the same way, but a shape or text layer's
/// backing store is its own. The saving is what one texture per (layer, content) would cost
/// beyond one per content, at 4 bytes a texel (RGBA8; mip levels not counted).
public struct TextureSharing: Sendable, Equatable, Codable {
    /// Distinct textures the frame's items sample (images, shape/text/gradient rasters).
    public var textures: Int
    /// Layers that draw from them.
    public var layers: Int
    /// Bytes of those textures.
    public var bytes: Int
    /// Bytes that one texture per layer and content would add.
    public var savedBytes: Int

    public init(textures: Int, layers: Int, bytes: Int, savedBytes: Int) {
        self.textures = textures; self.layers = layers; self.bytes = bytes; self.savedBytes = savedBytes
    }

    /// The sharing of `plan`'s logical items; nil when no item samples an image.
    public init?(_ plan: FramePlan) {
        var shownBy: [UInt64: Set<LayerID>] = [:]
        var size: [UInt64: Int] = [:]
        for item in plan.items where item.role != .unsupported {
            guard case .image(let index, _, _) = item.paint, index >= 0, index < plan.images.count else { continue }
            let image = plan.images[index]
            shownBy[image.key, default: []].insert(item.layer)
            size[image.key] = image.pixelWidth * image.pixelHeight * 4
        }
        guard !shownBy.isEmpty else { return nil }
        textures = shownBy.count
        layers = Set(shownBy.values.flatMap { $0 }).count
        bytes = size.values.reduce(0, +)
        savedBytes = shownBy.reduce(0) { $0 + ($1.value.count - 1) * size[$1.key]! }
    }
}
