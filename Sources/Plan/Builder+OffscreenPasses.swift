import Geometry
import LayerModel

/// Offscreen passes (reference §8.1), recorded after a layer's subtree has been planned, so a
/// pass knows the draw items it renders and nested passes come first. Recording never changes
/// what is drawn.
///
/// Targets:
/// - `roundedClip`: the clip's device bounds (the layer's bounds on screen), clipped to the canvas.
/// - `mask`, `shadow`, `groupOpacity`: the device bounds of everything the subtree draws (what
///   must be rendered before it can be masked, shadowed or faded), clipped to the canvas.
/// Ancestors' clips are not applied to the targets (an overestimate only where a clipped layer
/// overflows its clip).
extension Builder {
    mutating func recordOffscreenPasses(_ layer: Layer, _ world: Transform3D, subtreeItems range: Range<Int>) {
        if range.isEmpty || layer.layerClass == .transform { return }
        // Something other than the layer's own background and border: contents or sublayers.
        let clipsSomething = items[range].contains { $0.layer != layer.id || $0.role == .contents }
        let drawsSublayers = items[range].contains { $0.layer != layer.id }
        var subtreeBounds: PixelRect? {
            var box: Rect?
            for item in items[range] {
                let p = DeviceProjection.polygon(item.quad.corners, item.transform)
                if p.isEmpty { continue }
                let r = Rect.bounding(p)
                box = box.map { $0.union(r) } ?? r
            }
            return box.flatMap { DeviceProjection.pixelBounds($0, width: canvas.pixelWidth, height: canvas.pixelHeight) }
        }
        func add(_ reason: OffscreenReason, _ bounds: PixelRect?) {
            if let b = bounds { offscreenPasses.append(OffscreenPass(reason: reason, layer: layer.id, bounds: b, items: range)) }
        }
        if layer.masksToBounds, layer.cornerRadii.contains(where: { $0 > 0 }), clipsSomething {
            add(.roundedClip, DeviceProjection.pixelBounds(layer.bounds, world, width: canvas.pixelWidth, height: canvas.pixelHeight))
        }
        if layer.mask != nil { add(.mask, subtreeBounds) }
        if layer.shadowOpacity > 0, let c = layer.shadowColor, c.alpha > 0, layer.shadowPath == nil { add(.shadow, subtreeBounds) }
        if layer.opacity < 1, layer.allowsGroupOpacity, drawsSublayers { add(.groupOpacity, subtreeBounds) }
    }
}
