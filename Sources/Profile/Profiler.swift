import LayerModel
import Plan

/// Collects a run frame by frame (so a long timeline never keeps its trees or plans) and turns it
/// into a `ProfileReport`. Frames are analysed by `FrameAnalyzer` (pure); their costs are measured
/// by the caller.
public struct Profiler: Sendable {
    public let canvas: Canvas
    public let analyzer: FrameAnalyzer
    public private(set) var frames: [ProfileReport.FrameRecord] = []
    private var observed: [FrameObservations] = []
    /// Per layer, the most it shaded and blended in a frame so far (`FrameAnalysis.layerPixels`).
    private var layerPixels: [String: LayerPixels] = [:]
    /// The overdraw map of the frame shading the most pixels, among analyses that kept one
    /// (for the heat-map overlay).
    public private(set) var worstOverdraw: (frame: Int, shadedPixels: Int, map: OverdrawMap)?

    public init(canvas: Canvas) {
        self.canvas = canvas
        analyzer = FrameAnalyzer(canvasScale: canvas.scale)
    }

    public func analyze(_ plan: FramePlan, tree: Layer, index: Int, time: Double, keepOverdrawMap: Bool = false) -> FrameAnalysis {
        analyzer.analyze(plan, tree: tree, index: index, time: time, keepOverdrawMap: keepOverdrawMap)
    }

    public mutating func record(_ a: FrameAnalysis, cost: FrameCost, rasterNanoseconds: [LayerID: UInt64] = [:]) {
        record(a, cost: cost, updates: nil, rasterNanoseconds: rasterNanoseconds)
    }

    /// Records one analysed frame with its measured cost and its Flash Updated Regions
    /// (`UpdatedRegions.swift`). `rasterNanoseconds`: the CPU time the pipeline spent rasterising
    /// each layer's content this frame, joined to its raster.cpu finding.
    public mutating func record(_ a: FrameAnalysis, cost: FrameCost, updates: FrameUpdate?, rasterNanoseconds: [LayerID: UInt64] = [:]) {
        let ids = Array(Set(a.observations.map(\.id))).sorted()
        var passes = a.passes
        var obs = FrameObservations(a)
        for i in obs.observations.indices where obs.observations[i].id == .rasterCPU {
            obs.observations[i].cpuNanoseconds = rasterNanoseconds[obs.observations[i].layer]
        }
        if let times = cost.passGPUNanoseconds, times.count == passes.count {
            // Each pass's measured time goes to the findings it is the reason for.
            for (i, t) in times.enumerated() {
                passes[i].gpuNanoseconds = t
                var findingIDs = passes[i].reasons.map(FindingID.init)
                if passes[i].kind == "cache" { findingIDs.append(.rasterCacheMiss) }
                for id in findingIDs {
                    if let j = obs.observations.firstIndex(where: { $0.id == id && $0.layer == passes[i].layer }) {
                        obs.observations[j].gpuNanoseconds = (obs.observations[j].gpuNanoseconds ?? 0) + t
                    }
                }
            }
        }
        var record = ProfileReport.FrameRecord(index: a.index, time: a.time, counters: a.counters, cost: cost, findings: ids)
        record.passes = passes.isEmpty ? nil : passes
        if let u = updates {
            record.frameCache = u.frameCache
            record.damage = u.damage.fullReason == nil && !u.damage.rects.isEmpty ? u.damage.rects : nil
            record.analysisReused = u.analysisReused ? true : nil
        }
        frames.append(record)
        observed.append(obs)
        LayerPixels.fold(a.layerPixels, into: &layerPixels)
        if let map = a.overdrawMap {
            if a.counters.shadedPixels > worstOverdraw?.shadedPixels ?? -1 { worstOverdraw = (a.index, a.counters.shadedPixels, map) }
        }
    }

    /// Every finding of the frames recorded so far.
    public func findings() -> [Finding] {
        guard let first = frames.map(\.index).min(), let last = frames.map(\.index).max() else { return [] }
        let perLayer = FindingAggregator.aggregate(observed, canvasPixels: canvas.pixelWidth * canvas.pixelHeight,
                                                   canvasScale: canvas.scale, runFrames: first...last)
        return FindingGroups.group(perLayer, canvasPixels: canvas.pixelWidth * canvas.pixelHeight)
    }

    public func report(tool: ProfileReport.Tool, scene: ProfileReport.SceneSummary, gpu: Bool, device: String?, deviceKind: String? = nil, fps: Double,
                       warnings: [ProfileReport.Warning], startup: ProfileReport.StartupCost? = nil) -> ProfileReport {
        let findings = findings()
        let n = frames.count
        let run = ProfileReport.RunSummary(gpu: gpu, device: device, deviceKind: deviceKind, fps: fps, frameCount: n,
                                           firstFrame: frames.map(\.index).min() ?? 0, lastFrame: frames.map(\.index).max() ?? 0)
        func mean(_ v: [Int]) -> Double { v.isEmpty ? 0 : Double(v.reduce(0, +)) / Double(v.count) }
        var bySeverity: [String: Int] = [:]
        for s in Severity.allCases { bySeverity[s.rawValue] = findings.filter { $0.severity == s }.count }
        var stages: [String: ProfileReport.StageStats] = [
            "evaluate": .init(frames.map(\.cost.evaluateNanoseconds)),
            "plan": .init(frames.map(\.cost.planNanoseconds)),
            "analyze": .init(frames.map(\.cost.analyzeNanoseconds)),
        ]
        let optional: [(String, KeyPath<FrameCost, UInt64?>)] = [("raster", \.rasterNanoseconds), ("upload", \.uploadNanoseconds), ("record", \.recordNanoseconds), ("render", \.renderNanoseconds), ("gpu", \.gpuNanoseconds)]
        for (name, kp) in optional {
            let v = frames.compactMap { $0.cost[keyPath: kp] }
            if !v.isEmpty { stages[name] = .init(v) }
        }
        let uploads = frames.compactMap(\.cost.uploadedBytes)
        let textures = frames.compactMap(\.cost.textureBytes)
        let draws = frames.compactMap(\.cost.drawCalls)
        let worst = ProfileReport.worstFrame(in: frames)
        let totals = ProfileReport.Totals(
            frames: n, findings: findings.count, findingsBySeverity: bySeverity, worstFrame: worst,
            meanShadedPixels: mean(frames.map(\.counters.shadedPixels)), meanBlendedPixels: mean(frames.map(\.counters.blendedPixels)),
            meanEdgeBlendedPixels: mean(frames.map(\.counters.edgeBlendedPixels)), meanDrawnPixels: mean(frames.map(\.counters.drawnPixels)),
            meanOverdraw: n == 0 ? 0 : frames.reduce(0) { $0 + $1.counters.overdraw } / Double(n),
            maxOverdraw: frames.map(\.counters.maxOverdraw).max() ?? 0,
            offscreenPasses: frames.reduce(0) { $0 + $1.counters.offscreenPasses },
            offscreenPixels: frames.reduce(0) { $0 + $1.counters.offscreenPixels },
            stages: stages,
            meanCPUNanoseconds: n == 0 ? 0 : frames.reduce(0) { $0 + $1.cost.cpuNanoseconds } / UInt64(n),
            uploadedBytes: uploads.isEmpty ? nil : uploads.reduce(0, +),
            peakTextureBytes: textures.max(),
            meanDrawCalls: draws.isEmpty ? nil : mean(draws))
        var totals2 = totals
        totals2.peakTextureSharing = frames.compactMap(\.counters.textureSharing).max { $0.savedBytes < $1.savedBytes }
        let damaged = frames.compactMap(\.counters.damagedPixels)
        if !damaged.isEmpty { totals2.meanDamagedPixels = mean(damaged) }
        let uses = frames.compactMap(\.frameCache)
        if !uses.isEmpty { totals2.reusedFrames = uses.filter { $0 == .reused }.count }
        let retained = frames.compactMap(\.cost.retainedPasses)
        if !retained.isEmpty { totals2.meanRetainedPasses = mean(retained) }
        let partial = frames.compactMap(\.cost.partialPasses)
        if !partial.isEmpty { totals2.meanPartialPasses = mean(partial) }
        let culled = frames.compactMap(\.cost.culledItems)
        if !culled.isEmpty { totals2.meanCulledItems = mean(culled) }
        let flattened = frames.compactMap(\.cost.flattenedItems)
        if !flattened.isEmpty { totals2.meanFlattenedItems = mean(flattened) }
        let stacked = frames.compactMap(\.cost.stackCulledPixels)
        if !stacked.isEmpty { totals2.meanStackCulledPixels = mean(stacked) }
        var report = ProfileReport(tool: tool, scene: scene, run: run, frames: frames, findings: findings, totals: totals2, warnings: warnings)
        report.startup = startup
        report.layerPixels = layerPixels.values.sorted { $0.layer < $1.layer }.map { $0.reported(in: scene.file) }
        return report
    }
}
