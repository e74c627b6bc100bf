import Geometry
import LayerModel

/// A shadow that can never be seen, recorded by the planner from the geometry alone (the profiler
/// raises `shadow.hidden` for it: removing it changes no pixel and saves what it costs).
public struct HiddenShadow: Sendable, Equatable {
    public var layer: LayerID
    public var reason: HiddenShadowReason
    public init(layer: LayerID, reason: HiddenShadowReason) { self.layer = layer; self.reason = reason }
}

/// Why a shadow is never visible.
public enum HiddenShadowReason: String, Sendable, Codable, CaseIterable {
    /// The ancestors' masksToBounds (or the canvas) clip all of it away while the layer is seen.
    case clippedAway = "clipped-away"
    /// What survives clipping lies wholly beneath the layer's own opaque backgroundColor: the
    /// layer's masksToBounds keeps its shadow inside its bounds (reference §1.8), or an ancestor's
    /// clip ends at the layer's edges.
    case beneathOpaqueBackground = "beneath-opaque-background"
}

extension Builder {
    /// Records the layer's shadow in `hiddenShadows` when none of it can be seen. Decided on the
    /// canvas only (inside an offscreen target the clips above it are not known), for layers
    /// drawn axis-aligned at full opacity (a faded layer lets its own shadow show through), whose
    /// content is not filtered (a blur would move the background's edges), in device pixels:
    /// - the shadow's reach (its shape, grown by 3σ and moved by the offset) ∩ the ancestors'
    ///   clips ∩ the canvas ∩ the layer's bounds when it masks to them is empty while the layer's
    ///   own bounds are seen: clipped away;
    /// - or it lies within the layer's bounds and the layer paints an opaque backgroundColor over
    ///   them (a rounded one only under its own masksToBounds, which clips the shadow to the same
    ///   rounded shape): beneath it.
    mutating func noteHiddenShadow(_ layer: Layer, _ world: Transform3D, _ clips: [ActiveClip], alpha: Double) {
        guard offscreenDepth == 0, shadowColor(layer, alpha: 1) != nil, world.isAxisAligned2D, layer.filters.isEmpty,
              layer.backgroundFilters.isEmpty, layer.layerClass != .backdrop, layer.layerClass != .transform else { return }
        func device(_ r: Rect) -> Rect { Rect.bounding(r.standardized.corners.map { world.apply($0) }) }
        let shape = (layer.shadowPath.flatMap(\.controlBounds) ?? layer.bounds).standardized
        let reach = 3 * max(layer.shadowRadius, 0)
        let shadowRect = device(Rect(shape.minX + layer.shadowOffset.width, shape.minY + layer.shadowOffset.height,
                                     shape.width, shape.height).insetBy(dx: -reach, dy: -reach)).insetBy(dx: -1, dy: -1)
        let bounds = device(layer.bounds)
        guard shadowRect.allFinite, bounds.allFinite, !bounds.isEmpty else { return }
        var visible: Rect? = Rect(0, 0, Double(canvas.pixelWidth), Double(canvas.pixelHeight))
        if let c = Self.clipBounds(clips) { visible = visible?.intersection(c) }
        // The layer itself must be seen: a layer clipped away whole is no shadow's matter.
        guard let seen = visible, seen.intersection(bounds) != nil else { return }
        let ownClip = layer.masksToBounds ? bounds : seen
        guard let shown = shadowRect.intersection(seen).flatMap({ $0.intersection(ownClip) }) else {
            hiddenShadows.append(HiddenShadow(layer: layer.id, reason: .clippedAway)); return
        }
        let opaqueBackground = (layer.backgroundColor?.alpha ?? 0) >= 1 && alpha >= 1
            && (layer.masksToBounds || layer.cornerRadii.allSatisfy { $0 <= 0 })
        let e = 1e-6
        if opaqueBackground, shown.minX >= bounds.minX - e, shown.minY >= bounds.minY - e,
           shown.maxX <= bounds.maxX + e, shown.maxY <= bounds.maxY + e {
            hiddenShadows.append(HiddenShadow(layer: layer.id, reason: .beneathOpaqueBackground))
        }
    }
}
