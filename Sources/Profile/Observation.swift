import LayerModel
import Plan

/// One finding raised for one layer in one frame, before aggregation over frames.
public struct Observation: Sendable, Equatable {
    public var id: FindingID
    public var layer: LayerID
    /// Device pixels it costs in this frame (see each analysis for what is counted).
    public var pixels: Int
    public var evidence: Evidence
    /// Measured device time of the offscreen passes behind it in this frame (offscreen.*,
    /// raster-cache.miss), when the frame was drawn on a GPU with timestamps.
    public var gpuNanoseconds: UInt64?
    /// offscreen.*, raster-cache.miss: the canvas pixels its passes' results cover (the largest
    /// pass's footprint, at most the canvas); `pixels` is then what was rendered offscreen, which
    /// several passes or a bitmap larger than the screen can make more than the canvas.
    public var screenPixels: Int?
    /// raster.cpu: measured CPU time of rasterising the layer's content in this frame, when the
    /// frame was drawn (the pipeline rasterises; `--no-gpu` runs plan only).
    public var cpuNanoseconds: UInt64?

    public init(id: FindingID, layer: LayerID, pixels: Int, evidence: Evidence) {
        self.id = id; self.layer = layer; self.pixels = pixels; self.evidence = evidence
    }
}

/// Why a finding was raised, as numbers (for the explanation, and for tools reading the report).
/// Only the fields of the finding's kind are set.
public struct Evidence: Sendable, Equatable, Codable {
    /// blended: why the layer's items are not opaque.
    public var blendReasons: [BlendReason]?
    /// blended: the lowest colour alpha (backgroundColor/borderColor) among the blended items.
    public var colorAlpha: Double?
    /// blended: the lowest effective opacity (the layer's times its ancestors').
    public var opacity: Double?
    /// blended, for a contents image with an alpha channel: its pixels that are opaque and all its
    /// pixels [opaque, total] (all of them opaque: re-exported without alpha it would not blend).
    public var imageOpaquePixels: [Int]?
    /// misaligned.subpixel: which rectangle is off the grid: the layer's bounds or its contents.
    public var part: LayerPart?
    /// misaligned.subpixel: that rectangle in device pixels [x, y, width, height].
    public var deviceRect: [Double]?
    /// misaligned.scaled: texels shown [width, height] and the device pixels they cover [width, height].
    public var imagePixels: [Double]?
    public var shownPixels: [Double]?
    /// misaligned.scaled: the layer is rotated, skewed or in perspective (resampled whatever the sizes).
    public var transformed: Bool?
    /// contents.low-scale: the property, its value and the canvas scale.
    public var property: ScaleProperty?
    public var value: Double?
    public var canvasScale: Double?
    /// offscreen.*: the pass's target in device pixels.
    public var passBounds: PixelRect?
    /// shadow.hidden: why no pixel of the shadow can be seen.
    public var hiddenShadow: HiddenShadowReason?
    /// unsupported: what is not drawn.
    public var feature: String?
    /// raster-cache.miss: why the cached bitmap was rendered again.
    public var invalidation: CacheInvalidation?
    /// raster.cpu: "shape", "text", "gradient" or "shadow"; what changed ("strokeStart/strokeEnd", "path",
    /// "string", …, or "appeared"); the texture's size in pixels [width, height]; the bytes
    /// uploaded for it (RGBA8).
    /// offscreen.filter: what asks for the passes, "filters" and/or "compositingFilter" (a blend
    /// mode), so the explanation and the fix name the right property.
    public var filterSources: [String]?
    public var rasterContent: String?
    public var rasterChange: String?
    public var rasterPixels: [Double]?
    public var uploadedBytes: Int?

    public init() {}
}

/// Why a raster-cache entry missed, as the report states it.
public struct CacheInvalidation: Sendable, Equatable, Codable {
    /// firstUse, propertyChanged, contentChanged, rasterizationScaleChanged, evictedUnused, evictedCacheFull.
    public var kind: String
    /// propertyChanged: the layer (id, and its name as reports show it) and the key path that changed.
    public var layer: LayerID?
    public var layerName: String?
    public var property: String?
    /// rasterizationScaleChanged: the scales; evictedUnused: how long it was unused (seconds).
    public var from: Double?
    public var to: Double?
    public var idleSeconds: Double?

    public init(_ r: InvalidationReason) {
        switch r {
        case .firstUse: kind = "firstUse"
        case .propertyChanged(let l, let p): kind = "propertyChanged"; layer = l; property = p
        case .contentChanged: kind = "contentChanged"
        case .rasterizationScaleChanged(let a, let b): kind = "rasterizationScaleChanged"; from = a; to = b
        case .evictedUnused(let s): kind = "evictedUnused"; idleSeconds = s
        case .evictedCacheFull: kind = "evictedCacheFull"
        }
    }
}

/// The part of a layer a misalignment is about.
public enum LayerPart: String, Sendable, Codable {
    /// The layer's bounds (its background and border edges).
    case bounds
    /// Where its contents image lands (gravity, contentsRect, contentsScale).
    case contents
}

/// The scale property a contents.low-scale finding is about.
public enum ScaleProperty: String, Sendable, Codable {
    case contentsScale, rasterizationScale
}
