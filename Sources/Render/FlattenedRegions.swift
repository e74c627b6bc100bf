import CVulkan
import Plan

/// The pipeline variant of a flattened region (`DrawItem.flattened`): the DEPTH and IMAGE_MASK
/// specialisation constants of Shaders/flatten.frag (flatten_solid.frag when no layer is an image).
struct FlattenVariant: Hashable {
    var depth: Int32
    var imageMask: Int32

    init(_ region: FlattenedRegion) {
        depth = Int32(region.layers.count)
        var mask: Int32 = 0
        for (i, layer) in region.layers.enumerated() { if case .image = layer { mask |= 1 << Int32(i) } }
        imageMask = mask
    }
}

extension DrawRecord {
    /// Where a region's data starts in its record (after transform, quad and uv, which quad.vert
    /// reads): the base colour, then 8 floats per layer (paint, texel origin and image size − 1).
    static let regionBase = 24, regionLayers = 32

    /// Writes a flattened region's record: identity transform and the rectangle as its quad (so
    /// quad.vert places it), then what Shaders/flatten.glsl reads from the uniform block.
    static func encode(region: FlattenedRegion, imageExtent: (Int) -> (width: Int, height: Int),
                       into p: UnsafeMutablePointer<Float>) {
        write(.identity, p + transform)
        let r = region.rect
        let q = [Float(r.x), Float(r.y), Float(r.x + r.width), Float(r.y + r.height)]
        for k in 0..<4 { p[quad + k] = q[k]; p[uv + k] = 0 }
        let b = region.base
        p[regionBase] = b.r; p[regionBase + 1] = b.g; p[regionBase + 2] = b.b; p[regionBase + 3] = b.a
        for (i, layer) in region.layers.prefix(FlattenedRegion.maxDepth).enumerated() {
            let l = p + regionLayers + 8 * i
            switch layer {
            case .solid(let c):
                l[0] = c.r; l[1] = c.g; l[2] = c.b; l[3] = c.a
                for k in 4..<8 { l[k] = 0 }
            case .image(let index, let opacity, let ox, let oy):
                let o = min(max(opacity, 0), 1)
                let e = imageExtent(index)
                l[0] = o; l[1] = o; l[2] = o; l[3] = o
                l[4] = Float(ox); l[5] = Float(oy); l[6] = Float(e.width - 1); l[7] = Float(e.height - 1)
            }
        }
    }
}

/// The descriptor sets of a frame's flattened regions (set 1 of the region pipelines): the record
/// buffer as a dynamic uniform buffer (each draw's offset is its record) and the images of the
/// stack at bindings 1…16, one set per distinct list of textures. Allocated from a pool reset
/// every frame (frames are synchronous: the previous frame's sets are no longer in use).
final class RegionDescriptorSets {
    private let device: VulkanDevice
    private let layout: VkDescriptorSetLayout, solidLayout: VkDescriptorSetLayout
    private var pool: VkDescriptorPool?
    private var capacity = 0
    private var sets: [[Int]: VkDescriptorSet] = [:]

    init(_ device: VulkanDevice, layout: VkDescriptorSetLayout, solidLayout: VkDescriptorSetLayout) {
        self.device = device; self.layout = layout; self.solidLayout = solidLayout
    }
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
        let sizes = [VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, descriptorCount: UInt32(capacity)),
                     VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                          descriptorCount: UInt32(capacity * FlattenedRegion.maxDepth))]
        var info = VkDescriptorPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        info.maxSets = UInt32(capacity)
        info.poolSizeCount = 2
        info.pPoolSizes = UnsafePointer(arena.pin(array: sizes))
        var pool: VkDescriptorPool?
        try vkCheck(vkCreateDescriptorPool(device.handle, &info, nil, &pool), "vkCreateDescriptorPool")
        self.pool = pool
    }

    /// The set for `textures` (frame texture slots of the layers that are images, bottom to top;
    /// bindings past them repeat the last, since a binding the shader declares must be valid).
    /// texelFetch ignores `sampler`; a combined image sampler needs one.
    func set(_ textures: [Int], records: HostBuffer, frameTextures: FrameTextures, sampler: VkSampler) throws -> VkDescriptorSet {
        if let s = sets[textures] { return s }
        let arena = PinnedArena()
        var alloc = VkDescriptorSetAllocateInfo()
        alloc.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        alloc.descriptorPool = pool
        alloc.descriptorSetCount = 1
        alloc.pSetLayouts = UnsafePointer(arena.pin(Optional(textures.isEmpty ? solidLayout : layout)))
        var set: VkDescriptorSet?
        try vkCheck(vkAllocateDescriptorSets(device.handle, &alloc, &set), "vkAllocateDescriptorSets")
        var writes: [VkWriteDescriptorSet] = []
        var buffer = VkWriteDescriptorSet()
        buffer.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
        buffer.dstSet = set
        buffer.dstBinding = 0
        buffer.descriptorCount = 1
        buffer.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
        buffer.pBufferInfo = UnsafePointer(arena.pin(VkDescriptorBufferInfo(
            buffer: records.handle, offset: 0, range: VkDeviceSize(DrawRecord.byteSize))))
        writes.append(buffer)
        if let last = textures.last {
            let views = (0..<FlattenedRegion.maxDepth).map { i in i < textures.count ? textures[i] : last }
            let infos = views.map {
                VkDescriptorImageInfo(sampler: sampler, imageView: frameTextures.slots[$0].image.view,
                                      imageLayout: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
            }
            var images = VkWriteDescriptorSet()
            images.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
            images.dstSet = set
            images.dstBinding = 1
            images.descriptorCount = UInt32(infos.count)
            images.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
            images.pImageInfo = UnsafePointer(arena.pin(array: infos))
            writes.append(images)
        }
        vkUpdateDescriptorSets(device.handle, UInt32(writes.count), arena.pin(array: writes), 0, nil)
        sets[textures] = set!
        return set!
    }

    /// Set 1 of the region pipelines: the region's uniform block, then one image per layer
    /// (`images`; flatten_solid.frag declares none).
    static func layout(_ device: VulkanDevice, images: Bool) throws -> VkDescriptorSetLayout {
        let fragment = VK_SHADER_STAGE_FRAGMENT_BIT.rawValue
        var bindings = [VkDescriptorSetLayoutBinding(binding: 0, descriptorType: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                                                     descriptorCount: 1, stageFlags: fragment, pImmutableSamplers: nil)]
        for i in 0..<(images ? FlattenedRegion.maxDepth : 0) {
            bindings.append(VkDescriptorSetLayoutBinding(binding: UInt32(1 + i), descriptorType: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                         descriptorCount: 1, stageFlags: fragment, pImmutableSamplers: nil))
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
    /// The plan images this item samples: its paint's, or a flattened region's image layers.
    var sampledImages: [Int] {
        if let region = flattened {
            return region.layers.compactMap { if case .image(let index, _, _, _) = $0 { return index }; return nil }
        }
        if case .image(let index, _, _) = paint { return [index] }
        return []
    }
}
