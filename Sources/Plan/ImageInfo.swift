import LayerModel

/// What the planner needs to know about a decoded contents image: its pixel identity and size.
/// The caller decodes images (Raster) and hands the planner this table, so the plan stays pure.
public struct ImageInfo: Sendable, Hashable {
    public var key: UInt64
    public var width: Int
    public var height: Int
    /// Every pixel has alpha 1 (the image cannot show what lies beneath it). false when unknown,
    /// so an image is never wrongly called opaque.
    public var isOpaque: Bool
    /// For a large translucent image: its opaque parts, rectangles in texels (stack culling counts
    /// a layer as a veil there, `StackCulling`); empty when none or unknown.
    public var opaqueRects: [PixelRect]
    /// For a large translucent image: the smallest alpha of any pixel, as a byte (stack culling
    /// counts the layer as covering its whole quad at least this much, `StackCulling`); 0 when
    /// unknown.
    public var minimumAlpha: UInt8
    /// The source image has an alpha channel (`Bitmap.hasAlphaChannel`), opaque pixels or not:
    /// Core Animation blends contents whose image has one, so the profiler does. Defaults to
    /// `!isOpaque` (an image known only to be opaque is taken as one without alpha).
    public var hasAlphaChannel: Bool
    /// How many of its pixels have alpha 1, when known (the `blended` finding quotes it).
    public var opaquePixels: Int?
    public init(key: UInt64, width: Int, height: Int, isOpaque: Bool = false, opaqueRects: [PixelRect] = [],
                minimumAlpha: UInt8 = 0, hasAlphaChannel: Bool? = nil, opaquePixels: Int? = nil) {
        self.key = key; self.width = width; self.height = height; self.isOpaque = isOpaque; self.opaqueRects = opaqueRects
        self.minimumAlpha = minimumAlpha
        self.hasAlphaChannel = hasAlphaChannel ?? !isOpaque
        self.opaquePixels = opaquePixels ?? (isOpaque ? width * height : nil)
    }
}

/// Looks up decoded images by their source.
public typealias ImageTable = [ImageSource.Origin: ImageInfo]
