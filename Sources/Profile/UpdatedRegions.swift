import LayerModel
import Plan

/// Instruments' "Flash Updated Regions" for one frame: what changed on screen since the previous
/// frame (`FrameDamage`, decided by the plan from the two plans, GPU or not) and what the run did
/// with it.
public struct FrameUpdate: Sendable, Equatable {
    /// The damaged device rectangles (the whole canvas for a first frame).
    public var damage: FrameDamage
    /// How the frame was drawn: the renderer's answer when frames are drawn, else what the frame
    /// cache would do (`damage.use`).
    public var frameCache: FrameCacheUse
    /// The analysis was the previous frame's (`AnalysisReuse`).
    public var analysisReused: Bool

    public init(damage: FrameDamage, frameCache: FrameCacheUse? = nil, analysisReused: Bool = false) {
        self.damage = damage; self.frameCache = frameCache ?? damage.use; self.analysisReused = analysisReused
    }
}

/// Reuses the previous frame's analysis when it would come out the same: the analysis is a
/// function of the plan's logical view (items, the images they sample, offscreen passes, raster
/// cache events, unsupported features) and of the layer directory (names, places and the few
/// properties read beside the plan). When both equal the previous frame's, its counters,
/// observations and passes are this frame's too; only the index and time change. A static scene
/// is thus analysed once, however many frames are profiled.
public struct AnalysisReuse: Sendable {
    private var previous: (plan: FramePlan, directory: LayerDirectory, analysis: FrameAnalysis)?

    public init() {}

    /// The analysis of `plan` (planned from `tree`), and whether it is the previous frame's.
    /// `textures`: as `FrameAnalyzer.analyze`'s (the same keys show the same textures, so equal
    /// plans have equal coverage).
    public mutating func analyze(_ plan: FramePlan, tree: Layer, index: Int, time: Double, keepOverdrawMap: Bool = false,
                                 textures: [UInt64: OpaqueTexels] = [:],
                                 with analyzer: FrameAnalyzer) -> (analysis: FrameAnalysis, reused: Bool) {
        let directory = LayerDirectory(root: tree)
        if let p = previous, p.plan.hasSameLogicalContent(as: plan), p.directory == directory,
           !keepOverdrawMap || p.analysis.overdrawMap != nil {
            var a = p.analysis
            a.index = index; a.time = time
            return (a, true)
        }
        let a = analyzer.analyze(plan, directory: directory, index: index, time: time, keepOverdrawMap: keepOverdrawMap,
                                 textures: textures)
        previous = (plan, directory, a)
        return (a, false)
    }
}

extension LayerDirectory: Equatable {
    public static func == (a: LayerDirectory, b: LayerDirectory) -> Bool { a.entries == b.entries }
}

extension FramePlan {
    /// Whether everything the profiler's analyses read is the same in both plans: canvas size and
    /// clear colour, the logical items, the images (by content key), the offscreen passes, the
    /// raster-cache events and the unsupported features.
    public func hasSameLogicalContent(as other: FramePlan) -> Bool {
        pixelWidth == other.pixelWidth && pixelHeight == other.pixelHeight && clearColor == other.clearColor
            && images == other.images && items == other.items && offscreenPasses == other.offscreenPasses
            && rasterCache == other.rasterCache && unsupported == other.unsupported
    }
}

extension OverlayPainter {
    /// Flash Updated Regions: the damaged rectangles tinted yellow over the frame.
    static func updatedRegions(_ damage: FrameDamage, base: [UInt8], width w: Int, height h: Int) -> OverlayImage {
        var pixels = base
        var updated = 0
        for r in damage.rects {
            forEach(r, w, h) { i in tint(&pixels, i, OverlayPalette.updated); updated += 1 }
        }
        return OverlayImage(kind: .updatedRegions, width: w, height: h, pixels: pixels, legendPixels: [updated])
    }
}
