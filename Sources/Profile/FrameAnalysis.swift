import LayerModel
/// Per-frame numbers from the plan (deterministic: the same tree always gives the same counters).
public struct FrameCounters: Sendable, Equatable, Codable {
    /// Draw items in the plan.
    public var items: Int
    /// Offscreen passes Core Animation would render, and their total target area in device pixels.
    public var offscreenPasses: Int
    public var offscreenPixels: Int
    /// Device pixels of the canvas.
    public var canvasPixels: Int
    /// Canvas pixels drawn at least once (≤ canvasPixels).
    public var drawnPixels: Int
    /// Fragments shaded: the sum over items of the pixels each draws (`PixelCoverage`); a pixel
    /// drawn three times counts three times, so this is a cost, never a share of the screen.
    public var shadedPixels: Int
    /// Canvas pixels whose final colour involves blending (`BlendMap`): the red pixels of the
    /// blended overlay (≤ canvasPixels).
    public var blendedPixels: Int
    /// The part of `blendedPixels` blended only by antialiased edges, rounded corners and rounded
    /// clips (partial coverage), with no blended paint above the last opaque fragment.
    public var edgeBlendedPixels: Int
    /// Android's overdraw: draws beyond the first per canvas pixel, (shadedPixels − drawnPixels) ÷
    /// canvasPixels. Three full-screen layers: 2×, as the heat map's green.
    public var overdraw: Double
    /// The most draws beyond the first on one pixel (the heat map's scale; saturating at 254).
    public var maxOverdraw: Int
    /// Pixels drawn 0, 1, 2, 3 and 4-or-more times.
    public var overdrawHistogram: [Int]
    /// shouldRasterize layers drawn from the cache, and rendered again (nil when the frame has none).
    public var rasterCacheHits: Int?
    public var rasterCacheMisses: Int?
    /// Textures the items sample and the memory their sharing by content saves (nil without images).
    public var textureSharing: TextureSharing?
    /// Flash Updated Regions: device pixels that changed since the previous frame (`FrameDamage`,
    /// from the two plans: what the frame cache draws again). The first frame damages the whole
    /// canvas; nil when not measured.
    public var damagedPixels: Int?

    public init(items: Int, offscreenPasses: Int, offscreenPixels: Int, canvasPixels: Int, drawnPixels: Int, shadedPixels: Int,
                blendedPixels: Int, edgeBlendedPixels: Int, overdraw: Double, maxOverdraw: Int, overdrawHistogram: [Int]) {
        self.items = items; self.offscreenPasses = offscreenPasses; self.offscreenPixels = offscreenPixels
        self.canvasPixels = canvasPixels; self.drawnPixels = drawnPixels; self.shadedPixels = shadedPixels
        self.blendedPixels = blendedPixels; self.edgeBlendedPixels = edgeBlendedPixels
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
    /// The layers an animation animates in this frame, and those it moves (changing geometry);
    /// nil when unknown. A finding seen only in such frames is mid-animation (`moving` for the
    /// misalignment findings, `animating` for the others). Transition snapshots (negative ids)
    /// exist only while a transition runs: both.
    public var animatingLayers: Set<LayerID>?
    public var movingLayers: Set<LayerID>?
    /// Per-pixel overdraw counts and blend states, when asked for (canvas-sized buffers).
    public var overdrawMap: OverdrawMap?
    /// The frame's offscreen passes, in execution order (the render graph as reports show it).
    public var passes: [PassSummary] = []
    /// What each layer that draws shades and blends in this frame, in layer order (the gate's
    /// per-layer costs, whether or not the layer raises a finding).
    public var layerPixels: [LayerPixels] = []
    public var blendMap: BlendMap?
}
