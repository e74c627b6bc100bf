import Geometry
import LayerModel

/// A running CATransition (reference §4.7): Core Animation animates from a snapshot of the layer's
/// previous rendered state to its new state. Both states are rendered offscreen as snapshots
/// (`OffscreenEffects.snapshot`); `moveIn`, `push` and `reveal` then draw the snapshots at their
/// offsets, and `fade` mixes them in one more pass, previous · (1 − p) + next · p with additive
/// blending, so the cross-dissolve is exact whatever the content's alpha (drawing one state over
/// the other at 1 − p and p would let the previous state show through where both are opaque).
extension Builder {
    mutating func transition(_ previous: Layer, _ next: Layer, parentSublayerToDevice: Transform3D, clips: [ActiveClip],
                             opacity: Double, flippedAncestors: Int, path: [Int]) {
        guard let p = next.transitionState?.dissolve else {
            for state in [previous, next] {
                forceSnapshot = true
                visit(state, parentSublayerToDevice: parentSublayerToDevice, clips: clips, opacity: opacity,
                      flippedAncestors: flippedAncestors, path: path)
            }
            return
        }
        let saved = items, savedWhole = listIsWholeTarget
        let passesBefore = offscreenPasses.count
        items = []
        listIsWholeTarget = false
        forceSnapshot = true
        visit(previous, parentSublayerToDevice: parentSublayerToDevice, clips: [], opacity: 1,
              flippedAncestors: flippedAncestors, path: path)
        let split = items.count
        forceSnapshot = true
        visit(next, parentSublayerToDevice: parentSublayerToDevice, clips: [], opacity: 1,
              flippedAncestors: flippedAncestors, path: path)
        var mix = items
        items = saved
        listIsWholeTarget = savedWhole
        for j in mix.indices {
            mix[j].blend = .plus
            scaleOpacity(&mix[j], by: Float(j < split ? 1 - p : p))
        }
        guard let box = Self.bounds(of: mix), let r = targetRect(box, grownBy: 0) else {
            dropPasses(from: passesBefore)
            return
        }
        let pass = addPass([.transition], next.id, r, space: .identity, .draw(Self.moved(mix, by: -Double(r.x), -Double(r.y))))
        var item = composite(.pass(pass), next, r, at: Point(Double(r.x), Double(r.y)), role: .offscreen)
        scaleOpacity(&item, by: Float(opacity))
        guard let ancestors = self.clips(clips, forTargetItem: item.transform, next, path) else { return }
        item.clips = ancestors
        items.append(item)
    }
}
