/// What a scene uses that the planner does not draw yet. Each is reported once per layer, with
/// the layer's place in its file; the frame is drawn without it.
public enum UnsupportedFeature: String, Sendable, CaseIterable {
    /// `mask` layers need offscreen passes (drawn unmasked for now).
    case mask
    /// shadowOpacity > 0: shadows are not drawn yet.
    case shadow
    /// opacity < 1 with allowsGroupOpacity over sublayers: drawn as per-layer opacity (as if
    /// allowsGroupOpacity were NO), which differs where children overlap.
    case groupOpacity
    /// More nested, differently transformed masksToBounds clips than the backend's slots.
    case deepClipNesting
    /// The frame asks to rasterise more shape and text texels than `maxRasterPixelsPerFrame`.
    case rasterBudget

    public var message: String {
        switch self {
        case .mask: return "mask layers are not rendered yet; the layer is drawn unmasked"
        case .shadow: return "shadows are not rendered yet"
        case .groupOpacity: return "group opacity is drawn as per-layer opacity (as if allowsGroupOpacity were false); overlapping sublayers show through"
        case .rasterBudget: return "shape and text content beyond \(Builder.maxRasterPixelsPerFrame >> 20) Mpx of textures in one frame is not drawn"
        case .deepClipNesting: return "more than \(4) nested masksToBounds clips with different transforms; the outermost are dropped"
        }
    }
}
