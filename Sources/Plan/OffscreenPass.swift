import LayerModel

/// An offscreen pass Core Animation renders for one layer: the layer's subtree is drawn into a
/// separate target, then composited (reference/core-animation.md §8.1). A node of the frame's pass
/// graph: `FramePlan.offscreenPasses` lists them innermost first, so a pass comes after every pass
/// nested inside it.
///
/// The plan records a pass wherever Core Animation would render one; today our backend draws the
/// same pixels without it (rounded clips in-shader) or does not draw the effect yet (masks,
/// shadows, group opacity: see `UnsupportedFeature`). Either way the profiler counts what the
/// pass costs on a device that renders it.
public struct OffscreenPass: Sendable, Equatable {
    /// Why the pass exists.
    public var reason: OffscreenReason
    /// The layer that needs it.
    public var layer: LayerID
    /// The pass's target in device pixels, clipped to the canvas: the area rendered offscreen
    /// and composited again. Never empty (a pass with nothing to render is not recorded).
    public var bounds: PixelRect
    /// The draw items the pass renders (the layer's subtree, in plan order).
    public var items: Range<Int>

    public init(reason: OffscreenReason, layer: LayerID, bounds: PixelRect, items: Range<Int>) {
        self.reason = reason; self.layer = layer; self.bounds = bounds; self.items = items
    }

    /// Device pixels of the target.
    public var pixelArea: Int { bounds.area }
}

/// Why Core Animation renders a layer offscreen (reference §8.1). The raw values are the suffixes
/// of the report's finding ids (`offscreen.<rawValue>`, scene-format.md "the finding vocabulary").
public enum OffscreenReason: String, Sendable, CaseIterable, Codable {
    /// `mask`: the layer's subtree and its mask are rendered to textures, then combined.
    case mask
    /// `masksToBounds` with a `cornerRadius`, clipping contents or sublayers to the rounded shape.
    case roundedClip = "rounded-clip"
    /// A shadow without `shadowPath`: its shape is the alpha of the rendered subtree.
    case shadow
    /// `opacity < 1` with `allowsGroupOpacity` over sublayers: the group is flattened first, then
    /// faded as one.
    case groupOpacity = "group-opacity"
}

/// A rectangle of whole device pixels: columns x..<x+width, rows y..<y+height.
public struct PixelRect: Sendable, Equatable, Hashable, Codable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    public var area: Int { width * height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}
