import LayerModel

/// An offscreen pass: a node of the frame's render graph (reference/core-animation.md §8.1).
///
/// A pass renders into a target of its own, sized to what it must hold (never the whole canvas by
/// default), and its result is drawn back by a later item (`DrawItem.Paint.offscreen`) or kept in
/// the raster cache. The plan decides every pass; the backend executes `FramePlan.offscreenPasses`
/// in order, literally: allocate (or reuse) a target of `width` × `height`, run the operation,
/// and leave the result for the items that sample it.
public struct OffscreenPass: Sendable, Equatable {
    /// Why the pass exists (the first is the main reason; a layer can need several at once, e.g.
    /// a rounded clip and group opacity are one pass).
    public var reasons: [OffscreenReason]
    /// The layer that needs it.
    public var layer: LayerID
    /// Where the pass's result lands on the canvas, in device pixels (clipped to the canvas): what
    /// the profiler reports and overlays paint.
    public var bounds: PixelRect
    /// The target's size in texels.
    public var width: Int
    public var height: Int
    public var operation: Operation
    /// Store the result in the raster cache under this key (shouldRasterize); nil for passes whose
    /// target is released after the frame.
    public var rasterCacheKey: UInt64?

    /// What a pass does to its target.
    public enum Operation: Sendable, Equatable {
        /// Clear to transparent, then draw `items` (in the target's texel space).
        case draw([DrawItem])
        /// A separable Gaussian blur of pass `source`'s alpha along one axis with standard deviation
        /// `sigma` texels of this target. The horizontal pass keeps coverage in floating point; the
        /// vertical pass writes `tint` (premultiplied) times the blurred alpha. `downsample` f > 1:
        /// each texel of this target averages f×f texels of the source (this target is the
        /// source's size ÷ f, rounded up); the result is drawn back magnified bilinearly.
        case blur(source: Int, sigma: Double, horizontal: Bool, tint: RGBA, downsample: Int)
        /// A step of a `filters` / `backgroundFilters` chain over pass `source`'s colour
        /// (`FilterOperation.swift`): one axis of an RGBA Gaussian blur, or a colour matrix.
        case filter(FilterOperation)
        /// A backdrop capture (`BackdropCapture`): the canvas as composited so far (its first
        /// `canvasItemCount` items over the clear colour), its `region` copied into this target.
        case backdrop(BackdropCapture)
        /// A blend mode (compositingFilter) that reads the destination: each texel of this target is
        /// the W3C composite of pass `source`'s texel (the flattened layer) over pass
        /// `destination`'s (what lay beneath it), both this target's size, with `formula`
        /// (`BlendFormula`). The result holds the destination too, so it is drawn back with
        /// `DrawItem.Blend.replace`.
        case blend(source: Int, destination: Int, formula: BlendFormula)
    }

    public init(reasons: [OffscreenReason], layer: LayerID, bounds: PixelRect, width: Int, height: Int,
                operation: Operation, rasterCacheKey: UInt64? = nil) {
        self.reasons = reasons; self.layer = layer; self.bounds = bounds
        self.width = width; self.height = height; self.operation = operation; self.rasterCacheKey = rasterCacheKey
    }

    /// The main reason.
    public var reason: OffscreenReason { reasons.first ?? .groupOpacity }
    /// Texels of the target: the pixels rendered offscreen.
    public var pixelArea: Int { width * height }
    /// The items a draw pass renders (empty for a blur).
    public var items: [DrawItem] {
        if case .draw(let items) = operation { return items }
        return []
    }
}

/// Where an offscreen result comes from.
public enum OffscreenSource: Sendable, Equatable, Hashable {
    /// The target of `FramePlan.offscreenPasses[index]`, rendered earlier this frame.
    case pass(Int)
    /// A raster-cache entry rendered in an earlier frame (a cache hit) or earlier this frame.
    case rasterCache(UInt64)
}

/// Why Core Animation renders a layer offscreen (reference §8.1). The raw values are the suffixes
/// of the report's finding ids (`offscreen.<rawValue>`, the finding vocabulary).
public enum OffscreenReason: String, Sendable, CaseIterable, Codable {
    /// `mask`: the layer's subtree and its mask are rendered to textures, then combined.
    case mask
    /// `masksToBounds` with a `cornerRadius`, clipping the composite of more than one draw to the
    /// rounded shape (an image-only layer is clipped directly, without a pass).
    case roundedClip = "rounded-clip"
    /// A shadow without `shadowPath`: its shape is the alpha of the rendered subtree, blurred.
    case shadow
    /// `opacity < 1` with `allowsGroupOpacity` over more than one draw: the group is flattened
    /// first, then faded as one.
    case groupOpacity = "group-opacity"
    /// `shouldRasterize`: the subtree rendered into the raster cache (only on a cache miss).
    case rasterize
    /// A running CATransition: the previous and the new state rendered as snapshots (and, for
    /// `fade`, mixed in one more pass).
    case transition
    /// `filters`, or a `compositingFilter` other than source-over: the layer and its subtree
    /// rendered offscreen, then each filter of the chain applied as passes (a blur is two or three,
    /// consecutive colour filters one) before compositing; a blend mode reads what lies beneath, so
    /// the layer is flattened, what lies beneath it copied, and both composited in a shader
    /// (Porter-Duff operators over more than one draw only flatten the layer).
    case filter
    /// A CABackdropLayer or `backgroundFilters`: what is composited beneath the layer is captured,
    /// filtered and drawn again inside the layer's shape.
    case backdrop
}

/// A rectangle of whole device pixels: columns x..<x+width, rows y..<y+height.
public struct PixelRect: Sendable, Equatable, Hashable, Codable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
    public var area: Int { width * height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}
