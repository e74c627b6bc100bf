import CVulkan

/// A colour target an offscreen pass renders into, sampled afterwards by the items (or the blur)
/// that draw its result: an image with a descriptor set per sampler kind.
final class OffscreenTarget {
    let image: GPUImage
    private let pool: VkDescriptorPool
    private let sets: [VkDescriptorSet]
    /// The frame that last used it (pooled targets are released when a frame does not reuse them).
    var lastUsedFrame: UInt64 = 0
    /// Its layout after the last pass that wrote it (raster-cache targets persist across frames).
    var hasContent = false
    /// From the pool (`acquire`); false for raster-cache targets.
    var pooled = false

    init(_ device: VulkanDevice, width: Int, height: Int, format: VkFormat, pipelines: PipelineLibrary) throws {
        image = try GPUImage(device, width: width, height: height,
                             // Transfer destination: a backdrop capture is blitted from the canvas.
                             usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
                                 | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue,
                             format: format)
        let kinds: [SamplerKind] = [.nearest, .linear]
        let arena = PinnedArena()
        var poolInfo = VkDescriptorPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        poolInfo.maxSets = UInt32(kinds.count)
        poolInfo.poolSizeCount = 1
        poolInfo.pPoolSizes = UnsafePointer(arena.pin(VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                                           descriptorCount: UInt32(kinds.count))))
        var pool: VkDescriptorPool?
        try vkCheck(vkCreateDescriptorPool(device.handle, &poolInfo, nil, &pool), "vkCreateDescriptorPool")
        self.pool = pool!
        var allocInfo = VkDescriptorSetAllocateInfo()
        allocInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        allocInfo.descriptorPool = pool
        allocInfo.descriptorSetCount = UInt32(kinds.count)
        allocInfo.pSetLayouts = UnsafePointer(arena.pin(array: [VkDescriptorSetLayout?](repeating: pipelines.textureSetLayout,
                                                                                           count: kinds.count)))
        var sets = [VkDescriptorSet?](repeating: nil, count: kinds.count)
        let result = vkAllocateDescriptorSets(device.handle, &allocInfo, &sets)
        if result != VK_SUCCESS { vkDestroyDescriptorPool(device.handle, pool, nil) }
        try vkCheck(result, "vkAllocateDescriptorSets")
        self.sets = sets.map { $0! }
        for (set, kind) in zip(self.sets, kinds) {
            var write = VkWriteDescriptorSet()
            write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
            write.dstSet = set
            write.descriptorCount = 1
            write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
            write.pImageInfo = UnsafePointer(arena.pin(VkDescriptorImageInfo(
                sampler: pipelines.sampler(kind), imageView: image.view, imageLayout: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)))
            vkUpdateDescriptorSets(device.handle, 1, &write, 0, nil)
        }
    }

    deinit { vkDestroyDescriptorPool(image.device.handle, pool, nil) }

    /// texelFetch and nearest read through the nearest set; everything else bilinear (targets have
    /// no mip levels).
    func descriptorSet(_ sampler: SamplerKind) -> VkDescriptorSet { sampler == .nearest ? sets[0] : sets[1] }
}

/// Targets for the passes of a frame, reused across frames by size and format (a sequence's frames
/// have the same passes), plus the raster cache's targets, which live until the plan evicts them.
final class OffscreenTargets {
    private let device: VulkanDevice
    private var free: [OffscreenTarget] = []
    private var inUse: [OffscreenTarget] = []
    private(set) var rasterCache: [UInt64: OffscreenTarget] = [:]
    /// The previous frame's pass results, by the pass's index in that frame's whole plan: what
    /// `RetainedPasses` may take instead of rendering a pass again.
    private var held: [Int: OffscreenTarget] = [:]

    /// The passes whose results are held (`RetainedPasses.between`'s `held`).
    var heldPasses: Set<Int> { Set(held.keys) }

    init(_ device: VulkanDevice) { self.device = device }

    /// A target of this size and format for one pass of `frame`.
    func acquire(width: Int, height: Int, format: VkFormat, frame: UInt64, pipelines: PipelineLibrary) throws -> OffscreenTarget {
        let t: OffscreenTarget
        if let i = free.firstIndex(where: { $0.image.width == width && $0.image.height == height && $0.image.format == format }) {
            t = free.remove(at: i)
        } else {
            t = try OffscreenTarget(device, width: width, height: height, format: format, pipelines: pipelines)
        }
        t.lastUsedFrame = frame
        t.pooled = true
        inUse.append(t)
        return t
    }

    /// At the start of a frame: the held results of `retained` (indices of the previous plan),
    /// taken for this frame; the other held pooled targets go back to the pool, so this frame's
    /// passes can use them, and held raster-cache targets no longer cached are freed.
    func takeHeld(_ retained: Set<Int>, frame: UInt64) -> [Int: OffscreenTarget] {
        var taken: [Int: OffscreenTarget] = [:]
        for (i, t) in held {
            if retained.contains(i) {
                taken[i] = t
                t.lastUsedFrame = frame
                if t.pooled { inUse.append(t) }
            } else if t.pooled {
                free.append(t)
            }
        }
        held = [:]
        return taken
    }

    /// A retained raster-cache result stored under this frame's key (its old key was evicted).
    func adopt(_ t: OffscreenTarget, as key: UInt64) { rasterCache[key] = t }

    /// The raster-cache target for `key`, created (or replaced, when the size changed) for a store.
    func cacheTarget(_ key: UInt64, width: Int, height: Int, pipelines: PipelineLibrary) throws -> OffscreenTarget {
        if let t = rasterCache[key], t.image.width == width, t.image.height == height { return t }
        let t = try OffscreenTarget(device, width: width, height: height, format: DeviceSelector.colorFormat, pipelines: pipelines)
        rasterCache[key] = t
        return t
    }

    /// After the frame's fence: pass targets go back to the pool (those unused for a frame are
    /// released), evicted raster-cache entries are freed; `hold`'s targets (by pass index in the
    /// frame's whole plan) are kept with their results for the next frame instead.
    func endFrame(_ frame: UInt64, evicted: [UInt64], hold: [Int: OffscreenTarget] = [:]) {
        free.removeAll { $0.lastUsedFrame + 1 < frame }
        held = hold
        free.append(contentsOf: inUse.filter { t in !hold.values.contains { $0 === t } })
        inUse.removeAll()
        for key in evicted { rasterCache[key] = nil }
    }

    /// Forgets the held results (their pooled targets go back to the pool).
    func dropHeld() {
        free.append(contentsOf: held.values.filter(\.pooled))
        held = [:]
    }

    /// Bytes of every target held (pooled, in use, cached and held).
    var residentBytes: Int {
        var seen = Set<ObjectIdentifier>()
        return (free + inUse + Array(rasterCache.values) + Array(held.values)).reduce(0) { sum, t in
            seen.insert(ObjectIdentifier(t)).inserted ? sum + t.image.byteCount : sum
        }
    }
}
