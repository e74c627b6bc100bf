import LayerModel
import Plan

/// One offscreen pass of a frame, as reports show it (the HTML pass graph, the trace's slices).
public struct PassSummary: Sendable, Equatable, Codable {
    public var reasons: [OffscreenReason]
    public var layer: LayerID
    /// The target's size in texels.
    public var width: Int
    public var height: Int
    /// draw (items into a target), blur (one axis of a shadow's or filter's blur), color (a filter's
    /// colour matrix), capture (a backdrop's copy of the canvas), cache (fills the raster cache),
    /// blend (a compositingFilter's blend mode over what lay beneath).
    public var kind: String
    /// Earlier passes whose results this pass reads.
    public var inputs: [Int]
    /// Device time measured for the pass (nil without a GPU run).
    public var gpuNanoseconds: UInt64?
    /// True when an item of the screen draws the result (a cache pass's: the item drawing the
    /// cached layer); nil when none does (only later passes read it, or nothing).
    public var drawnOnScreen: Bool?

    /// `plan`'s passes, each told whether the screen draws its result.
    public static func summaries(_ plan: FramePlan) -> [PassSummary] {
        var out = plan.offscreenPasses.map(PassSummary.init)
        var cacheIndex: [UInt64: Int] = [:]
        for (i, p) in plan.offscreenPasses.enumerated() { if let k = p.rasterCacheKey { cacheIndex[k] = i } }
        for item in plan.canvasItems {
            guard case .offscreen(let source, _, _) = item.paint else { continue }
            switch source {
            case .pass(let i) where out.indices.contains(i): out[i].drawnOnScreen = true
            case .rasterCache(let k): if let i = cacheIndex[k] { out[i].drawnOnScreen = true }
            default: break
            }
        }
        return out
    }

    public init(_ pass: OffscreenPass) {
        reasons = pass.reasons; layer = pass.layer; width = pass.width; height = pass.height
        switch pass.operation {
        case .draw(let items):
            kind = pass.rasterCacheKey != nil ? "cache" : "draw"
            inputs = Array(Set(items.compactMap { item -> Int? in
                if case .offscreen(.pass(let i), _, _) = item.paint { return i }
                return nil
            })).sorted()
        case .blur(let source, _, _, _, _):
            kind = "blur"; inputs = [source]
        case .filter(let op):
            if case .colorMatrix = op.kind { kind = "color" } else { kind = "blur" }
            inputs = op.sources
        case .backdrop:
            kind = "capture"; inputs = []
        case .blend(let source, let destination, _):
            kind = "blend"; inputs = [source, destination]
        }
    }
}
