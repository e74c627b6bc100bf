import Geometry

/// A stable identity for a layer within one scene: its preorder index (the root is 0, masks count
/// right after their owner). Assigned by the importer; used by the plan, reports and animations.
public typealias LayerID = Int

/// A model layer: every CALayer property with Core Animation's default (reference §1.1, §1.9,
/// §1.11), plus the properties of the subclass named by `layerClass`.
public struct Layer: Sendable {
    public var id: LayerID = 0
    public var layerClass: LayerClass = .layer

    // Geometry
    public var bounds: Rect = .zero
    public var position: Point = .zero
    public var anchorPoint: Point = Point(0.5, 0.5)
    public var anchorPointZ: Double = 0
    public var zPosition: Double = 0
    public var transform: Transform3D = .identity

    // Appearance
    public var opacity: Double = 1
    public var hidden = false
    public var backgroundColor: Color?
    public var cornerRadius: Double = 0
    public var masksToBounds = false
    public var doubleSided = true

    // Timing (CAMediaTiming of the layer itself)
    public var beginTime: Double = 0
    public var timeOffset: Double = 0
    public var speed: Double = 1

    // Tree
    public var sublayers: [Layer] = []
    /// The mask layer (its geometry is in this layer's own coordinate space). Boxed: a struct
    /// cannot contain itself directly.
    public var mask: Layer? {
        get { cold.storage.maskBox.first }
        set { mutableCold.maskBox = newValue.map { [$0] } ?? [] }
    }

    // Everything else (name, contents and its placement, border, shadow, caching, mask, subclass
    // properties, source location) lives in one copy-on-write box, so a `Layer` value stays small
    // and holds two references: the presentation walk copies and frees every animated layer once
    // per frame (10,000 animated layers in 5 ms), and size and references are its cost.
    // The box itself holds what a scene decoder sets on every layer and puts the rest, which most
    // layers leave at their defaults, in a second box that they share (`ColdProperties.rare`).
    // Set by each init (no default value: the decoder's init would retain the shared box only to
    // release it for its own).
    private var cold: ColdBox
    private var mutableCold: ColdProperties {
        _read { yield cold.storage }
        _modify {
            if !isKnownUniquelyReferenced(&cold) { cold = ColdBox(cold.storage) }
            yield &cold.storage
        }
    }
    /// The rare half of the cold box, made unique (both boxes) before a write.
    private var mutableRare: RareProperties {
        _read { yield cold.storage.rare.storage }
        _modify {
            if !isKnownUniquelyReferenced(&cold) { cold = ColdBox(cold.storage) }
            if !isKnownUniquelyReferenced(&cold.storage.rare) { cold.storage.rare = RareBox(cold.storage.rare.storage) }
            yield &cold.storage.rare.storage
        }
    }

    /// The layer's name (reports, transactions). In the box with the rest: with `contents` and
    /// `mask` there too, a layer value holds only two references (sublayers, the box), which is
    /// what copying and freeing a presentation tree retains and releases per layer.
    public var name: String? {
        get { cold.storage.name }
        _modify { yield &mutableCold.name }
    }
    /// The image shown by the layer (contents).
    public var contents: ImageSource? {
        get { cold.storage.contents }
        _modify { yield &mutableCold.contents }
    }
    /// Where the layer object is written in its source file (for messages and annotations).
    public var location: SourceLocation? {
        get { cold.storage.location }
        _modify { yield &mutableCold.location }
    }
    public var sublayerTransform: Transform3D {
        get { cold.storage.rare.storage.sublayerTransform }
        _modify { yield &mutableRare.sublayerTransform }
    }
    public var geometryFlipped: Bool {
        get { cold.storage.rare.storage.geometryFlipped }
        _modify { yield &mutableRare.geometryFlipped }
    }
    public var maskedCorners: CornerMask {
        get { cold.storage.rare.storage.maskedCorners }
        _modify { yield &mutableRare.maskedCorners }
    }
    public var cornerCurve: CornerCurve {
        get { cold.storage.rare.storage.cornerCurve }
        _modify { yield &mutableRare.cornerCurve }
    }
    public var borderWidth: Double {
        get { cold.storage.rare.storage.borderWidth }
        _modify { yield &mutableRare.borderWidth }
    }
    public var borderColor: Color? {
        get { cold.storage.rare.storage.borderColor }
        _modify { yield &mutableRare.borderColor }
    }
    public var opaque: Bool {
        get { cold.storage.rare.storage.opaque }
        _modify { yield &mutableRare.opaque }
    }
    public var allowsGroupOpacity: Bool {
        get { cold.storage.rare.storage.allowsGroupOpacity }
        _modify { yield &mutableRare.allowsGroupOpacity }
    }
    public var allowsEdgeAntialiasing: Bool {
        get { cold.storage.rare.storage.allowsEdgeAntialiasing }
        _modify { yield &mutableRare.allowsEdgeAntialiasing }
    }
    public var contentsGravity: ContentsGravity {
        get { cold.storage.rare.storage.contentsGravity }
        _modify { yield &mutableRare.contentsGravity }
    }
    public var contentsRect: Rect {
        get { cold.storage.rare.storage.contentsRect }
        _modify { yield &mutableRare.contentsRect }
    }
    public var contentsCenter: Rect {
        get { cold.storage.rare.storage.contentsCenter }
        _modify { yield &mutableRare.contentsCenter }
    }
    /// Scene files default this to canvas.scale (as UIKit does for view layers); see scene-format.md.
    public var contentsScale: Double {
        get { cold.storage.contentsScale }
        _modify { yield &mutableCold.contentsScale }
    }
    public var minificationFilter: ContentsFilter {
        get { cold.storage.rare.storage.minificationFilter }
        _modify { yield &mutableRare.minificationFilter }
    }
    public var magnificationFilter: ContentsFilter {
        get { cold.storage.rare.storage.magnificationFilter }
        _modify { yield &mutableRare.magnificationFilter }
    }
    /// How the layer composites onto what lies beneath (`.normalBlendMode`: source-over).
    public var compositingFilter: CompositingFilter {
        get { cold.storage.rare.storage.compositingFilter }
        _modify { yield &mutableRare.compositingFilter }
    }
    public var shadowColor: Color? {
        get { cold.storage.rare.storage.shadowColor }
        _modify { yield &mutableRare.shadowColor }
    }
    public var shadowOpacity: Double {
        get { cold.storage.rare.storage.shadowOpacity }
        _modify { yield &mutableRare.shadowOpacity }
    }
    public var shadowOffset: Size {
        get { cold.storage.rare.storage.shadowOffset }
        _modify { yield &mutableRare.shadowOffset }
    }
    public var shadowRadius: Double {
        get { cold.storage.rare.storage.shadowRadius }
        _modify { yield &mutableRare.shadowRadius }
    }
    public var shadowPath: Path? {
        get { cold.storage.rare.storage.shadowPath }
        _modify { yield &mutableRare.shadowPath }
    }
    public var shouldRasterize: Bool {
        get { cold.storage.rare.storage.shouldRasterize }
        _modify { yield &mutableRare.shouldRasterize }
    }
    public var rasterizationScale: Double {
        get { cold.storage.rasterizationScale }
        _modify { yield &mutableCold.rasterizationScale }
    }
    public var shape: ShapeProperties {
        get { cold.storage.rare.storage.shape }
        _modify { yield &mutableRare.shape }
    }
    public var gradient: GradientProperties {
        get { cold.storage.rare.storage.gradient }
        _modify { yield &mutableRare.gradient }
    }
    public var text: TextProperties {
        get { cold.storage.rare.storage.text }
        _modify { yield &mutableRare.text }
    }
    public var replicator: ReplicatorProperties {
        get { cold.storage.rare.storage.replicator }
        _modify { yield &mutableRare.replicator }
    }
    /// Filters applied to the layer's own rendering with its sublayers (reference §1.11b).
    public var filters: [Filter] {
        get { cold.storage.rare.storage.filters }
        _modify { yield &mutableRare.filters }
    }
    /// Filters applied to what lies beneath the layer, inside its shape, before its background.
    public var backgroundFilters: [Filter] {
        get { cold.storage.rare.storage.backgroundFilters }
        _modify { yield &mutableRare.backgroundFilters }
    }
    /// CABackdropLayer's scale and groupName.
    public var backdrop: BackdropProperties {
        get { cold.storage.rare.storage.backdrop }
        _modify { yield &mutableRare.backdrop }
    }
    /// Set only in presentation trees: this layer is one state of a running CATransition.
    public var transitionState: TransitionState? {
        get { cold.storage.rare.storage.transitionState }
        _modify { yield &mutableRare.transitionState }
    }
    public var emitter: EmitterProperties {
        get { cold.storage.rare.storage.emitter }
        _modify { yield &mutableRare.emitter }
    }
    /// Presentation only: the emitter's live particles at the presentation time (drawn in order).
    public var particles: [Particle] {
        get { cold.storage.rare.storage.particles }
        _modify { yield &mutableRare.particles }
    }
    /// Presentation only (no scene key): a colour multiplied into the `contents` image's texels,
    /// set by a CAReplicatorLayer's instanceColor (white = unchanged).
    public var contentsTint: Color {
        get { cold.storage.rare.storage.contentsTint }
        _modify { yield &mutableRare.contentsTint }
    }

    public init() { cold = ColdBox.shared }
    public init(_ cls: LayerClass) { layerClass = cls; cold = ColdBox.shared }

    /// A layer of class `cls` with its contents and rasterization scale and its source location
    /// set (what a scene decoder sets on every layer). Its cold box is made here, not copied from
    /// the shared default on the first write (a copy retains every field of the box).
    public init(_ cls: LayerClass, contentsScale: Double, rasterizationScale: Double, location: SourceLocation?) {
        layerClass = cls
        let box = ColdBox(ColdProperties())
        box.storage.contentsScale = contentsScale
        box.storage.rasterizationScale = rasterizationScale
        box.storage.location = location
        cold = box
    }

    /// The `frame` computed from bounds.size, position, anchorPoint and transform (reference §1.2):
    /// the bounding box of the bounds placed with its anchor at `position`, transformed about the anchor.
    public var frame: Rect {
        let w = bounds.width, h = bounds.height
        let a = Point(anchorPoint.x * w, anchorPoint.y * h)
        if transform.isIdentity { return Rect(position.x - a.x, position.y - a.y, w, h) }
        let corners = Rect(0, 0, w, h).corners.map { c -> Point in
            let p = transform.apply(c.x - a.x, c.y - a.y, 0).projected
            return Point(p.x + position.x, p.y + position.y)
        }
        return Rect.bounding(corners)
    }

    /// `setFrame:` with an identity transform: bounds.size = frame.size (standardised), bounds.origin
    /// unchanged, position = frame.origin + anchorPoint · size (reference §1.2, [V]).
    public mutating func setFrame(_ f: Rect) {
        let s = f.standardized
        bounds.size = s.size
        position = Point(s.minX + anchorPoint.x * s.width, s.minY + anchorPoint.y * s.height)
    }

    /// A short human name for reports: the name, else the index path from the root ("0.2.1").
    public func displayName(indexPath: [Int]) -> String {
        if let n = name, !n.isEmpty { return n }
        return indexPath.isEmpty ? "root" : indexPath.map(String.init).joined(separator: ".")
    }

    /// Visits the layer and its subtree (masks included) in preorder.
    public func forEach(_ body: (Layer) -> Void) {
        body(self)
        if let m = mask { m.forEach(body) }
        for s in sublayers { s.forEach(body) }
    }
    public var subtreeCount: Int { var n = 0; forEach { _ in n += 1 }; return n }
}

/// The cold half of a `Layer` (see `Layer.cold`): what a scene decoder writes on every layer
/// (name, contents, source location, contents and rasterization scale) and the mask, with the rest
/// in `rare`. Defaults are Core Animation's.
struct ColdProperties: Sendable {
    var name: String? = nil
    var contents: ImageSource? = nil
    /// The mask layer, boxed: a struct cannot contain itself directly.
    var maskBox: [Layer] = []
    var location: SourceLocation? = nil
    var contentsScale: Double = 1
    var rasterizationScale: Double = 1
    /// Everything else, shared with every layer that sets none of it: one box of 1,272 bytes per
    /// layer was most of the memory a 10,000-layer scene touched while loading (page faults were
    /// the largest cost of decoding it), for properties most layers leave at their defaults.
    var rare = RareBox.shared
}

/// The rarely set cold properties (see `ColdProperties.rare`): defaults are Core Animation's.
struct RareProperties: Sendable {
    var sublayerTransform: Transform3D = .identity
    var geometryFlipped: Bool = false
    var maskedCorners: CornerMask = .all
    var cornerCurve: CornerCurve = .circular
    var borderWidth: Double = 0
    var borderColor: Color? = .black
    var opaque: Bool = false
    var allowsGroupOpacity: Bool = true
    var allowsEdgeAntialiasing: Bool = false
    var contentsGravity: ContentsGravity = .resize
    var contentsRect: Rect = .unit
    var contentsCenter: Rect = .unit
    var minificationFilter: ContentsFilter = .linear
    var magnificationFilter: ContentsFilter = .linear
    var compositingFilter: CompositingFilter = .normalBlendMode
    var shadowColor: Color? = .black
    var shadowOpacity: Double = 0
    var shadowOffset: Size = Size(0, -3)
    var shadowRadius: Double = 3
    var shadowPath: Path? = nil
    var shouldRasterize: Bool = false
    var shape: ShapeProperties = ShapeProperties()
    var gradient: GradientProperties = GradientProperties()
    var text: TextProperties = TextProperties()
    var replicator: ReplicatorProperties = ReplicatorProperties()
    var transitionState: TransitionState? = nil
    var filters: [Filter] = []
    var backgroundFilters: [Filter] = []
    var backdrop = BackdropProperties()
    var contentsTint: Color = .white
    var emitter: EmitterProperties = EmitterProperties()
    var particles: [Particle] = []
}

/// A copy-on-write box; `Layer` copies it only when a property in it is written and shared.
final class ColdBox: @unchecked Sendable {
    var storage: ColdProperties
    init(_ s: ColdProperties) { storage = s }
    /// Every fresh layer shares this default box until it writes a cold property.
    static let shared = ColdBox(ColdProperties())
}

/// The copy-on-write box of `RareProperties`, copied only when a rare property is written and shared.
final class RareBox: @unchecked Sendable {
    var storage: RareProperties
    init(_ s: RareProperties) { storage = s }
    /// Every cold box shares this default until its layer writes a rare property.
    static let shared = RareBox(RareProperties())
}
