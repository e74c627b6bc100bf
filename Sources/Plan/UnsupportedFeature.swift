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
    /// CAShapeLayer path, fill and stroke.
    case shapeContent
    /// CAGradientLayer colours.
    case gradientContent
    /// CATextLayer text.
    case textContent
    /// CAReplicatorLayer instances after the first.
    case replicatorInstances
    /// More nested, differently transformed masksToBounds clips than the backend's slots.
    case deepClipNesting
    /// The layer's matrix to device pixels overflows (an entry is infinite or NaN: huge scales or
    /// positions multiplied together); the layer and its sublayers cannot be placed, so are not drawn.
    case nonFiniteGeometry

    public var message: String {
        switch self {
        case .mask: return "mask layers are not rendered yet; the layer is drawn unmasked"
        case .shadow: return "shadows are not rendered yet"
        case .groupOpacity: return "group opacity is drawn as per-layer opacity (as if allowsGroupOpacity were false); overlapping sublayers show through"
        case .shapeContent: return "CAShapeLayer paths are not rendered yet"
        case .gradientContent: return "CAGradientLayer gradients are not rendered yet"
        case .textContent: return "CATextLayer text is not rendered yet"
        case .replicatorInstances: return "CAReplicatorLayer draws only instance 0 for now"
        case .deepClipNesting: return "more than \(4) nested masksToBounds clips with different transforms; the outermost are dropped"
        case .nonFiniteGeometry: return "its geometry overflows (a matrix entry is infinite or NaN); the layer and its sublayers are not drawn"
        }
    }
}
