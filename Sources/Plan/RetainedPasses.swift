/// Offscreen results a frame takes from the previous frame instead of rendering them again:
/// caprof's own saving, not Core Animation's (a device renders every offscreen pass every frame,
/// and every shouldRasterize miss; the findings still count them so). Pure, decided from the two
/// plans and from which of the previous frame's results the backend still holds, so the backend
/// skips exactly these passes and nothing else.
///
/// A pass of the current plan is retained when the backend holds the result of its counterpart in
/// the previous plan (`PassCorrespondence`: the same index while the pass lists keep their shape)
/// and that result is provably what this frame would render:
/// - an ordinary pass (no raster-cache key): `DrawingDiff` finds it unchanged (the same operation
///   on unchanged inputs: the same items, images by content, and sources unchanged in turn);
/// - a raster-cache store (a shouldRasterize miss): the previous frame stored the same layer's
///   bitmap, of the same size, from the same items, and evicted it after that frame (a bitmap
///   larger than the cache is evicted every frame, and rendered again from the same items). Only
///   an evicted bitmap is taken, so no two cache keys ever share one target;
/// - never a backdrop capture (it copies the canvas mid-frame).
///
/// Rendering is deterministic (the same items, images and pipelines give the same texels), so a
/// frame with retained passes is byte-identical to the same frame rendered whole.
public enum RetainedPasses {
    /// The passes of `current.offscreenPasses` whose results the previous frame's passes already
    /// hold, each with its counterpart's index in `previous.offscreenPasses`. `held`: the previous
    /// plan's passes whose results the backend kept.
    public static func between(_ previous: FramePlan?, _ current: FramePlan, held: Set<Int>) -> [Int: Int] {
        guard let previous, !held.isEmpty, previous.pixelWidth == current.pixelWidth,
              previous.pixelHeight == current.pixelHeight else { return [:] }
        let diff = DrawingDiff(previous, current)
        let evicted = Set(previous.rasterCacheEvictions)
        var retained: [Int: Int] = [:]
        for (i, pass) in current.offscreenPasses.enumerated() {
            guard let j = diff.counterpart[i], held.contains(j) else { continue }
            let old = previous.offscreenPasses[j]
            if case .backdrop = pass.operation { continue }
            if let key = pass.rasterCacheKey {
                guard let oldKey = old.rasterCacheKey, oldKey != key, evicted.contains(oldKey), old.layer == pass.layer,
                      old.width == pass.width, old.height == pass.height,
                      case .draw(let a) = old.operation, case .draw(let b) = pass.operation,
                      a.count == b.count, zip(a, b).allSatisfy({ diff.same($0, $1) }) else { continue }
                retained[i] = j
            } else if old.rasterCacheKey == nil && !diff.changedPasses.contains(i) {
                retained[i] = j
            }
        }
        return retained
    }
}
