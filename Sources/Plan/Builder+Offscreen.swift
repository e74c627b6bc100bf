import Geometry
import LayerModel

/// An offscreen target the planner's walk is inside: the layer that went offscreen and the list it
/// interrupted (what lies beneath the layer in the enclosing target).
struct OffscreenLevel {
    var layer: LayerID
    var saved: [DrawItem]
    var savedWhole: Bool
    /// The target is in the layer's own raster space (shouldRasterize), not the enclosing one's.
    var rasterized: Bool
    /// Whether a backdrop inside may read the target (not a mask's content).
    var readable = true
}

/// What a layer needs beyond drawing its items in place (reference §1.10 steps 6–9 and §8.1).
struct OffscreenEffects {
    /// masksToBounds + cornerRadius clipping the composite of more than one draw.
    var roundedClip = false
    /// opacity < 1 with allowsGroupOpacity over more than one draw.
    var groupOpacity = false
    /// A shadow without a shadowPath: rendered offscreen and blurred.
    var blurredShadow = false
    /// The mask layer.
    var mask: Layer?
    var rasterize = false
    /// A shadow with a recognised shadowPath (no pass).
    var analyticShadow: RoundedShape?
    /// A shadow with any other shadowPath (rasterised and blurred on the CPU, no pass).
    var pathShadow: Path?
    /// A CATransition state: rendered as a snapshot.
    var snapshot = false
    /// `filters` that change pixels (`Builder+Filters.swift`).
    var filters: [FilterStep] = []

    var needsOffscreen: Bool { roundedClip || groupOpacity || blurredShadow || mask != nil || rasterize || snapshot || !filters.isEmpty }

    /// The reasons of the pass that renders the layer's own content.
    var contentReasons: [OffscreenReason] {
        var r: [OffscreenReason] = []
        if !filters.isEmpty { r.append(.filter) }
        if mask != nil { r.append(.mask) }
        if blurredShadow { r.append(.shadow) }
        if groupOpacity { r.append(.groupOpacity) }
        if roundedClip { r.append(.roundedClip) }
        if snapshot { r.append(.transition) }
        return r
    }
}

/// The render graph: which layers go offscreen, into which targets, and how the results come back.
///
/// A layer that needs an offscreen pass is planned into its own item list in a target space:
/// device pixels of the current target (translated to the target's origin), or, for
/// shouldRasterize, the layer's own bounds space at rasterizationScale. Inside, the layer starts
/// at opacity 1 and without its ancestors' clips; its result is drawn back by `offscreen` items
/// that carry the layer's opacity (the group's fade) and the ancestors' clips. Passes:
///
/// - content: the layer's background, contents, sublayers and border (its shadow too when it has
///   a shadowPath). Targets are the tight device bounds of what is drawn, clipped to the canvas
///   (grown by the blur's reach for shadows);
/// - shadow: two blur passes over the content's alpha (horizontal, then vertical and tinted),
///   drawn back behind the content at the shadow offset;
/// - mask: the mask layer in the masked layer's space, applied with destination-in over the
///   content (and shadow); masksToBounds clips the composite by multiplication;
/// - rasterize: shadow + content in the layer's space, stored in the raster cache; on a hit the
///   passes are not run and the cached bitmap is drawn like an image with the layer's filters.
///
/// Rounded clips and group opacity go offscreen only when they clip or fade more than one draw
/// (§8.1's refinement: an image-only avatar clipped to a circle is clipped directly; a single
/// opaque layer is faded per item): otherwise the per-item path draws the same pixels.
extension Builder {
    mutating func offscreenEffects(_ layer: Layer, _ path: [Int]) -> OffscreenEffects {
        var fx = OffscreenEffects()
        if layer.layerClass == .transform { return fx }
        let draws = drawCount(layer, limit: 2, isRoot: true)
        // A shadowPath replaces the layer's composited alpha as the shadow's shape (the shadowPath
        // documentation), so a layer that draws nothing still casts its shadow (the "contact
        // shadow" special effect, or a clear container shadowing content clipped inside it), and
        // its mask, filters and shouldRasterize still apply to that shadow.
        let castsPathShadow = layer.shadowPath.map { !$0.elements.isEmpty } == true && shadowColor(layer, alpha: 1) != nil
        if draws == 0, !castsPathShadow { return fx }
        if layer.masksToBounds, layer.cornerRadii.contains(where: { $0 > 0 }), draws >= 2,
           clippedDrawCount(layer) > 0 {
            fx.roundedClip = true
        }
        if layer.opacity < 1, layer.allowsGroupOpacity, draws >= 2 { fx.groupOpacity = true }
        if shadowColor(layer, alpha: 1) != nil {
            if let p = layer.shadowPath {
                shadowPathEffects(&fx, p)
            } else {
                fx.blurredShadow = true
            }
        }
        if let m = layer.mask, !m.hidden, m.opacity > 0 { fx.mask = m }   // else nothing is drawn (`visit`)
        if layer.shouldRasterize { fx.rasterize = true }
        // A CABackdropLayer's filters filter its backdrop (Builder+Backdrop.swift), not its content.
        if layer.layerClass != .backdrop { fx.filters = filterSteps(layer.filters) }
        return fx
    }

    /// A shadowPath's shadow: analytic for a rectangle, rounded rectangle or circle, rasterised
    /// for any other path (an empty path casts nothing).
    private func shadowPathEffects(_ fx: inout OffscreenEffects, _ p: Path) {
        fx.analyticShadow = RoundedShape(path: p)
        if fx.analyticShadow == nil, !p.elements.isEmpty { fx.pathShadow = p }
    }

    /// Draws of a layer and its subtree, counted up to `limit`: background, contents, subclass
    /// content, border, and sublayers' shadows and draws (never the root's own shadow).
    func drawCount(_ l: Layer, limit: Int, isRoot: Bool) -> Int {
        if !isRoot, l.hidden || l.opacity <= 0 || Self.maskHidesAll(l) { return 0 }
        var n = 0
        if l.layerClass != .transform {
            if let bg = l.backgroundColor, bg.alpha > 0, !l.bounds.isEmpty { n += 1 }
            // A backdrop draws what it captured (Builder+Backdrop.swift), so its mask, opacity
            // and rounded clip apply to that.
            if l.layerClass == .backdrop || !l.backgroundFilters.isEmpty, !l.bounds.isEmpty { n += 1 }
            n += ownContentDraws(l)
            if l.borderWidth > 0, let c = l.borderColor, c.alpha > 0, !l.bounds.isEmpty { n += 1 }
            if !isRoot, shadowColor(l, alpha: 1) != nil { n += 1 }
        }
        for s in l.sublayers where n < limit { n += drawCount(s, limit: limit - n, isRoot: false) }
        return min(n, limit)
    }

    /// Contents and subclass content (drawn or not yet: it still takes part in the analysis).
    func ownContentDraws(_ l: Layer) -> Int {
        var n = 0
        if let c = l.contents, let info = images[c.origin], info.width > 0 { n += 1 }
        switch l.layerClass {
        case .shape: if l.shape.path != nil { n += 1 }
        case .gradient: if let c = l.gradient.colors, !c.isEmpty { n += 1 }
        case .text: if let s = l.text.string, !s.isEmpty { n += 1 }
        default: break
        }
        return n
    }

    /// What a masksToBounds clip must clip: contents and sublayers.
    func clippedDrawCount(_ l: Layer) -> Int {
        var n = ownContentDraws(l)
        for s in l.sublayers where n == 0 { n += drawCount(s, limit: 1, isRoot: false) }
        return n
    }

    mutating func visitOffscreen(_ c: LayerContext, _ fx: OffscreenEffects) {
        var fx = fx
        let layer = c.layer
        // A shadow offset that overflows in the target (a huge offset under a large scale) cannot
        // be placed: like any overflowing geometry, the layer is reported and not drawn.
        if fx.blurredShadow {
            let rs = max(layer.rasterizationScale, 1e-3)
            let o = offsetInTarget(layer.shadowOffset, fx.rasterize ? .scale(rs, rs, 1) : c.world)
            guard o.x.isFinite, o.y.isFinite else { report(.nonFiniteGeometry, layer, c.path); return }
        }
        // Backdrops inside read this target (Builder+Backdrop.swift).
        offscreenDepth += 1
        offscreenLevels.append(OffscreenLevel(layer: layer.id, saved: items, savedWhole: listIsWholeTarget, rasterized: fx.rasterize))
        defer { offscreenDepth -= 1; offscreenLevels.removeLast() }
        let passesBefore = offscreenPasses.count
        let rs = max(layer.rasterizationScale, 1e-3)
        // The target space of the layer's image: the current target, or its own space at rasterizationScale.
        let space: Transform3D = fx.rasterize ? .scale(rs, rs, 1) : c.world
        let spaceScale = fx.rasterize ? rs : c.world.planarScale
        fx.filters = boundedVariableBlurs(fx.filters, scale: spaceScale, layer, c.path)
        let separateContent = !fx.rasterize || fx.blurredShadow || !fx.filters.isEmpty
        let sigma = fx.blurredShadow ? max(layer.shadowRadius, 0) * spaceScale : 0
        let reach = (fx.blurredShadow ? (3 * sigma).rounded(.up) + 1 : 0) + Self.filterReach(fx.filters, scale: spaceScale)
        let shadowOffset = fx.blurredShadow ? offsetInTarget(layer.shadowOffset, fx.rasterize ? space : c.world) : Point(0, 0)
        let margin = reach + max(abs(shadowOffset.x), abs(shadowOffset.y))
        let savedCull = cullToCanvas, savedMargin = cullMargin
        if fx.rasterize { cullToCanvas = false }
        // Content off the canvas still casts its blurred shadow (or filter) onto it: cull against
        // the canvas grown by the reach and the offset, as the target is (`targetRect` below).
        if margin.isFinite { cullMargin += margin }

        // 1. The layer's own content, at opacity 1, without ancestors' clips.
        let savedItems = items, savedWhole = listIsWholeTarget
        items = []
        listIsWholeTarget = true
        if Self.placeableOnDevice(layer.bounds, space) {   // else reported by `draw` below
            if let shape = fx.analyticShadow { shadow(layer, space, 1, [], shape: shape, nodePath: c.path) }
            if let p = fx.pathShadow { pathShadow(layer, space, 1, [], path: p, nodePath: c.path) }
        }
        draw(layer, world: space, clips: [], alpha: 1, flippedAncestors: c.flippedAncestors, path: c.path,
             clipOwnContent: !(fx.roundedClip && separateContent))
        let content = items
        items = savedItems
        listIsWholeTarget = savedWhole
        cullToCanvas = savedCull
        cullMargin = savedMargin

        guard var box = Self.bounds(of: content) else { dropPasses(from: passesBefore); return }
        if fx.roundedClip, separateContent {
            // Nothing outside the clip's shape is composited: the target needs only its bounds.
            let clip = Rect.bounding(DeviceProjection.polygon(layer.bounds.corners, space))
            guard let inside = box.intersection(clip) else { dropPasses(from: passesBefore); return }
            box = inside
        }
        box = box.insetBy(dx: -reach, dy: -reach)
        // Only what survives the ancestors' masksToBounds is composited (`cut`; a raster-cache
        // bitmap holds the whole layer, clipped or not).
        guard fx.rasterize || Self.cut(&box, to: c.clips, grownBy: margin) else { dropPasses(from: passesBefore); return }
        guard let r = fx.rasterize
                ? Self.rasterRect(box)
                : targetRect(box, grownBy: margin)
        else { dropPasses(from: passesBefore); return }

        // 2. The image of the layer (shadow + content, before opacity) in the target space.
        var image: [DrawItem] = []
        if separateContent {
            var contentItems = Self.moved(content, by: -Double(r.x), -Double(r.y))
            var maskFolded = false
            if let mask = fx.mask, !fx.blurredShadow, !fx.rasterize, fx.filters.isEmpty,
               let m = maskPass(mask, of: c, space: space, target: r) {
                contentItems.append(m)
                maskFolded = true
            }
            let contentPass = addPass(fx.contentReasons, layer, r, space: fx.rasterize ? nil : .identity, .draw(contentItems))
            if fx.blurredShadow, let tint = shadowColor(layer, alpha: 1) {
                let blur = ShadowBlur(sigma: sigma, side: max(r.width, r.height))
                let f = blur.downsample
                let small = PixelRect(x: r.x, y: r.y, width: (r.width + f - 1) / f, height: (r.height + f - 1) / f)
                // At a reduced resolution the content is first averaged f×f once (a blur of σ 0), so
                // each tap of the blur reads one texel, not f².
                var source = contentPass
                if f > 1 {
                    source = addPass([.shadow], layer, small, space: fx.rasterize ? nil : .identity,
                                     .blur(source: contentPass, sigma: 0, horizontal: true, tint: tint, downsample: f), footprint: r)
                }
                let h = addPass([.shadow], layer, small, space: fx.rasterize ? nil : .identity,
                                .blur(source: source, sigma: blur.sigma, horizontal: true, tint: tint, downsample: 1), footprint: r)
                let v = addPass([.shadow], layer, small, space: fx.rasterize ? nil : .identity,
                                .blur(source: h, sigma: blur.sigma, horizontal: false, tint: tint, downsample: 1), footprint: r)
                var shadowItem = composite(.pass(v), layer, r, at: Point(Double(r.x) + shadowOffset.x, Double(r.y) + shadowOffset.y),
                                           role: .shadow)
                if f > 1 {
                    shadowItem.uv = Rect(0, 0, Double(r.width) / Double(f), Double(r.height) / Double(f))
                    shadowItem.paint = .offscreen(.pass(v), sampling: .linear, opacity: 1)
                }
                image.append(shadowItem)
                if layer.masksToBounds, let clip = ownClip(layer, space: space, forItemAt: image[image.count - 1].transform) {
                    image[image.count - 1].clips.append(clip)
                }
            }
            if fx.filters.isEmpty {
                image.append(composite(.pass(contentPass), layer, r, at: Point(Double(r.x), Double(r.y)), role: .offscreen))
            } else {
                let bounds = Rect.bounding(DeviceProjection.polygon(layer.bounds.corners, space))
                let chain = planFilterChain(fx.filters, layer, reasons: [.filter], source: contentPass, r, scale: spaceScale,
                                            canvasSpace: !fx.rasterize,
                                            boundsInTarget: Rect(bounds.minX - Double(r.x), bounds.minY - Double(r.y), bounds.width, bounds.height))
                image.append(filteredComposite(chain.pass, factor: chain.factor, layer, r))
            }
            if fx.roundedClip, let clip = ownClip(layer, space: space, forItemAt: image[image.count - 1].transform) {
                image[image.count - 1].clips.append(clip)
                image += Self.splitAtCorners(image.removeLast())
            }
            if maskFolded { return finish(c, image, mask: nil) }
        } else {
            image = content   // rasterize without a blurred shadow: the content is the cached image
        }

        // 3. shouldRasterize: cache the image in the layer's space, draw it back through the layer's matrix.
        if fx.rasterize {
            // The image is in the layer's space at rasterizationScale (the content pass at r, or the content itself).
            let rasterBox = Self.bounds(of: image) ?? box
            guard let rr = Self.rasterRect(rasterBox) else { dropPasses(from: passesBefore); return }
            let cached = Self.moved(image, by: -Double(rr.x), -Double(rr.y))
            let toWorld = Transform3D.translation(Double(rr.x), Double(rr.y)) * Transform3D.scale(1 / rs, 1 / rs, 1) * c.world
            // A bitmap whose origin lies far out (content at 10³⁰⁰ points) can overflow the matrix
            // that draws it back, under a perspective: like any overflowing geometry, not drawn.
            guard toWorld.elements.allSatisfy(\.isFinite) else {
                report(.nonFiniteGeometry, layer, c.path); dropPasses(from: passesBefore); return
            }
            let key = rasterize(layer, cached, reasons: separateContent ? [.rasterize] : [.rasterize] + fx.contentReasons,
                                size: rr, toWorld: toWorld, passesBefore: passesBefore)
            let quad = Rect(0, 0, Double(rr.width), Double(rr.height))
            let sampling = chooseSampling(layer, toWorld, quad, quad)
            image = [DrawItem(layer: layer.id, role: .offscreen, paint: .offscreen(.rasterCache(key), sampling: sampling, opacity: 1),
                              transform: toWorld, quad: quad, uv: quad)]
        }
        finish(c, image, mask: fx.mask)
    }

    /// Applies the mask (if still to apply), the layer's opacity and the ancestors' clips to the
    /// layer's image, and adds it to the current list.
    private mutating func finish(_ c: LayerContext, _ image: [DrawItem], mask: Layer?) {
        var image = image
        if let mask, let box = Self.bounds(of: image).flatMap({ Self.clipped($0, c.clips) }), let r = targetRect(box, grownBy: 0) {
            var inner = Self.moved(image, by: -Double(r.x), -Double(r.y))
            if let m = maskPass(mask, of: c, space: c.world, target: r) {
                inner.append(m)
                let k = addPass([.mask], c.layer.id, r, space: .identity, .draw(inner))
                image = [composite(.pass(k), c.layer, r, at: Point(Double(r.x), Double(r.y)), role: .offscreen)]
            }
        }
        for var item in image {
            scaleOpacity(&item, by: Float(c.alpha))
            guard let ancestors = clips(c.clips, forTargetItem: item.transform, c.layer, c.path) else { continue }
            item.clips = ancestors + item.clips
            if item.clips.count > DrawItem.maxClips {
                report(.deepClipNesting, c.layer, c.path)
                item.clips = Array(item.clips.suffix(DrawItem.maxClips))
            }
            items.append(item)
        }
    }

    /// Renders the mask layer into a target the size of `target` (in `space`, the masked layer's
    /// bounds space → the current target) and returns the item that applies it (destination-in).
    private mutating func maskPass(_ mask: Layer, of c: LayerContext, space: Transform3D, target r: PixelRect) -> DrawItem? {
        if mask.mask != nil { report(.nestedMask, mask, c.path) }
        var m = mask
        m.mask = nil
        let savedItems = items, savedWhole = listIsWholeTarget
        items = []
        listIsWholeTarget = true
        // A mask's content is coverage, not a picture: a backdrop inside it captures nothing.
        offscreenDepth += 1
        offscreenLevels.append(OffscreenLevel(layer: c.layer.id, saved: [], savedWhole: false, rasterized: false, readable: false))
        visit(m, parentSublayerToDevice: space, clips: [], opacity: 1, flippedAncestors: 0, path: c.path)
        offscreenDepth -= 1
        offscreenLevels.removeLast()
        let maskItems = Self.moved(items, by: -Double(r.x), -Double(r.y))
        items = savedItems
        listIsWholeTarget = savedWhole
        let quad = Rect(0, 0, Double(r.width), Double(r.height))
        // An empty mask hides everything: the destination-in of a transparent target.
        let pass = addPass([.mask], c.layer.id, r, space: .identity, .draw(maskItems))
        return DrawItem(layer: c.layer.id, role: .offscreen, paint: .offscreen(.pass(pass), sampling: .texelFetch, opacity: 1),
                        transform: .identity, quad: quad, uv: quad, blend: .destinationIn)
    }

    /// The item drawing pass `source`'s target (r's size) with its top-left at `origin`.
    func composite(_ source: OffscreenSource, _ layer: Layer, _ r: PixelRect, at origin: Point, role: DrawItem.Role) -> DrawItem {
        let quad = Rect(0, 0, Double(r.width), Double(r.height))
        let aligned = isIntegral(origin.x) && isIntegral(origin.y)
        return DrawItem(layer: layer.id, role: role, paint: .offscreen(source, sampling: aligned ? .texelFetch : .linear, opacity: 1),
                        transform: .translation(origin.x, origin.y), quad: quad, uv: quad)
    }

    /// The layer's own rounded bounds as a clip for an item at `transform` in the target `space`.
    private func ownClip(_ layer: Layer, space: Transform3D, forItemAt transform: Transform3D) -> Clip? {
        guard let inverse = space.planarInverse else { return nil }
        return Clip(transform: transform * inverse,
                    shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve), layer: layer.id)
    }

    /// Appends a pass; `space` = .identity for targets in the canvas's device space (their canvas
    /// bounds are `r` clipped to the canvas), nil for raster-cache space (bounds set by the caller).
    /// `footprint`: where the result lands on the canvas when it differs from `r` (a target at
    /// reduced resolution covers the full-resolution rectangle).
    private mutating func addPass(_ reasons: [OffscreenReason], _ layer: Layer, _ r: PixelRect, space: Transform3D?,
                                  _ op: OffscreenPass.Operation, footprint: PixelRect? = nil) -> Int {
        addPass(reasons, layer.id, r, space: space, op, footprint: footprint)
    }

    mutating func addPass(_ reasons: [OffscreenReason], _ layer: LayerID, _ r: PixelRect, space: Transform3D?,
                          _ op: OffscreenPass.Operation, footprint: PixelRect? = nil) -> Int {
        let canvasBounds = space == nil ? PixelRect(x: 0, y: 0, width: 0, height: 0) : clippedToCanvas(footprint ?? r)
        var op = op
        if case .draw(let items) = op { op = .draw(Self.placeable(items)) }
        offscreenPasses.append(OffscreenPass(reasons: reasons, layer: layer, bounds: canvasBounds,
                                             width: r.width, height: r.height, operation: op))
        return offscreenPasses.count - 1
    }

    func clippedToCanvas(_ r: PixelRect) -> PixelRect {
        let x0 = max(r.x, 0), y0 = max(r.y, 0)
        let x1 = min(r.x + r.width, canvas.pixelWidth), y1 = min(r.y + r.height, canvas.pixelHeight)
        return PixelRect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
    }

    /// A device-space target for `box`: whole pixels, clipped to the canvas grown by `margin`
    /// (content just off the canvas still casts its shadow onto it).
    ///
    /// The grown canvas never exceeds `Canvas.maxPixelSide` (16384 px) per side, so no target is
    /// larger than the largest canvas (every device renders that): a blur reaching further sees
    /// the content within (16384 − canvas side) / 2 px of the canvas only. Our choice; at that
    /// reach (≥ 2.6σ for any blur whose reach is 3σ) what is left out weighs under 1 %.
    func targetRect(_ box: Rect, grownBy margin: Double) -> PixelRect? {
        let m = max(margin.isNaN ? 0 : margin, 0)
        let mx = Int(min(m, Double(max(Canvas.maxPixelSide - canvas.pixelWidth, 0) / 2)).rounded(.up))
        let my = Int(min(m, Double(max(Canvas.maxPixelSide - canvas.pixelHeight, 0) / 2)).rounded(.up))
        return DeviceProjection.pixelBounds(box, width: canvas.pixelWidth + 2 * mx, height: canvas.pixelHeight + 2 * my,
                                            originX: Double(-mx), originY: Double(-my))
    }

    /// shadowOffset (layer units) as a vector in the target: the linear part of the layer's matrix.
    private func offsetInTarget(_ o: Size, _ m: Transform3D) -> Point {
        Point(o.width * m.m11 + o.height * m.m21, o.width * m.m12 + o.height * m.m22)
    }

    /// Removes the passes planned since `start` (nothing of them is drawn), and forgets raster-cache
    /// entries they would have stored.
    mutating func dropPasses(from start: Int) {
        guard offscreenPasses.count > start else { return }
        let dropped = Set(offscreenPasses[start...].compactMap(\.rasterCacheKey))
        if !dropped.isEmpty {
            let layers = cache.entries.filter { dropped.contains($0.value.key) }.map(\.key)
            for id in layers { cache.entries[id] = nil }
            cacheEvents.removeAll { layers.contains($0.layer) }
        }
        offscreenPasses.removeSubrange(start...)
        nestedCaptures = nestedCaptures.filter { $0.key < start }
        // What blends took off their targets into dropped passes is drawn nowhere now; a later pass
        // at the same index must not be taken for it.
        movedBeneath = movedBeneath.filter { $0.key < start }
    }

    /// The largest side of a raster-cache bitmap (texels); content beyond it (right and below) is cut.
    static let maxRasterSide = 8192

    /// Whole texels of `box` in the layer's raster space, at most `maxRasterSide` per side from its
    /// top-left corner.
    static func rasterRect(_ box: Rect) -> PixelRect? {
        guard box.minX.isFinite, box.minY.isFinite, abs(box.minX) < 1e9, abs(box.minY) < 1e9 else { return nil }
        let x0 = box.minX.rounded(.down), y0 = box.minY.rounded(.down)
        return DeviceProjection.pixelBounds(box, width: maxRasterSide, height: maxRasterSide, originX: x0, originY: y0)
    }

    /// Device bounds of items in their target (nil when nothing projects in front of the eye).
    static func bounds(of items: [DrawItem]) -> Rect? {
        var box: Rect?
        for item in items {
            let p = DeviceProjection.polygon(item.quad.corners, item.transform)
            if p.isEmpty { continue }
            let r = Rect.bounding(p)
            if !(r.minX.isFinite && r.minY.isFinite && r.maxX.isFinite && r.maxY.isFinite) { continue }
            box = box.map { $0.union(r) } ?? r
        }
        return box
    }

    /// Items whose matrix, quad and clips are finite: moving a projective matrix to a target's
    /// origin can overflow with extreme values (found by fuzzing), and what cannot be placed is
    /// not drawn, as the planner does for layers.
    static func placeable(_ items: [DrawItem]) -> [DrawItem] {
        items.filter { item in
            item.transform.elements.allSatisfy(\.isFinite)
                && [item.quad.minX, item.quad.minY, item.quad.maxX, item.quad.maxY].allSatisfy(\.isFinite)
                && item.clips.allSatisfy { $0.transform.elements.allSatisfy(\.isFinite) }
        }
    }

    /// Items moved by (dx, dy) in their target.
    static func moved(_ items: [DrawItem], by dx: Double, _ dy: Double) -> [DrawItem] {
        if dx == 0 && dy == 0 { return items }
        let t = Transform3D.translation(dx, dy)
        return items.map { var i = $0; i.transform = i.transform * t; return i }
    }
}

func scaleOpacity(_ item: inout DrawItem, by f: Float) {
    if f == 1 { return }
    switch item.paint {
    case .solid(let c): item.paint = .solid(RGBA(c.r * f, c.g * f, c.b * f, c.a * f))
    case .image(let i, let s, let o): item.paint = .image(index: i, sampling: s, opacity: o * f)
    case .offscreen(let src, let s, let o): item.paint = .offscreen(src, sampling: s, opacity: o * f)
    case .blurredShape(let c, let sigma): item.paint = .blurredShape(RGBA(c.r * f, c.g * f, c.b * f, c.a * f), sigma: sigma)
    }
}
