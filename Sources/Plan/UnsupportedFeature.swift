/// What a scene uses that the planner does not draw yet. Each is reported once per layer, with
/// the layer's place in its file; the frame is drawn without it.
public enum UnsupportedFeature: String, Sendable, CaseIterable {
    /// A mask layer that has a mask of its own: Core Animation does not support nested masks; the
    /// inner mask is ignored.
    case nestedMask
    /// More nested, differently transformed masksToBounds clips than the backend's slots.
    case deepClipNesting
    /// The frame asks to rasterise more shape, text and shadowPath texels than `maxRasterPixelsPerFrame`.
    case rasterBudget
    /// The layer's matrix to device pixels overflows (an entry is infinite or NaN: huge scales or
    /// positions multiplied together); the layer and its sublayers cannot be placed, so are not drawn.
    case nonFiniteGeometry
    /// The layer's bounds reach past what a Double holds on the device (about 10³⁰⁸ pixels): its
    /// own content (background, contents, border, backdrop) cannot be placed and is not drawn; its
    /// sublayers are.
    case overflowingBounds
    /// A backdrop (CABackdropLayer, backgroundFilters) where nothing can be captured: inside a
    /// mask's layers, in its own shouldRasterize bitmap, or in a transition's cross-dissolve.
    /// Backdrops inside other offscreen targets read them (`Builder+Backdrop.swift`).
    case nestedBackdrop
    /// The frame's blend modes would draw more than `maxBlendDestinationItems` items again as
    /// their destinations (each draws what lies beneath it again): this layer is composited
    /// source-over.
    case blendBudget
    /// The frame's backdrops inside offscreen targets would draw more than
    /// `maxBackdropCaptureItems` items again into their captures (each draws what its target holds
    /// beneath it again): this backdrop captures nothing.
    case backdropBudget
    /// A lineDashPattern so fine for its path that the stroke would be more than
    /// `Builder.maxDashesPerShape` dashes (each one a polygon for cairo): drawn solid.
    case dashBudget
    /// A variableBlur whose σ passes `Builder.maxVariableBlurSigma` texels: drawn at that σ (its
    /// target grows by its reach, at full resolution).
    case variableBlurRadius

    public var message: String {
        switch self {
        case .nestedMask: return "a mask layer's own mask is ignored (Core Animation does not support nested masks)"
        case .rasterBudget: return "shape, text and shadowPath content beyond \(Builder.maxRasterPixelsPerFrame >> 20) Mpx of textures in one frame is not drawn"
        case .deepClipNesting: return "more than \(4) nested masksToBounds clips with different transforms; the outermost are dropped"
        case .nestedBackdrop: return "a backdrop inside a mask's layers, in its own shouldRasterize bitmap or in a transition's cross-dissolve captures nothing; only its own content is drawn"
        case .backdropBudget: return "its backdrop inside an offscreen target would draw more than \(Builder.maxBackdropCaptureItems) items beneath backdrops again in one frame; it captures nothing, only its own content is drawn"
        case .blendBudget: return "its compositingFilter would draw more than \(Builder.maxBlendDestinationItems) items beneath blend modes again in one frame; it is composited source-over"
        case .dashBudget: return "its lineDashPattern would cut the stroke into more than \(Builder.maxDashesPerShape) dashes; the stroke is drawn solid"
        case .variableBlurRadius: return "its variableBlur's radius passes \(Int(Builder.maxVariableBlurSigma)) px; it is blurred with that radius"
        case .overflowingBounds: return "its bounds reach past 10³⁰⁸ device pixels; its own content is not drawn (its sublayers are)"
        case .nonFiniteGeometry: return "its geometry overflows (a matrix entry is infinite or NaN); the layer and its sublayers are not drawn"
        }
    }
}
