/// What a scene uses that the planner does not draw yet. Each is reported once per layer, with
/// the layer's place in its file; the frame is drawn without it.
public enum UnsupportedFeature: String, Sendable, CaseIterable {
    /// A shadowPath that is not a rectangle, rounded rectangle or circle: its shadow is not drawn.
    case shadowPathShape
    /// A mask layer that has a mask of its own: Core Animation does not support nested masks; the
    /// inner mask is ignored.
    case nestedMask
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

    public var message: String {
        switch self {
        case .shadowPathShape: return "shadows are drawn for shadowPaths that are rectangles, rounded rectangles or circles; this shadow is not drawn"
        case .nestedMask: return "a mask layer's own mask is ignored (Core Animation does not support nested masks)"
        case .shapeContent: return "CAShapeLayer paths are not rendered yet"
        case .gradientContent: return "CAGradientLayer gradients are not rendered yet"
        case .textContent: return "CATextLayer text is not rendered yet"
        case .replicatorInstances: return "CAReplicatorLayer draws only instance 0 for now"
        case .deepClipNesting: return "more than \(4) nested masksToBounds clips with different transforms; the outermost are dropped"
        }
    }
}
