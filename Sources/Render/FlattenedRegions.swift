import CVulkan
import Plan

/// The pipeline variant of a flattened region (`DrawItem.flattened`): the DEPTH, IMAGE_MASK and
/// BLOCK_MASK specialisation constants of Shaders/flatten.frag (flatten_solid.frag when no layer
/// is an image).
struct FlattenVariant: Hashable {
    var depth: Int32
    var imageMask: Int32
    /// Bit i: layer i's texture holds the image in 4×4 blocks (`TexelLayout.blocks`).
    var blockMask: Int32 = 0

    /// `blocks(index)`: whether plan image `index` is read from a `.blocks` texture.
    init(_ region: FlattenedRegion, blocks: (Int) -> Bool = { _ in false }) {
        depth = Int32(region.layers.count)
        var mask: Int32 = 0, blockMask: Int32 = 0
        for (i, layer) in region.layers.enumerated() {
            if case .image(let index, _, _, _) = layer {
                mask |= 1 << Int32(i)
                if blocks(index) { blockMask |= 1 << Int32(i) }
            }
        }
        imageMask = mask
        self.blockMask = blockMask
    }
}

extension DrawRecord {
    /// Where a region's data lies in its record (Shaders/flatten.vert reads it as vec4s): the
    /// rectangle in the quad slot, the base colour in the paint slot, then one vec4 per layer.
    static let regionLayers = 32

    /// Writes a flattened region's record: for a solid layer its premultiplied colour; for an
    /// image the bits of (opacity as a float, texel origin x, origin y, 0).
    static func encode(region: FlattenedRegion, stackRank: Int = 0, into p: UnsafeMutablePointer<Float>) {
        let r = region.rect
        set(p + stack, StencilTarget.depth(rank: stackRank), 0, 0, 0)
        set(p + quad, Float(r.x), Float(r.y), Float(r.x + r.width), Float(r.y + r.height))
        let b = region.base
        set(p + paint, b.r, b.g, b.b, b.a)
        func bits(_ v: Int32) -> Float { Float(bitPattern: UInt32(bitPattern: v)) }
        for (i, layer) in region.layers.prefix(FlattenedRegion.maxDepth).enumerated() {
            let l = p + regionLayers + 4 * i
            switch layer {
            case .solid(let c):
                set(l, c.r, c.g, c.b, c.a)
            case .image(_, let opacity, let ox, let oy):
                set(l, min(max(opacity, 0), 1), bits(Int32(clamping: ox)), bits(Int32(clamping: oy)), 0)
            }
        }
    }
}

/// The descriptor sets of a frame's flattened regions with images (set 1 of the region
/// pipelines): the stack's images at bindings 0…15, one set per distinct list of textures. Allocated from a pool reset
/// every frame (frames are synchronous: the previous frame's sets are no longer in use).
final class RegionDescriptorSets {
    private let device: VulkanDevice
    private let layout: VkDescriptorSetLayout
    private var pool: VkDescriptorPool?
    private var capacity = 0
    private var sets: [[Int]: VkDescriptorSet] = [:]

    init(_ device: VulkanDevice, layout: VkDescriptorSetLayout) { self.device = device; self.layout = layout }
    deinit { if let pool { vkDestroyDescriptorPool(device.handle, pool, nil) } }

    /// Starts a frame that needs at most `count` sets.
    func reset(count: Int) throws {
        sets = [:]
        if let pool, count <= capacity {
            try vkCheck(vkResetDescriptorPool(device.handle, pool, 0), "vkResetDescriptorPool")
            return
        }
        if let pool { vkDestroyDescriptorPool(device.handle, pool, nil); self.pool = nil }
        capacity = max(count, 16)
        let arena = PinnedArena()
        let sizes = [VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                          descriptorCount: UInt32(capacity * FlattenedRegion.maxDepth))]
        var info = VkDescriptorPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        info.maxSets = UInt32(capacity)
        info.poolSizeCount = 1
        info.pPoolSizes = UnsafePointer(arena.pin(array: sizes))
        var pool: VkDescriptorPool?
        try vkCheck(vkCreateDescriptorPool(device.handle, &info, nil, &pool), "vkCreateDescriptorPool")
        self.pool = pool
    }

    /// The set for `textures` (`DrawBatch.regionTextures`: per layer, bottom to top, the frame
    /// texture slot of its image, -1 for a solid): layer i's image at binding i, as flatten.frag
    /// reads it. Bindings of solids and past the stack hold any of the region's images, since a
    /// binding the shader declares must be valid.
    /// texelFetch ignores `sampler`; a combined image sampler needs one.
    func set(_ textures: [Int], frameTextures: FrameTextures, sampler: VkSampler) throws -> VkDescriptorSet {
        if let s = sets[textures] { return s }
        let arena = PinnedArena()
        var alloc = VkDescriptorSetAllocateInfo()
        alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        alloc.descriptorPool = pool
        alloc.descriptorSetCount = 1
        alloc.pSetLayouts = UnsafePointer(arena.pin(Optional(layout)))
        var set: VkDescriptorSet?
        try vkCheck(vkAllocateDescriptorSets(device.handle, &alloc, &set), "vkAllocateDescriptorSets")
        let any = textures.first { $0 >= 0 } ?? 0
        let infos = (0..<FlattenedRegion.maxDepth).map { i -> VkDescriptorImageInfo in
            let slot = i < textures.count && textures[i] >= 0 ? textures[i] : any
            return VkDescriptorImageInfo(sampler: sampler, imageView: frameTextures.slots[slot].image.view,
                                         imageLayout: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
        }
        var write = VkWriteDescriptorSet()
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
        write.dstSet = set
        write.dstBinding = 0
        write.descriptorCount = UInt32(infos.count)
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
        write.pImageInfo = UnsafePointer(arena.pin(array: infos))
        vkUpdateDescriptorSets(device.handle, 1, &write, 0, nil)
        sets[textures] = set!
        return set!
    }

    /// Set 1 of the region pipelines with images: one image per layer (flatten_solid.frag
    /// declares none and runs with the other pipelines' layout).
    static func layout(_ device: VulkanDevice) throws -> VkDescriptorSetLayout {
        let bindings = (0..<FlattenedRegion.maxDepth).map { i in
            VkDescriptorSetLayoutBinding(binding: UInt32(i), descriptorType: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                         descriptorCount: 1, stageFlags: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, pImmutableSamplers: nil)
        }
        var layout: VkDescriptorSetLayout?
        try bindings.withUnsafeBufferPointer { b in
            var info = VkDescriptorSetLayoutCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
            info.bindingCount = UInt32(b.count)
            info.pBindings = b.baseAddress
            try vkCheck(vkCreateDescriptorSetLayout(device.handle, &info, nil, &layout), "vkCreateDescriptorSetLayout")
        }
        return layout!
    }
}

extension DrawItem {
    /// A flattened region's layers, bottom to top: each image layer's plan image, nil for a solid;
    /// nil when the item is no region or none of its layers is an image.
    var regionLayerImages: [Int?]? {
        guard let region = flattened else { return nil }
        let images = region.layers.map { layer -> Int? in if case .image(let index, _, _, _) = layer { return index }; return nil }
        return images.contains { $0 != nil } ? images : nil
    }
}
