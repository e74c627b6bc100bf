import CVulkan
import Plan

/// The targets and batches of one frame's render graph: a target per offscreen pass (from the
/// pool, or the raster cache for passes that store into it), and the batches of each item list
/// (every pass's, then the canvas's).
final class FrameGraph {
    let passTargets: [OffscreenTarget]
    private let cache: [UInt64: OffscreenTarget]
    var batches: [[DrawBatch]]
    /// The canvas batches split at backdrop captures (`BackdropCapture.segments`); one segment
    /// (all of them) when the frame captures nothing.
    var canvasSegments: [[DrawBatch]] = []
    var drawCalls: Int { batches.reduce(0) { $0 + $1.count } + blurPasses }
    private let blurPasses: Int

    /// The most bytes of offscreen targets one frame may hold: every pass keeps its target until
    /// the frame ends, so nested groups on a 16384 px canvas (1 GiB each) would exhaust memory.
    static let maxOffscreenBytes = 4 << 30

    /// A pass's target format: half-float where a blur's intermediate must not round to 8 bits.
    static func format(of pass: OffscreenPass) -> VkFormat {
        if case .blur(_, _, true, _, _) = pass.operation { return GPUImage.floatFormat }
        if case .filter(let op) = pass.operation, op.writesFloat { return GPUImage.floatFormat }
        return DeviceSelector.colorFormat
    }

    /// `retained`: passes (by index in `plan`) not rendered this frame, with the targets holding
    /// their results from the previous frame (`RetainedPasses`); `partial`: passes redrawn in part
    /// onto the targets holding their previous results (`PassDamage`).
    init(_ plan: FramePlan, targets: OffscreenTargets, frame: UInt64, pipelines: PipelineLibrary, maxSide: Int,
         retained: [Int: OffscreenTarget] = [:], partial: [Int: OffscreenTarget] = [:]) throws {
        var passTargets: [OffscreenTarget] = []
        var blurs = 0
        // Refused before anything is allocated (half-float targets take 8 bytes a texel).
        let bytes = plan.offscreenPasses.reduce(0) { sum, pass in
            sum + max(pass.width, 0) * max(pass.height, 0) * GPUImage.bytesPerTexel(Self.format(of: pass))
        }
        guard bytes <= Self.maxOffscreenBytes else {
            throw RenderError.offscreenMemory(passes: plan.offscreenPasses.count, bytes: bytes, limit: Self.maxOffscreenBytes)
        }
        for (i, pass) in plan.offscreenPasses.enumerated() {
            if let t = retained[i] {
                if let key = pass.rasterCacheKey { targets.adopt(t, as: key) }
                passTargets.append(t)
                continue
            }
            if let t = partial[i] {
                if case .blur = pass.operation { blurs += 1 }
                if case .filter = pass.operation { blurs += 1 }
                passTargets.append(t)
                continue
            }
            guard (1...maxSide).contains(pass.width), (1...maxSide).contains(pass.height) else {
                throw RenderError.unsupportedSize(what: "Offscreen target", width: pass.width, height: pass.height, maximum: maxSide)
            }
            let format = Self.format(of: pass)
            if case .blur = pass.operation { blurs += 1 }
            if case .filter = pass.operation { blurs += 1 }
            if let key = pass.rasterCacheKey {
                passTargets.append(try targets.cacheTarget(key, width: pass.width, height: pass.height, pipelines: pipelines))
            } else {
                passTargets.append(try targets.acquire(width: pass.width, height: pass.height, format: format,
                                                       frame: frame, pipelines: pipelines))
            }
        }
        self.passTargets = passTargets
        self.cache = targets.rasterCache
        blurPasses = blurs
        batches = Array(repeating: [], count: plan.offscreenPasses.count + 1)
    }

    /// The target an item of list `list` samples: a pass that ran before it, or a cached bitmap.
    func target(_ source: OffscreenSource, before list: Int) throws -> OffscreenTarget {
        switch source {
        case .pass(let i):
            guard i >= 0, i < list, i < passTargets.count else { throw RenderError.badOffscreenSource("offscreen pass \(i)") }
            return passTargets[i]
        case .rasterCache(let key):
            guard let t = cache[key], t.hasContent || passTargets.contains(where: { $0 === t }) else {
                throw RenderError.badOffscreenSource("raster-cache entry \(key)")
            }
            return t
        }
    }
}
