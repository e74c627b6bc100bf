import Geometry

/// A stable identity for a layer within one scene: its preorder index (the root is 0, masks count
/// right after their owner). Assigned by the importer; used by the plan, reports and animations.
public typealias LayerID = Int

/// A model layer: every CALayer property with Core Animation's default (reference §1.1, §1.9,
/// §1.11), plus the properties of the subclass named by `layerClass`.
public struct Layer: Sendable {
    public var id: LayerID = 0
    public var layerClass: LayerClass = .layer
    public var name: String?
    /// Where the layer object is written in its source file (for messages and annotations).
    public var location: SourceLocation?

    // Geometry
    public var bounds: Rect = .zero
    public var position: Point = .zero
    public var anchorPoint: Point = Point(0.5, 0.5)
    public var anchorPointZ: Double = 0
    public var zPosition: Double = 0
    public var transform: Transform3D = .identity
    public var sublayerTransform: Transform3D = .identity
    public var geometryFlipped = false

    // Appearance
    public var opacity: Double = 1
    public var hidden = false
    public var backgroundColor: Color?
    public var cornerRadius: Double = 0
    public var maskedCorners: CornerMask = .all
    public var cornerCurve: CornerCurve = .circular
    public var borderWidth: Double = 0
    public var borderColor: Color? = .black
    public var masksToBounds = false
    public var doubleSided = true
    public var opaque = false
    public var allowsGroupOpacity = true
    public var allowsEdgeAntialiasing = false

    // Contents
    public var contents: ImageSource?
    public var contentsGravity: ContentsGravity = .resize
    public var contentsRect: Rect = .unit
    public var contentsCenter: Rect = .unit
    /// Scene files default this to canvas.scale (as UIKit does for view layers); see scene-format.md.
    public var contentsScale: Double = 1
    public var minificationFilter: ContentsFilter = .linear
    public var magnificationFilter: ContentsFilter = .linear

    // Shadow
    public var shadowColor: Color? = .black
    public var shadowOpacity: Double = 0
    public var shadowOffset: Size = Size(0, -3)
    public var shadowRadius: Double = 3
    public var shadowPath: Path?

    // Caching
    public var shouldRasterize = false
    public var rasterizationScale: Double = 1

    // Timing (CAMediaTiming of the layer itself)
    public var beginTime: Double = 0
    public var timeOffset: Double = 0
    public var speed: Double = 1

    // Subclass properties (meaningful only for the matching layerClass).
    public var shape = ShapeProperties()
    public var gradient = GradientProperties()
    public var text = TextProperties()
    public var replicator = ReplicatorProperties()

    // Tree
    public var sublayers: [Layer] = []
    /// The mask layer (its geometry is in this layer's own coordinate space). Boxed: a struct
    /// cannot contain itself directly.
    public var mask: Layer? {
        get { maskBox.first }
        set { maskBox = newValue.map { [$0] } ?? [] }
    }
    private var maskBox: [Layer] = []

    public init() {}
    public init(_ cls: LayerClass) { layerClass = cls }

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
