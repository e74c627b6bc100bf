import Geometry
import LayerModel

/// Builds a `FramePlan` from a presentation tree: the layers as they are on screen at one time.
///
/// Walks the tree in render order (reference §1.10: background, contents, sublayers sorted by
/// zPosition, border), composes each layer's matrix exactly as reference §1.3 states, decides how
/// each image is sampled, and turns masksToBounds into clips. Pure: no GPU, no clock, no
/// unordered iteration, so the same tree always gives the same plan.
public struct FramePlanner {
    public var canvas: Canvas
    public var images: ImageTable

    public init(canvas: Canvas, images: ImageTable) { self.canvas = canvas; self.images = images }

    public func plan(root: Layer) -> FramePlan {
        var b = Builder(canvas: canvas, images: images)
        let device = Transform3D.scale(canvas.scale, canvas.scale, 1)
        b.visit(root, parentSublayerToDevice: device, clips: [], opacity: 1, flippedAncestors: 0, path: [])
        let clear = canvas.backgroundColor.map { RGBA(premultiplying: $0) } ?? .clear
        return FramePlan(pixelWidth: canvas.pixelWidth, pixelHeight: canvas.pixelHeight, clearColor: clear,
                         images: b.plannedImages, items: b.items, unsupported: b.unsupported,
                         offscreenPasses: b.offscreenPasses)
    }
}

/// An active masksToBounds clip while walking: its shape and the matrix from the current
/// sublayer space into the clip layer's bounds space.
struct ActiveClip {
    var fromSublayerSpace: Transform3D
    var shape: RoundedShape
    var layer: LayerID
}

struct Builder {
    let canvas: Canvas
    let images: ImageTable
    var items: [DrawItem] = []
    var plannedImages: [PlannedImage] = []
    var imageIndex: [UInt64: Int] = [:]
    var unsupported: [Unsupported] = []
    var reported: Set<String> = []
    var offscreenPasses: [OffscreenPass] = []

    init(canvas: Canvas, images: ImageTable) { self.canvas = canvas; self.images = images }

    mutating func report(_ f: UnsupportedFeature, _ layer: Layer, _ path: [Int]) {
        let key = "\(layer.id):\(f.rawValue)"
        if reported.insert(key).inserted {
            unsupported.append(Unsupported(feature: "\(layer.displayName(indexPath: path)): \(f.message)", location: layer.location))
        }
    }

    /// - Parameters:
    ///   - parentSublayerToDevice: the superlayer's sublayer space → device pixels.
    ///   - clips: masksToBounds clips of ancestors, each from the superlayer's sublayer space.
    ///   - opacity: the product of ancestors' opacities.
    mutating func visit(_ layer: Layer, parentSublayerToDevice: Transform3D, clips: [ActiveClip],
                        opacity: Double, flippedAncestors: Int, path: [Int]) {
        if layer.hidden { return }
        let alpha = opacity * min(max(layer.opacity, 0), 1)
        if alpha <= 0 { return }
        let toParent = layer.toSuperlayerSublayerSpace
        let world = toParent * parentSublayerToDevice
        // Huge but finite values multiplied together overflow; nothing can be placed with an
        // infinite or NaN matrix, and no NaN may reach the backend or the profiler's pixel counts.
        // Bounds within 1e10 of ±1.8e308 overflow once grown by a device pixel (at most 1e9 points).
        guard world.elements.allSatisfy(\.isFinite), layer.bounds.insetBy(dx: -1e10, dy: -1e10).allFinite else {
            report(.nonFiniteGeometry, layer, path); return
        }
        // doubleSided = NO: a back-facing layer is culled with its flattened subtree.
        if !layer.doubleSided, isBackFacing(layer.bounds, world) { return }
        // Clips in this layer's own bounds space.
        let localClips = clips.map { ActiveClip(fromSublayerSpace: toParent * $0.fromSublayerSpace, shape: $0.shape, layer: $0.layer) }
        // A clip's matrix into this layer's space can overflow even where the device matrix does
        // not (a huge scale under a tiny one): such a layer cannot be clipped, so is not drawn.
        guard localClips.allSatisfy({ $0.fromSublayerSpace.elements.allSatisfy(\.isFinite) }) else {
            report(.nonFiniteGeometry, layer, path); return
        }
        let clipList = drawClips(localClips, layer, path)
        let firstItem = items.count
        defer { recordOffscreenPasses(layer, world, subtreeItems: firstItem..<items.count) }

        reportUnsupported(layer, path)
        let draws = layer.layerClass != .transform   // CATransformLayer renders only its sublayers
        if draws {
            background(layer, world, alpha, clipList)
            contents(layer, world, alpha, clipList, flipped: flippedAncestors % 2 == 1, path: path)
        }

        // Sublayers, with this layer's bounds as a clip when masksToBounds.
        var childClips = localClips
        if layer.masksToBounds, draws {
            let own = ActiveClip(fromSublayerSpace: .identity,
                                 shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve), layer: layer.id)
            guard let merged = push(own, onto: childClips) else { finishBorder(layer, world, alpha, clipList); return }
            childClips = merged
        }
        let toSub = layer.sublayerSpaceToBounds
        let subToDevice = toSub * world
        childClips = childClips.map { ActiveClip(fromSublayerSpace: toSub * $0.fromSublayerSpace, shape: $0.shape, layer: $0.layer) }
        for i in renderOrder(layer, subToDevice) {
            visit(layer.sublayers[i], parentSublayerToDevice: subToDevice, clips: childClips, opacity: alpha,
                  flippedAncestors: flippedAncestors + (layer.geometryFlipped ? 1 : 0), path: path + [i])
        }
        finishBorder(layer, world, alpha, clipList)
    }

    mutating func finishBorder(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip]) {
        if layer.layerClass != .transform { border(layer, world, alpha, clips) }
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
        if layer.mask != nil { report(.mask, layer, path) }
        if layer.shadowOpacity > 0, let c = layer.shadowColor, c.alpha > 0 { report(.shadow, layer, path) }
        if layer.opacity < 1, layer.allowsGroupOpacity, !layer.sublayers.isEmpty, layer.layerClass != .transform {
            report(.groupOpacity, layer, path)
        }
        switch layer.layerClass {
        case .shape:
            if layer.shape.path != nil { report(.shapeContent, layer, path) }
        case .gradient:
            if let c = layer.gradient.colors, !c.isEmpty { report(.gradientContent, layer, path) }
        case .text:
            if let s = layer.text.string, !s.isEmpty { report(.textContent, layer, path) }
        case .replicator:
            if layer.replicator.instanceCount > 1, !layer.sublayers.isEmpty { report(.replicatorInstances, layer, path) }
        default: break
        }
    }
}
