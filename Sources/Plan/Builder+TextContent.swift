import Geometry
import LayerModel

/// CATextLayer content (reference §2.4): the string laid out in the bounds (first line at the top
/// edge, broken at the width when `wrapped`, truncated with "…" per `truncationMode`), rasterised
/// into the layer's backing store (bounds × contentsScale, like any drawn contents) and drawn as its
/// contents image. The key holds what decides the pixels (string, font, size, colour, modes, box,
/// scale), so a layer that moves or fades keeps its texture; changed text is rasterised again.
extension Builder {
    mutating func textContent(_ layer: Layer, _ world: Transform3D, _ alpha: Double, _ clips: [Clip], flipped: Bool, path: [Int],
                              clipToBounds: Bool = true) {
        let t = layer.text
        guard let string = t.string, !string.isEmpty, let color = t.foregroundColor, color.alpha > 0,
              t.fontSize > 0, t.fontSize.isFinite else { return }
        let b = layer.bounds.standardized
        guard b.width > 0, b.height > 0 else { return }
        var scale = layer.contentsScale > 0 && layer.contentsScale.isFinite ? layer.contentsScale : canvas.scale
        let side = Double(Self.maxShapeTextureSide)
        if b.width * scale > side || b.height * scale > side { scale = min(side / b.width, side / b.height) }
        // FreeType sets no face larger than 65,535 px per em, and a face that failed once fails
        // every later size in the process: a larger text is rasterised at the backing scale that
        // makes it 65,535 px and magnified (softer edges, at sizes where a glyph is wider than
        // any texture anyway).
        if t.fontSize * scale > TextRaster.maxPixelsPerEm {
            scale = TextRaster.maxPixelsPerEm / t.fontSize
            // The rasteriser multiplies back, which may round one ulp above the limit.
            while t.fontSize * scale > TextRaster.maxPixelsPerEm { scale = scale.nextDown }
        }
        let w = Int((b.width * scale).rounded(.up)), h = Int((b.height * scale).rounded(.up))
        guard w > 0, h > 0 else { return }
        let quad = Rect(b.minX, b.minY, Double(w) / scale, Double(h) / scale)
        guard isVisible(quad, world) else { return }

        let font = FontMapping.resolve(t.font)
        if font.substituted, reported.insert("font:\(t.font)").inserted {
            unsupported.append(Unsupported(feature: FontMapping.substitutionWarning(font: t.font, standIn: font.family),
                                           location: layer.location))
        }
        let raster = TextRaster(string: string, family: font.family, weight: font.weight, italic: font.italic,
                                fontSize: t.fontSize, color: color, alignment: t.alignmentMode, wrapped: t.wrapped,
                                truncation: t.truncationMode, width: b.width, height: b.height, scale: scale)
        var k = ContentKey(0x5445_5854)     // "TEXT"
        k.mix(string); k.mix(font.family); k.mix(font.weight); k.mix(font.italic ? 1 : 0); k.mix(t.fontSize); k.mix(color)
        k.mix(t.alignmentMode.rawValue); k.mix(t.wrapped ? 1 : 0); k.mix(t.truncationMode.rawValue)
        k.mix(b.width); k.mix(b.height); k.mix(scale); k.mix(w); k.mix(h)
        guard admitRaster(k.value, w, h, layer, path) else { return }
        let index = imageSlot(ImageInfo(key: k.value, width: w, height: h, isOpaque: false))
        if requestedRasters.insert(k.value).inserted {
            rasterRequests.append(RasterRequest(key: k.value, pixelWidth: w, pixelHeight: h, content: .text(raster), layer: layer.id))
        }
        var clips = clips
        if layer.masksToBounds, clipToBounds, !layer.cornerRadii.allSatisfy({ $0 <= 0 }) {
            clips.append(Clip(transform: .identity, shape: RoundedShape(rect: layer.bounds, radii: layer.cornerRadii, curve: layer.cornerCurve),
                              layer: layer.id))
            if clips.count > DrawItem.maxClips { report(.deepClipNesting, layer, path); clips.removeFirst() }
        }
        var uv = Rect(0, 0, Double(w), Double(h))
        if flipped { uv = Rect(0, Double(h), Double(w), -Double(h)) }
        items.append(DrawItem(layer: layer.id, role: .contents,
                              paint: .image(index: index, sampling: chooseSampling(layer, world, quad, uv), opacity: Float(alpha)),
                              transform: world, quad: quad, uv: uv, clips: clips))
    }
}

/// A CATextLayer's content as the rasteriser needs it: the box is the bounds in points, the
/// backing store is box × scale pixels.
public struct TextRaster: Sendable, Equatable {
    /// The largest `fontSize × scale` the plan asks for: FreeType's largest face (65,535 px per
    /// em; `TextRasterizer.maxPixelsPerEm` refuses more; `TextSizeLimitTests` holds them equal).
    public static let maxPixelsPerEm = 65_535.0
    public var string: String
    /// An installed family (`FontMapping`), its weight (100…900) and style.
    public var family: String
    public var weight: Int
    public var italic: Bool
    public var fontSize: Double
    public var color: Color
    public var alignment: TextAlignment
    public var wrapped: Bool
    public var truncation: TruncationMode
    public var width: Double
    public var height: Double
    /// contentsScale: pixels per point of the backing store.
    public var scale: Double
}
