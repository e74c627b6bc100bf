import Geometry
import LayerModel

/// CAShapeLayer content (reference §2.1): the fill, then the stroke over it, between the layer's
/// contents and its first sublayer, not clipped to the bounds unless masksToBounds.
///
/// The plan decides the texture: the path's extent (stroke included) in the layer's point space,
/// at the device resolution the layer is shown at, on a texel grid anchored at the layer's origin;
/// the item draws it like a contents image. The raster scale is the largest stretch of the layer's
/// matrix (both axes' scales when it is axis-aligned), which a translation, a rotation or an
/// opacity change leaves alone, so such animations keep the texture; a path, stroke or scale change
/// gives a new key and so a new rasterisation.
extension Builder {
    /// The largest side of a shape or text texture; larger extents are rasterised at a lower scale
    /// (4096² texels = 64 MiB).
    static let maxShapeTextureSide = 4096
    /// The most dashes one shape's stroke is cut into (a dashed 1000 pt border at [4, 4] is 250).
    static let maxDashesPerShape = 100_000
    /// The most texels one frame may ask to rasterise (64 Mpx = 256 MiB, about 22 full 1170×2532
    /// screens): content beyond it is not drawn and reported, so a hostile scene of many huge shapes
    /// cannot exhaust memory.
    static let maxRasterPixelsPerFrame = 64 << 20

    /// Admits a new raster request of w×h texels against the frame's budget (a key already asked
    /// for this frame costs nothing more); false, with a warning, when it does not fit.
    mutating func admitRaster(_ key: UInt64, _ w: Int, _ h: Int, _ layer: Layer, _ path: [Int]) -> Bool {
        if requestedRasters.contains(key) { return true }
        if rasterPixels + w * h > Self.maxRasterPixelsPerFrame {
            report(.rasterBudget, layer, path)
            return false
        }
        rasterPixels += w * h
        return true
    }

    /// Content drawn by the layer's class, after its contents image (called from `visit`).
    /// `flipped`: under an odd number of geometryFlipped ancestors. Text is kept upright there, as
    /// contents images are (reference §1.6); a shape's path and a gradient's points are geometry
    /// in the layer's space and flip with it.
    /// `clipToBounds`: false when an offscreen pass clips the layer's composite to its bounds.
    mutating func layerContent(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], flipped: Bool, path: [Int],
                               clipToBounds: Bool = true) {
        switch layer.layerClass {
        case .shape: shapeContent(layer, world, alpha, clips, path: path, clipToBounds: clipToBounds)
        case .gradient: gradientContent(layer, world, alpha, clips)
        case .text: textContent(layer, world, alpha, clips, flipped: flipped, path: path, clipToBounds: clipToBounds)
        default: break
        }
    }

    mutating func shapeContent(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], path: [Int],
                               clipToBounds: Bool = true) {
        let s = layer.shape
        guard let shapePath = s.path, !shapePath.elements.isEmpty else { return }
        let fill = s.fillColor.flatMap { $0.alpha > 0 ? $0 : nil }
        let strokes = s.strokeColor.map { $0.alpha > 0 } == true && s.lineWidth > 0 && s.strokeStart < s.strokeEnd
        let strokePath = strokes ? shapePath.trimmed(start: s.strokeStart, end: s.strokeEnd) : Path()
        // Extent in points: the fill inside the control polygon; the stroke reaches lineWidth/2
        // beyond its path, √2 times that at square caps, the miter ratio at miter joins.
        var extent: Rect? = fill != nil ? shapePath.controlBounds : nil
        if strokes, let b = strokePath.controlBounds {
            let capReach = s.lineCap == .square ? 2.0.squareRoot() : 1
            let joinReach = s.lineJoin == .miter ? strokePath.largestMiterRatio(limit: s.miterLimit) : 1
            let m = s.lineWidth / 2 * max(capReach, joinReach)
            let grown = Rect(b.minX - m, b.minY - m, b.width + 2 * m, b.height + 2 * m)
            extent = extent.map { $0.union(grown) } ?? grown
        }
        guard var e = extent, e.minX.isFinite, e.minY.isFinite, e.maxX.isFinite, e.maxY.isFinite else { return }

        var (sx, sy) = rasterScale(world)
        // Content larger than a texture at full resolution: keep the resolution and rasterise only
        // what the canvas can show (its preimage in the layer's space, when the matrix is affine).
        // The crop is part of the key, so such a layer is rasterised again when it moves.
        if (e.width * sx).rounded(.up) + 2 > Double(Self.maxShapeTextureSide) || (e.height * sy).rounded(.up) + 2 > Double(Self.maxShapeTextureSide),
           let visible = visiblePreimage(world), let crop = e.intersection(visible) {
            e = crop
        }
        // One texel of margin on each side for the antialiased edge.
        func texels(_ sx: Double, _ sy: Double) -> (x0: Double, y0: Double, w: Int, h: Int) {
            let x0 = (e.minX * sx).rounded(.down) - 1, y0 = (e.minY * sy).rounded(.down) - 1
            let x1 = (e.maxX * sx).rounded(.up) + 1, y1 = (e.maxY * sy).rounded(.up) + 1
            // A finite extent times the scale can pass Int's range (or overflow): counted as far
            // too large, so the loop below scales down or the shape is left out.
            func count(_ d: Double) -> Int { d.isFinite ? Int(min(max(d, 0), 1e15)) : Int(1e15) }
            return (x0, y0, count(x1 - x0), count(y1 - y0))
        }
        let t = Self.fitTexture(&sx, &sy, texels) { ($0.w, $0.h) }
        guard t.w > 0, t.h > 0, t.w <= Self.maxShapeTextureSide, t.h <= Self.maxShapeTextureSide else { return }
        let quad = Rect(t.x0 / sx, t.y0 / sy, Double(t.w) / sx, Double(t.h) / sy)
        guard isVisible(quad, world) else { return }

        var dashes = s.lineDashPattern ?? []
        if strokes, !dashes.isEmpty {
            // cairo builds every dash: 80,000 segments dashed [1, 1] would be 5.6 M polygons,
            // minutes and gigabytes. Past the budget the stroke is drawn solid, and said so.
            let period = dashes.reduce(0) { $0 + max($1, 0) }
            let count = period > 0 ? strokePath.length / period * Double(dashes.count) : 0
            if !(count <= Double(Self.maxDashesPerShape)) {
                report(.dashBudget, layer, path)
                dashes = []
            }
        }
        let phase = s.lineDashPhase + (dashes.isEmpty ? 0 : shapePath.trimmedStartOffset(start: s.strokeStart))
        let raster = ShapeRaster(path: fill != nil ? shapePath : Path(), fillColor: fill, fillRule: s.fillRule,
                                 strokePath: strokePath, strokeColor: strokes ? s.strokeColor : nil,
                                 lineWidth: s.lineWidth, lineCap: s.lineCap, lineJoin: s.lineJoin, miterLimit: s.miterLimit,
                                 lineDashPattern: dashes, lineDashPhase: phase,
                                 scaleX: sx, scaleY: sy, originX: t.x0, originY: t.y0, strokeStart: s.strokeStart, strokeEnd: s.strokeEnd)
        let key = Self.contentKey(raster, width: t.w, height: t.h)
        guard admitRaster(key, t.w, t.h, layer, path) else { return }
        let index = imageSlot(ImageInfo(key: key, width: t.w, height: t.h, isOpaque: false))
        if requestedRasters.insert(key).inserted {
            rasterRequests.append(RasterRequest(key: key, pixelWidth: t.w, pixelHeight: t.h, content: .shape(raster), layer: layer.id))
        }
        var clips = clips
        if layer.masksToBounds, clipToBounds {
            // The path is not clipped to the bounds unless masksToBounds says so (§2.1).
            clips.append(Clip(transform: .identity, shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve),
                              layer: layer.id))
            if clips.count > DrawItem.maxClips { report(.deepClipNesting, layer, path); clips.removeFirst() }
        }
        let uv = Rect(0, 0, Double(t.w), Double(t.h))
        items.append(DrawItem(layer: layer.id, role: .contents,
                              paint: .image(index: index, sampling: chooseSampling(layer, world, quad, uv), opacity: Float(alpha)),
                              transform: world, quad: quad, uv: uv, clips: clips))
    }

    /// Measures a texture at (sx, sy) texels per point and, while it exceeds
    /// `maxShapeTextureSide`, scales down (the quantised scale rounded down, so it does fit, never
    /// below 1/1024) and measures again. The caller checks the last measure still fits.
    static func fitTexture<T>(_ sx: inout Double, _ sy: inout Double, _ measure: (Double, Double) -> T,
                              size: (T) -> (w: Int, h: Int)) -> T {
        var t = measure(sx, sy)
        let side = Double(maxShapeTextureSide)
        while size(t).w > maxShapeTextureSide || size(t).h > maxShapeTextureSide, sx > 1.0 / 1024 || sy > 1.0 / 1024 {
            let k = min(side / Double(size(t).w + 2), side / Double(size(t).h + 2))
            sx = max((sx * k * 1024).rounded(.down) / 1024, 1.0 / 1024); sy = max((sy * k * 1024).rounded(.down) / 1024, 1.0 / 1024)
            t = measure(sx, sy)
        }
        return t
    }

    /// The canvas (plus a pixel, plus the culling margin of an enclosing blur or shadow pass, whose
    /// reach brings content off the canvas onto it) mapped back into the local space of an affine
    /// `world`; nil when the matrix is projective or singular, and inside a shouldRasterize bitmap
    /// (its space is the layer's own, not the canvas's: nothing is cropped there).
    func visiblePreimage(_ m: Transform3D) -> Rect? {
        guard cullToCanvas, cullMargin.isFinite else { return nil }
        guard abs(m.m14) < 1e-12, abs(m.m24) < 1e-12, abs(m.m44) > 1e-12 else { return nil }
        let a = m.m11 / m.m44, b = m.m12 / m.m44, c = m.m21 / m.m44, d = m.m22 / m.m44
        let tx = m.m41 / m.m44, ty = m.m42 / m.m44
        let det = a * d - b * c
        guard abs(det) > 1e-12 else { return nil }
        let w = Double(canvas.pixelWidth), h = Double(canvas.pixelHeight)
        let e = 1 + cullMargin
        let corners = [Point(-e, -e), Point(w + e, -e), Point(w + e, h + e), Point(-e, h + e)].map { p -> Point in
            // Row vectors: device = (x, y)·[a b; c d] + (tx, ty).
            let u = p.x - tx, v = p.y - ty
            return Point((u * d - v * c) / det, (v * a - u * b) / det)
        }
        return Rect.bounding(corners)
    }

    static func contentKey(_ r: ShapeRaster, width: Int, height: Int) -> UInt64 {
        var k = ContentKey(0x5348_4150_45)    // "SHAPE"
        k.mix(r.path); k.mix(r.fillColor); k.mix(r.fillRule == .evenOdd ? 1 : 0)
        k.mix(r.strokePath); k.mix(r.strokeColor); k.mix(r.lineWidth)
        k.mix(r.lineCap.rawValue); k.mix(r.lineJoin.rawValue); k.mix(r.miterLimit)
        k.mix(r.lineDashPattern.count); for d in r.lineDashPattern { k.mix(d) }
        k.mix(r.lineDashPhase)
        k.mix(r.scaleX); k.mix(r.scaleY); k.mix(r.originX); k.mix(r.originY)
        k.mix(width); k.mix(height)
        return k.value
    }
}

/// Device pixels per point along the layer's x and y for rasterising its content: both axis scales
/// when the matrix is axis-aligned, else its largest singular value on both axes (a rotation does
/// not change it). The affine part only, divided by m44 (perspective is approximated). Quantised to
/// 1/1024 so the rounding noise of a rotating matrix does not change the cache key.
func rasterScale(_ m: Transform3D) -> (Double, Double) {
    let w = abs(m.m44) > 1e-12 ? m.m44 : 1
    let a = m.m11 / w, b = m.m12 / w, c = m.m21 / w, d = m.m22 / w
    if abs(b) < 1e-9 && abs(c) < 1e-9 { return (quantizeScale(abs(a)), quantizeScale(abs(d))) }
    let s = a * a + b * b + c * c + d * d, det = a * d - b * c
    let sigma = ((s + max(s * s - 4 * det * det, 0).squareRoot()) / 2).squareRoot()
    return (quantizeScale(sigma), quantizeScale(sigma))
}

func quantizeScale(_ v: Double) -> Double {
    guard v.isFinite else { return 1 }
    // Past about 1.8e305, v · 1024 overflows to infinity, which no texture fit can shrink (the
    // planner looped forever on such a scale, a fuzz finding): such a scale is kept as it is.
    let q = (v * 1024).rounded() / 1024
    return q.isFinite ? max(q, 1.0 / 1024) : v
}
