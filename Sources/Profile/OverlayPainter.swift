import Geometry
import LayerModel
import Plan

/// Draws a frame's overlays on the CPU from its plan: each item's covered pixels
/// (`PixelCoverage` spans, the same pixels every count of the report is made of), visited in draw
/// order, so the colour of a pixel follows what the GPU does there. Pure: the rendered frame comes
/// in as pixels, the overlays go out as pixels (`Raster` writes the PNGs).
///
/// - blended: the frame's `BlendMap`: green where the topmost replacing fragment is the last one,
///   red where blended paint lies above it (one step redder per blended fragment stacked), orange
///   where only partial edge fragments do. Red and orange pixels are exactly the frame's
///   `blendedPixels`, orange alone its `edgeBlendedPixels`.
/// - misaligned: an item of a layer raising `misaligned.scaled` whose texels do not map 1:1 is
///   yellow; an item of a layer raising `misaligned.subpixel` whose own edges are off the grid is
///   magenta; an opaque item with neither clears what was beneath, a blended one keeps it.
/// - overdraw: the `OverdrawMap` count of each pixel on Android's scale (drawn 2, 3, 4, 5+ times).
public struct OverlayPainter: Sendable {
    public var canvasScale: Double

    public init(canvasScale: Double) { self.canvasScale = canvasScale }

    /// - Parameters:
    ///   - plan: the frame's plan; `tree` the presentation tree it was planned from.
    ///   - rendered: the frame the GPU drew (premultiplied RGBA8, plan-sized), or nil for a neutral
    ///     background.
    ///   - textures: where the textures are opaque (`FrameAnalyzer.analyze`'s), so the blended
    ///     overlay counts the pixels the run's figures count.
    ///   - damage: what changed since the previous frame (`FrameDamage`); nil: there is no
    ///     previous frame, everything is updated.
    public func paint(_ plan: FramePlan, tree: Layer, frame: Int, time: Double, rendered: [UInt8]? = nil,
                      textures: [UInt64: OpaqueTexels] = [:], damage: FrameDamage? = nil) -> FrameOverlays {
        let w = plan.pixelWidth, h = plan.pixelHeight
        let hasFrame = rendered.map { $0.count == w * h * 4 } ?? false
        let base = hasFrame ? Self.dim(rendered!) : Self.neutralBase(count: w * h)
        let analysis = FrameAnalyzer(canvasScale: canvasScale).analyze(plan, tree: tree, index: frame, time: time, keepOverdrawMap: true, textures: textures)
        let directory = LayerDirectory(root: tree)
        let rasterKeys = Set(plan.rasterRequests.map(\.key))

        // Which layers raise which misalignment (the overlay shows the findings, no more).
        var subpixelLayers = Set<LayerID>(), scaledLayers = Set<LayerID>()
        for o in analysis.observations {
            if o.id == .misalignedSubpixel { subpixelLayers.insert(o.layer) }
            if o.id == .misalignedScaled { scaledLayers.insert(o.layer) }
        }

        // Per pixel misalignment (0 none, 1 magenta, 2 yellow).
        var misaligned = [UInt8](repeating: 0, count: w * h)
        for item in plan.items {
            let paintBlends = BlendAnalysis.reasons(item, in: plan, layer: directory[item.layer], rasterKeys: rasterKeys).contains(where: \.blendsEveryPixel)
            let mark: UInt8
            if item.role == .contents && scaledLayers.contains(item.layer) && Alignment.isScaled(item) {
                mark = 2
            } else if subpixelLayers.contains(item.layer) && Self.isOffGrid(item) {
                mark = 1
            } else {
                mark = 0
            }
            let coverage = PixelCoverage(item, canvasWidth: w, canvasHeight: h)
            misaligned.withUnsafeMutableBufferPointer { m in
                coverage.forEachRun { y, xs, partial in
                    let row = y * w
                    let replaces = !paintBlends && !partial
                    for i in (row + xs.lowerBound)..<(row + xs.upperBound) {
                        if mark != 0 { m[i] = mark } else if replaces { m[i] = 0 }
                    }
                }
            }
        }

        // Blended: legend = opaque, blended 1–2 deep, blended 3+ deep, edges only.
        var blendedPixels = base
        var blendedCounts = [0, 0, 0, 0]
        if let blend = analysis.blendMap, let draws = analysis.overdrawMap {
            for y in 0..<h {
                for x in 0..<w where draws.count(x, y) > 0 {
                    let i = y * w + x, k = blend.depth(x, y)
                    if k == 0 { Self.tint(&blendedPixels, i, OverlayPalette.opaque); blendedCounts[0] += 1 }
                    else if !blend.isPaintBlended(x, y) { Self.tint(&blendedPixels, i, OverlayPalette.edge); blendedCounts[3] += 1 }
                    else { Self.tint(&blendedPixels, i, OverlayPalette.blended[min(k, 4) - 1]); blendedCounts[k >= 3 ? 2 : 1] += 1 }
                }
            }
        }

        var misalignedPixels = base
        var misalignedCounts = [0, 0]
        for i in 0..<(w * h) where misaligned[i] != 0 {
            let scaled = misaligned[i] == 2
            Self.tint(&misalignedPixels, i, scaled ? OverlayPalette.scaled : OverlayPalette.misaligned)
            misalignedCounts[scaled ? 1 : 0] += 1
        }

        var overdrawPixels = base
        var overdrawCounts = [0, 0, 0, 0]
        if let map = analysis.overdrawMap {
            for i in 0..<(w * h) where map.counts[i] >= 2 {
                let level = min(Int(map.counts[i]), 5) - 2
                Self.tint(&overdrawPixels, i, OverlayPalette.overdraw[level])
                overdrawCounts[level] += 1
            }
        }

        // Offscreen: how many layers' offscreen results land on each pixel (their passes' canvas
        // bounds). A layer's own chain (its content, its filter or shadow passes) counts once: only
        // a group inside another group is nested.
        var passDepth = [UInt8](repeating: 0, count: w * h)
        var stamp = [Int32](repeating: -1, count: w * h)
        var layerBounds: [(LayerID, PixelRect)] = plan.offscreenPasses
            .filter { !$0.bounds.isEmpty && $0.rasterCacheKey == nil }.map { ($0.layer, $0.bounds) }
        for event in plan.rasterCache where !event.isHit {
            if let b = event.bounds { layerBounds.append((event.layer, b)) }
        }
        // Each layer's rectangles together (a layer's passes need not be consecutive), each layer
        // stamping a pixel once.
        var byLayer: [LayerID: [PixelRect]] = [:]
        var order: [LayerID] = []
        for (layer, bounds) in layerBounds {
            if byLayer[layer] == nil { order.append(layer) }
            byLayer[layer, default: []].append(bounds)
        }
        for (s, layer) in order.enumerated() {
            for bounds in byLayer[layer] ?? [] {
                Self.forEach(bounds, w, h) { i in
                    if stamp[i] != Int32(s) { stamp[i] = Int32(s); passDepth[i] = passDepth[i] &+ (passDepth[i] < 255 ? 1 : 0) }
                }
            }
        }
        var offscreenPixels = base
        var offscreenCounts = [0, 0]
        for i in 0..<(w * h) where passDepth[i] > 0 {
            let nested = passDepth[i] >= 2
            Self.tint(&offscreenPixels, i, OverlayPalette.offscreen[nested ? 1 : 0])
            offscreenCounts[nested ? 1 : 0] += 1
        }
        // Raster cache: hits green, misses red, by where each cached bitmap lands.
        var cachePixels = base
        var cacheState = [UInt8](repeating: 0, count: w * h)
        for event in plan.rasterCache {
            guard let b = event.bounds else { continue }
            Self.forEach(b, w, h) { i in cacheState[i] = event.isHit ? 1 : 2 }
        }
        var cacheCounts = [0, 0]
        for i in 0..<(w * h) where cacheState[i] != 0 {
            let miss = cacheState[i] == 2
            Self.tint(&cachePixels, i, miss ? OverlayPalette.cacheMiss : OverlayPalette.cacheHit)
            cacheCounts[miss ? 1 : 0] += 1
        }

        return FrameOverlays(frame: frame, time: time, background: hasFrame ? .renderedFrame : .neutral, images: [
            OverlayImage(kind: .blended, width: w, height: h, pixels: blendedPixels, legendPixels: blendedCounts),
            OverlayImage(kind: .misaligned, width: w, height: h, pixels: misalignedPixels, legendPixels: misalignedCounts),
            OverlayImage(kind: .overdraw, width: w, height: h, pixels: overdrawPixels, legendPixels: overdrawCounts),
            OverlayImage(kind: .offscreen, width: w, height: h, pixels: offscreenPixels, legendPixels: offscreenCounts),
            OverlayImage(kind: .rasterCache, width: w, height: h, pixels: cachePixels, legendPixels: cacheCounts),
            Self.updatedRegions(damage ?? FrameDamage.between(nil, plan), base: base, width: w, height: h),
        ])
    }

    /// Calls `body` with the index of every canvas pixel of `r` (clipped to the canvas).
    static func forEach(_ r: PixelRect, _ w: Int, _ h: Int, _ body: (Int) -> Void) {
        let x0 = max(r.x, 0), y0 = max(r.y, 0), x1 = min(r.x + r.width, w), y1 = min(r.y + r.height, h)
        guard x1 > x0, y1 > y0 else { return }
        for y in y0..<y1 { for x in x0..<x1 { body(y * w + x) } }
    }

    /// Whether the item's own edges (its shape for backgrounds and borders, its quad for contents)
    /// are off the device-pixel grid, as `FrameAnalyzer` checks them. Only items whose matrix maps
    /// the axes onto the axes can be misaligned (other rotations are resampled by design).
    static func isOffGrid(_ item: DrawItem) -> Bool {
        guard Alignment.mapsAxesToAxes(item.transform) else { return false }
        let rect = item.role == .contents ? item.quad : (item.shape?.rect ?? item.quad)
        return !Alignment.isOnGrid(BlendAnalysis.deviceRect(rect.standardized, item.transform))
    }

    /// The rendered frame composited over the neutral grey, half desaturated and darkened to 34 %
    /// over a floor of 12, so pure tints stand out and the content stays recognisable. Opaque RGBA8.
    public static func dim(_ premultiplied: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 255, count: premultiplied.count)
        let bg = OverlayPalette.neutral
        premultiplied.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                var i = 0
                while i < s.count {
                    let inv = Double(255 - Int(s[i + 3])) / 255
                    let r = Double(s[i]) + Double(bg.r) * inv
                    let g = Double(s[i + 1]) + Double(bg.g) * inv
                    let b = Double(s[i + 2]) + Double(bg.b) * inv
                    let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
                    d[i] = UInt8(min(255, (0.5 * r + 0.5 * luma) * 0.34 + 12))
                    d[i + 1] = UInt8(min(255, (0.5 * g + 0.5 * luma) * 0.34 + 12))
                    d[i + 2] = UInt8(min(255, (0.5 * b + 0.5 * luma) * 0.34 + 12))
                    i += 4
                }
            }
        }
        return out
    }

    static func neutralBase(count: Int) -> [UInt8] {
        let bg = OverlayPalette.neutral
        var out = [UInt8](repeating: 255, count: count * 4)
        var i = 0
        while i < out.count { out[i] = bg.r; out[i + 1] = bg.g; out[i + 2] = bg.b; i += 4 }
        return out
    }

    /// Mixes `t` over pixel `i` at its strength.
    static func tint(_ px: inout [UInt8], _ i: Int, _ t: OverlayPalette.Tint) {
        let k = i * 4, a = t.strength
        px[k] = UInt8((Double(px[k]) * (1 - a) + Double(t.r) * a).rounded())
        px[k + 1] = UInt8((Double(px[k + 1]) * (1 - a) + Double(t.g) * a).rounded())
        px[k + 2] = UInt8((Double(px[k + 2]) * (1 - a) + Double(t.b) * a).rounded())
    }
}
