import Geometry
import LayerModel

/// What a rasterised bitmap depends on, compared property by property so a miss can say which
/// layer and which property changed (the reason Instruments users ask for).
enum RasterInvalidation {
    typealias Comparison = (name: String, same: (Layer, Layer) -> Bool)

    private static func p<T: Equatable>(_ name: String, _ key: KeyPath<Layer, T>) -> Comparison {
        (name, { $0[keyPath: key] == $1[keyPath: key] })
    }

    /// Properties that place a layer in its superlayer: inside the bitmap for sublayers, outside
    /// it for the rasterised layer itself.
    static let placement: [Comparison] = [
        p("position", \.position), p("anchorPoint", \.anchorPoint), p("anchorPointZ", \.anchorPointZ),
        p("zPosition", \.zPosition), p("transform", \.transform), p("opacity", \.opacity), p("hidden", \.hidden),
    ]

    /// Everything else a layer draws with.
    static let drawn: [Comparison] = [
        p("bounds", \.bounds), p("backgroundColor", \.backgroundColor), p("cornerRadius", \.cornerRadius),
        p("maskedCorners", \.maskedCorners), p("cornerCurve", \.cornerCurve), p("masksToBounds", \.masksToBounds),
        p("borderWidth", \.borderWidth), p("borderColor", \.borderColor), p("doubleSided", \.doubleSided),
        p("contents", \.contents?.origin), p("contentsGravity", \.contentsGravity), p("contentsRect", \.contentsRect),
        p("contentsCenter", \.contentsCenter), p("contentsScale", \.contentsScale),
        p("minificationFilter", \.minificationFilter), p("magnificationFilter", \.magnificationFilter),
        p("sublayerTransform", \.sublayerTransform), p("geometryFlipped", \.geometryFlipped),
        p("allowsGroupOpacity", \.allowsGroupOpacity), p("allowsEdgeAntialiasing", \.allowsEdgeAntialiasing),
        p("shadowColor", \.shadowColor), p("shadowOpacity", \.shadowOpacity), p("shadowOffset", \.shadowOffset),
        p("shadowRadius", \.shadowRadius), p("shadowPath", \.shadowPath),
        p("shouldRasterize", \.shouldRasterize), p("rasterizationScale", \.rasterizationScale),
        p("path", \.shape), p("colors", \.gradient), p("string", \.text), p("instanceCount", \.replicator),
        p("layerClass", \.layerClass),
    ]

    /// The first difference in pre-order between the cached subtree and the current one, or nil.
    /// The root's placement is outside the bitmap and is not compared.
    static func firstDifference(_ old: Layer, _ new: Layer) -> (layer: LayerID, property: String)? {
        diff(old, new, isRoot: true)
    }

    private static func diff(_ a: Layer, _ b: Layer, isRoot: Bool) -> (LayerID, String)? {
        if !isRoot, let c = placement.first(where: { !$0.same(a, b) }) { return (b.id, c.name) }
        if let c = drawn.first(where: { !$0.same(a, b) }) { return (b.id, c.name) }
        if (a.mask == nil) != (b.mask == nil) { return (b.id, "mask") }
        if let ma = a.mask, let mb = b.mask, let d = diff(ma, mb, isRoot: false) { return d }
        if a.sublayers.count != b.sublayers.count { return (b.id, "sublayers") }
        for (sa, sb) in zip(a.sublayers, b.sublayers) {
            if sa.id != sb.id { return (b.id, "sublayers") }
            if let d = diff(sa, sb, isRoot: false) { return d }
        }
        return nil
    }
}
