import Geometry
import LayerModel

/// Backdrops (reference §1.11b): a CABackdropLayer (through its `filters`) and a layer's
/// `backgroundFilters` show what has been composited beneath the layer's bounds at that point of
/// the painter's order, filtered, inside the layer's rounded bounds, before the layer's own
/// background (render order step 1½).
///
/// Planned as a capture pass (`OffscreenPass.Operation.backdrop`) whose source is the canvas as
/// drawn so far: the backend draws the canvas items planned before it, copies the region, and
/// goes on (`BackdropCapture` in Render). The region is the layer's device bounds grown by the
/// chain's blur reach (so a blur near the edges sees what lies around, as on a device), clipped
/// to the canvas; the capture target is that region times the backdrop's `scale` (1 for
/// `backgroundFilters`; clamped to 1/16…1), and the chain (`Builder+Filters.swift`) runs at that
/// resolution, its blurs renormalised where the capture is cut by the canvas's edges. The result is drawn back with the layer's opacity and its ancestors' clips.
///
/// Decisions where Core Animation is silent:
/// - `groupName`: the first backdrop of a group captures; a later one with the same name reuses
///   that capture and its filtered result when its own region lies inside it (one capture for a
///   bar split into pieces), else captures on its own.
/// - A backdrop inside an offscreen target (an ancestor's group opacity, mask, rounded clip,
///   filters, shadow, shouldRasterize, compositingFilter or transition snapshot) reads that target:
///   what its layer's subtree drew beneath the backdrop, transparent elsewhere, never the canvas
///   beyond it. This is W3C Filter Effects Level 2's "Backdrop Root" (backdrop-filter reads up to
///   the nearest ancestor with a filter, opacity < 1, a mask, a clip or a blend mode), which is
///   also what Apple warns of for UIVisualEffectView under a superview's alpha < 1 (the effect
///   "may look incorrect or not show up at all"). The backdrop's own offscreen effects (its own
///   mask, opacity, shadow, blend mode) apply to what it shows, so they are not its backdrop root.
///   Planned as a draw of that target's items so far into the capture target (as a blend mode's
///   destination is: targets cannot be copied mid-list yet); the profiler sees one capture pass,
///   as over the canvas (`nestedCaptures`). Not planned, and reported
///   (`UnsupportedFeature.nestedBackdrop`): a backdrop inside a mask's layers, a backdrop whose own
///   shouldRasterize puts it in another space than what lies beneath it, and one in a
///   cross-dissolve's list of two states. Nor one whose capture would take the items the frame's
///   backdrops inside targets draw again past `maxBackdropCaptureItems` (each draws its target so
///   far: n of them in one target copy n²/2 items; `UnsupportedFeature.backdropBudget`).
extension Builder {
    /// What a backdrop reads: the canvas after its first `itemCount` items, or an offscreen
    /// target's items drawn so far (in the current target's space).
    enum BackdropRoot { case canvas(itemCount: Int), target([DrawItem]) }

    /// The backdrop root of `layer` (see above), or nil where none is planned.
    func backdropRoot(_ layer: Layer) -> BackdropRoot? {
        var levels = offscreenLevels[...]
        var beneath = items, whole = listIsWholeTarget
        // The backdrop's own offscreen passes (its mask, opacity, blend mode) come after it reads.
        while let own = levels.last, own.layer == layer.id {
            guard !own.rasterized, own.readable else { return nil }
            beneath = own.saved; whole = own.savedWhole
            levels.removeLast()
        }
        guard whole else { return nil }
        guard let root = levels.last else { return .canvas(itemCount: beneath.count) }
        return root.readable ? .target(beneath) : nil
    }

    /// A planned capture of a backdrop group: its filtered result and where it covers.
    struct BackdropGroupCapture {
        var pass: Int
        var factor: Int
        var region: PixelRect
        var scale: Double
    }

    mutating func backdrop(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], path: [Int]) {
        let isBackdrop = layer.layerClass == .backdrop
        let filters = isBackdrop ? layer.filters : layer.backgroundFilters
        guard isBackdrop || !filters.isEmpty, !layer.bounds.isEmpty, alpha > 0 else { return }
        guard let root = backdropRoot(layer) else { report(.nestedBackdrop, layer, path); return }
        // In a raster-cache bitmap's space nothing is clipped to the canvas.
        let projected = cullToCanvas
            ? DeviceProjection.pixelBounds(layer.bounds, world, width: canvas.pixelWidth, height: canvas.pixelHeight)
            : Self.rasterRect(Rect.bounding(DeviceProjection.polygon(layer.bounds.corners, world)))
        guard let own = projected, !own.isEmpty else { return }
        // Nothing lies beyond the screen: a backdrop's blur renormalises where the capture stops at
        // the canvas's edges (transparent black there would darken a bar at the top of the screen).
        // Inside, the capture reaches as far as the blur does, so the kernel is whole.
        let bounded = boundedVariableBlurs(filterSteps(filters), scale: world.planarScale, layer, path)
        let reach = Int(Self.filterReach(bounded, scale: world.planarScale))
        let steps = bounded.map { step -> FilterStep in
            switch step {
            case .blur(let sigma, _): return .blur(sigma: sigma, normalizeEdges: true)
            case .variableBlur(let sigma, _, let mask): return .variableBlur(sigma: sigma, normalizeEdges: true, mask: mask)
            case .color: return step
            }
        }
        let scale = isBackdrop ? min(max(layer.backdrop.scale.isFinite ? layer.backdrop.scale : 1, 1.0 / 16), 1) : 1
        let group = isBackdrop ? layer.backdrop.groupName : nil

        var capture: BackdropGroupCapture
        // Groups share captures of the canvas only (a target's capture reads that target alone).
        let canvasCount: Int? = if case .canvas(let n) = root { n } else { nil }
        if canvasCount != nil, let g = group, let shared = backdropGroups[g], Self.contains(shared.region, own) {
            capture = shared
        } else {
            let grown = PixelRect(x: own.x - reach, y: own.y - reach, width: own.width + 2 * reach, height: own.height + 2 * reach)
            let region = cullToCanvas ? clippedToCanvas(grown) : grown
            guard !region.isEmpty, cullToCanvas || (region.width <= Self.maxRasterSide && region.height <= Self.maxRasterSide) else { return }
            let target = PixelRect(x: region.x, y: region.y, width: max(Int((Double(region.width) * scale).rounded(.up)), 1),
                                   height: max(Int((Double(region.height) * scale).rounded(.up)), 1))
            let source: Int
            switch root {
            case .canvas(let n):
                source = addPass([.backdrop], layer.id, target, space: .identity,
                                 .backdrop(BackdropCapture(canvasItemCount: n, region: region)), footprint: region)
            case .target(let beneath):
                // Every such capture draws what lies beneath it again: without a bound, n backdrops
                // in one target (a replicator's instances in a faded group) would copy n²/2 items
                // (1000 took 1.6 GB and 7 s to plan a frame, 2000 past 4.7 GB).
                if backdropCaptureItems + beneath.count > Self.maxBackdropCaptureItems {
                    report(.backdropBudget, layer, path)
                    return
                }
                backdropCaptureItems += beneath.count
                // What the target holds beneath the backdrop, drawn again into the capture (scaled
                // as the copy would be).
                let k = Transform3D.scale(scale, scale, 1)
                let drawn = Self.moved(beneath, by: -Double(region.x), -Double(region.y)).map { item -> DrawItem in
                    var item = item
                    if scale != 1 { item.transform = item.transform * k }
                    return item
                }
                source = addPass([.backdrop], layer.id, target, space: cullToCanvas ? .identity : nil, .draw(drawn), footprint: region)
                nestedCaptures[source] = region
            }
            let bounds = Rect.bounding(DeviceProjection.polygon(layer.bounds.corners, world))
            let chain = planFilterChain(steps, layer, reasons: [.backdrop], source: source, target,
                                        scale: world.planarScale * scale, canvasSpace: cullToCanvas,
                                        boundsInTarget: Rect((bounds.minX - Double(region.x)) * scale, (bounds.minY - Double(region.y)) * scale,
                                                             bounds.width * scale, bounds.height * scale),
                                        footprint: region)
            capture = BackdropGroupCapture(pass: chain.pass, factor: chain.factor, region: region, scale: scale)
            if canvasCount != nil, let g = group, backdropGroups[g] == nil { backdropGroups[g] = capture }
        }

        // The capture target's texels per device pixel.
        let k = capture.scale / Double(capture.factor)
        let shape = RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve)
        let paint = DrawItem.Paint.offscreen(.pass(capture.pass), sampling: .linear, opacity: Float(alpha))
        let w = world
        if w.m12 == 0, w.m21 == 0, w.m14 == 0, w.m24 == 0, w.m34 == 0, w.m44 == 1, w.m11 > 0, w.m22 > 0 {
            // Axis-aligned: the item covers the layer's bounds; texel coordinates follow linearly.
            let b = layer.bounds.standardized
            let x0 = b.minX * w.m11 + w.m41, y0 = b.minY * w.m22 + w.m42
            let x1 = b.maxX * w.m11 + w.m41, y1 = b.maxY * w.m22 + w.m42
            let uv = Rect((x0 - Double(capture.region.x)) * k, (y0 - Double(capture.region.y)) * k, (x1 - x0) * k, (y1 - y0) * k)
            var item = DrawItem(layer: layer.id, role: .offscreen, paint: paint, transform: world, quad: b, uv: uv,
                                shape: shape.isRectangle ? nil : shape, clips: clips)
            if k == 1, isIntegral(x0), isIntegral(y0), isIntegral(x1), isIntegral(y1) {
                item.paint = .offscreen(.pass(capture.pass), sampling: .texelFetch, opacity: Float(alpha))
            }
            items.append(item)
        } else if let inverse = world.planarInverse {
            // Turned or projected: the captured region drawn in canvas space, clipped to the shape.
            let quad = Rect(0, 0, Double(capture.region.width), Double(capture.region.height))
            let t = Transform3D.translation(Double(capture.region.x), Double(capture.region.y))
            var item = DrawItem(layer: layer.id, role: .offscreen, paint: paint, transform: t, quad: quad,
                                uv: Rect(0, 0, quad.width * k, quad.height * k))
            item.clips = clips.map { Clip(transform: t * inverse * $0.transform, shape: $0.shape, layer: $0.layer) }
                + [Clip(transform: t * inverse, shape: shape, layer: layer.id)]
            if item.clips.count > DrawItem.maxClips { item.clips = Array(item.clips.suffix(DrawItem.maxClips)) }
            items.append(item)
        }
    }

    /// The most items one frame's backdrops inside offscreen targets draw again into their
    /// captures (as `maxBlendDestinationItems` bounds blend modes').
    static let maxBackdropCaptureItems = 100_000

    static func contains(_ outer: PixelRect, _ inner: PixelRect) -> Bool {
        inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width
            && inner.y + inner.height <= outer.y + outer.height
    }

    /// The origin of a filter pass's chain: the content pass it started from, or a backdrop capture.
    enum FilterOrigin { case draw([DrawItem]), backdrop(BackdropCapture) }

    func filterOrigin(_ pass: Int) -> FilterOrigin? {
        var k = pass
        for _ in 0..<offscreenPasses.count {
            guard offscreenPasses.indices.contains(k) else { return nil }
            switch offscreenPasses[k].operation {
            case .filter(let op): k = op.source
            case .draw(let items):
                // A backdrop's capture inside a target is a draw of what lay beneath it: a capture.
                if let region = nestedCaptures[k] { return .backdrop(BackdropCapture(canvasItemCount: 0, region: region)) }
                return .draw(items)
            case .backdrop(let c): return .backdrop(c)
            case .blur, .blend: return nil
            }
        }
        return nil
    }

    /// A backdrop's draw as the profiler sees it: the layer's shape filled with what was
    /// captured (an opaque fill at the layer's opacity; blended where the shape's edges or the
    /// opacity make it so).
    func backdropLogicalItem(_ item: DrawItem, _ capture: BackdropCapture) -> DrawItem {
        var x = item
        if case .offscreen(_, _, let opacity) = item.paint { x.paint = .solid(RGBA(opacity, opacity, opacity, opacity)) }
        return x
    }
}
