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
    // per frame (10,000 animated layers in 5 ms, issue #3), and size and references are its cost.
    private var cold = ColdBox.shared
    private var mutableCold: ColdProperties {
        _read { yield cold.storage }
        _modify {
            if !isKnownUniquelyReferenced(&cold) { cold = ColdBox(cold.storage) }
            yield &cold.storage
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
        get { cold.storage.sublayerTransform }
        _modify { yield &mutableCold.sublayerTransform }
    }
    public var geometryFlipped: Bool {
        get { cold.storage.geometryFlipped }
        _modify { yield &mutableCold.geometryFlipped }
    }
    public var maskedCorners: CornerMask {
        get { cold.storage.maskedCorners }
        _modify { yield &mutableCold.maskedCorners }
    }
    public var cornerCurve: CornerCurve {
        get { cold.storage.cornerCurve }
        _modify { yield &mutableCold.cornerCurve }
    }
    public var borderWidth: Double {
        get { cold.storage.borderWidth }
        _modify { yield &mutableCold.borderWidth }
    }
    public var borderColor: Color? {
        get { cold.storage.borderColor }
        _modify { yield &mutableCold.borderColor }
    }
    public var opaque: Bool {
        get { cold.storage.opaque }
        _modify { yield &mutableCold.opaque }
    }
    public var allowsGroupOpacity: Bool {
        get { cold.storage.allowsGroupOpacity }
        _modify { yield &mutableCold.allowsGroupOpacity }
    }
    public var allowsEdgeAntialiasing: Bool {
        get { cold.storage.allowsEdgeAntialiasing }
        _modify { yield &mutableCold.allowsEdgeAntialiasing }
    }
    public var contentsGravity: ContentsGravity {
        get { cold.storage.contentsGravity }
        _modify { yield &mutableCold.contentsGravity }
    }
    public var contentsRect: Rect {
        get { cold.storage.contentsRect }
        _modify { yield &mutableCold.contentsRect }
    }
    public var contentsCenter: Rect {
        get { cold.storage.contentsCenter }
        _modify { yield &mutableCold.contentsCenter }
    }
    /// Scene files default this to canvas.scale (as UIKit does for view layers); see scene-format.md.
    public var contentsScale: Double {
        get { cold.storage.contentsScale }
        _modify { yield &mutableCold.contentsScale }
    }
    public var minificationFilter: ContentsFilter {
        get { cold.storage.minificationFilter }
        _modify { yield &mutableCold.minificationFilter }
    }
    public var magnificationFilter: ContentsFilter {
        get { cold.storage.magnificationFilter }
        _modify { yield &mutableCold.magnificationFilter }
    }
    /// How the layer composites onto what lies beneath (`.normalBlendMode`: source-over).
    public var compositingFilter: CompositingFilter {
        get { cold.storage.compositingFilter }
        _modify { yield &mutableCold.compositingFilter }
    }
    public var shadowColor: Color? {
        get { cold.storage.shadowColor }
        _modify { yield &mutableCold.shadowColor }
    }
    public var shadowOpacity: Double {
        get { cold.storage.shadowOpacity }
        _modify { yield &mutableCold.shadowOpacity }
    }
    public var shadowOffset: Size {
        get { cold.storage.shadowOffset }
        _modify { yield &mutableCold.shadowOffset }
    }
    public var shadowRadius: Double {
        get { cold.storage.shadowRadius }
        _modify { yield &mutableCold.shadowRadius }
    }
    public var shadowPath: Path? {
        get { cold.storage.shadowPath }
        _modify { yield &mutableCold.shadowPath }
    }
    public var shouldRasterize: Bool {
        get { cold.storage.shouldRasterize }
        _modify { yield &mutableCold.shouldRasterize }
    }
    public var rasterizationScale: Double {
        get { cold.storage.rasterizationScale }
        _modify { yield &mutableCold.rasterizationScale }
    }
    public var shape: ShapeProperties {
        get { cold.storage.shape }
        _modify { yield &mutableCold.shape }
    }
    public var gradient: GradientProperties {
        get { cold.storage.gradient }
        _modify { yield &mutableCold.gradient }
    }
    public var text: TextProperties {
        get { cold.storage.text }
        _modify { yield &mutableCold.text }
    }
    public var replicator: ReplicatorProperties {
        get { cold.storage.replicator }
        _modify { yield &mutableCold.replicator }
    }
    /// Filters applied to the layer's own rendering with its sublayers (reference §1.11b).
    public var filters: [Filter] {
        get { cold.storage.filters }
        _modify { yield &mutableCold.filters }
    }
    /// Filters applied to what lies beneath the layer, inside its shape, before its background.
    public var backgroundFilters: [Filter] {
        get { cold.storage.backgroundFilters }
        _modify { yield &mutableCold.backgroundFilters }
    }
    /// CABackdropLayer's scale and groupName.
    public var backdrop: BackdropProperties {
        get { cold.storage.backdrop }
        _modify { yield &mutableCold.backdrop }
    }
    /// Set only in presentation trees: this layer is one state of a running CATransition.
    public var transitionState: TransitionState? {
        get { cold.storage.transitionState }
        _modify { yield &mutableCold.transitionState }
    }
    public var emitter: EmitterProperties {
        get { cold.storage.emitter }
        _modify { yield &mutableCold.emitter }
    }
    /// Presentation only: the emitter's live particles at the presentation time (drawn in order).
    public var particles: [Particle] {
        get { cold.storage.particles }
        _modify { yield &mutableCold.particles }
    }
    /// Presentation only (no scene key): a colour multiplied into the `contents` image's texels,
    /// set by a CAReplicatorLayer's instanceColor (white = unchanged).
    public var contentsTint: Color {
        get { cold.storage.contentsTint }
        _modify { yield &mutableCold.contentsTint }
    }

    public init() {}
    public init(_ cls: LayerClass) { layerClass = cls }

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

/// The cold half of a `Layer` (see `Layer.cold`): defaults are Core Animation's.
struct ColdProperties: Sendable {
        var name: String? = nil
        var contents: ImageSource? = nil
        /// The mask layer, boxed: a struct cannot contain itself directly.
        var maskBox: [Layer] = []
        var location: SourceLocation? = nil
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
        var contentsScale: Double = 1
        var minificationFilter: ContentsFilter = .linear
        var magnificationFilter: ContentsFilter = .linear
        var compositingFilter: CompositingFilter = .normalBlendMode
        var shadowColor: Color? = .black
        var shadowOpacity: Double = 0
        var shadowOffset: Size = Size(0, -3)
        var shadowRadius: Double = 3
        var shadowPath: Path? = nil
        var shouldRasterize: Bool = false
        var rasterizationScale: Double = 1
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
