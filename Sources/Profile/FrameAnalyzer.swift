import Geometry
import LayerModel
import Plan

/// Runs every per-frame analysis over a `FramePlan` and the presentation tree it was planned from.
/// Pure: no clock, no GPU, no unordered iteration in what it returns.
///
/// - Frame figures (defined once in the module's README, "Figures"): drawn, shaded, blended and
///   edge-blended pixels and overdraw, from every item's `PixelCoverage` runs through the
///   `OverdrawMap` and the `BlendMap`.
/// - blended: `BlendAnalysis` per item; `blended` is raised for a layer whose paint lets the
///   background through (translucent colour, opacity < 1, image with alpha); pixels = the distinct
///   pixels its paint-blended items draw (a background and a border over the same pixel count once).
/// - misaligned.subpixel: for layers drawn with an axis-aligned 2D matrix, their bounds' edges
///   and their contents' edges in device pixels, each checked against the grid (±1/1000 px).
///   Rotated, skewed and 3D layers are never "misaligned": every edge of a rotated layer crosses
///   the grid by design (Instruments flags them only as resampled, which misaligned.scaled does).
///   Pixels = the pixels of the off-grid rectangle.
/// - misaligned.scaled: contents items whose texels do not land 1:1 on device pixels (any
///   scale ≠ 1, or a non-axis-aligned matrix); pixels = what those items shade.
/// - contents.low-scale: contentsScale below the canvas scale on a layer whose image is magnified
///   on screen (with a resizing gravity contentsScale changes nothing, so nothing is raised), and
///   rasterizationScale below the canvas scale on a shouldRasterize layer whose subtree draws;
///   pixels = what the affected items shade.
/// - offscreen.*: one per pass the plan records; pixels = the pass's target area.
public struct FrameAnalyzer: Sendable {
    /// Device pixels per point of the canvas the plan was made for.
    public var canvasScale: Double

    public init(canvasScale: Double) { self.canvasScale = canvasScale }

    /// - textures: where the frame's textures are opaque, by image key (`OpaqueTexels`), from the
    ///   decoded images and rasterised content; an image item drawn 1:1 on the pixel grid then
    ///   blends only where its texels are not opaque. Without it an image with alpha blends over
    ///   its whole quad.
    public func analyze(_ plan: FramePlan, tree: Layer, index: Int, time: Double, keepOverdrawMap: Bool = false,
                        textures: [UInt64: OpaqueTexels] = [:]) -> FrameAnalysis {
        analyze(plan, directory: LayerDirectory(root: tree), index: index, time: time, keepOverdrawMap: keepOverdrawMap, textures: textures)
    }

    /// The same, with the tree's directory already built (`AnalysisReuse` compares directories).
    public func analyze(_ plan: FramePlan, directory: LayerDirectory, index: Int, time: Double,
                        keepOverdrawMap: Bool = false, textures: [UInt64: OpaqueTexels] = [:]) -> FrameAnalysis {
        let w = plan.pixelWidth, h = plan.pixelHeight
        var map = OverdrawMap(width: w, height: h)
        // Every item's runs, kept for the blend pass below, which walks them top item first.
        // `paint`: the fragment blends whatever its coverage; `finding`: its item raises `blended`.
        var runs: [(item: Int, y: Int, xs: Range<Int>, partial: Bool, paint: Bool)] = []
        var paintBlending: [Bool] = []
        var shaded = 0
        var layerPixels: [LayerID: Int] = [:]
        // Fragments per layer that blend (`LayerPixels.blendedFragments`).
        var layerBlending: [LayerID: Int] = [:]
        var blended: [LayerID: (pixels: Int, reasons: Set<BlendReason>, colorAlpha: Double, opacity: Double)] = [:]
        /// Pixels drawn by each layer's shadow items (a hidden shadow's cost when it has a shadowPath).
        var shadowPixels: [LayerID: Int] = [:]
        /// Blended contents images: [opaque pixels, pixels] (`Evidence.imageOpaquePixels`).
        var imageOpacity: [LayerID: [Int]] = [:]
        var scaled: [LayerID: (pixels: Int, texels: Rect, device: Rect, transformed: Bool)] = [:]
        var magnified: [LayerID: Int] = [:]
        var contentsPixels: [LayerID: Int] = [:]
        // Rectangles to check against the grid, per layer and part, in first-seen order.
        var edgeRects: [(layer: LayerID, part: LayerPart, rect: Rect, item: DrawItem)] = []
        var edgeIndex: [Int: Int] = [:]

        // Shape, text and gradient textures, by image key: their blending and resampling are
        // explained as the layer's content, not as a supplied image.
        let rasterKinds = Dictionary(plan.rasterRequests.map { ($0.key, $0.content.kindName) }, uniquingKeysWith: { a, _ in a })
        let rasterKeys = Set(rasterKinds.keys)
        var contentKind: [LayerID: String] = [:]
        for item in plan.items {
            let coverage = PixelCoverage(item, canvasWidth: w, canvasHeight: h)
            let entry = directory[item.layer]
            let reasons = BlendAnalysis.reasons(item, in: plan, layer: entry, rasterKeys: rasterKeys)
            // A gradient is drawn as a background from its ramp image, not as contents.
            if item.role == .contents || item.gradient != nil, case .image(let index, _, _) = item.paint, index >= 0, index < plan.images.count,
               let kind = rasterKinds[plan.images[index].key] {
                contentKind[item.layer] = kind
            }
            // Blending (the blend map) and the `blended` finding differ for shadows, masks and
            // transitions: they blend everywhere, but their finding is an offscreen one.
            let paintBlends = reasons.contains(where: \.isPaint)
            let blendsEverywhere = reasons.contains(where: \.blendsEveryPixel)
            var px = 0
            let itemIndex = paintBlending.count
            paintBlending.append(paintBlends)
            // A texture that blends only for its alpha, drawn 1:1: its opaque texels replace.
            let onlyAlpha = blendsEverywhere && !reasons.contains { $0.blendsEveryPixel && $0 != .imageAlpha && $0 != .rasterizedContent }
            let texels = onlyAlpha ? Self.texelMapping(item, plan, textures) : nil
            coverage.forEachRun { y, xs, partial in
                px += xs.count
                map.add(y: y, xs)
                if let t = texels {
                    t.opaque.forEachPiece(row: y + t.dy, (xs.lowerBound + t.dx)..<(xs.upperBound + t.dx)) { piece, opaque in
                        runs.append((itemIndex, y, (piece.lowerBound - t.dx)..<(piece.upperBound - t.dx), partial, !opaque))
                        if !opaque { layerBlending[item.layer, default: 0] += piece.count }
                    }
                } else {
                    runs.append((itemIndex, y, xs, partial, blendsEverywhere))
                    if blendsEverywhere { layerBlending[item.layer, default: 0] += xs.count }
                }
            }
            shaded += px
            layerPixels[item.layer, default: 0] += px
            if item.role == .shadow { shadowPixels[item.layer, default: 0] += px }
            if paintBlends {
                var b = blended[item.layer] ?? (0, [], 1, 1)
                b.reasons.formUnion(reasons)
                if case .solid = item.paint { b.colorAlpha = min(b.colorAlpha, BlendAnalysis.colorAlpha(item, entry)) }
                b.opacity = min(b.opacity, BlendAnalysis.opacity(item, entry))
                blended[item.layer] = b
                if item.role == .contents, reasons.contains(.imageAlpha) || reasons.contains(.alphaChannel),
                   case .image(let index, _, _) = item.paint, plan.images.indices.contains(index),
                   let opaque = plan.images[index].opaquePixels {
                    let image = plan.images[index]
                    imageOpacity[item.layer] = [opaque, image.pixelWidth * image.pixelHeight]
                }
            }
            // Edges to check against the pixel grid (a quarter turn keeps them on the axes too).
            // A shadow's edges are blurred by design and lie where its offset puts them: Color
            // Misaligned Images looks at the layer's frame, not its shadow.
            if item.role != .shadow, Alignment.mapsAxesToAxes(item.transform) {
                let part: LayerPart = item.role == .contents ? .contents : .bounds
                let rect = item.role == .contents ? item.quad : (item.shape?.rect ?? item.quad)
                let key = item.layer * 2 + (part == .contents ? 1 : 0)
                if let i = edgeIndex[key] {
                    edgeRects[i].rect = edgeRects[i].rect.union(rect.standardized)
                } else {
                    edgeIndex[key] = edgeRects.count
                    edgeRects.append((item.layer, part, rect.standardized, item))
                }
            }
            if item.role == .contents {
                contentsPixels[item.layer, default: 0] += px
                if Alignment.isScaled(item) {
                    let device = Rect.bounding(DeviceProjection.polygon(item.quad.corners, item.transform))
                    let texels = item.uv.standardized
                    let transformed = !Alignment.mapsAxesToAxes(item.transform)
                    if var s = scaled[item.layer] {
                        s.pixels += px; s.texels = s.texels.union(texels); s.device = s.device.union(device)
                        s.transformed = s.transformed || transformed
                        scaled[item.layer] = s
                    } else {
                        scaled[item.layer] = (px, texels, device, transformed)
                    }
                }
                if Alignment.isMagnified(item) { magnified[item.layer, default: 0] += px }
            }
        }

        var obs: [Observation] = []
        // Blending, top item first: a pixel's fate is sealed by the topmost fragment that replaces
        // it; blended fragments above that one are what Color Blended Layers shows. A `blended`
        // finding's pixels are the distinct pixels where its layer's blended paint shows.
        var blendMap = BlendMap(width: w, height: h)
        var paintSpans: [LayerID: [(y: Int, xs: Range<Int>)]] = [:]
        for run in runs.reversed() {
            let paint = run.paint
            let finding = paint && paintBlending[run.item]
            // The closure captures the layer id, not `plan`: capturing the plan copied it for
            // every run (a retain and a release of each of its arrays: ≈ 5 % of profiling FLE).
            let layer = plan.items[run.item].layer, y = run.y
            blendMap.applyFromAbove(y: y, run.xs, paintBlends: paint, partial: run.partial) { xs in
                if finding { paintSpans[layer, default: []].append((y, xs)) }
            }
        }
        for (layer, spans) in paintSpans { blended[layer]?.pixels = Self.distinctPixels(spans) }
        for (layer, b) in blended where b.pixels > 0 {
            var e = Evidence()
            e.blendReasons = b.reasons.sorted()
            if b.reasons.contains(.translucentColor) { e.colorAlpha = b.colorAlpha }
            if b.reasons.contains(.opacity) { e.opacity = b.opacity }
            if b.reasons.contains(.rasterizedContent) { e.rasterContent = contentKind[layer] }
            e.imageOpaquePixels = imageOpacity[layer]
            obs.append(Observation(id: .blended, layer: layer, pixels: b.pixels, evidence: e))
        }

        // misaligned.subpixel: one observation per layer; bounds first, then contents.
        var subpixel: [LayerID: Observation] = [:]
        for r in edgeRects {
            let device = BlendAnalysis.deviceRect(r.rect, r.item.transform)
            if Alignment.isOnGrid(device) { continue }
            let px = PixelCoverage(rect: r.rect, transform: r.item.transform, clips: r.item.clips, canvasWidth: w, canvasHeight: h).pixelCount
            if px == 0 { continue }
            if let existing = subpixel[r.layer], existing.pixels >= px { continue }
            var e = Evidence()
            e.part = r.part
            e.deviceRect = [device.minX, device.minY, device.width, device.height]
            subpixel[r.layer] = Observation(id: .misalignedSubpixel, layer: r.layer, pixels: px, evidence: e)
        }
        obs.append(contentsOf: subpixel.values)

        for (layer, s) in scaled where s.pixels > 0 {
            var e = Evidence()
            e.imagePixels = [s.texels.width, s.texels.height]
            e.shownPixels = [s.device.width, s.device.height]
            if s.transformed { e.transformed = true }
            e.rasterContent = contentKind[layer]
            obs.append(Observation(id: .misalignedScaled, layer: layer, pixels: s.pixels, evidence: e))
        }

        for (layer, px) in magnified where px > 0 {
            guard let entry = directory[layer], entry.contentsScale < canvasScale - 1e-6 else { continue }
            var e = Evidence()
            e.property = .contentsScale; e.value = entry.contentsScale; e.canvasScale = canvasScale
            obs.append(Observation(id: .contentsLowScale, layer: layer, pixels: max(px, contentsPixels[layer] ?? 0), evidence: e))
        }
        for entry in directory.entries.values where entry.shouldRasterize && entry.rasterizationScale < canvasScale - 1e-6 {
            if obs.contains(where: { $0.id == .contentsLowScale && $0.layer == entry.id }) { continue }
            let px = entry.subtree.reduce(0) { $0 + (layerPixels[$1] ?? 0) }
            if px == 0 { continue }
            var e = Evidence()
            e.property = .rasterizationScale; e.value = entry.rasterizationScale; e.canvasScale = canvasScale
            obs.append(Observation(id: .contentsLowScale, layer: entry.id, pixels: px, evidence: e))
        }

        var offscreenPixels = 0
        for pass in plan.offscreenPasses {
            offscreenPixels += pass.pixelArea
            for reason in pass.reasons {
                let id = FindingID(reason)
                var e = Evidence()
                if !pass.bounds.isEmpty { e.passBounds = pass.bounds }
                if let i = obs.firstIndex(where: { $0.id == id && $0.layer == pass.layer }) {
                    obs[i].pixels += pass.pixelArea
                    obs[i].screenPixels = max(obs[i].screenPixels ?? 0, pass.bounds.area)
                } else {
                    var o = Observation(id: id, layer: pass.layer, pixels: pass.pixelArea, evidence: e)
                    o.screenPixels = pass.bounds.area
                    obs.append(o)
                }
            }
        }
        // offscreen.filter covers filters and blend modes: name which asked (a layer's filter
        // steps are `.filter` passes; a blend mode's passes flatten, copy and `.blend`).
        for i in obs.indices where obs[i].id == .offscreenFilter {
            let passes = plan.offscreenPasses.filter { $0.layer == obs[i].layer && $0.reasons.contains(.filter) }
            let filters = passes.contains { if case .filter = $0.operation { return true }; return false }
            let blends = passes.contains { if case .blend = $0.operation { return true }; return false }
                || !filters   // Porter-Duff operators and screen over several draws only flatten
            obs[i].evidence.filterSources = (filters ? ["filters"] : []) + (blends ? ["compositingFilter"] : [])
        }
        // A shadow that can never be seen: its own finding, whose cost is what its passes render
        // (then no longer offscreen.shadow, whose fix, a shadowPath, would keep it) or what it draws.
        for hidden in plan.hiddenShadows {
            if let i = obs.firstIndex(where: { $0.id == .offscreenShadow && $0.layer == hidden.layer }) {
                obs[i].id = .shadowHidden
                obs[i].evidence.hiddenShadow = hidden.reason
            } else if !obs.contains(where: { $0.id == .shadowHidden && $0.layer == hidden.layer }) {
                var e = Evidence()
                e.hiddenShadow = hidden.reason
                obs.append(Observation(id: .shadowHidden, layer: hidden.layer, pixels: shadowPixels[hidden.layer] ?? 0, evidence: e))
            }
        }
        for u in plan.unsupported {
            guard let layer = u.layer else { continue }
            var e = Evidence()
            // The message after the layer's name ("name: message").
            e.feature = u.feature.split(separator: ":", maxSplits: 1).last.map { String($0.drop { $0 == " " }) } ?? u.feature
            if let i = obs.firstIndex(where: { $0.id == .unsupported && $0.layer == layer }) {
                obs[i].evidence.feature = (obs[i].evidence.feature ?? "") + "; " + (e.feature ?? "")
            } else {
                obs.append(Observation(id: .unsupported, layer: layer, pixels: layerPixels[layer] ?? 0, evidence: e))
            }
        }
        for event in plan.rasterCache {
            guard let reason = event.miss else { continue }
            var e = Evidence()
            e.invalidation = CacheInvalidation(reason)
            if let id = e.invalidation?.layer { e.invalidation?.layerName = directory[id]?.displayName }
            e.passBounds = event.bounds
            var o = Observation(id: .rasterCacheMiss, layer: event.layer, pixels: event.pixels, evidence: e)
            o.screenPixels = event.bounds?.area ?? 0
            obs.append(o)
        }

        obs.sort { $0.id != $1.id ? $0.id < $1.id : $0.layer < $1.layer }
        var seen = Set<LayerID>()
        let layers = obs.compactMap { o -> LayerDirectory.Entry? in
            seen.insert(o.layer).inserted ? directory[o.layer] : nil
        }
        let canvas = w * h
        let histogram = map.histogram
        let drawn = canvas - histogram[0]
        // The last non-empty bucket is the most draws on a pixel, unless it is the 4-or-more bucket.
        let top = histogram.lastIndex { $0 > 0 } ?? 0
        let maxDraws = top < 4 ? top : map.maxCount
        let blendCounts = blendMap.counts
        var counters = FrameCounters(items: plan.items.count, offscreenPasses: plan.offscreenPasses.count,
                                     offscreenPixels: offscreenPixels, canvasPixels: canvas, drawnPixels: drawn,
                                     shadedPixels: shaded, blendedPixels: blendCounts.blended,
                                     edgeBlendedPixels: blendCounts.edgeOnly,
                                     overdraw: canvas > 0 ? Double(shaded - drawn) / Double(canvas) : 0,
                                     maxOverdraw: max(maxDraws - 1, 0), overdrawHistogram: histogram)
        counters.rasterCacheHits = plan.rasterCache.filter(\.isHit).count
        counters.rasterCacheMisses = plan.rasterCache.count - counters.rasterCacheHits!
        if counters.rasterCacheHits == 0 && counters.rasterCacheMisses == 0 { counters.rasterCacheHits = nil; counters.rasterCacheMisses = nil }
        counters.textureSharing = TextureSharing(plan)
        var analysis = FrameAnalysis(index: index, time: time, counters: counters, observations: obs, layers: layers,
                                     overdrawMap: keepOverdrawMap ? map : nil, blendMap: keepOverdrawMap ? blendMap : nil)
        analysis.passes = PassSummary.summaries(plan)
        analysis.layerPixels = layerPixels.keys.sorted().map { id in
            let entry = directory[id]
            var l = LayerPixels(layer: entry?.displayName ?? String(id), line: entry?.location?.line,
                                shadedPixels: layerPixels[id] ?? 0, blendedFragments: layerBlending[id] ?? 0)
            l.sourceFile = entry?.location?.file
            return l
        }
        return analysis
    }

    /// The texel offset of an image item drawn 1:1 onto whole device pixels (device x + dx = texel
    /// x), with its texture's opaque texels; nil when the item resamples or its texture is unknown.
    static func texelMapping(_ item: DrawItem, _ plan: FramePlan, _ textures: [UInt64: OpaqueTexels])
        -> (dx: Int, dy: Int, opaque: OpaqueTexels)? {
        guard !textures.isEmpty, case .image(let index, _, _) = item.paint, index >= 0, index < plan.images.count,
              let opaque = textures[plan.images[index].key],
              item.transform.isAxisAligned2D, !Alignment.isScaled(item), item.uv.width > 0, item.uv.height > 0 else { return nil }
        let device = BlendAnalysis.deviceRect(item.quad, item.transform)
        // On the grid, and not mirrored: the quad's first corner lands on the device rect's.
        let corner = item.transform.apply(Point(item.quad.minX, item.quad.minY))
        guard Alignment.isOnGrid(device), abs(corner.x - device.minX) < 1e-6, abs(corner.y - device.minY) < 1e-6 else { return nil }
        return (Int((item.uv.minX - device.minX).rounded()), Int((item.uv.minY - device.minY).rounded()), opaque)
    }

    /// Pixels in the union of row spans (any order, overlaps counted once).
    static func distinctPixels(_ spans: [(y: Int, xs: Range<Int>)]) -> Int {
        let sorted = spans.sorted { $0.y != $1.y ? $0.y < $1.y : $0.xs.lowerBound < $1.xs.lowerBound }
        var n = 0, row = Int.min, end = Int.min
        for s in sorted {
            if s.y != row { row = s.y; end = Int.min }
            let start = max(s.xs.lowerBound, end)
            if s.xs.upperBound > start { n += s.xs.upperBound - start; end = s.xs.upperBound }
        }
        return n
    }
}
