/// A canvas drawn in segments: a backdrop capture (`OffscreenPass.Operation.backdrop`) copies
/// what the canvas holds after its first `canvasItemCount` items, so the canvas is drawn up to
/// there, captured, then drawn on. No execution decision may cross such a boundary:
///
/// - an item drawn before a capture is seen by it, even where opaque items drawn after the
///   capture cover it, so it must not be culled under them;
/// - a flattened region must not blend items of two segments into one draw;
/// - the boundary itself must count executed items (pieces of split items, regions), which is
///   what the backend cuts the canvas's draws at.
///
/// Each segment is therefore prepared on its own and the boundaries are returned in executed
/// items. Regions are flattened in the first segment only: a later segment's "nothing beneath"
/// test would not see the items of the segments before it.
extension CanvasExecution {
    public static func prepare(_ items: [DrawItem], segmentedAt boundaries: [Int], images: [PlannedImage], width: Int,
                               height: Int, flattenOver clear: RGBA? = nil, savingPerRegion: Int = savedPixelsPerRegion,
                               cullsStacks: Bool = true)
        -> (items: [DrawItem], stats: CanvasExecutionStats, boundaries: [Int: Int]) {
        let cuts = Set(boundaries.map { min(max($0, 0), items.count) }).sorted()
        guard !cuts.isEmpty else {
            let (out, stats) = prepare(items, images: images, width: width, height: height, flattenOver: clear,
                                       savingPerRegion: savingPerRegion, cullsStacks: cullsStacks)
            return (out, stats, [:])
        }
        var out: [DrawItem] = []
        var stats = CanvasExecutionStats()
        var mapped: [Int: Int] = [:]
        var start = 0
        for (i, end) in (cuts + [items.count]).enumerated() {
            let segment = Array(items[start..<end])
            let (executed, s) = prepare(segment, images: images, width: width, height: height,
                                        flattenOver: i == 0 ? clear : nil, savingPerRegion: savingPerRegion,
                                        cullsStacks: cullsStacks)
            out += executed
            stats.add(s)
            if i < cuts.count { mapped[end] = out.count }
            start = end
        }
        return (out, stats, mapped)
    }
}

extension CanvasExecutionStats {
    /// Adds another segment's counts.
    mutating func add(_ o: CanvasExecutionStats) {
        culledItems += o.culledItems; culledPixels += o.culledPixels; opaqueItems += o.opaqueItems
        promotedItems += o.promotedItems; splitItems += o.splitItems; batches += o.batches
        flattenedRegions += o.flattenedRegions; flattenedItems += o.flattenedItems
        flattenedPieces += o.flattenedPieces; droppedClips += o.droppedClips
        stackDepth = max(stackDepth, o.stackDepth); stackVeils += o.stackVeils; stackPieces += o.stackPieces; stackSavedPixels += o.stackSavedPixels
        stackByOrder += o.stackByOrder
    }
}
