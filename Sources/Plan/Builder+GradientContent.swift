import Geometry
import LayerModel

/// CAGradientLayer content (reference §2.2): the gradient fills the layer's rounded bounds, above
/// its background and below its sublayers. Drawn like the background (same coverage shape and
/// antialiasing) with a gradient paint (`GradientPaint`): no texture of the layer's size.
extension Builder {
    /// Texels of a colour ramp: a stop between two texel centres is off by at most 1/2048 of the
    /// gradient's length (under one device pixel for gradients up to 2048 px long).
    static let gradientRampWidth = 1024

    mutating func gradientContent(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip]) {
        let g = layer.gradient
        guard let colors = g.colors, !colors.isEmpty, !layer.bounds.isEmpty else { return }
        // locations nil: spread uniformly; counts differ: the first min(count) stops (§2.2 [INF]).
        let n = g.locations.map { min($0.count, colors.count) } ?? colors.count
        guard n > 0 else { return }
        let stops = Array(colors.prefix(n))
        let locations = g.locations.map { Array($0.prefix(n)) }
            ?? (n == 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) })
        guard stops.contains(where: { $0.alpha > 0 }) else { return }

        var key = ContentKey(0x4752_4144)    // "GRAD"
        key.mix(n)
        for (c, l) in zip(stops, locations) { key.mix(c); key.mix(l) }
        let width = Self.gradientRampWidth
        let opaque = stops.allSatisfy { $0.alpha >= 1 }
        let index = imageSlot(ImageInfo(key: key.value, width: width, height: 1, isOpaque: opaque))
        if requestedRasters.insert(key.value).inserted {
            rasterRequests.append(RasterRequest(key: key.value, pixelWidth: width, pixelHeight: 1,
                                                content: .gradientRamp(colors: stops, locations: locations), layer: layer.id))
        }
        let b = layer.bounds
        func unit(_ p: Point) -> Point { Point(b.origin.x + p.x * b.size.width, b.origin.y + p.y * b.size.height) }
        let paint = GradientPaint(type: g.type, start: unit(g.startPoint), end: unit(g.endPoint))
        let shape = RoundedShape(rect: b, radii: layer.cornerRadii, curve: layer.cornerCurve)
        let before = items.count
        // Role background: to the profiler a gradient is a filled shape like a background (its
        // blending from the ramp's opacity, its edges from the bounds), not a resampled image.
        emitShape(layer, .background, .clear, world, shape, inner: nil, clips)
        guard items.count > before else { return }
        items[before].paint = .image(index: index, sampling: .linear, opacity: Float(alpha))
        items[before].gradient = paint
    }
}
