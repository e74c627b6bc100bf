import LayerModel
import Plan
import Profile

extension ProfileRunner {
    /// Measures what each finding's fix saves (`FindingFix`, `Saving`) in the finding's worst
    /// frame: the frame is evaluated again, the fix applied to the finding's layers (every layer
    /// of a group), and the frame planned and analysed with and without it. Planned alone (an
    /// empty raster cache, as `overlays` draws a frame) and never drawn: the figures are the same
    /// with or without a GPU, and a run's frames are not re-rendered.
    ///
    /// Each measurement plans and analyses a whole frame, and a scene of many layers can raise
    /// hundreds of findings that do not group (1 500 squares each off the grid by its own
    /// amount): only the `maxMeasured` costliest findings (by their pixels) are measured.
    public func measureSavings(_ report: inout ProfileReport, times: [Int: Double]) throws {
        var unfixed: [Int: FrameCounters] = [:]   // by frame: findings often share their worst frame
        var unfixedGPU: [Int: UInt64?] = [:]
        let costliest = Set(report.findings.indices.sorted { report.findings[$0].maxPixels > report.findings[$1].maxPixels }
            .prefix(Self.maxMeasured))
        for i in report.findings.indices where costliest.contains(i) {
            let f = report.findings[i]
            guard let time = times[f.worstFrame] else { continue }
            var tree = scene.presentation(at: time)
            let directory = LayerDirectory(root: tree)
            var fixes: [String] = []
            for m in f.members ?? [f] {
                let inBackdrop = directory[m.layer.id]?.inBackdrop ?? false
                if let what = Self.modify(&tree, id: m.layer.id, {
                    FindingFix.apply(m.id, evidence: m.evidence, to: &$0, canvasScale: scene.canvas.scale, inBackdrop: inBackdrop)
                }), !fixes.contains(what) { fixes.append(what) }
            }
            guard !fixes.isEmpty else { continue }
            let fix = fixes.joined(separator: "; ")
            let before = try unfixed[f.worstFrame] ?? counters(scene.presentation(at: time), frame: f.worstFrame, time: time)
            unfixed[f.worstFrame] = before
            let after = try counters(tree, frame: f.worstFrame, time: time)
            var saving = Saving(frame: f.worstFrame, fix: fix, before: before, after: after)
            if renderer != nil, saving.savesWork {
                let gpuBefore = try unfixedGPU[f.worstFrame] ?? deviceTime(scene.presentation(at: time))
                unfixedGPU[f.worstFrame] = gpuBefore
                if let b = gpuBefore, let a = try deviceTime(tree) { saving.gpuNanoseconds = Int64(b) - Int64(a) }
            }
            report.findings[i].saving = saving
        }
        // Severity follows the saving (`Saving.severity(of:)`); the order and counts follow it.
        let canvasPixels = report.scene.canvas.pixelWidth * report.scene.canvas.pixelHeight
        for i in report.findings.indices {
            report.findings[i].severity = Saving.severity(of: report.findings[i], canvasPixels: canvasPixels)
        }
        report.findings = FindingAggregator.ordered(report.findings)
        for s in Severity.allCases { report.totals.findingsBySeverity[s.rawValue] = report.findings.filter { $0.severity == s }.count }
    }

    /// The most findings whose saving a run measures (`measureSavings`).
    public static let maxMeasured = 16

    /// The deterministic figures of one frame's tree, planned alone.
    func counters(_ tree: Layer, frame: Int, time: Double) throws -> FrameCounters {
        let images = try scene.images(for: tree)
        let plan = planner(scene.canvas, opaqueTable(images)).plan(root: tree)
        let textures = try translucentTextures(plan, images, rasterized: try ownContent.prepare(plan, images: [:]))
        return FrameAnalyzer(canvasScale: scene.canvas.scale).analyze(plan, tree: tree, index: frame, time: time, textures: textures).counters
    }

    /// The device time of drawing `tree` alone, whole (the frame cache forgotten before each
    /// draw): the median of three draws. nil when the device has no timestamps.
    func deviceTime(_ tree: Layer) throws -> UInt64? {
        guard let r = renderer else { return nil }
        let images = try scene.images(for: tree)
        let plan = planner(scene.canvas, opaqueTable(images)).plan(root: tree)
        let pixels = FrameImages(images.pixels, rasterized: try r.content.prepare(plan, images: [:]))
        var times: [UInt64] = []
        for _ in 0..<3 {
            r.renderer.forgetPreviousFrame()
            guard let t = try r.renderer.render(plan, pixels: pixels).stats.gpuNanoseconds else { return nil }
            times.append(t)
        }
        r.renderer.forgetPreviousFrame()
        return times.sorted()[1]
    }

    /// Runs `body` on the layer `id` of the tree (masks included); its result, false when absent.
    static func modify<T>(_ layer: inout Layer, id: LayerID, _ body: (inout Layer) -> T?) -> T? {
        if layer.id == id { return body(&layer) }
        if var m = layer.mask, Self.contains(m, id) {
            let changed = modify(&m, id: id, body)
            layer.mask = m
            return changed
        }
        for i in layer.sublayers.indices where Self.contains(layer.sublayers[i], id) {
            return modify(&layer.sublayers[i], id: id, body)
        }
        return nil
    }

    /// Whether `id` is in the subtree of `layer`: ids are preorder indices (the root first, a
    /// mask right after its owner), so a subtree holds the ids from its root's to its root's +
    /// its size − 1.
    static func contains(_ layer: Layer, _ id: LayerID) -> Bool {
        id >= layer.id && id < layer.id + layer.subtreeCount
    }
}
