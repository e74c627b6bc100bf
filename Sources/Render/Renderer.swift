import CVulkan
import Plan
import Raster
#if canImport(Glibc)
import Glibc
#endif

/// Executes FramePlans on a Vulkan 1.3 device, headless, and returns the pixels.
///
/// One renderer is one Vulkan isolation domain: it is not Sendable; create and use it on one thread
/// (or actor) and pass the plain-value `RenderedFrame`s around. Everything expensive is kept across
/// frames: pipelines (per specialisation variant), textures (by content hash, LRU-capped), the
/// target and readback buffer (while the size repeats), the draw-record buffer, the command buffer.
///
/// Per frame: resolve textures and offscreen targets -> encode one record per item of every pass ->
/// batch runs of items sharing pipeline/texture/sampler -> record one command buffer (uploads, each
/// offscreen pass into its target, the canvas with a clear, one instanced draw per batch, copy to
/// the readback buffer) -> submit, wait on the fence -> read. The backend decides nothing: the
/// passes, their sizes, order and cache keys are the plan's.
public final class Renderer {
    private let device: VulkanDevice
    let pipelines: PipelineLibrary
    private let textures: TextureCache
    let commands: FrameCommands
    private let timer: GPUTimer?
    private(set) var target: RenderTarget?
    /// The stencil attachment of stack-culled canvases, made on first use (`StencilTarget`).
    private(set) var stencil: StencilTarget?
    /// Offscreen pass targets (pooled) and the raster cache's bitmaps.
    let offscreen: OffscreenTargets
    private var blur: BlurPipelines?
    private var filterPipelines: FilterPipelines?
    private var blendModes: BlendModePipelines?
    private(set) var records: DrawRecordBuffer?
    /// Descriptor sets of flattened regions, made per frame.
    private var regionSets: RegionDescriptorSets?
    private var staging: HostBuffer?
    private(set) var frameNumber: UInt64 = 0
    /// The previous frame kept for damage-only redraws (`DamagedFrame.swift`).
    let frameCache = FrameCache()
    /// How mip levels are made for trilinear sampling: device blits where the colour format
    /// supports them, else the CPU (internal so tests can exercise the fallback).
    var mipmapGeneration: MipmapGeneration

    /// The device rendering (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
    public var deviceName: String { device.name }
    /// Why this device was chosen (see `VulkanDevice.survey()` for all devices).
    public var deviceReport: DeviceReport { device.report }
    /// Least-recently-used textures are evicted once resident texture bytes exceed this.
    public var textureBudgetBytes: Int {
        get { textures.budgetBytes }
        set { textures.budgetBytes = newValue }
    }
    /// Default texture budget: 1 GiB (about 90 full-screen 1170×2532 images).
    public static let defaultTextureBudgetBytes = 1 << 30
    /// Staging buffers up to this size are kept for the next frame's uploads.
    static let stagingKeepBytes = 32 << 20
    /// A frame whose uploads exceed this many bytes uploads them in chunks of at most this size
    /// (an image larger than that is a chunk of its own), each submitted and waited for before the
    /// frame's own command buffer, so the staging buffer never holds more than one chunk: 16
    /// full-screen images no longer need a second 180 MB copy of their pixels in staging memory
    /// (on lavapipe, device memory is process memory too). 8 MB puts each full-screen image in a
    /// chunk of its own: staging then adds one image (11.3 MB at 1170 × 2532), not two, to the
    /// peak while the textures fill; the extra submissions cost well under a millisecond each.
    public var uploadChunkBytes = 8 << 20
    /// On CPU devices, read each finished frame straight from the target instead of copying it into
    /// a readback buffer first (`RenderTarget`): one frame-sized allocation and copy fewer. Where
    /// the device cannot, or with this false, frames are read back through a buffer as on GPUs.
    public var readsTargetInPlace = true {
        didSet { if readsTargetInPlace != oldValue { target = nil; frameCache.previous = nil } }
    }
    /// Whether the target is read in place (after a first frame; see `readsTargetInPlace`).
    public var readsLastFrameInPlace: Bool { target?.readsInPlace ?? false }
    /// For a renderer that draws one frame only (`caprof render` of a single time): every texture
    /// is released as soon as the frame is drawn, before its pixels are copied out, so that copy
    /// does not sit beside the textures at the process's peak memory. Later frames upload again.
    public var releasesTexturesAfterFrame = false

    /// Flattened regions read their image layers from textures in 4×4 blocks (`TexelLayout`):
    /// on by default on CPU devices (lavapipe), where it roughly halves a deep stack's draw time;
    /// GPUs tile their images themselves. Off: the same pixels from textures in rows.
    public var blocksRegionTextures: Bool
    /// Before a frame's chunked uploads (a first frame of large images), compile the canvas's
    /// shaders with a one-pixel draw (`ShaderPrecompile.swift`): on by default on CPU devices,
    /// where lavapipe compiles with LLVM at the first draw; GPUs compile at pipeline creation.
    public var compilesShadersBeforeUploads: Bool
    /// With the frame cache on, take offscreen results from the previous frame where the plan
    /// finds them unchanged (`RetainedPasses`) instead of rendering them again, and redraw only
    /// the changed rectangles of those it finds changed in part (`PassDamage`). On by default;
    /// off renders every pass whole (the same pixels; to measure what it saves).
    public var retainsPasses = true
    /// With `retainsPasses`, redraw passes changed in part only there (`PassDamage`). On by default.
    public var redrawsPassesInPart = true
    /// Whether the last frame compiled its canvas shaders before its uploads.
    public internal(set) var lastFrameCompiledShadersFirst = false
    /// Textures in 4×4 blocks that the last frame drew with.
    public private(set) var lastFrameBlockTextures = 0

    /// `preferredDevice`: a case-insensitive substring of the device name (else CAPROF_DEVICE, else
    /// the most preferred kind). CAPROF_VALIDATION=1 enables the Khronos validation layer and turns
    /// its errors into thrown `RenderError.validation`.
    public init(preferredDevice: String? = nil) throws {
        device = try VulkanDevice(preferred: preferredDevice, validation: VulkanInstance.validationRequested)
        blocksRegionTextures = device.report.kind == .cpu
        compilesShadersBeforeUploads = device.report.kind == .cpu
        pipelines = try PipelineLibrary(device)
        textures = TextureCache(device, budgetBytes: Self.defaultTextureBudgetBytes)
        commands = try FrameCommands(device)
        offscreen = OffscreenTargets(device)
        timer = try GPUTimer(device)
        mipmapGeneration = device.mipmapGeneration
        try device.checkValidation()
    }

    /// A renderer on `other`'s device and pipelines, with caches of its own (textures, frames,
    /// offscreen targets, raster bitmaps, timers): what a catalog uses for each scene after the
    /// first, so the instance, the device and the pipelines (most of a small scene's start-up on
    /// lavapipe) are made once per process while each scene is still drawn from empty caches.
    public init(sharingDeviceOf other: Renderer) throws {
        device = other.device
        blocksRegionTextures = other.blocksRegionTextures
        compilesShadersBeforeUploads = other.compilesShadersBeforeUploads
        pipelines = other.pipelines
        textures = TextureCache(device, budgetBytes: other.textureBudgetBytes)
        commands = try FrameCommands(device)
        offscreen = OffscreenTargets(device)
        timer = try GPUTimer(device)
        mipmapGeneration = other.mipmapGeneration
        frameCacheEnabled = other.frameCacheEnabled
        retainsPasses = other.retainsPasses
        redrawsPassesInPart = other.redrawsPassesInPart
    }

    /// Whether this renderer draws on `other`'s device (`init(sharingDeviceOf:)`).
    public func sharesDevice(with other: Renderer) -> Bool { device === other.device && pipelines === other.pipelines }

    /// CPU time of the current frame's texture uploads (texture resolution + staging copies).
    private var uploadNanoseconds: UInt64 = 0

    /// Executes `plan`'s render graph (its offscreen passes in order, then the canvas) and reads the
    /// canvas back. `images` maps `PlannedImage.key` to its bitmap; bitmaps with the same
    /// `contentHash` share one texture, and textures already resident are not uploaded again.
    /// Raster-cache bitmaps stay resident across calls until the plan evicts them.
    public func render(_ plan: FramePlan, images: [UInt64: Bitmap]) throws -> RenderedFrame {
        try render(plan, pixels: BitmapTable(images))
    }

    /// `render(_:images:)` with the images taken from `pixels` (`FramePixels`): the pixels of each
    /// texture this frame fills are asked for as they are copied to staging memory, and the source
    /// is told when they are, so it may let its host copy go.
    public func render(_ plan: FramePlan, pixels images: FramePixels) throws -> RenderedFrame {
        let start = Self.now()
        let maxSide = device.maxImageDimension2D
        guard (1...maxSide).contains(plan.pixelWidth), (1...maxSide).contains(plan.pixelHeight) else {
            throw RenderError.unsupportedSize(what: "Frame", width: plan.pixelWidth, height: plan.pixelHeight, maximum: maxSide)
        }
        // The frame cache (DamagedFrame.swift): an unchanged plan is not drawn again, a damaged one
        // only where the plan says it changed.
        let damage = frameDamage(for: plan)
        let previousPlan = frameCache.previous?.plan
        // Offscreen results the previous frame left that this frame would render the same
        // (RetainedPasses.swift): taken instead of rendered, also in a frame drawn whole after a
        // previous one (a frame with a backdrop that changed, a damage covering the canvas): a
        // pass's result depends on its inputs, not on how much of the canvas is drawn again.
        // Each retained pass of this plan maps to its counterpart's index in the previous plan.
        let retaining = !retainsPasses || !frameCache.enabled || previousPlan == nil ? [:]
            : RetainedPasses.between(previousPlan, plan, held: offscreen.heldPasses)
        // Passes changed in part (PassDamage.swift): redrawn only there, onto their held results.
        let partial = damage == nil || !retainsPasses || !redrawsPassesInPart ? [:]
            : PassDamage.between(previousPlan, plan, held: offscreen.heldPasses, retained: retaining)
        if let damage, damage.use(executing: plan) == .reused, let reused = reusedFrame(plan, started: start) {
            // Nothing is drawn: the held results stay, where the passes are unchanged.
            offscreen.endFrame(frameNumber, evicted: plan.rasterCacheEvictions, hold: takeRetained(retaining))
            return reused
        }
        frameCache.pending = damage
        frameCache.previous = nil   // until this frame succeeds, the target holds nothing reusable
        // A damaged frame executes only what its damage needs (FramePlan+Damage.swift).
        let original = plan
        // A frame drawn whole that takes passes is restricted to the whole canvas: the passes only
        // taken passes read are not rendered.
        let restricted = (damage ?? (retaining.isEmpty ? nil : FrameDamage(rects: [PixelRect(x: 0, y: 0, width: plan.pixelWidth,
                                                                                           height: plan.pixelHeight)])))
            .map { plan.restricted(to: $0, retaining: Set(retaining.keys)) }
        let plan = restricted?.plan ?? plan
        let kept = restricted?.kept ?? Array(original.offscreenPasses.indices)
        let retained = restricted?.retained ?? []
        frameNumber += 1
        let taken = takeRetained(retaining.merging(partial.mapValues(\.counterpart)) { a, _ in a })
        var retainedTargets: [Int: OffscreenTarget] = [:]
        // Every retained pass finds its target: `retaining`'s counterparts are held passes.
        for n in retained { retainedTargets[n] = taken[kept[n]] }
        // Partial passes the damaged frame executes, in its numbering, with their held targets.
        var partialRects: [Int: [PixelRect]] = [:]
        var partialTargets: [Int: OffscreenTarget] = [:]
        for (n, i) in kept.enumerated() {
            if let p = partial[i], let t = taken[i] { partialRects[n] = p.rects; partialTargets[n] = t }
        }
        let texturesStart = Self.now()
        var frameTextures = try FrameTextures(plan, images: images, cache: textures, frame: frameNumber,
                                              pipelines: pipelines, maxDimension: maxSide,
                                              mipmapGeneration: mipmapGeneration, blocks: blocksRegionTextures)
        uploadNanoseconds = Self.now() - texturesStart
        lastFrameBlockTextures = frameTextures.slots.filter { $0.layout == .blocks }.count
        let graph: FrameGraph
        do {
            graph = try FrameGraph(plan, targets: offscreen, frame: frameNumber, pipelines: pipelines, maxSide: maxSide,
                                   retained: retainedTargets, partial: partialTargets)
            try encode(plan, frameTextures, graph, retained: retained)
            try record(plan, frameTextures, graph, images, retained: retained, partial: partialRects)
        } catch {
            frameTextures.discardUploads(from: textures)
            offscreen.endFrame(frameNumber, evicted: [])
            throw error
        }
        let cpuUpload = uploadNanoseconds
        let cpuEncode = Self.now() - start - min(cpuUpload, Self.now() - start)
        do {
            try commands.submitAndWait()
        } catch {
            frameTextures.discardUploads(from: textures)
            offscreen.endFrame(frameNumber, evicted: [])
            throw error
        }
        // A large staging buffer (a first frame of full-screen images) is not worth keeping.
        if let staging, staging.size > Self.stagingKeepBytes { self.staging = nil }
        let gpu = try timer?.elapsed()
        let uploadedBytes = frameTextures.uploadBytes, residentBytes = textures.residentBytes
        if releasesTexturesAfterFrame {
            frameTextures.releaseTextures()
            textures.removeAll()
        }
        let pixels = target!.pixels()
        textures.evict(keeping: frameNumber)
        // Every pass's result is held for the next frame (by its index in the whole plan).
        var hold: [Int: OffscreenTarget] = [:]
        if frameCache.enabled { for (n, i) in kept.enumerated() { hold[i] = graph.passTargets[n] } }
        offscreen.endFrame(frameNumber, evicted: plan.rasterCacheEvictions, hold: hold)
        try device.checkValidation()
        var stats = RenderStats(gpuNanoseconds: gpu?.total, uploadedBytes: uploadedBytes,
                                textureBytesResident: residentBytes, drawCalls: graph.drawCalls,
                                items: plan.items.count, cpuEncodeNanoseconds: cpuEncode,
                                cpuUploadNanoseconds: cpuUpload)
        // Per-pass times only when every planned pass ran (a damaged frame may skip some).
        stats.passGPUNanoseconds = kept.count == original.offscreenPasses.count && retained.isEmpty && partialRects.isEmpty
            ? gpu?.passes ?? [] : []
        stats.retainedPasses = retained.count
        stats.retainedPixels = retained.reduce(0) { $0 + plan.offscreenPasses[$1].width * plan.offscreenPasses[$1].height }
        stats.partialPasses = partialRects.count
        stats.partialPixels = partialRects.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.area } }
        stats.offscreenTargetBytes = offscreen.residentBytes
        stats.frameCache = damage == nil ? .full : .damaged
        stats.items = original.items.count
        let frame = RenderedFrame(width: plan.pixelWidth, height: plan.pixelHeight, pixels: pixels, stats: stats)
        if frameCache.enabled { frameCache.previous = (original, frame) }
        return frame
    }

    /// Writes one record per drawn item (every pass's items, then the canvas's) and splits each
    /// list into batches.
    private func encode(_ plan: FramePlan, _ frameTextures: FrameTextures, _ graph: FrameGraph, retained: Set<Int>) throws {
        // Placeholders for content caprof does not draw yet are for the analyses only; a retained
        // pass draws nothing (its result is the previous frame's).
        let passItems = plan.offscreenPasses.enumerated().map { retained.contains($0.offset) ? [] : $0.element.items }
        let lists = (passItems + [plan.canvasItems]).map { $0.filter { $0.role != .unsupported } }
        let total = lists.reduce(0) { $0 + $1.count }
        if records == nil || records!.capacity < total {
            records = nil   // free the old buffer before allocating its successor
            records = try DrawRecordBuffer(device, items: total, pipelines: pipelines)
        }
        let base = records!.records
        var offset = 0
        for (l, items) in lists.enumerated() {
            for (i, item) in items.enumerated() {
                if let region = item.flattened {
                    guard (1...FlattenedRegion.maxDepth).contains(region.layers.count) else {
                        throw RenderError.badFlattenedRegion(item: i, layers: region.layers.count)
                    }
                    // The region shader reads texels without clamping, where the plan found them
                    // inside the image: the texture must have the size the plan saw.
                    for case .image(let index, _, _, _) in region.layers {
                        let texture = frameTextures.slots[frameTextures.regionSlot(ofImage: index)]
                        let planned = plan.images[index]
                        guard texture.pixelWidth == planned.pixelWidth, texture.pixelHeight == planned.pixelHeight else {
                            throw RenderError.imageSizeMismatch(key: planned.key, width: texture.pixelWidth, height: texture.pixelHeight,
                                                                plannedWidth: planned.pixelWidth, plannedHeight: planned.pixelHeight)
                        }
                    }
                    DrawRecord.encode(region: region, stackRank: item.stackStencil?.rank ?? 0, into: base + (offset + i) * DrawRecord.floatCount)
                    continue
                }
                var extent = (width: 0, height: 0)
                switch item.paint {
                case .image(let index, _, _):
                    let image = frameTextures.slots[frameTextures.slot(ofImage: index)].image
                    extent = (image.width, image.height)
                case .offscreen(let source, _, _):
                    let t = try graph.target(source, before: l)
                    extent = (t.image.width, t.image.height)
                default: break
                }
                DrawRecord.encode(item, imageExtent: extent, into: base + (offset + i) * DrawRecord.floatCount)
            }
            graph.batches[l] = DrawBatching.batches(
                items, firstRecord: offset, textureSlot: { frameTextures.slot(ofImage: $0) },
                regionSlot: { frameTextures.regionSlot(ofImage: $0) },
                blocks: { frameTextures.slots[frameTextures.regionSlot(ofImage: $0)].layout == .blocks })
            if l == lists.count - 1 {
                // Backdrop captures split the canvas into segments (BackdropCapture.swift).
                let drawnBefore = plan.offscreenPasses.compactMap { pass -> Int? in
                    guard case .backdrop(let c) = pass.operation else { return nil }
                    return plan.canvasItems.prefix(c.canvasItemCount).filter { $0.role != .unsupported }.count
                }
                graph.canvasSegments = BackdropCapture.segments(graph.batches[l], drawnBefore: drawnBefore, firstRecord: offset)
            }
            offset += items.count
        }
        // Flattened regions' sets (the record buffer is final now): one per distinct texture list.
        let regions = graph.batches.reduce(0) { $0 + $1.filter { !($0.regionTextures ?? []).isEmpty }.count }
        if regions > 0 {
            if regionSets == nil { regionSets = RegionDescriptorSets(device, layout: pipelines.regionSetLayout) }
            try regionSets!.reset(count: regions)
            for l in graph.batches.indices {
                for b in graph.batches[l].indices {
                    guard let textures = graph.batches[l][b].regionTextures, !textures.isEmpty else { continue }
                    graph.batches[l][b].regionSet = try regionSets!.set(textures, frameTextures: frameTextures,
                                                                        sampler: pipelines.nearestSampler)
                }
            }
        }
    }

    /// Records the frame's command buffer: uploads, each offscreen pass into its target, the canvas.
    private func record(_ plan: FramePlan, _ frameTextures: FrameTextures, _ graph: FrameGraph, _ images: FramePixels,
                        retained: Set<Int>, partial: [Int: [PixelRect]]) throws {
        let width = plan.pixelWidth, height = plan.pixelHeight
        if target == nil || target!.width != width || target!.height != height {
            target = nil
            target = try RenderTarget(device, width: width, height: height, inPlace: readsTargetInPlace)
        }
        let target = self.target!
        // Build every pipeline before recording, so a compile failure leaves no half-recorded buffer.
        let pipelineOf = try graph.batches.map { try $0.map { try pipelines.pipeline($0.key) } }
        // Stack culling (StackCulling in the plan): a stencil attachment at the canvas's size.
        if graph.batches.last?.contains(where: { $0.key.stencil != nil }) == true,
           stencil == nil || stencil!.image.width != width || stencil!.image.height != height {
            stencil = nil
            stencil = try StencilTarget(device, width: width, height: height)
        }
        lastFrameCompiledShadersFirst = false
        var uploadBytes = frameTextures.uploadBytes
        if uploadBytes > uploadChunkBytes {
            // Not for a damaged frame: it draws onto the previous frame's pixels, which a draw into
            // the target here would discard (and pixel (0, 0) might lie outside its damage).
            if compilesShadersBeforeUploads && frameCache.pending == nil {
                try compileCanvasShaders(plan, frameTextures, graph, pipelineOf, target)
            }
            // Chunked: each chunk copied, submitted and finished before the next reuses the buffer.
            for chunk in frameTextures.uploadChunks(limit: max(uploadChunkBytes, 1)) {
                staging = try HostBuffer.ensure(staging, device, size: frameTextures.uploadBytes(chunk),
                                                usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue)
                let cmd = try commands.begin()
                let copyStart = Self.now()
                try frameTextures.recordUploads(cmd, staging: staging!, chunk, images: images)
                uploadNanoseconds += Self.now() - copyStart
                try commands.submitAndWait()
            }
            uploadBytes = 0   // nothing left for the frame's command buffer
            // Such a frame is a first frame of large images: the frames after it upload little,
            // and a 32 MB buffer kept through the frame would add to its peak memory.
            staging = nil
        } else if uploadBytes > 0 {
            staging = try HostBuffer.ensure(staging, device, size: uploadBytes,
                                            usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue)
        }
        if plan.offscreenPasses.contains(where: { if case .blur = $0.operation { return true }; return false }), blur == nil {
            blur = try BlurPipelines(device, textureSetLayout: pipelines.textureSetLayout)
        }
        if plan.offscreenPasses.contains(where: { if case .filter = $0.operation { return true }; return false }), filterPipelines == nil {
            filterPipelines = try FilterPipelines(device, textureSetLayout: pipelines.textureSetLayout)
        }
        if plan.offscreenPasses.contains(where: { if case .blend = $0.operation { return true }; return false }), blendModes == nil {
            blendModes = try BlendModePipelines(device, textureSetLayout: pipelines.textureSetLayout)
        }
        try timer?.prepare(passes: plan.offscreenPasses.count)

        let cmd = try commands.begin()
        timer?.begin(cmd)
        if let staging, uploadBytes > 0 {
            let copyStart = Self.now()
            try frameTextures.recordUploads(cmd, staging: staging, images: images)
            uploadNanoseconds += Self.now() - copyStart
        }

        let canvas = plan.offscreenPasses.count
        var segment = 0
        /// Draws the next canvas segment (the first over the clear colour, later ones over what is there).
        func drawSegment() {
            let batches = graph.canvasSegments.indices.contains(segment) ? graph.canvasSegments[segment] : []
            beginRendering(cmd, target.image, clear: plan.clearColor, load: segment > 0, stencil: stencil(for: batches))
            let pipes = batches.compactMap { b in graph.batches[canvas].firstIndex { $0.key == b.key }.map { pipelineOf[canvas][$0] } }
            drawBatches(cmd, batches, pipes, frameTextures, graph, list: canvas, width: width, height: height)
            vkCmdEndRendering(cmd)
            segment += 1
        }
        for (i, pass) in plan.offscreenPasses.enumerated() {
            let t = graph.passTargets[i]
            if retained.contains(i) {
                // Its target holds the result already, readable by shaders since the last frame.
                // Both stamps are written (a query left unwritten would never become available).
                timer?.passBegin(cmd, i)
                timer?.passEnd(cmd, i)
                continue
            }
            if case .backdrop(let capture) = pass.operation {
                drawSegment()
                timer?.passBegin(cmd, i)
                BackdropCapture.record(cmd, canvas: target.image, region: capture.region, into: t.image)
                t.hasContent = true
                timer?.passEnd(cmd, i)
                continue
            }
            timer?.passBegin(cmd, i)
            /// The pass's operation, into the target being rendered (scissored by the caller).
            func operation() throws {
                switch pass.operation {
                case .draw:
                    drawBatches(cmd, graph.batches[i], pipelineOf[i], frameTextures, graph, list: i,
                                width: t.image.width, height: t.image.height)
                case .blur(let source, let sigma, let horizontal, let tint, let downsample):
                    let src = try graph.target(.pass(source), before: i)
                    recordBlur(cmd, from: src, sigma: sigma, horizontal: horizontal, tint: tint, downsample: downsample)
                case .filter(let op):
                    let src = try graph.target(.pass(op.source), before: i)
                    var mask: VkDescriptorSet?
                    if case .variableBlur(_, _, _, let image, _, _) = op.kind {
                        mask = frameTextures.slots[frameTextures.slot(ofImage: image)].descriptorSet(.linear)
                    }
                    let coarse = try op.coarse.map { try graph.target(.pass($0), before: i) }
                    filterPipelines?.record(cmd, op, from: src, mask: mask, coarse: coarse)
                case .backdrop:
                    break   // recorded above
                case .blend(let source, let destination, let formula):
                    blendModes?.record(cmd, source: try graph.target(.pass(source), before: i),
                                       destination: try graph.target(.pass(destination), before: i), formula: formula)
                }
            }
            if let rects = partial[i] {
                // Redrawn in part (PassDamage): the held result stays outside `rects`; inside, each
                // rectangle is cleared and the operation drawn scissored to it.
                beginPartialRendering(cmd, t.image, rects: rects)
                for rect in rects {
                    scissor(cmd, rect)
                    try operation()
                }
            } else {
                beginRendering(cmd, t.image, clear: .clear)
                // A filter step drawn in part (its region): cleared whole, drawn inside.
                if case .filter(let op) = pass.operation, let region = op.region { scissor(cmd, region) }
                try operation()
            }
            vkCmdEndRendering(cmd)
            // The result is read by later passes' fragment shaders.
            Barriers.image(cmd, t.image.handle, from: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                           VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                           to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                           VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
            t.hasContent = true
            timer?.passEnd(cmd, i)
        }

        if let damage = frameCache.pending {
            // Only the damaged rectangles, onto the previous frame (DamagedFrame.swift). A plan with
            // a backdrop capture is never damaged (frameDamage(for:)), so the canvas is one segment.
            beginDamagedRendering(cmd, target, rects: damage.rects, clear: plan.clearColor, stencil: stencil(for: graph.batches[canvas]))
            for rect in damage.rects {
                scissor(cmd, rect)
                drawBatches(cmd, graph.batches[canvas], pipelineOf[canvas], frameTextures, graph, list: canvas,
                            width: width, height: height)
            }
            vkCmdEndRendering(cmd)
            target.recordReadback(cmd, rects: damage.rects)
        } else {
        if segment == 0 {
            beginRendering(cmd, target.image, clear: plan.clearColor, stencil: stencil(for: graph.batches[canvas]))
            drawBatches(cmd, graph.batches[canvas], pipelineOf[canvas], frameTextures, graph, list: canvas,
                        width: width, height: height)
            vkCmdEndRendering(cmd)
        } else {
            drawSegment()
        }
        target.recordReadback(cmd)
        }
        timer?.end(cmd)
    }

    private func recordBlur(_ cmd: VkCommandBuffer, from source: OffscreenTarget, sigma: Double, horizontal: Bool,
                            tint: RGBA, downsample: Int) {
        guard let blur else { return }
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, horizontal ? blur.horizontal : blur.vertical)
        var set: VkDescriptorSet? = source.descriptorSet(.nearest)
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, blur.layout, 0, 1, &set, 0, nil)
        var constants = BlurPipelines.Constants(tint: (tint.r, tint.g, tint.b, tint.a), sigma: Float(sigma),
                                                horizontal: horizontal ? 1 : 0,
                                                radius: Int32(min((3 * max(sigma, 0)).rounded(.up), 4096)),
                                                downsample: Int32(max(downsample, 1)))
        vkCmdPushConstants(cmd, blur.layout, VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, 0,
                           UInt32(MemoryLayout<BlurPipelines.Constants>.size), &constants)
        vkCmdDraw(cmd, 3, 1, 0, 0)
    }

    private static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
