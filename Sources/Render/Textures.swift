import CVulkan
import Raster

/// A bitmap resident on the device, with its descriptor sets (one per sampler), ready to bind.
/// `mipmapped` textures carry a full mip chain (for trilinear sampling); the nearest and linear
/// samplers read only their level 0, so one mipmapped texture serves every kind of item.
final class Texture {
    let image: GPUImage
    let contentHash: UInt64
    /// The frame number that last drew with it (for LRU eviction).
    var lastUsedFrame: UInt64 = 0
    /// Has the full mip chain (levels down to 1×1).
    let mipmapped: Bool
    /// How the image's pixels lie in it (`TexelLayout`; `.blocks` never has levels).
    let layout: TexelLayout
    /// The image's size in pixels (the texture's own, `image.width`, differs in blocks).
    let pixelWidth: Int
    let pixelHeight: Int
    private let pool: VkDescriptorPool
    /// Set 1 per `SamplerKind`, in `SamplerKind.allCases` order.
    private let sets: [VkDescriptorSet]

    init(_ device: VulkanDevice, width: Int, height: Int, mipmapped: Bool, layout: TexelLayout = .rows,
         contentHash: UInt64, pipelines: PipelineLibrary) throws {
        // Mip levels are blitted from the level above: the image is also a transfer source.
        let levels = mipmapped && layout == .rows ? GPUImage.fullMipChainLength(width, height) : 1
        let extent = layout == .blocks ? TexelBlocks.extent(width: width, height: height) : (width, height)
        image = try GPUImage(device, width: extent.0, height: extent.1, mipLevels: levels,
                             usage: VK_IMAGE_USAGE_SAMPLED_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue
                                | (levels > 1 ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue : 0))
        self.mipmapped = mipmapped && layout == .rows
        self.layout = layout
        self.pixelWidth = width
        self.pixelHeight = height
        self.contentHash = contentHash
        // A tiny pool per texture: evicting the texture frees its sets with it.
        let kinds = SamplerKind.allCases
        var poolSize = VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, descriptorCount: UInt32(kinds.count))
        var poolInfo = VkDescriptorPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        poolInfo.maxSets = UInt32(kinds.count)
        poolInfo.poolSizeCount = 1
        var pool: VkDescriptorPool?
        try withUnsafePointer(to: &poolSize) { sizes in
            poolInfo.pPoolSizes = sizes
            try vkCheck(vkCreateDescriptorPool(device.handle, &poolInfo, nil, &pool), "vkCreateDescriptorPool")
        }
        self.pool = pool!
        var layouts = [VkDescriptorSetLayout?](repeating: pipelines.textureSetLayout, count: kinds.count)
        var sets = [VkDescriptorSet?](repeating: nil, count: kinds.count)
        var allocInfo = VkDescriptorSetAllocateInfo()
        allocInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        allocInfo.descriptorPool = pool
        allocInfo.descriptorSetCount = UInt32(kinds.count)
        let result = layouts.withUnsafeMutableBufferPointer { l in
            allocInfo.pSetLayouts = UnsafePointer(l.baseAddress)
            return vkAllocateDescriptorSets(device.handle, &allocInfo, &sets)
        }
        if result != VK_SUCCESS { vkDestroyDescriptorPool(device.handle, pool, nil) }
        try vkCheck(result, "vkAllocateDescriptorSets")
        self.sets = sets.map { $0! }
        for (set, kind) in zip(self.sets, kinds) {
            let sampler = pipelines.sampler(kind)
            var imageInfo = VkDescriptorImageInfo(sampler: sampler, imageView: image.view,
                                                  imageLayout: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
            withUnsafePointer(to: &imageInfo) { info in
                var write = VkWriteDescriptorSet()
                write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                write.dstSet = set
                write.dstBinding = 0
                write.descriptorCount = 1
                write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
                write.pImageInfo = info
                vkUpdateDescriptorSets(device.handle, 1, &write, 0, nil)
            }
        }
    }

    deinit { vkDestroyDescriptorPool(image.device.handle, pool, nil) }

    func descriptorSet(_ sampler: SamplerKind) -> VkDescriptorSet { sets[SamplerKind.allCases.firstIndex(of: sampler)!] }
}

/// Textures keyed by `Bitmap.contentHash` and layout: identical images share one texture, and unchanged content
/// stays resident across frames (uploading a full-screen texture costs ~7.5 ms on lavapipe, so a
/// frame that reuses its images should upload nothing). Least-recently-used textures are evicted
/// once the resident bytes exceed `budgetBytes`, never those drawn by the current frame.
final class TextureCache {
    private let device: VulkanDevice
    private struct Key: Hashable { var contentHash: UInt64; var layout: TexelLayout }
    private var textures: [Key: Texture] = [:]
    var budgetBytes: Int
    private(set) var residentBytes = 0

    init(_ device: VulkanDevice, budgetBytes: Int) {
        self.device = device
        self.budgetBytes = budgetBytes
    }

    /// The resident texture for `image`, or a new (still empty) one plus `needsUpload = true`.
    /// `mipmapped`: some item samples it trilinearly. A resident texture without levels is then
    /// replaced once by one with a full chain (uploaded again from its pixels; levels can't be
    /// added to a VkImage), which from then on serves both kinds of items; a texture that has
    /// levels is never downgraded.
    /// `layout`: `.blocks` for a flattened region's image layer (then `mipmapped` is ignored).
    func texture(for image: ImageIdentity, mipmapped: Bool, layout: TexelLayout = .rows, frame: UInt64,
                 pipelines: PipelineLibrary) throws -> (Texture, needsUpload: Bool) {
        let key = Key(contentHash: image.contentHash, layout: layout)
        if let t = textures[key], t.pixelWidth == image.width, t.pixelHeight == image.height,
           t.mipmapped || !mipmapped || layout == .blocks {
            t.lastUsedFrame = frame
            return (t, false)
        }
        let t = try Texture(device, width: image.width, height: image.height, mipmapped: mipmapped, layout: layout,
                            contentHash: image.contentHash, pipelines: pipelines)
        t.lastUsedFrame = frame
        if let old = textures.updateValue(t, forKey: key) { residentBytes -= old.image.byteCount }
        residentBytes += t.image.byteCount
        return (t, true)
    }

    /// Releases every texture (after the fence of the last frame that drew with them).
    func removeAll() {
        textures = [:]
        residentBytes = 0
    }

    /// Evicts least-recently-used textures not drawn in `frame` until within budget. Call only when
    /// the device no longer uses them (after the frame's fence).
    func evict(keeping frame: UInt64) {
        guard residentBytes > budgetBytes else { return }
        let candidates = textures.values.filter { $0.lastUsedFrame != frame }
            .sorted { ($0.lastUsedFrame, $0.contentHash, $0.layout == .blocks ? 1 : 0) < ($1.lastUsedFrame, $1.contentHash, $1.layout == .blocks ? 1 : 0) }
        for t in candidates where residentBytes > budgetBytes {
            textures[Key(contentHash: t.contentHash, layout: t.layout)] = nil
            residentBytes -= t.image.byteCount
        }
    }

    /// Drops a texture whose upload failed, so a later frame retries it.
    func discard(_ texture: Texture) {
        let key = Key(contentHash: texture.contentHash, layout: texture.layout)
        if textures[key] === texture {
            textures[key] = nil
            residentBytes -= texture.image.byteCount
        }
    }

    var count: Int { textures.count }
}
