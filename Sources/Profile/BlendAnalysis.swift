import Geometry
import Plan

/// Why a draw item's pixels are blended with what lies beneath instead of replacing it.
public enum BlendReason: String, Sendable, Codable, CaseIterable, Comparable {
    /// backgroundColor or borderColor has alpha < 1.
    case translucentColor = "translucent-color"
    /// The layer's opacity, or an ancestor's, is below 1.
    case opacity
    /// The contents image has pixels with alpha < 1 (or its opacity is unknown).
    case imageAlpha = "image-alpha"
    /// The contents image has an alpha channel though every pixel is opaque: Core Animation
    /// decides from the image's format, not its pixels, so it blends the whole image (Color
    /// Blended Layers shows it red). Re-exported without alpha it would replace what lies beneath.
    case alphaChannel = "alpha-channel"
    /// A CAShapeLayer's or CATextLayer's rasterised content: transparent around its fill, stroke
    /// or glyphs, and antialiased at their edges.
    case rasterizedContent = "rasterized-content"
    /// Rounded corners (cornerRadius, or a border's inner edge): antialiased coverage at the corners.
    case roundedCorners = "rounded-corners"
    /// Straight edges with partial coverage: off the pixel grid, or antialiased on a rotated or 3D layer.
    case antialiasedEdges = "antialiased-edges"
    /// A rounded masksToBounds clip of an ancestor (or of the layer, for its contents) cuts the item.
    case roundedClip = "rounded-clip"
    /// A `mask` layer (on the layer or an ancestor) cuts the item by its alpha: the masked result
    /// is composited with blending (its fix is offscreen.mask's).
    case mask
    /// One state of a CATransition's cross-dissolve: it blends while the transition runs (its
    /// cost is reported as offscreen.transition).
    case transition
    /// A compositingFilter other than source-over: the layer is combined with what lies beneath it
    /// whatever its alpha (a blend mode reads the destination), so it always blends.
    case compositingFilter = "compositing-filter"
    /// A shadow: translucent by nature (its cost is reported as offscreen.shadow when it has no
    /// shadowPath; with one there is nothing to fix here, and a rasterised one's CPU cost is
    /// raster.cpu's).
    case shadow
    /// An emitter's additive renderMode: each particle adds its colour to what lies beneath
    /// (plus), so it blends whatever its alpha. Nothing to fix: it is the look asked for.
    case additive

    /// The paint itself lets the background through: every pixel of the item blends. These raise
    /// the `blended` finding. The others blend only a band of edge pixels; they count in a frame's
    /// blended pixels but raise no finding of their own (their fixes are `misaligned.subpixel` and
    /// `offscreen.rounded-clip`, or nothing: rounded corners are antialiased by design).
    public var isPaint: Bool {
        self == .translucentColor || self == .opacity || self == .imageAlpha || self == .alphaChannel
            || self == .rasterizedContent || self == .compositingFilter
    }

    /// Every pixel of the item blends: the paint reasons, and a shadow, a masked result, a
    /// transition's state and an additive particle, which are composited with blending wherever
    /// they cover (Color Blended Layers shows them red). Those four count in a frame's blended
    /// pixels but raise no `blended` finding: their cost and fix are the offscreen findings' (or
    /// nothing, for a shadow with a shadowPath and for additive particles).
    public var blendsEveryPixel: Bool { isPaint || self == .shadow || self == .mask || self == .transition || self == .additive }

    public static func < (a: BlendReason, b: BlendReason) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// Per-item blending decisions (Impeller's `IsOpaque` in our terms).
public enum BlendAnalysis {
    /// Alphas within this of 1 count as 1 (colours travel as Float).
    static let alphaTolerance = 1e-4

    /// Why `item` is blended; empty when every pixel it shades is opaque and replaces what is beneath.
    /// `rasterKeys`: the plan's raster-request keys (`Set(plan.rasterRequests.map(\.key))`), so an
    /// image that is a shape's or text's rasterised content is told apart from a contents image.
    public static func reasons(_ item: DrawItem, in plan: FramePlan, layer: LayerDirectory.Entry?,
                               rasterKeys: Set<UInt64> = []) -> [BlendReason] {
        if item.role == .shadow { return [.shadow] }
        if item.role == .unsupported { return [] }   // not drawn: its opacity is unknown
        // plus is a cross-dissolve's sum of states, or an additive emitter's particles.
        if item.blend == .plus { return layer?.isEmitter == true ? [.additive] : [.transition] }
        if item.blend.isCompositingFilter { return [.compositingFilter] }
        var r: [BlendReason] = []
        switch item.paint {
        case .solid(let c):
            if Double(c.a) < 1 - alphaTolerance {
                let colorAlpha = colorAlpha(item, layer)
                if colorAlpha < 1 - alphaTolerance { r.append(.translucentColor) }
                if Double(c.a) < colorAlpha - alphaTolerance { r.append(.opacity) }
            }
        case .image(let index, _, let opacity):
            if Double(opacity) < 1 - alphaTolerance { r.append(.opacity) }
            if index < 0 || index >= plan.images.count || !plan.images[index].isOpaque {
                r.append(index >= 0 && index < plan.images.count && rasterKeys.contains(plan.images[index].key) ? .rasterizedContent : .imageAlpha)
            } else if plan.images[index].hasAlphaChannel {
                r.append(.alphaChannel)   // opaque pixels in a format with alpha: blended all the same
            }
            if Double(item.tint.a) < 1 - alphaTolerance { r.append(.translucentColor) }   // a particle's colour alpha
        case .offscreen(_, _, let opacity):
            if Double(opacity) < 1 - alphaTolerance { r.append(.opacity) }
            r.append(.imageAlpha)
        case .blurredShape:
            r.append(.translucentColor)
        }
        for shape in [item.shape, item.innerShape].compactMap({ $0 }) {
            if !shape.isRectangle { r.append(.roundedCorners) }
            else if !item.transform.isAxisAligned2D || !Alignment.isOnGrid(deviceRect(shape.rect, item.transform)) {
                r.append(.antialiasedEdges)
            }
        }
        if item.clips.contains(where: { !$0.shape.isRectangle }) { r.append(.roundedClip) }
        if layer?.masked == true { r.append(.mask) }
        return Array(Set(r)).sorted()
    }

    /// The alpha of the colour a solid item paints (before opacity).
    static func colorAlpha(_ item: DrawItem, _ layer: LayerDirectory.Entry?) -> Double {
        guard let l = layer else { return 1 }
        return min(max(item.role == .border ? l.borderAlpha : l.backgroundAlpha, 0), 1)
    }

    /// The effective opacity a solid item was painted with (its alpha over its colour's).
    static func opacity(_ item: DrawItem, _ layer: LayerDirectory.Entry?) -> Double {
        switch item.paint {
        case .solid(let c):
            let a = colorAlpha(item, layer)
            return a > 0 ? min(1, Double(c.a) / a) : 1
        case .image(_, _, let o), .offscreen(_, _, let o): return Double(o)
        case .blurredShape: return 1
        }
    }

    /// The device-space bounding rectangle of a local rectangle under an axis-aligned matrix.
    static func deviceRect(_ r: Rect, _ m: Transform3D) -> Rect {
        Rect.bounding(r.corners.map { m.apply($0) })
    }
}
