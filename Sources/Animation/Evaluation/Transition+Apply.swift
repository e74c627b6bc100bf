import Geometry
import LayerModel

/// How a CATransition shows a layer between its previous state (the snapshot) and its new state
/// (reference §4.7). Core Animation renders both states offscreen and mixes them; caprof's plan has
/// no offscreen passes for this yet, so the two states are drawn as two layers:
/// - fade: the old state at opacity 1 − p beneath the new at opacity p (a cross-dissolve for
///   opaque content is exact only with group passes; this is the documented approximation);
/// - moveIn: the new state slides in from the subtype's edge over the old one;
/// - push: the new state slides in while the old slides out the opposite edge;
/// - reveal: the old state slides out toward the opposite edge, uncovering the new.
/// Offsets are one bounds width or height, in the layer's own space (so a rotated layer pushes
/// along its own axes). Subtypes are literal in layer coordinates: `fromTop` comes from the
/// max-Y edge, as contentsGravity's top is (see README "Rendering decisions"); nil = fromLeft.
enum TransitionRendering {
    static func apply(_ spec: TransitionSpec, progress p: Double, old: Layer?, new: Layer, into out: inout [Layer]) {
        let w = new.bounds.width, h = new.bounds.height
        let (dx, dy): (Double, Double) = {
            switch spec.subtype ?? .fromLeft {
            case .fromLeft: return (-w, 0)
            case .fromRight: return (w, 0)
            case .fromTop: return (0, h)
            case .fromBottom: return (0, -h)
            }
        }()
        var newLayer = new
        var oldLayer = old
        switch spec.type {
        case .fade:
            oldLayer?.opacity *= (1 - p)
            newLayer.opacity *= p
        case .moveIn:
            offset(&newLayer, dx * (1 - p), dy * (1 - p))
        case .push:
            offset(&newLayer, dx * (1 - p), dy * (1 - p))
            if oldLayer != nil { offset(&oldLayer!, -dx * p, -dy * p) }
        case .reveal:
            if oldLayer != nil { offset(&oldLayer!, -dx * p, -dy * p) }
        }
        if spec.type == .reveal, let o = oldLayer {
            out.append(newLayer); out.append(o)      // the old state slides away on top
        } else {
            if let o = oldLayer { out.append(o) }
            out.append(newLayer)
        }
    }

    /// Translates a layer in its own space (before its transform, about its anchor).
    private static func offset(_ l: inout Layer, _ dx: Double, _ dy: Double) {
        l.transform = Transform3D.translation(dx, dy, 0) * l.transform
    }

    /// Snapshot layers get ids no scene layer has: −(id + 1), so reports can tell them apart.
    static func snapshotID(_ id: LayerID) -> LayerID { -(id + 1) }
}
