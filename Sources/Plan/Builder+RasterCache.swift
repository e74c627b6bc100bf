import Geometry
import LayerModel

/// shouldRasterize (reference §1.12): hit or miss, decided from the presentation tree and the
/// cache's state alone, plus the logical view of offscreen results for the profiler.
extension Builder {
    /// Records the rasterised image of `layer` (`cached`: items in the bitmap's texel space) and
    /// returns the cache key to draw. On a hit the passes planned since `passesBefore` are dropped:
    /// the bitmap from an earlier frame is drawn instead.
    mutating func rasterize(_ layer: Layer, _ cached: [DrawItem], reasons: [OffscreenReason], size r: PixelRect,
                            toWorld: Transform3D, passesBefore: Int) -> UInt64 {
        let logical = logicalItems(cached)
        var fingerprint = Self.fingerprint(logical, images: plannedImages, size: r)
        // Filter steps change the bitmap without changing the items they start from.
        for pass in offscreenPasses[min(passesBefore, offscreenPasses.count)...] {
            if case .filter(let op) = pass.operation { fingerprint = fingerprint &* 31 &+ op.kind.hashValue }
        }
        let scale = layer.rasterizationScale
        let onCanvas = DeviceProjection.pixelBounds(Rect(0, 0, Double(r.width), Double(r.height)), toWorld,
                                                    width: canvas.pixelWidth, height: canvas.pixelHeight)
        let reason: InvalidationReason
        let key: UInt64
        if var e = cache.entries[layer.id] {
            if e.fingerprint == fingerprint, e.scale == scale {
                e.lastUsed = time
                cache.entries[layer.id] = e
                dropPasses(from: passesBefore)
                rasterContents[e.key] = logical
                cacheEvents.append(RasterCacheEvent(layer: layer.id, miss: nil, pixels: r.area, bounds: onCanvas))
                return e.key
            }
            if e.scale != scale {
                reason = .rasterizationScaleChanged(from: e.scale, to: scale)
            } else if let d = RasterInvalidation.firstDifference(e.snapshot, layer) {
                reason = .propertyChanged(layer: d.layer, property: d.property)
            } else {
                reason = .contentChanged
            }
            key = e.key
        } else {
            reason = cache.evicted.removeValue(forKey: layer.id) ?? .firstUse
            key = cache.nextKey
            cache.nextKey += 1
        }
        cache.entries[layer.id] = RasterCache.Entry(key: key, snapshot: layer, fingerprint: fingerprint, scale: scale,
                                                    lastUsed: time, pixels: r.area)
        offscreenPasses.append(OffscreenPass(reasons: reasons, layer: layer.id,
                                             bounds: onCanvas ?? PixelRect(x: 0, y: 0, width: 0, height: 0),
                                             width: r.width, height: r.height, operation: .draw(Self.placeable(cached)), rasterCacheKey: key))
        rasterContents[key] = logical
        cacheEvents.append(RasterCacheEvent(layer: layer.id, miss: reason, pixels: r.area, bounds: onCanvas))
        return key
    }

    /// Before the frame: entries unused for longer than the idle limit are evicted.
    mutating func expireRasterCache() {
        for (id, e) in cache.entries.sorted(by: { $0.key < $1.key }) {
            let idle = abs(time - e.lastUsed)
            if idle > cache.maxIdleSeconds + 1e-9 {
                cache.entries[id] = nil
                cache.evicted[id] = .evictedUnused(idleSeconds: idle)
                evictions.append(e.key)
            }
        }
    }

    /// After the frame: least recently used entries go until the cache holds at most its cap
    /// (those drawn this frame last), the largest first among equally recent ones, then by key
    /// for determinism. Largest first: evicting the oldest keys first made one bitmap larger than
    /// the cap evict every other entry, every frame (FirstLaunchExperience.caar's 2280×3200
    /// scanlines against a 2.28 Mpx cap: six misses per frame where five bitmaps fit).
    mutating func capRasterCache() {
        // Clamped: a cap beyond Int's range (a huge maxScreens) is no cap at all.
        let cap = Int(min(max(cache.maxScreens * Double(canvas.pixelWidth * canvas.pixelHeight), 0), Double(Int.max / 2)))
        var total = cache.cachedPixels
        guard total > cap else { return }
        let order = cache.entries.sorted { a, b in
            (a.value.lastUsed, -a.value.pixels, a.value.key) < (b.value.lastUsed, -b.value.pixels, b.value.key)
        }
        for (id, e) in order where total > cap {
            cache.entries[id] = nil
            cache.evicted[id] = .evictedCacheFull
            evictions.append(e.key)
            total -= e.pixels
        }
    }

    /// The logical items of a list: offscreen results expanded into the items they hold, with the
    /// composite's matrix, clips and opacity folded in; a blurred shadow becomes one `shadow` item
    /// over its target; mask applications (destination-in) draw nothing on screen.
    func logicalItems(_ list: [DrawItem]) -> [DrawItem] {
        var out: [DrawItem] = []
        out.reserveCapacity(list.count)
        var expanded = Set<OffscreenSource>()
        for item in list {
            guard case .offscreen(let source, _, let opacity) = item.paint else { out.append(item); continue }
            // Mask applications and zero-weight states of a cross-dissolve put nothing on screen.
            if item.blend == .destinationIn || opacity <= 0 { continue }
            // A composite split into pieces (`splitAtCorners`) is one composite.
            if !expanded.insert(source).inserted { continue }
            let inner: [DrawItem]
            switch source {
            case .pass(let i):
                switch offscreenPasses[i].operation {
                case .draw, .filter, .backdrop:
                    // A filtered result shows the items its chain started from (`filterOrigin`). A
                    // backdrop's capture inside a target is a draw of what lay beneath it, earlier
                    // captures included: it shows as one capture, as over the canvas (`filterOrigin`
                    // says so for a draw in `nestedCaptures`, with or without filters after it).
                    // Expanded as a content pass, each filterless backdrop in a target doubled the
                    // list: 100 of them (a replicator's instances) took minutes and gigabytes.
                    guard let origin = filterOrigin(i) else { continue }
                    switch origin {
                    case .draw(let items): inner = logicalItems(items)
                    case .backdrop(let capture): out.append(backdropLogicalItem(item, capture)); continue
                    }
                case .blur(_, _, _, let tint, _):
                    var s = item
                    s.role = .shadow
                    s.paint = .solid(RGBA(tint.r * opacity, tint.g * opacity, tint.b * opacity, tint.a * opacity))
                    out.append(s)
                    continue
                case .blend(let layerPass, let destination, _):
                    // A blend mode's result: the layer's own draws, after what lay beneath when the
                    // blend took it off the target (else it is drawn there already).
                    out += beneathMoved(into: destination, drawnBackBy: item)
                    inner = logicalItems(offscreenPasses[layerPass].items)
                }
            case .rasterCache(let key):
                inner = rasterContents[key] ?? []
            }
            for var x in inner {
                let outer = item.clips.map { Clip(transform: x.transform * $0.transform, shape: $0.shape, layer: $0.layer) }
                x.transform = x.transform * item.transform
                x.clips = outer + x.clips
                // Composed matrices can overflow where each factor does not (a huge scale inside a
                // tiny one): such an item cannot be placed on the canvas, so the profiler leaves it out.
                guard x.transform.elements.allSatisfy(\.isFinite),
                      x.clips.allSatisfy({ $0.transform.elements.allSatisfy(\.isFinite) }) else { continue }
                scaleOpacity(&x, by: opacity)
                if item.blend == .plus { x.blend = .plus }   // part of a cross-dissolve
                if item.blend.isCompositingFilter { x.blend = item.blend == .replace ? .blendMode : item.blend }
                out.append(x)
            }
        }
        return out
    }

    /// A hash of what a bitmap holds (images by content key, not by this frame's index).
    static func fingerprint(_ items: [DrawItem], images: [PlannedImage], size: PixelRect) -> Int {
        var h = Hasher()
        h.combine(size.width); h.combine(size.height)
        func shape(_ s: RoundedShape?) {
            guard let s else { h.combine(0); return }
            h.combine(s.rect); h.combine(s.radii); h.combine(s.curve)
        }
        for item in items {
            h.combine(item.role.rawValue); h.combine(item.blend.rawValue)
            h.combine(item.transform); h.combine(item.quad); h.combine(item.uv)
            shape(item.shape); shape(item.innerShape)
            for c in item.clips { h.combine(c.transform); shape(c.shape) }
            switch item.paint {
            case .solid(let c): h.combine(c)
            case .image(let i, let s, let o): h.combine(images[i].key); h.combine(s.rawValue); h.combine(o); h.combine(item.tint)
            case .offscreen(let src, let s, let o): h.combine(src); h.combine(s.rawValue); h.combine(o)
            case .blurredShape(let c, let sigma): h.combine(c); h.combine(sigma)
            }
        }
        return h.finalize()
    }
}
