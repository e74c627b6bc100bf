import Geometry
import LayerModel

extension Builder {
    /// Adds a clip to the active list. A rectangular clip whose space maps onto the innermost
    /// rectangular clip's space by an axis-aligned transform is intersected with it instead of
    /// taking a slot, so ordinary nesting (cards in a scrolling list) uses one clip.
    /// Returns nil when the intersection is empty: nothing inside can be seen.
    mutating func push(_ clip: ActiveClip, onto list: [ActiveClip]) -> [ActiveClip]? {
        var list = list
        if let last = list.last, clip.shape.isRectangle, last.shape.isRectangle {
            // clip space → last's space: (clip space → sublayer space) · (sublayer space → last's space).
            // The new clip is always the current layer's own bounds (identity from its space), so
            // `last.fromSublayerSpace` is the relation clip space → last's space. It may contain
            // the flattening matrix (singular in z), so invert its 2D part by hand.
            let rel = last.fromSublayerSpace
            if rel.isAxisAligned2D, rel.m11 != 0, rel.m22 != 0 {
                let lastInClip = Rect.bounding(last.shape.rect.corners.map {
                    Point(($0.x - rel.m41) / rel.m11, ($0.y - rel.m42) / rel.m22)
                })
                // A near-zero scale sends the corners to infinity: keep both clips rather than merge.
                guard lastInClip.allFinite else { list.append(clip); return list }
                guard let r = lastInClip.intersection(clip.shape.rect) else { return nil }
                list.removeLast()
                list.append(ActiveClip(fromSublayerSpace: clip.fromSublayerSpace, shape: RoundedShape(rect: r), layer: clip.layer,
                                       toTarget: clip.toTarget))
                return list
            }
        }
        list.append(clip)
        return list
    }

    /// The clips for items of `layer` (whose local space is the layer's bounds space).
    mutating func drawClips(_ active: [ActiveClip], _ layer: Layer, _ path: [Int]) -> [Clip] {
        var list = active.map { Clip(transform: $0.fromSublayerSpace, shape: $0.shape, layer: $0.layer) }
        if list.count > DrawItem.maxClips {
            report(.deepClipNesting, layer, path)
            list = Array(list.suffix(DrawItem.maxClips))
        }
        return list
    }
}

extension Builder {
    /// Ancestors' clips for an item drawn in the current target whose local space is `transform`
    /// away from it (an offscreen result): each clip's shape is reached through the inverse of its
    /// layer's plane mapping. nil when a clip's plane is seen edge-on (nothing inside is visible).
    mutating func clips(_ active: [ActiveClip], forTargetItem transform: Transform3D, _ layer: Layer, _ path: [Int]) -> [Clip]? {
        var list: [Clip] = []
        for c in active {
            guard let inverse = c.toTarget.planarInverse else { return nil }
            // The product can overflow where neither factor does (a huge scale under a tiny one):
            // such an item cannot be clipped, so it is not drawn (as a layer whose own clip
            // matrix overflows is not, `visit`).
            let m = transform * inverse
            guard m.elements.allSatisfy(\.isFinite) else { report(.nonFiniteGeometry, layer, path); return nil }
            list.append(Clip(transform: m, shape: c.shape, layer: c.layer))
        }
        if list.count > DrawItem.maxClips {
            report(.deepClipNesting, layer, path)
            list = Array(list.suffix(DrawItem.maxClips))
        }
        return list
    }
}

extension Builder {
    /// The bounds, in the current target, of what the ancestors' clips let through: the
    /// intersection of each clip shape's bounding box (a rounded or turned clip is bounded by its
    /// box, so nothing visible is ever cut). nil when there is no clip, or when a clip cannot be
    /// bounded (behind the eye, or beyond finite numbers). An empty intersection is an empty rectangle.
    static func clipBounds(_ active: [ActiveClip]) -> Rect? {
        var bounds: Rect?
        for c in active {
            let polygon = DeviceProjection.polygon(c.shape.rect.corners, c.toTarget)
            guard polygon.count >= 3 else { continue }
            let r = Rect.bounding(polygon)
            guard r.allFinite else { continue }
            bounds = bounds.map { $0.intersection(r) ?? Rect(r.minX, r.minY, 0, 0) } ?? r
        }
        return bounds
    }

    /// Cuts an offscreen target's `box` to its ancestors' clips grown by `margin` (a shadow's or
    /// filter's reach, as the canvas is grown: content just outside still casts onto what is
    /// seen). false when nothing of it survives them.
    static func cut(_ box: inout Rect, to active: [ActiveClip], grownBy margin: Double) -> Bool {
        guard let visible = clipBounds(active) else { return true }
        guard let inside = box.intersection(visible.insetBy(dx: -margin, dy: -margin)) else { return false }
        box = inside
        return true
    }

    /// `box` cut to the ancestors' clips (nil when nothing of it survives them).
    static func clipped(_ box: Rect, _ active: [ActiveClip]) -> Rect? {
        guard let visible = clipBounds(active) else { return box }
        return box.intersection(visible)
    }
}
