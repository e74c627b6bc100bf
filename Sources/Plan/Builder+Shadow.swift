import Geometry
import LayerModel

/// Shadows (reference §1.11): shadowColor with its alpha × shadowOpacity, offset by shadowOffset
/// and blurred by a Gaussian of σ = shadowRadius, all in the layer's own space (so the shadow
/// turns and scales with the layer), drawn behind the layer. masksToBounds clips it to the bounds.
///
/// With a shadowPath that is a rectangle, a rounded rectangle or a circle, the shadow is one item
/// whose coverage the shader computes analytically (the error-function form of a blurred box,
/// integrated numerically across the rounded corners): no offscreen pass, as on a device. Without
/// a shadowPath the shape is the layer's composited alpha: `Builder+Offscreen.swift` renders it
/// offscreen and blurs it. Any other shadowPath is filled and blurred on the CPU into a texture
/// (`pathShadow`), also without an offscreen pass.
extension Builder {
    /// The shadow's premultiplied colour at `alpha`, or nil when it is invisible.
    func shadowColor(_ layer: Layer, alpha: Double) -> RGBA? {
        guard layer.shadowOpacity > 0, let c = layer.shadowColor, c.alpha > 0 else { return nil }
        let color = RGBA(premultiplying: c, opacity: min(max(layer.shadowOpacity, 0), 1) * alpha)
        return color.a > 0 ? color : nil
    }

    /// The analytic shadow of `shape` (in the layer's bounds space) behind the layer.
    mutating func shadow(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], shape: RoundedShape, nodePath: [Int]) {
        guard let color = shadowColor(layer, alpha: alpha) else { return }
        let sigma = max(layer.shadowRadius, 0)
        let offset = layer.shadowOffset
        // Item space = the layer's bounds space moved by the offset: local p shows bounds point p.
        let toLayer = Transform3D.translation(offset.width, offset.height)
        let transform = toLayer * world
        // The offset adds the layer's x and y axes, scaled by it, to the translation row: where an
        // axis has a huge entry (a zPosition of 1e300 through the layer's own perspective puts
        // 1e297 in m13 when no superlayer flattens it), an offset of 9e15 overflows to infinity.
        // Such a shadow cannot be placed: reported, as `pathShadow` does.
        guard transform.elements.allSatisfy(\.isFinite) else { report(.nonFiniteGeometry, layer, nodePath); return }
        let (px, py) = pointsPerPixel(transform)
        let rect = shape.rect.standardized
        let quad = rect.insetBy(dx: -(3 * sigma + 2 * px), dy: -(3 * sigma + 2 * py))
        if !isVisible(quad, transform) { return }
        var clips = Self.shadowClips(clips, toLayer)
        if layer.masksToBounds {
            clips.append(Clip(transform: toLayer, shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii,
                                                                    curve: layer.cornerCurve), layer: layer.id))
            if clips.count > DrawItem.maxClips { report(.deepClipNesting, layer, nodePath); clips.removeFirst() }
        }
        items.append(DrawItem(layer: layer.id, role: .shadow, paint: .blurredShape(color, sigma: Float(sigma)),
                              transform: transform, quad: quad, shape: RoundedShape(rect: rect, radii: shape.radii),
                              clips: clips))
    }

    /// The shadow of any other shadowPath (a triangle, a star, a speech bubble): the path filled
    /// with the non-zero rule and blurred, rasterised on the CPU (`ShadowPathRaster`) into a
    /// texture in the layer's space and drawn behind the layer like a shape's texture. As on a
    /// device, no offscreen pass: the shape is known without rendering the layer. The texture is
    /// keyed by path, colour, σ and scale, so a layer that moves, turns or fades keeps it (but for
    /// a cropped one, below).
    ///
    /// Resolution, per axis: the device's (`rasterScale`: both axis scales when the layer is
    /// axis-aligned, else its largest stretch) divided by the factor `ShadowBlur` uses for a
    /// path-less shadow of that axis's σ (1, 2, 4; beyond σ = 48 px the next power of two that
    /// keeps σ under 12 texels, which bounds the blur's taps), drawn back magnified bilinearly. A
    /// shadow larger than a texture on the canvas is cropped to what can reach the canvas.
    mutating func pathShadow(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip],
                             path shadowPath: Path, nodePath: [Int]) {
        guard let color = layer.shadowColor, shadowColor(layer, alpha: alpha) != nil,
              var extent = shadowPath.controlBounds, extent.allFinite else { return }
        let offset = layer.shadowOffset
        let toLayer = Transform3D.translation(offset.width, offset.height)
        let transform = toLayer * world
        guard transform.elements.allSatisfy(\.isFinite) else { report(.nonFiniteGeometry, layer, nodePath); return }
        let radius = max(layer.shadowRadius, 0)
        let (dx, dy) = rasterScale(transform)                    // device pixels per point
        // σ in device pixels per axis; an infinite (or NaN) one spreads the shadow to nothing.
        let sigmaDX = radius * dx, sigmaDY = radius * dy
        guard sigmaDX.isFinite, sigmaDY.isFinite else { return }
        func factor(_ sigma: Double) -> Double {
            var f = Double(ShadowBlur.factor(sigma: sigma))
            while sigma / f > ShadowBlur.largestReducedSigma { f *= 2 }   // unbounded: the texture is fitted below
            return f
        }
        var sx = dx / factor(sigmaDX), sy = dy / factor(sigmaDY)
        func texels(_ sx: Double, _ sy: Double) -> (x0: Double, y0: Double, w: Int, h: Int, sigmaX: Double, sigmaY: Double) {
            // σ′ in texels; under `ShadowBlur.minimumSigma` no blur changes a texel (σ′ 0).
            let sigmaX = ShadowBlur.visibleSigma(ShadowBlur.reducedSigma(sigmaDX, factor: dx / sx))
            let sigmaY = ShadowBlur.visibleSigma(ShadowBlur.reducedSigma(sigmaDY, factor: dy / sy))
            let rx = (3 * sigmaX).rounded(.up) + 1, ry = (3 * sigmaY).rounded(.up) + 1
            let x0 = (extent.minX * sx).rounded(.down) - rx, y0 = (extent.minY * sy).rounded(.down) - ry
            let x1 = (extent.maxX * sx).rounded(.up) + rx, y1 = (extent.maxY * sy).rounded(.up) + ry
            func count(_ d: Double) -> Int { d.isFinite ? Int(min(max(d, 0), 1e15)) : Int(1e15) }
            return (x0, y0, count(x1 - x0), count(y1 - y0), sigmaX, sigmaY)
        }
        var t = texels(sx, sy)
        // Spread so thin that its brightest texel stays under half a level of 8 bits (the path's
        // box blurred, per axis at most w / (√(2π) σ′)), the shadow draws nothing. So a radius near
        // 10³⁰⁰ is not rasterised at a scale cairo cannot invert.
        func peak(_ w: Double, _ s: Double) -> Double { s > 0 ? min(1, w / ((2 * Double.pi).squareRoot() * s)) : 1 }
        guard peak(extent.width * sx, t.sigmaX) * peak(extent.height * sy, t.sigmaY) >= 0.5 / 255 else { return }
        // Larger than a texture: rasterise only the canvas's preimage grown by the blur's reach
        // (nothing beyond it reaches the canvas). The crop is part of the key, so such a shadow is
        // rasterised again when it moves; smaller ones keep their texture.
        if t.w > Self.maxShapeTextureSide || t.h > Self.maxShapeTextureSide, let visible = visiblePreimage(transform) {
            let reach = 3 * radius + 2 / min(dx, dy)
            guard let crop = extent.intersection(visible.insetBy(dx: -reach, dy: -reach)) else { return }
            extent = crop
            t = texels(sx, sy)
        }
        t = Self.fitTexture(&sx, &sy, texels) { ($0.w, $0.h) }
        guard t.w > 0, t.h > 0, t.w <= Self.maxShapeTextureSide, t.h <= Self.maxShapeTextureSide else { return }
        let quad = Rect(t.x0 / sx, t.y0 / sy, Double(t.w) / sx, Double(t.h) / sy)
        guard isVisible(quad, transform) else { return }

        let raster = ShadowPathRaster(path: shadowPath, color: color, sigmaX: t.sigmaX, sigmaY: t.sigmaY,
                                      scaleX: sx, scaleY: sy, originX: t.x0, originY: t.y0)
        let key = Self.contentKey(raster, width: t.w, height: t.h)
        guard admitRaster(key, t.w, t.h, layer, nodePath) else { return }
        let index = imageSlot(ImageInfo(key: key, width: t.w, height: t.h, isOpaque: false))
        if requestedRasters.insert(key).inserted {
            rasterRequests.append(RasterRequest(key: key, pixelWidth: t.w, pixelHeight: t.h, content: .shadowPath(raster), layer: layer.id))
        }
        var clips = Self.shadowClips(clips, toLayer)
        if layer.masksToBounds {
            clips.append(Clip(transform: toLayer, shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii,
                                                                    curve: layer.cornerCurve), layer: layer.id))
            if clips.count > DrawItem.maxClips { report(.deepClipNesting, layer, nodePath); clips.removeFirst() }
        }
        let uv = Rect(0, 0, Double(t.w), Double(t.h))
        // The layer's filters choose how its contents are sampled, not its shadow: 1:1 on whole
        // pixels the texels are fetched, anything else is bilinear.
        let sampling: DrawItem.Sampling = chooseSampling(layer, transform, quad, uv) == .texelFetch ? .texelFetch : .linear
        let opacity = min(max(layer.shadowOpacity, 0), 1) * alpha
        items.append(DrawItem(layer: layer.id, role: .shadow, paint: .image(index: index, sampling: sampling, opacity: Float(opacity)),
                              transform: transform, quad: quad, uv: uv, clips: clips))
    }

    /// Clips given in the layer's bounds space, for a shadow item whose local point p lies at the
    /// layer's p + shadowOffset (`toLayer`): an ancestor's masksToBounds clips the shadow where it
    /// falls, not where the layer is.
    static func shadowClips(_ clips: [Clip], _ toLayer: Transform3D) -> [Clip] {
        clips.map { Clip(transform: toLayer * $0.transform, shape: $0.shape, layer: $0.layer) }
    }

    static func contentKey(_ r: ShadowPathRaster, width: Int, height: Int) -> UInt64 {
        var k = ContentKey(0x5348_4144_4f57)    // "SHADOW"
        k.mix(r.path); k.mix(r.color)
        k.mix(r.sigmaX); k.mix(r.sigmaY)
        k.mix(r.scaleX); k.mix(r.scaleY); k.mix(r.originX); k.mix(r.originY)
        k.mix(width); k.mix(height)
        return k.value
    }
}

extension RoundedShape {
    /// The rounded rectangle a path traces, when it is one: a rectangle (CGPath(rect:)), a rounded
    /// rectangle with circular corners (CGPath(roundedRect:…)) or a circle (CGPath(ellipseIn:) of a
    /// square). nil for any other path.
    public init?(path: Path) {
        let points = path.elements.flatMap { e -> [Point] in
            switch e {
            case .move(let p), .line(let p): return [p]
            case .quad(let a, let b): return [a, b]
            case .cubic(let a, let b, let c): return [a, b, c]
            case .close: return []
            }
        }
        guard !points.isEmpty else { return nil }
        let box = Rect.bounding(points)
        guard box.width > 0, box.height > 0 else { return nil }
        let tolerance = 1e-6 * max(box.width, box.height, 1)
        func same(_ a: Path) -> Bool {
            guard a.elements.count == path.elements.count else { return false }
            for (x, y) in zip(a.elements, path.elements) {
                switch (x, y) {
                case (.move(let p), .move(let q)), (.line(let p), .line(let q)):
                    if !close(p, q) { return false }
                case (.cubic(let a1, let b1, let c1), .cubic(let a2, let b2, let c2)):
                    if !close(a1, a2) || !close(b1, b2) || !close(c1, c2) { return false }
                case (.close, .close): break
                default: return false
                }
            }
            return true
        }
        func close(_ p: Point, _ q: Point) -> Bool { abs(p.x - q.x) <= tolerance && abs(p.y - q.y) <= tolerance }
        if same(.rect(box)) { self.init(rect: box); return }
        if abs(box.width - box.height) <= tolerance, same(.ellipse(in: box)) {
            let r = box.width / 2
            self.init(rect: box, radii: [r, r, r, r]); return
        }
        if case .move(let start)? = path.elements.first {
            let r = start.x - box.minX
            if r > 0, same(.roundedRect(box, cornerRadius: r)) {
                self.init(rect: box, radii: [r, r, r, r]); return
            }
        }
        return nil
    }
}
