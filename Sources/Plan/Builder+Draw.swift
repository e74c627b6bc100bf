import Geometry
import LayerModel

extension Builder {
    /// backgroundColor filled in the rounded bounds (reference §1.10 step 2).
    mutating func background(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip]) {
        guard let bg = layer.backgroundColor, bg.alpha > 0, !layer.bounds.isEmpty else { return }
        let shape = RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve)
        emitShape(layer, .background, RGBA(premultiplying: bg, opacity: alpha), world, shape, inner: nil, clips)
    }

    /// The border, inset from the bounds, above contents and sublayers (reference §1.8, §1.10 step 5).
    /// The inner edge's radius is max(0, r − borderWidth) (unconfirmed point 9; our choice).
    mutating func border(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip]) {
        guard layer.borderWidth > 0, let c = layer.borderColor, c.alpha > 0, !layer.bounds.isEmpty else { return }
        let outer = RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve)
        let bw = layer.borderWidth
        let innerRect = layer.bounds.standardized.insetBy(dx: bw, dy: bw)
        // Signed sizes: a border wider than half the bounds leaves no hole (insetBy then gives a
        // negative size, whose `width` would read positive), and an infinite one neither.
        let inner: RoundedShape? = innerRect.size.width > 0 && innerRect.size.height > 0 && innerRect.allFinite
            ? RoundedShape(rect: innerRect, radii: outer.radii.map { max(0, $0 - bw) }, curve: layer.cornerCurve) : nil
        emitShape(layer, .border, RGBA(premultiplying: c, opacity: alpha), world, outer, inner: inner, clips, forceShape: true)
    }

    /// Emits a solid item covering `shape`. Edges are antialiased by coverage where the layer is
    /// axis-aligned on screen (so fractional positions look as Core Animation draws them) or
    /// allowsEdgeAntialiasing is set; otherwise straight edges are the quad's own (aliased, iOS's
    /// default) and only rounded corners get coverage.
    mutating func emitShape(_ layer: Layer, _ role: DrawItem.Role, _ color: RGBA, _ world: Transform3D,
                            _ shape: RoundedShape, inner: RoundedShape?, _ clips: [Clip], forceShape: Bool = false) {
        let rect = shape.rect.standardized
        let aligned = world.isAxisAligned2D
        let antialiasEdges = aligned || layer.allowsEdgeAntialiasing
        var quad = rect
        var useShape = forceShape || !shape.isRectangle || inner != nil
        if antialiasEdges {
            let device = Rect.bounding(rect.corners.map { world.apply($0) })
            let onGrid = isIntegral(device.minX) && isIntegral(device.minY) && isIntegral(device.maxX) && isIntegral(device.maxY)
            if !(aligned && onGrid) { useShape = true }
            if useShape {
                // Grow the quad by one device pixel so the coverage ramp outside the edge is shaded.
                let (px, py) = pointsPerPixel(world)
                quad = rect.insetBy(dx: -px, dy: -py)
            }
        }
        if !isVisible(quad, world) { return }
        items.append(DrawItem(layer: layer.id, role: role, paint: .solid(color), transform: world, quad: quad,
                              shape: useShape ? RoundedShape(rect: rect, radii: shape.radii, curve: shape.curve) : nil,
                              innerShape: inner, clips: clips))
    }

    /// The contents image with gravity, contentsRect, contentsCenter and contentsScale (§1.7).
    mutating func contents(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], flipped: Bool, path: [Int],
                           clipToBounds: Bool = true) {
        guard let src = layer.contents, let info = images[src.origin], info.width > 0, info.height > 0 else { return }
        let layout = ContentsLayout.layout(imageWidth: info.width, imageHeight: info.height, bounds: layer.bounds.standardized,
                                           gravity: layer.contentsGravity, contentsRect: layer.contentsRect,
                                           contentsCenter: layer.contentsCenter, contentsScale: layer.contentsScale)
        var clips = clips
        if layer.masksToBounds, clipToBounds {
            // Contents overflowing the bounds (resizeAspectFill, non-scaling gravity) are clipped.
            let own = RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve)
            let r = layout.destination
            let inside = r.minX >= layer.bounds.minX && r.minY >= layer.bounds.minY && r.maxX <= layer.bounds.maxX && r.maxY <= layer.bounds.maxY
            if !inside || !own.isRectangle {
                clips.append(Clip(transform: .identity, shape: own, layer: layer.id))
                if clips.count > DrawItem.maxClips { report(.deepClipNesting, layer, path); clips.removeFirst() }
            }
        }
        let index = imageSlot(info)
        for s in layout.slices {
            // Keep images upright under an odd number of geometryFlipped ancestors (reference §1.6).
            var uv = s.texels
            if flipped { uv = Rect(uv.minX, uv.maxY, uv.width, -uv.height) }
            // Extreme contentsRect/contentsScale values can overflow the layout: nothing to sample.
            guard s.rect.allFinite, uv.allFinite else { report(.nonFiniteGeometry, layer, path); continue }
            if !isVisible(s.rect, world) { continue }
            let sampling = chooseSampling(layer, world, s.rect, uv)
            items.append(DrawItem(layer: layer.id, role: .contents, paint: .image(index: index, sampling: sampling, opacity: Float(alpha)),
                                  transform: world, quad: s.rect, uv: uv, clips: clips,
                                  tint: RGBA(premultiplying: layer.contentsTint)))
        }
    }

    mutating func imageSlot(_ info: ImageInfo) -> Int {
        let slot = ImageSlotKey(key: info.key, hasAlphaChannel: info.hasAlphaChannel)
        if let i = imageIndex[slot] { return i }
        imageIndex[slot] = plannedImages.count
        plannedImages.append(PlannedImage(key: info.key, pixelWidth: info.width, pixelHeight: info.height, isOpaque: info.isOpaque,
                                          opaqueRects: info.opaqueRects, minimumAlpha: info.minimumAlpha,
                                          hasAlphaChannel: info.hasAlphaChannel, opaquePixels: info.opaquePixels))
        return plannedImages.count - 1
    }

    /// texelFetch when texels land 1:1 on whole device pixels (design.md §3: the fast, exact path);
    /// otherwise the layer's filter: magnification when the image is enlarged, else minification.
    func chooseSampling(_ layer: Layer, _ world: Transform3D, _ quad: Rect, _ uv: Rect) -> DrawItem.Sampling {
        if world.isAxisAligned2D {
            let p0 = world.apply(Point(quad.minX, quad.minY)), p1 = world.apply(Point(quad.maxX, quad.maxY))
            let sx = (p1.x - p0.x) / uv.size.width, sy = (p1.y - p0.y) / uv.size.height
            if abs(sx - 1) < 1e-9, abs(sy - 1) < 1e-9, isIntegral(p0.x), isIntegral(p0.y),
               isIntegral(uv.origin.x), isIntegral(uv.origin.y) {
                return .texelFetch
            }
        }
        let (px, py) = pointsPerPixel(world)
        let devicePixels = (quad.width / px) * (quad.height / py)
        let texels = abs(uv.size.width * uv.size.height)
        let filter = devicePixels > texels ? layer.magnificationFilter : layer.minificationFilter
        switch filter {
        case .nearest: return .nearest
        case .linear: return .linear
        // Mip levels matter only when texels shrink; at 1:1 or magnified, trilinear reads level 0
        // exactly as bilinear does (so it is drawn bilinear, without building levels).
        case .trilinear: return texels > devicePixels * (1 + 1e-9) ? .trilinear : .linear
        }
    }
}

/// Within 1e-6 of an integer: device positions computed through matrices carry rounding noise.
func isIntegral(_ v: Double) -> Bool { abs(v - v.rounded()) < 1e-6 }

/// Local points per device pixel along x and y (for a one-pixel AA margin). Under rotation or
/// perspective, an average from the 2×2 linear part.
func pointsPerPixel(_ m: Transform3D) -> (Double, Double) {
    if m.isAxisAligned2D {
        return (1 / max(abs(m.m11), 1e-9), 1 / max(abs(m.m22), 1e-9))
    }
    let det = abs(m.m11 * m.m22 - m.m12 * m.m21)
    let s = det > 1e-12 ? 1 / det.squareRoot() : 1
    return (s, s)
}

/// Back-face test (reference §1.9, our implementation of the [INF] rule): the signed area of the
/// bounds quad on screen. Local and device space are both y-down, so front faces are positive.
func isBackFacing(_ bounds: Rect, _ world: Transform3D) -> Bool {
    let pts = bounds.corners.map { world.apply($0.x, $0.y, 0) }
    if pts.contains(where: { $0.w <= 0 }) { return false }
    let p = pts.map { $0.projected }
    var area = 0.0
    for i in 0..<4 { let a = p[i], b = p[(i + 1) % 4]; area += a.x * b.y - b.x * a.y }
    return area < 0
}

extension Builder {
    /// Culls items entirely outside the canvas (when every corner is in front of the eye).
    func isVisible(_ quad: Rect, _ world: Transform3D) -> Bool {
        if quad.width <= 0 || quad.height <= 0 { return false }
        if !cullToCanvas {
            // A raster-cache bitmap holds the whole layer: only what is behind the eye is dropped.
            return !quad.corners.allSatisfy { world.apply($0.x, $0.y, 0).w <= 0 }
        }
        // The same test the profiler counts pixels with: the part in front of the eye, clipped in
        // homogeneous space, must touch a pixel of the canvas (grown by `cullMargin`).
        // (With no margin, `targetRect` is the canvas's own pixel bounds.)
        let p = DeviceProjection.polygon(quad.corners, world)
        return !p.isEmpty && targetRect(Rect.bounding(p), grownBy: cullMargin) != nil
    }
}

extension Rect {
    /// Origin and size finite: a rectangle the backend can draw and the profiler can measure.
    var allFinite: Bool { origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite }
}

/// What tells two planned images apart: their pixels (`key`, one texture) and whether their source
/// has an alpha channel (Core Animation blends one that has, `PlannedImage.hasAlphaChannel`).
struct ImageSlotKey: Hashable {
    var key: UInt64
    var hasAlphaChannel: Bool
}
