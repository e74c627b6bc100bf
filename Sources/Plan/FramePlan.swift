import Geometry
import LayerModel

/// FramePlan: the immutable description of one frame between the plan and the backend.
///
/// It is built from a presentation tree without any GPU (see `FramePlanner`), so everything the
/// profiler counts comes from here and is deterministic. It holds two views of the frame:
///
/// - the **render graph** the backend executes literally: `offscreenPasses` in order (each
///   renders into its own target, innermost first), then `canvasItems` onto the canvas cleared to
///   `clearColor` (painter's algorithm, premultiplied source-over in sRGB-encoded space unless an
///   item says otherwise), then read back. Items draw offscreen results through
///   `Paint.offscreen`.
/// - the **logical items** (`items`): every draw Core Animation makes on screen, in canvas device
///   pixels and painter's order, with offscreen results expanded into the items they hold (opacity
///   and clips of the composite folded in). The profiler analyses these, so findings describe the
///   scene, not how caprof executes it. Without offscreen passes the two lists are the same.
public struct FramePlan: Sendable {
    /// Target size in device pixels.
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Premultiplied clear colour (canvas.backgroundColor; transparent when nil).
    public var clearColor: RGBA
    /// The distinct images the items sample; `DrawItem.Paint.image(index:)` indexes this array.
    public var images: [PlannedImage]
    /// The logical draw items, back to front, in canvas device pixels (see above).
    public var items: [DrawItem]
    /// The items the backend draws onto the canvas, back to front (the last node of the graph).
    public var canvasItems: [DrawItem]
    /// What the plan saw but does not draw yet (reported to the user, never silently dropped).
    public var unsupported: [Unsupported]
    /// The offscreen passes of this frame, in execution order: a pass comes after every pass it
    /// samples. Only passes that run this frame are listed (a raster-cache hit renders nothing).
    public var offscreenPasses: [OffscreenPass]
    /// shouldRasterize layers this frame: cache hits and misses with their reasons.
    public var rasterCache: [RasterCacheEvent]
    /// Raster-cache entries dropped this frame: the backend frees their textures.
    public var rasterCacheEvictions: [UInt64]
    /// Content to rasterise on the CPU (shapes, text, gradient ramps) before drawing, one per
    /// distinct key, in first-use order; each is also in `images` under its key (`RasterRequest.swift`).
    public var rasterRequests: [RasterRequest]
    /// What caprof saves executing the canvas (culled items, blending off, batches), decided by
    /// `CanvasExecution`; never part of what the profiler reports about the scene.
    public var execution = CanvasExecutionStats()
    /// Shadows that can never be seen (clipped away, or only beneath their layer's own opaque
    /// background), in visiting order: the profiler's `shadow.hidden`.
    public var hiddenShadows: [HiddenShadow] = []

    public init(pixelWidth: Int, pixelHeight: Int, clearColor: RGBA, images: [PlannedImage] = [],
                items: [DrawItem] = [], canvasItems: [DrawItem]? = nil, unsupported: [Unsupported] = [],
                offscreenPasses: [OffscreenPass] = [], rasterCache: [RasterCacheEvent] = [],
                rasterCacheEvictions: [UInt64] = [], rasterRequests: [RasterRequest] = []) {
        self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight; self.clearColor = clearColor
        self.images = images; self.items = items; self.canvasItems = canvasItems ?? items
        self.unsupported = unsupported; self.offscreenPasses = offscreenPasses
        self.rasterCache = rasterCache; self.rasterCacheEvictions = rasterCacheEvictions
        self.rasterRequests = rasterRequests
    }
}

/// A premultiplied colour with components in 0…1 (sRGB-encoded).
public struct RGBA: Sendable, Equatable, Hashable {
    public var r: Float, g: Float, b: Float, a: Float
    public init(_ r: Float, _ g: Float, _ b: Float, _ a: Float) { self.r = r; self.g = g; self.b = b; self.a = a }
    public static let clear = RGBA(0, 0, 0, 0)
    public static let white = RGBA(1, 1, 1, 1)
    public init(premultiplying c: Color, opacity: Double = 1) {
        let (r, g, b, a) = c.premultiplied
        let o = Float(min(max(opacity, 0), 1))
        self.init(Float(r) * o, Float(g) * o, Float(b) * o, Float(a) * o)
    }
    public var isOpaque: Bool { a >= 1 }
}

/// An image the frame samples. `key` identifies its pixels (one texture per distinct key).
public struct PlannedImage: Sendable, Hashable {
    public var key: UInt64
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Every pixel has alpha 1 (from `ImageInfo.isOpaque`; false when unknown).
    public var isOpaque: Bool
    /// Its opaque parts when it is translucent (`ImageInfo.opaqueRects`).
    public var opaqueRects: [PixelRect]
    /// The smallest alpha of any of its pixels when it is translucent (`ImageInfo.minimumAlpha`;
    /// 0 when unknown).
    public var minimumAlpha: UInt8
    /// The source image has an alpha channel (`ImageInfo.hasAlphaChannel`): Core Animation blends
    /// it even where every pixel is opaque. `isOpaque` stays what the pixels say, which is what
    /// caprof's own backend may use to draw without blending (same pixels either way).
    public var hasAlphaChannel: Bool
    /// How many of its pixels have alpha 1, when known (`ImageInfo.opaquePixels`).
    public var opaquePixels: Int?
    public init(key: UInt64, pixelWidth: Int, pixelHeight: Int, isOpaque: Bool = false, opaqueRects: [PixelRect] = [],
                minimumAlpha: UInt8 = 0, hasAlphaChannel: Bool? = nil, opaquePixels: Int? = nil) {
        self.key = key; self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight; self.isOpaque = isOpaque
        self.opaqueRects = opaqueRects
        self.minimumAlpha = minimumAlpha
        self.hasAlphaChannel = hasAlphaChannel ?? !isOpaque
        self.opaquePixels = opaquePixels ?? (isOpaque ? pixelWidth * pixelHeight : nil)
    }
}

/// A rounded rectangle in some 2D space: the rect, a radius per corner and the corner curve.
/// Radii order: minXMinY, maxXMinY, maxXMaxY, minXMaxY (clockwise from top-left on iOS).
public struct RoundedShape: Sendable, Equatable {
    public var rect: Rect
    public var radii: [Double]
    public var curve: CornerCurve
    public init(rect: Rect, radii: [Double] = [0, 0, 0, 0], curve: CornerCurve = .circular) {
        self.rect = rect; self.radii = radii; self.curve = curve
    }
    public var isRectangle: Bool { radii.allSatisfy { $0 <= 0 } }
}

/// A clip applied to an item: fragments outside `shape` (in the clip's space) are discarded.
/// `transform` maps the item's local points (row vector [x y 0 1]) to the clip's space; it may be
/// projective, so the backend interpolates the homogeneous (x, y, w) and divides per fragment.
public struct Clip: Sendable, Equatable {
    public var transform: Transform3D
    public var shape: RoundedShape
    /// The layer whose bounds clip (masksToBounds).
    public var layer: LayerID
    public init(transform: Transform3D, shape: RoundedShape, layer: LayerID) {
        self.transform = transform; self.shape = shape; self.layer = layer
    }
}

/// One quad to draw.
public struct DrawItem: Sendable, Equatable {
    /// What part of its layer an item draws (for reports and overlays).
    public enum Role: String, Sendable {
        case background, contents, border
        /// The layer's shadow (analytic from a rectangle, rounded-rectangle or circle shadowPath, a
        /// CPU-rasterised texture from any other shadowPath, or a blurred offscreen pass).
        case shadow
        /// The result of an offscreen pass drawn back (group, clip, mask, raster cache).
        case offscreen
        /// Content caprof does not draw yet (a subclass's content), placed where Core Animation
        /// would draw it so the analyses its geometry allows still count it. The backend draws
        /// nothing for it.
        case unsupported
    }

    /// How an item's colour combines with the target (premultiplied).
    public enum Blend: String, Sendable, Equatable {
        /// Porter-Duff source-over: src + dst · (1 − src.a). Everything Core Animation composites.
        case sourceOver
        /// Porter-Duff destination-in: dst · src.a. Applies a mask's alpha to what a target holds.
        case destinationIn
        /// Porter-Duff plus: src + dst. Sums the weighted snapshots of a cross-dissolve.
        case plus
        // A layer's compositingFilter (Builder+CompositingFilter.swift): the operators and blend
        // modes fixed-function blending computes exactly on premultiplied colour (W3C Compositing
        // and Blending §9.1: co = cs·Fa + cb·Fb), the replacement of a blend-mode pass's result,
        // and the logical items of a blend mode computed in a shader.
        /// screenBlendMode: src + dst · (1 − src), per component.
        case screen
        /// sourceAtop: src · dst.a + dst · (1 − src.a).
        case sourceAtop
        /// sourceIn: src · dst.a.
        case sourceIn
        /// sourceOut: src · (1 − dst.a).
        case sourceOut
        /// destinationOver: src · (1 − dst.a) + dst.
        case destinationOver
        /// destinationIn as a layer's compositingFilter: dst · src.a (unlike a mask application,
        /// a draw of the layer on screen).
        case layerDestinationIn
        /// destinationOut: dst · (1 − src.a).
        case destinationOut
        /// xor: src · (1 − dst.a) + dst · (1 − src.a).
        case xor
        /// plusL (plus lighter): min(1, src + dst), the target's clamp (`plus` is a cross-dissolve's sum).
        case plusLighter
        /// The item's colour replaces the target's: a blend-mode pass's result, which already holds
        /// what lay beneath (`OffscreenPass.Operation.blend`).
        case replace
        /// Logical items only: composited with a blend mode computed in a shader from the
        /// destination (the backend draws the pass's result with `replace`).
        case blendMode

        /// Set by a layer's compositingFilter: the item blends whatever its paint.
        public var isCompositingFilter: Bool {
            switch self {
            case .sourceOver, .destinationIn, .plus: return false
            default: return true
            }
        }
    }

    /// How image texels are read.
    public enum Sampling: String, Sendable, Equatable {
        /// The quad maps texels 1:1 onto whole device pixels: read with texelFetch (fast, exact).
        case texelFetch
        /// Nearest-neighbour filtering (minification/magnificationFilter = nearest).
        case nearest
        /// Bilinear filtering (the default filters).
        case linear
        /// Trilinear filtering: bilinear in the two mip levels nearest the minification, blended
        /// (minificationFilter = trilinear on minified content; the backend builds the levels).
        case trilinear
    }

    public enum Paint: Sendable, Equatable {
        /// A solid premultiplied colour (the layer's opacity already applied).
        case solid(RGBA)
        /// Image `index` of `FramePlan.images`, multiplied by `opacity`.
        case image(index: Int, sampling: Sampling, opacity: Float)
        /// The target of an offscreen pass (or a raster-cache entry), multiplied by `opacity`; `uv`
        /// is in the target's texels.
        case offscreen(OffscreenSource, sampling: Sampling, opacity: Float)
        /// A Gaussian-blurred `shape` (standard deviation `sigma` in local units) in a premultiplied
        /// colour: a shadow with a rectangle, rounded-rectangle or circle shadowPath, computed
        /// analytically (no offscreen pass).
        case blurredShape(RGBA, sigma: Float)
    }

    public var layer: LayerID
    public var role: Role
    public var paint: Paint
    /// Maps the item's local points (row vector [x y 0 1]) to device pixels (y down, origin
    /// top-left), in Core Animation's row-vector layout. Includes the canvas scale; may be projective.
    public var transform: Transform3D
    /// The quad to rasterise, in local points.
    public var quad: Rect
    /// For images: texel coordinates at the quad's (minX, minY) and (maxX, maxY) corners,
    /// interpolated across the quad. Texel space: (0,0) is the image's top-left corner,
    /// (width, height) its bottom-right corner. Outside the image, sampling clamps to the edge.
    public var uv: Rect
    /// Coverage shape in local points: pixels outside are not drawn, edges are antialiased.
    /// nil = the quad's own edges (no per-fragment coverage).
    public var shape: RoundedShape?
    /// For borders: the inner edge; coverage = shape minus innerShape.
    public var innerShape: RoundedShape?
    /// Clips from masksToBounds ancestors (outermost first).
    public var clips: [Clip]
    /// How the item combines with its target (source-over but for mask application).
    public var blend: Blend
    /// For CAGradientLayer items: the paint's image is a colour ramp, read at the position this
    /// gives each local point (`GradientPaint`); nil for every other item.
    public var gradient: GradientPaint?
    /// Execution only (`canvasItems`, set by `CanvasExecution`): the coverage level the backend
    /// runs when the plan raises it above `requiredCoverage` to batch neighbours; nil = required.
    public var coverageVariant: Coverage? = nil
    /// Execution only: draw the shape's coverage with screen-space derivatives even under a
    /// similarity transform (the general code that `hasIsotropicCoverage` otherwise skips).
    /// The planner never sets it; tests compare the two codes with it.
    public var derivativeCoverage = false
    /// Execution only (`canvasItems`): every pixel the item draws is opaque and replaces what is
    /// beneath, so the backend draws it with blending off (the same pixels, no destination read).
    public var drawsOpaque = false
    /// For image paint: a premultiplied colour multiplied into every texel (a replicator's
    /// instanceColor on contents, a particle's colour). White is the identity.
    public var tint: RGBA
    /// Execution only (`canvasItems`): the quad already spans the shape's antialiased edge (a
    /// piece of a split item, or a shape enclosing the quad), so the backend draws it as it is
    /// instead of growing it by `EdgeRamp.outset`.
    public var quadIsFinal = false
    /// Execution only (`canvasItems`): this item is a flattened region (`CanvasExecution`'s region
    /// flattening): the backend draws `quad` (device pixels, identity transform) once, blending
    /// the region's stack in registers, and ignores the paint.
    public var flattened: FlattenedRegion? = nil
    /// Execution only (`canvasItems`): the item's role in stack culling's stencil (`StackCulling`):
    /// set on every item of a canvas segment culled that way, nil elsewhere.
    public var stackStencil: StackStencil? = nil

    public init(layer: LayerID, role: Role, paint: Paint, transform: Transform3D, quad: Rect,
                uv: Rect = .zero, shape: RoundedShape? = nil, innerShape: RoundedShape? = nil, clips: [Clip] = [],
                blend: Blend = .sourceOver, gradient: GradientPaint? = nil, tint: RGBA = .white) {
        self.layer = layer; self.role = role; self.paint = paint; self.transform = transform; self.quad = quad
        self.uv = uv; self.shape = shape; self.innerShape = innerShape; self.clips = clips; self.blend = blend
        self.gradient = gradient; self.tint = tint
    }

    /// The largest number of clips one item can carry (the backend's fixed slots); the planner
    /// merges clips that share a space and reports a scene that needs more.
    public static let maxClips = 4
}
