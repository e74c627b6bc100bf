/// Per-frame numbers from the plan (deterministic: the same tree always gives the same counters).
public struct FrameCounters: Sendable, Equatable, Codable {
    /// Draw items in the plan.
    public var items: Int
    /// Offscreen passes Core Animation would render, and their total target area in device pixels.
    public var offscreenPasses: Int
    public var offscreenPixels: Int
    /// Device pixels of the canvas.
    public var canvasPixels: Int
    /// Fragments shaded: the sum over items of the pixels each covers (`PixelCoverage`).
    public var shadedPixels: Int
    /// The part of `shadedPixels` shaded by items that are blended for any `BlendReason`.
    public var blendedPixels: Int
    /// shadedPixels ÷ canvasPixels.
    public var overdraw: Double
    /// The most items covering one pixel (saturating at 255).
    public var maxOverdraw: Int
    /// Pixels drawn 0, 1, 2, 3 and 4-or-more times.
    public var overdrawHistogram: [Int]
    /// shouldRasterize layers drawn from the cache, and rendered again (nil when the frame has none).
    public var rasterCacheHits: Int?
    public var rasterCacheMisses: Int?

    public init(items: Int, offscreenPasses: Int, offscreenPixels: Int, canvasPixels: Int, shadedPixels: Int,
                blendedPixels: Int, overdraw: Double, maxOverdraw: Int, overdrawHistogram: [Int]) {
        self.items = items; self.offscreenPasses = offscreenPasses; self.offscreenPixels = offscreenPixels
        self.canvasPixels = canvasPixels; self.shadedPixels = shadedPixels; self.blendedPixels = blendedPixels
        self.overdraw = overdraw; self.maxOverdraw = maxOverdraw; self.overdrawHistogram = overdrawHistogram
    }
}

/// What the analyses found in one frame.
public struct FrameAnalysis: Sendable {
    /// The frame's number in the sequence (frame i is at time i / fps).
    public var index: Int
    /// Scene time in seconds.
    public var time: Double
    public var counters: FrameCounters
    /// Findings raised in this frame, ordered by id then layer.
    public var observations: [Observation]
    /// Names and places of the layers the observations refer to.
    public var layers: [LayerDirectory.Entry]
    /// Per-pixel overdraw counts, when asked for (a canvas-sized buffer).
    public var overdrawMap: OverdrawMap?
    /// The frame's offscreen passes, in execution order (the render graph as reports show it).
    public var passes: [PassSummary] = []
}
