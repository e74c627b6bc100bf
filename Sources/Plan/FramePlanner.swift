import Geometry
import LayerModel

/// Builds a `FramePlan` from a presentation tree: the layers as they are on screen at one time.
///
/// Walks the tree in render order (reference §1.10: shadow, background, contents, sublayers sorted
/// by zPosition, border, then opacity and mask), composes each layer's matrix exactly as reference
/// §1.3 states, decides how each image is sampled, turns masksToBounds into clips, and decides
/// every offscreen pass Core Animation would render (`Builder+Offscreen.swift`): the render
/// graph the backend executes. Pure: no GPU, no clock, no unordered iteration, so the same tree
/// (and raster-cache state) always gives the same plan.
public struct FramePlanner {
    public var canvas: Canvas
    public var images: ImageTable
    /// Execution only: whether `CanvasExecution` flattens runs of pixel-aligned rectangles into
    /// regions drawn once (on by default; the profiler's logical items never depend on it).
    public var flattensRegions = true
    /// Execution only: whether `CanvasExecution` culls what lies beneath deep translucent stacks
    /// (`StackCulling`; on by default).
    public var cullsStacks = true

    public init(canvas: Canvas, images: ImageTable) { self.canvas = canvas; self.images = images }

    /// One frame on its own (an empty raster cache: every shouldRasterize layer is a first use).
    public func plan(root: Layer) -> FramePlan {
        var cache = RasterCache()
        return plan(root: root, rasterCache: &cache, time: 0)
    }

    /// One frame of a run: `rasterCache` carries the shouldRasterize cache from the previous
    /// frame's plan and is updated for the next; `time` (seconds of scene time) ages its entries.
    public func plan(root: Layer, rasterCache: inout RasterCache, time: Double) -> FramePlan {
        var b = Builder(canvas: canvas, images: images, cache: rasterCache, time: time)
        b.expireRasterCache()
        let device = Transform3D.scale(canvas.scale, canvas.scale, 1)
        b.visit(root, parentSublayerToDevice: device, clips: [], opacity: 1, flippedAncestors: 0, path: [])
        b.fillCanvasBackground()
        b.capRasterCache()
        rasterCache = b.cache
        let clear = canvas.backgroundColor.map { RGBA(premultiplying: $0) } ?? .clear
        // Expanded offscreen results keep only what touches the canvas (a raster-cache bitmap holds
        // its whole layer, planned without culling), as every drawn item does.
        let logical = b.offscreenPasses.isEmpty && b.rasterContents.isEmpty ? b.items
            : b.logicalItems(b.items).filter { item in
                // Composing an expanded item with its composite can overflow with extreme values:
                // what cannot be placed or clipped finitely is not counted (as it is not drawn).
                item.transform.elements.allSatisfy(\.isFinite)
                    && item.clips.allSatisfy { $0.transform.elements.allSatisfy(\.isFinite) }
                    && DeviceProjection.pixelBounds(item.quad, item.transform, width: canvas.pixelWidth, height: canvas.pixelHeight) != nil
            }
        // What the backend executes: culled, blending and coverage decided (`CanvasExecution`),
        // segment by segment where backdrops capture the canvas, whose item counts then count
        // executed items.
        let captures = b.offscreenPasses.compactMap { pass -> Int? in
            if case .backdrop(let c) = pass.operation { return c.canvasItemCount }
            return nil
        }
        let execution = CanvasExecution.prepare(b.items, segmentedAt: captures, images: b.plannedImages,
                                                width: canvas.pixelWidth, height: canvas.pixelHeight,
                                                flattenOver: flattensRegions ? clear : nil, cullsStacks: cullsStacks)
        let passes = b.offscreenPasses.map { pass -> OffscreenPass in
            guard case .backdrop(var c) = pass.operation, let n = execution.boundaries[c.canvasItemCount] else { return pass }
            var pass = pass
            c.canvasItemCount = n
            pass.operation = .backdrop(c)
            return pass
        }
        var plan = FramePlan(pixelWidth: canvas.pixelWidth, pixelHeight: canvas.pixelHeight, clearColor: clear,
                             images: b.plannedImages, items: logical, canvasItems: execution.items, unsupported: b.unsupported,
                             offscreenPasses: passes, rasterCache: b.cacheEvents, rasterCacheEvictions: b.evictions,
                             rasterRequests: b.rasterRequests)
        plan.execution = execution.stats
        plan.hiddenShadows = b.hiddenShadows
        return plan
    }
}

/// An active masksToBounds clip while walking: its shape, the matrix from the current sublayer
/// space into the clip layer's bounds space, and the clip layer's bounds space → the current
/// target (to clip an item that draws an offscreen result, through `planarInverse`).
struct ActiveClip {
    var fromSublayerSpace: Transform3D
    var shape: RoundedShape
    var layer: LayerID
    var toTarget: Transform3D
}

struct Builder {
    let canvas: Canvas
    let images: ImageTable
    var items: [DrawItem] = []
    var plannedImages: [PlannedImage] = []
    /// Planned images by key and whether the source has an alpha channel: an RGB and an RGBA file
    /// of the same pixels share a texture (the key) but not a blending decision.
    var imageIndex: [ImageSlotKey: Int] = [:]
    /// Shadows no pixel of which can be seen (`noteHiddenShadow`), in visiting order.
    var hiddenShadows: [HiddenShadow] = []
    var unsupported: [Unsupported] = []
    var reported: Set<String> = []
    var offscreenPasses: [OffscreenPass] = []
    var rasterRequests: [RasterRequest] = []
    var requestedRasters: Set<UInt64> = []
    var rasterPixels = 0
    /// The raster cache being updated, this frame's hits and misses, the keys evicted.
    var cache: RasterCache
    let time: Double
    var cacheEvents: [RasterCacheEvent] = []
    var evictions: [UInt64] = []
    /// The logical items of each raster-cache entry drawn this frame (for the profiler).
    var rasterContents: [UInt64: [DrawItem]] = [:]
    /// Cull items outside the canvas (off inside a raster-cache target, which holds the whole layer).
    var cullToCanvas = true
    /// Device pixels around the canvas that still count as visible: while planning the content
    /// of a blurred shadow or a filter, what lies off the canvas within the blur's reach and the
    /// shadow's offset still lands on it.
    var cullMargin = 0.0
    /// Render the next visited layer as a snapshot (a CATransition state), whatever it needs.
    var forceSnapshot = false
    /// Layers whose subclass content is not drawn yet (they get an `unsupported` placeholder item).
    var undrawn: Set<LayerID> = []
    /// How many offscreen targets the walk is inside (0: items go to the canvas, where backdrops capture).
    var offscreenDepth = 0
    /// The offscreen targets the walk is inside, outermost first: what each interrupted, so a
    /// backdrop inside one reads the target it lies in (`Builder+Backdrop.swift`).
    var offscreenLevels: [OffscreenLevel] = []
    /// Backdrops inside offscreen targets: their capture passes (draws of what lay beneath them in
    /// that target) and the regions they capture, so the profiler sees a capture, not a draw.
    var nestedCaptures: [Int: PixelRect] = [:]
    /// Backdrop groups captured this frame, by groupName (`Builder+Backdrop.swift`).
    var backdropGroups: [String: BackdropGroupCapture] = [:]
    /// Items drawn again as blend modes' destinations this frame (`maxBlendDestinationItems`).
    var blendDestinationItems = 0
    /// Items drawn again into the captures of backdrops inside offscreen targets this frame
    /// (`maxBackdropCaptureItems`).
    var backdropCaptureItems = 0
    /// Blend modes that took what lay beneath off their target (`Builder+CompositingFilter.swift`):
    /// destination pass → its layer and how many of its last items were moved there.
    var movedBeneath: [Int: (layer: LayerID, count: Int)] = [:]
    /// Whether `items` is the current target's whole list so far (false while a dissolve plans its
    /// two states into one list: a blend must not take the previous state as what lies beneath).
    var listIsWholeTarget = true

    init(canvas: Canvas, images: ImageTable, cache: RasterCache = RasterCache(), time: Double = 0) {
        self.canvas = canvas; self.images = images; self.cache = cache; self.time = time
    }

    /// Whether `layer` has a mask that composites to nothing (hidden, or at opacity 0).
    static func maskHidesAll(_ layer: Layer) -> Bool {
        guard let m = layer.mask else { return false }
        return m.hidden || !(m.opacity > 0)
    }

    mutating func report(_ f: UnsupportedFeature, _ layer: Layer, _ path: [Int]) {
        let key = "\(layer.id):\(f.rawValue)"
        if reported.insert(key).inserted {
            unsupported.append(Unsupported(feature: "\(layer.displayName(indexPath: path)): \(f.message)", location: layer.location,
                                           layer: layer.id))
        }
    }

    /// - Parameters:
    ///   - parentSublayerToDevice: the superlayer's sublayer space → the current target (device
    ///     pixels of the canvas, or of an offscreen target being planned).
    ///   - clips: masksToBounds clips of ancestors, each from the superlayer's sublayer space.
    ///   - opacity: the product of ancestors' opacities (within the current target).
    mutating func visit(_ layer: Layer, parentSublayerToDevice: Transform3D, clips: [ActiveClip],
                        opacity: Double, flippedAncestors: Int, path: [Int]) {
        let snapshot = forceSnapshot
        forceSnapshot = false
        if layer.hidden { return }
        if layer.compositingFilter != .normalBlendMode {
            visitCompositingFilter(layer, parentSublayerToDevice: parentSublayerToDevice, clips: clips, opacity: opacity,
                                   flippedAncestors: flippedAncestors, path: path, snapshot: snapshot)
            return
        }
        let alpha = opacity * min(max(layer.opacity, 0), 1)
        guard alpha > 0 else { return }   // NaN included: nothing can be drawn at an undefined opacity
        // The mask's composited alpha, its own opacity included, multiplies the layer's rendering
        // (reference §1.8): a hidden or fully transparent mask leaves nothing of the layer, its
        // sublayers and its shadow (a mask faded out to hide what it masks).
        if Self.maskHidesAll(layer) { return }
        let world = layer.toSuperlayerSublayerSpace * parentSublayerToDevice
        // Huge but finite values multiplied together overflow; nothing can be placed with an
        // infinite or NaN matrix, and no NaN may reach the backend or the profiler's pixel counts.
        // Bounds within 1e10 of ±1.8e308 overflow once grown by a device pixel (at most 1e9 points).
        guard world.elements.allSatisfy(\.isFinite), layer.bounds.insetBy(dx: -1e10, dy: -1e10).allFinite else {
            report(.nonFiniteGeometry, layer, path); return
        }
        // doubleSided = NO: a back-facing layer is culled with its flattened subtree.
        if !layer.doubleSided, isBackFacing(layer.bounds, world) { return }
        reportUnsupported(layer, path)
        var effects = offscreenEffects(layer, path)
        effects.snapshot = snapshot || layer.transitionState != nil
        noteHiddenShadow(layer, world, clips, alpha: alpha)
        if effects.needsOffscreen {
            let context = LayerContext(layer: layer, world: world, clips: clips, alpha: alpha,
                                       flippedAncestors: flippedAncestors, path: path)
            visitOffscreen(context, effects)
            return
        }
        if effects.analyticShadow != nil || effects.pathShadow != nil, Self.placeableOnDevice(layer.bounds, world) {
            let localClips = clips.map { ActiveClip(fromSublayerSpace: layer.toSuperlayerSublayerSpace * $0.fromSublayerSpace,
                                                    shape: $0.shape, layer: $0.layer, toTarget: $0.toTarget) }
            guard localClips.allSatisfy({ $0.fromSublayerSpace.elements.allSatisfy(\.isFinite) }) else {
                report(.nonFiniteGeometry, layer, path); return   // as in `draw`
            }
            let shadowClips = drawClips(localClips, layer, path)
            if let shape = effects.analyticShadow { shadow(layer, world, alpha, shadowClips, shape: shape, nodePath: path) }
            if let p = effects.pathShadow { pathShadow(layer, world, alpha, shadowClips, path: p, nodePath: path) }
        }
        draw(layer, world: world, clips: clips, alpha: alpha, flippedAncestors: flippedAncestors, path: path)
    }

    /// Draws the layer itself and its sublayers into the current item list (reference §1.10 steps
    /// 2–5). `clipOwnContent` = false when an offscreen pass clips the composite instead.
    mutating func draw(_ layer: Layer, world: Transform3D, clips: [ActiveClip], alpha: Double,
                       flippedAncestors: Int, path: [Int], clipOwnContent: Bool = true) {
        let toParent = layer.toSuperlayerSublayerSpace
        // Clips in this layer's own bounds space.
        let localClips = clips.map { ActiveClip(fromSublayerSpace: toParent * $0.fromSublayerSpace, shape: $0.shape,
                                                layer: $0.layer, toTarget: $0.toTarget) }
        // A clip's matrix into this layer's space can overflow where the device matrix does not (a
        // huge scale under a tiny one): such a layer cannot be clipped, so it and its sublayers are
        // not drawn.
        guard localClips.allSatisfy({ $0.fromSublayerSpace.elements.allSatisfy(\.isFinite) }) else {
            report(.nonFiniteGeometry, layer, path); return
        }
        let clipList = drawClips(localClips, layer, path)

        let draws = layer.layerClass != .transform   // CATransformLayer renders only its sublayers
        // Bounds whose corners overflow on the device (10³⁰⁸ pt under a scale) cannot be placed: the
        // layer's own content is reported and not drawn (its edges, texel coordinates and coverage
        // would be infinite); its sublayers, placed by their own matrices, still are.
        let placeable = !draws || Self.placeableOnDevice(layer.bounds, world)
        if !placeable { report(.overflowingBounds, layer, path) }
        if draws, placeable {
            backdrop(layer, world, alpha, clipList, path: path)
            background(layer, world, alpha, clipList)
            contents(layer, world, alpha, clipList, flipped: flippedAncestors % 2 == 1, path: path,
                     clipToBounds: clipOwnContent)
            layerContent(layer, world, alpha, clipList, flipped: flippedAncestors % 2 == 1, path: path,
                         clipToBounds: clipOwnContent)
            undrawnContent(layer, world, alpha, clipList)
        }

        // Sublayers, with this layer's bounds as a clip when masksToBounds.
        var childClips = localClips
        // Unplaceable bounds clip nothing that can be drawn: they reach past the device.
        if layer.masksToBounds, draws, clipOwnContent, placeable {
            let own = ActiveClip(fromSublayerSpace: .identity,
                                 shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve),
                                 layer: layer.id, toTarget: world)
            guard let merged = push(own, onto: childClips) else { finishBorder(layer, world, alpha, clipList, path: path); return }
            childClips = merged
        }
        let toSub = layer.sublayerSpaceToBounds
        let subToDevice = toSub * world
        childClips = childClips.map { ActiveClip(fromSublayerSpace: toSub * $0.fromSublayerSpace, shape: $0.shape,
                                                 layer: $0.layer, toTarget: $0.toTarget) }
        let order = renderOrder(layer, subToDevice)
        let flipped = flippedAncestors + (layer.geometryFlipped ? 1 : 0)
        var k = 0
        while k < order.count {
            let i = order[k]
            let s = layer.sublayers[i]
            // A running CATransition: its previous and new states side by side.
            if s.transitionState?.role == .previous, k + 1 < order.count,
               layer.sublayers[order[k + 1]].transitionState?.role == .next {
                transition(s, layer.sublayers[order[k + 1]], parentSublayerToDevice: subToDevice, clips: childClips,
                           opacity: alpha, flippedAncestors: flipped, path: path + [order[k + 1]])
                k += 2
                continue
            }
            visit(s, parentSublayerToDevice: subToDevice, clips: childClips, opacity: alpha,
                  flippedAncestors: flipped, path: path + [i])
            k += 1
        }
        if placeable { finishBorder(layer, world, alpha, clipList, path: path) }
    }

    /// Whether `bounds` under `world` have finite device corners. Called for every drawn layer of
    /// every frame: without perspective, four corners in registers, no array.
    static func placeableOnDevice(_ b: Rect, _ world: Transform3D) -> Bool {
        guard world.m14 == 0, world.m24 == 0, world.m44 == 1 else {
            return DeviceProjection.polygon(b.corners, world).allSatisfy { $0.x.isFinite && $0.y.isFinite }
        }
        func finite(_ x: Double, _ y: Double) -> Bool {
            let p = world.apply(x, y)
            return p.x.isFinite && p.y.isFinite
        }
        return finite(b.minX, b.minY) && finite(b.maxX, b.minY) && finite(b.minX, b.maxY) && finite(b.maxX, b.maxY)
    }

    mutating func finishBorder(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], path: [Int] = []) {
        if layer.layerClass != .transform { border(layer, world, alpha, clips) }
        if layer.layerClass == .emitter { particles(layer, world, alpha, clips, path: path) }
    }

    /// Sibling order: ascending zPosition, stable (reference §1.5). Inside a CATransformLayer
    /// (3D context), by the depth of each sublayer's anchor after the 3D transform (our choice;
    /// planes are not split).
    func renderOrder(_ layer: Layer, _ subToDevice: Transform3D) -> [Int] {
        let idx = Array(layer.sublayers.indices)
        if layer.flattensSublayers {
            return idx.sorted { a, b in
                let za = layer.sublayers[a].zPosition, zb = layer.sublayers[b].zPosition
                return za != zb ? za < zb : a < b
            }
        }
        let depth = idx.map { i -> Double in
            let s = layer.sublayers[i]
            let a = s.anchorInBounds
            let m = s.toSuperlayerSublayerSpace * layer.sublayerSpaceToBounds
            let p = m.apply(a.x, a.y, a.z)
            return p.w != 0 ? p.z / p.w : p.z
        }
        return idx.sorted { a, b in depth[a] != depth[b] ? depth[a] < depth[b] : a < b }
    }

    mutating func reportUnsupported(_ layer: Layer, _ path: [Int]) {
        // Every layer class's content is drawn now (shapes, gradients, text: `layerContent`;
        // replicas are expanded by the presentation); `undrawn` stays for content that is not.
    }
}

/// The layer being drawn through offscreen passes, with what its visit knew.
struct LayerContext {
    var layer: Layer
    /// The layer's bounds space → the current target.
    var world: Transform3D
    /// Ancestors' clips (from the superlayer's sublayer space).
    var clips: [ActiveClip]
    /// Inherited opacity times the layer's own.
    var alpha: Double
    var flippedAncestors: Int
    var path: [Int]
}
