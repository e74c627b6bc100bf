import LayerModel
import Plan
import Profile

extension ProfileRunner {
    /// Measures what each finding's fix saves (`FindingFix`, `Saving`) in the finding's worst
    /// frame: the frame is evaluated again, the fix applied to the finding's layers (every layer
    /// of a group), and the frame planned and analysed with and without it. Planned alone (an
    /// empty raster cache, as `overlays` draws a frame) and never drawn: the figures are the same
    /// with or without a GPU, and a run's frames are not re-rendered.
    public func measureSavings(_ report: inout ProfileReport, times: [Int: Double]) throws {
        var unfixed: [Int: FrameCounters] = [:]   // by frame: findings often share their worst frame
        for i in report.findings.indices {
            let f = report.findings[i]
            guard let fix = FindingFix.description(f.id, evidence: f.evidence), let time = times[f.worstFrame] else { continue }
            var tree = scene.presentation(at: time)
            var changed = false
            for m in f.members ?? [f] {
                changed = Self.modify(&tree, id: m.layer.id) {
                    FindingFix.apply(m.id, evidence: m.evidence, to: &$0, canvasScale: scene.canvas.scale)
                } || changed
            }
            guard changed else { continue }
            let before = try unfixed[f.worstFrame] ?? counters(scene.presentation(at: time), frame: f.worstFrame, time: time)
            unfixed[f.worstFrame] = before
            let after = try counters(tree, frame: f.worstFrame, time: time)
            report.findings[i].saving = Saving(frame: f.worstFrame, fix: fix, before: before, after: after)
        }
    }

    /// The deterministic figures of one frame's tree, planned alone.
    func counters(_ tree: Layer, frame: Int, time: Double) throws -> FrameCounters {
        let images = try scene.images(for: tree)
        let plan = planner(scene.canvas, opaqueTable(images)).plan(root: tree)
        let textures = try translucentTextures(plan, images, rasterized: try ownContent.prepare(plan, images: [:]))
        return FrameAnalyzer(canvasScale: scene.canvas.scale).analyze(plan, tree: tree, index: frame, time: time, textures: textures).counters
    }

    /// Runs `body` on the layer `id` of the tree (masks included); its result, false when absent.
    static func modify(_ layer: inout Layer, id: LayerID, _ body: (inout Layer) -> Bool) -> Bool {
        if layer.id == id { return body(&layer) }
        if var m = layer.mask, Self.contains(m, id) {
            let changed = modify(&m, id: id, body)
            layer.mask = m
            return changed
        }
        for i in layer.sublayers.indices where Self.contains(layer.sublayers[i], id) {
            return modify(&layer.sublayers[i], id: id, body)
        }
        return false
    }

    /// Whether `id` is in the subtree of `layer`: ids are preorder indices (the root first, a
    /// mask right after its owner), so a subtree holds the ids from its root's to its root's +
    /// its size − 1.
    static func contains(_ layer: Layer, _ id: LayerID) -> Bool {
        id >= layer.id && id < layer.id + layer.subtreeCount
    }
}
