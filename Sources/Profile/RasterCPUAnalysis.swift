import LayerModel
import Plan

/// `raster.cpu`: shape, text, gradient-ramp and shadowPath-shadow content rasterised on the CPU again because what it
/// draws changed since the previous frame (a `strokeEnd` draw-on, a morphing `path`, a counting
/// `string`). Core Animation rasterises this content on the CPU too, then uploads it, so every
/// frame that changes it pays a rasterisation and an upload; a layer that only moves, rotates or
/// fades keeps its texture (the raster key leaves those out, `RasterRequest`).
///
/// Deterministic: a request is new when the previous frame did not show its key
/// (`FramePlan.newRasterRequests(since:)`). The first frame of a run has no previous frame: its
/// content is first use (the profile's start-up cost), never a finding. The CPU time is measured
/// by the pipeline and joined in by the profiler (`Observation.cpuNanoseconds`).
public enum RasterCPUAnalysis {
    /// - previousLayers: the layers of the previous frame's tree, when known. Content new to the
    ///   plan whose layer was there is content that came onto the canvas ("came into view": it was
    ///   off the canvas or hidden), not a layer created mid-run ("appeared").
    public static func observations(_ plan: FramePlan, previous: FramePlan?, previousLayers: Set<LayerID>? = nil) -> [Observation] {
        guard let previous else { return [] }
        var byLayer: [LayerID: (pixels: Int, evidence: Evidence)] = [:]
        var order: [LayerID] = []
        // A layer can ask for two kinds (a shape's texture and its shadowPath's shadow): each new
        // request is compared with the previous frame's of the same kind.
        let before = Dictionary(previous.rasterRequests.map { ("\($0.layer) \($0.content.kindName)", $0) }, uniquingKeysWith: { a, _ in a })
        for r in plan.newRasterRequests(since: previous) {
            let texels = r.pixelWidth * r.pixelHeight
            if byLayer[r.layer] == nil {
                order.append(r.layer)
                var e = Evidence()
                e.rasterContent = r.content.kindName
                e.rasterChange = before["\(r.layer) \(r.content.kindName)"].map { change(from: $0, to: r) }
                    ?? (previousLayers?.contains(r.layer) == true ? "came into view" : "appeared")
                byLayer[r.layer] = (0, e)
            }
            byLayer[r.layer]!.pixels += texels
            byLayer[r.layer]!.evidence.uploadedBytes = (byLayer[r.layer]!.evidence.uploadedBytes ?? 0) + texels * 4
            byLayer[r.layer]!.evidence.rasterPixels = [Double(r.pixelWidth), Double(r.pixelHeight)]
        }
        let canvas = plan.pixelWidth * plan.pixelHeight
        return order.sorted().map { layer in
            let v = byLayer[layer]!
            var o = Observation(id: .rasterCPU, layer: layer, pixels: v.pixels, evidence: v.evidence)
            o.screenPixels = min(v.pixels, canvas)
            return o
        }
    }

    /// Which part of the content changed between two requests of one layer, in Core Animation's
    /// property names (the explanation quotes it).
    static func change(from a: RasterRequest, to b: RasterRequest) -> String {
        switch (a.content, b.content) {
        case (.shape(let x), .shape(let y)):
            // A stroke-only shape has no fill path: its strokePath is the path, trimmed.
            if x.strokeStart != y.strokeStart || x.strokeEnd != y.strokeEnd { return "strokeStart/strokeEnd" }
            if x.path != y.path || x.strokePath != y.strokePath { return "path" }
            if x.lineDashPhase != y.lineDashPhase { return "lineDashPhase" }
            if x.lineWidth != y.lineWidth { return "lineWidth" }
            if x.fillColor != y.fillColor || x.strokeColor != y.strokeColor { return "fillColor/strokeColor" }
            if x.scaleX != y.scaleX || x.scaleY != y.scaleY { return "its scale on screen" }
            return "its shape"
        case (.text(let x), .text(let y)):
            if x.string != y.string { return "string" }
            if x.fontSize != y.fontSize { return "fontSize" }
            if x.color != y.color { return "foregroundColor" }
            if x.width != y.width || x.height != y.height { return "bounds" }
            if x.scale != y.scale { return "contentsScale" }
            return "its text"
        case (.gradientRamp, .gradientRamp): return "colors/locations"
        case (.shadowPath(let x), .shadowPath(let y)):
            if x.path != y.path { return "shadowPath" }
            if x.color != y.color { return "shadowColor" }
            if x.sigmaX != y.sigmaX || x.sigmaY != y.sigmaY { return "shadowRadius" }
            if x.scaleX != y.scaleX || x.scaleY != y.scaleY { return "its scale on screen" }
            return "its shape"
        default: return "its content"
        }
    }
}

extension RasterContent {
    /// "shape", "text" or "gradient": the layer class's content, as reports name it.
    public var kindName: String {
        switch self {
        case .shape: return "shape"
        case .text: return "text"
        case .gradientRamp: return "gradient"
        case .shadowPath: return "shadow"
        }
    }
}

extension FrameAnalyzer {
    /// Adds the frame's `raster.cpu` observations to an analysis. Kept apart from `analyze`, whose
    /// result depends on the frame alone: these depend on the previous frame too, so a caller that
    /// reuses an unchanged frame's analysis still asks this for every frame.
    /// `previousTree`: the previous frame's presentation tree, to tell content that came onto the
    /// canvas from a layer created since (`RasterCPUAnalysis.observations`).
    public func addRasterCPU(to a: inout FrameAnalysis, plan: FramePlan, previous: FramePlan?, tree: Layer, previousTree: Layer? = nil) {
        var before: Set<LayerID>?
        if let previousTree { var ids = Set<LayerID>(); previousTree.forEach { ids.insert($0.id) }; before = ids }
        let new = RasterCPUAnalysis.observations(plan, previous: previous, previousLayers: before)
        a.observations.removeAll { $0.id == .rasterCPU }
        guard !new.isEmpty else { return }
        a.observations += new
        a.observations.sort { $0.id != $1.id ? $0.id < $1.id : $0.layer < $1.layer }
        let known = Set(a.layers.map(\.id))
        let missing = Set(new.map(\.layer)).subtracting(known)
        if !missing.isEmpty {
            let directory = LayerDirectory(root: tree)
            a.layers += missing.sorted().compactMap { directory[$0] }
        }
    }
}
