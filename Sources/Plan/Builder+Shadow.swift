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
/// offscreen and blurs it. Other shadowPath shapes are reported and not drawn.
extension Builder {
    /// The shadow's premultiplied colour at `alpha`, or nil when it is invisible.
    func shadowColor(_ layer: Layer, alpha: Double) -> RGBA? {
        guard layer.shadowOpacity > 0, let c = layer.shadowColor, c.alpha > 0 else { return nil }
        let color = RGBA(premultiplying: c, opacity: min(max(layer.shadowOpacity, 0), 1) * alpha)
        return color.a > 0 ? color : nil
    }

    /// The analytic shadow of `shape` (in the layer's bounds space) behind the layer.
    mutating func shadow(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], shape: RoundedShape) {
        guard let color = shadowColor(layer, alpha: alpha) else { return }
        let sigma = max(layer.shadowRadius, 0)
        let offset = layer.shadowOffset
        // Item space = the layer's bounds space moved by the offset: local p shows bounds point p.
        let toLayer = Transform3D.translation(offset.width, offset.height)
        let transform = toLayer * world
        let (px, py) = pointsPerPixel(transform)
        let rect = shape.rect.standardized
        let quad = rect.insetBy(dx: -(3 * sigma + 2 * px), dy: -(3 * sigma + 2 * py))
        if !isVisible(quad, transform) { return }
        var clips = clips
        if layer.masksToBounds {
            clips.append(Clip(transform: toLayer, shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii,
                                                                    curve: layer.cornerCurve), layer: layer.id))
            if clips.count > DrawItem.maxClips { clips.removeFirst() }
        }
        items.append(DrawItem(layer: layer.id, role: .shadow, paint: .blurredShape(color, sigma: Float(sigma)),
                              transform: transform, quad: quad, shape: RoundedShape(rect: rect, radii: shape.radii),
                              clips: clips))
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
