import Geometry
import LayerModel

extension Builder {
    /// A CAEmitterLayer's particles (the presentation's `Layer.particles`, in renderMode's order):
    /// one image item per particle, its cell's contents centred on the particle, rotated by its
    /// angle and scaled, the particle's colour as the item's tint. Core Animation draws particles
    /// "above the layer's background color and border" (CAEmitterLayer's documentation); caprof
    /// draws them after the border, so also above the emitter's sublayers (unspecified: ours).
    /// `additive` combines them with plus (src + dst), the others with source-over.
    ///
    /// Particles are always sampled through the cell's filters, never texelFetch, so every particle
    /// of one cell shares pipeline, texture and sampler and the backend draws a run of them as one
    /// instanced draw (Render/DrawBatching) whatever their positions.
    mutating func particles(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], path: [Int]) {
        guard layer.layerClass == .emitter, !layer.particles.isEmpty, alpha > 0 else { return }
        var clips = clips
        if layer.masksToBounds {
            clips.append(Clip(transform: .identity,
                              shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve),
                              layer: layer.id))
            if clips.count > DrawItem.maxClips { report(.deepClipNesting, layer, path); clips.removeFirst() }
        }
        let blend: DrawItem.Blend = layer.emitter.renderMode == .additive ? .plus : .sourceOver
        for p in layer.particles {
            guard let info = images[p.contents.origin], info.width > 0, info.height > 0 else { continue }
            let cr = p.contentsRect
            // The cell's image in texels (contentsRect of it) and in points (÷ contentsScale).
            let uv = Rect(cr.minX * Double(info.width), cr.minY * Double(info.height),
                          cr.width * Double(info.width), cr.height * Double(info.height))
            let scale = p.contentsScale > 0 ? p.contentsScale : 1
            let w = abs(uv.size.width) / scale, h = abs(uv.size.height) / scale
            guard p.scale > 0, w > 0, h > 0, uv.allFinite else { continue }
            let tint = RGBA(premultiplying: p.color)
            guard tint.a > 0 else { continue }
            let quad = Rect(-w / 2, -h / 2, w, h)
            // Particle space → the emitter's bounds space (row vectors: scale, then rotate, then move).
            let local = Transform3D.scale(p.scale, p.scale) * Transform3D.rotation(p.angle, 0, 0, 1)
                * Transform3D.translation(p.position.x, p.position.y)
            let m = local * world
            guard isVisible(quad, m) else { continue }
            // Clips map the item's local points into their space: through the particle's placement.
            let own = clips.map { Clip(transform: local * $0.transform, shape: $0.shape, layer: $0.layer) }
            items.append(DrawItem(layer: layer.id, role: .contents,
                                  paint: .image(index: imageSlot(info), sampling: particleSampling(p, m, quad, uv), opacity: Float(alpha)),
                                  transform: m, quad: quad, uv: uv, clips: own, blend: blend, tint: tint))
        }
    }

    /// The cell's magnification filter when the image is enlarged on screen, else its minification
    /// filter (as `chooseSampling`, without the texelFetch path).
    func particleSampling(_ p: Particle, _ m: Transform3D, _ quad: Rect, _ uv: Rect) -> DrawItem.Sampling {
        let (px, py) = pointsPerPixel(m)
        let devicePixels = (quad.width / px) * (quad.height / py)
        let texels = abs(uv.size.width * uv.size.height)
        let filter = devicePixels > texels ? p.magnificationFilter : p.minificationFilter
        switch filter {
        case .nearest: return .nearest
        case .linear: return .linear
        case .trilinear: return texels > devicePixels * (1 + 1e-9) ? .trilinear : .linear
        }
    }
}
