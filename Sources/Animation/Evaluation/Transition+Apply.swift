import Geometry
import LayerModel

/// How a CATransition shows a layer between its previous state (the snapshot) and its new state
/// (reference §4.7). Both states go into the presentation tree, marked with their
/// `TransitionState`; the planner renders each offscreen as a snapshot and:
/// - fade: mixes them in one pass, previous · (1 − p) + next · p (a true cross-dissolve), then
///   composites the mix;
/// - moveIn: the new state slides in from the subtype's edge over the old one;
/// - push: the new state slides in while the old slides out the opposite edge;
/// - reveal: the old state slides out toward the opposite edge, uncovering the new.
/// Offsets are one bounds width or height, in the layer's own space (so a rotated layer pushes
/// along its own axes). Subtypes are literal in layer coordinates: `fromTop` comes from the
/// max-Y edge, as contentsGravity's top is (see docs/decisions.md, "Rendering decisions"); nil = fromLeft.
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
        let dissolve = spec.type == .fade ? p : nil
        if oldLayer != nil {
            newLayer.transitionState = TransitionState(role: .next, dissolve: dissolve)
            oldLayer?.transitionState = TransitionState(role: .previous, dissolve: dissolve)
        }
        switch spec.type {
        case .fade:
            // Without a previous state (a transition added with the layer) it fades in from nothing.
            if oldLayer == nil { newLayer.opacity *= p }
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
