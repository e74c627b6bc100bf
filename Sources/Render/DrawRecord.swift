import CVulkan
import Geometry
import Plan

/// The per-item record in the draw-record storage buffer: the std430 layout of `DrawRecord` in
/// Shaders/draw_record.glsl, written as 32-bit floats (all members are vec4/mat4, so std430 adds no
/// padding). Offsets below are in floats.
enum DrawRecord {
    static let floatCount = 196
    static let byteSize = floatCount * 4

    static let transform = 0, quad = 16, uv = 20, paint = 24, imageExtent = 28
    static let shape = 32, inner = 48, clips = 64, stack = 192
    /// Each clip: its transform (16) then its RoundedRect (16).
    static let clipStride = 32
    static let roundedRectFloats = 16

    /// Writes `item` at `p` (196 floats). Only what the item's pipeline reads is written: the shape,
    /// inner shape and clip slots of a variant without them are left as they are.
    static func encode(_ item: DrawItem, imageExtent extent: (width: Int, height: Int),
                       into p: UnsafeMutablePointer<Float>) {
        write(item.transform, p + transform)
        var q = item.quad.standardized
        // uv is not standardised: a flipped uv rect mirrors the image.
        var u0 = item.uv.origin.x, v0 = item.uv.origin.y
        var u1 = u0 + item.uv.size.width, v1 = v0 + item.uv.size.height
        if item.shape != nil, !item.quadIsFinal, q.width > 0, q.height > 0 {
            // A shape's antialiased edge extends half a pixel outside it; grow the rasterised quad
            // by about one device pixel so that ramp is not cut off by the quad's own hard edge
            // (fragments beyond the shape get coverage 0). uv is extrapolated linearly with it.
            // The plan marks quads it has already sized (`quadIsFinal`): pieces of a split item,
            // and unshaped items given a shape enclosing them to batch.
            let o = antialiasingOutset(item.transform, q)
            if o > 0 {
                let du = (u1 - u0) / q.width * o, dv = (v1 - v0) / q.height * o
                u0 -= du; u1 += du; v0 -= dv; v1 += dv
                q = Rect(q.minX - o, q.minY - o, q.width + 2 * o, q.height + 2 * o)
            }
        }
        set(p + quad, Float(q.minX), Float(q.minY), Float(q.maxX), Float(q.maxY))
        set(p + uv, Float(u0), Float(v0), Float(u1), Float(v1))
        switch item.paint {
        case .solid(let c): set(p + paint, c.r, c.g, c.b, c.a)
        case .image(_, _, let opacity), .offscreen(_, _, let opacity):
            // The premultiplied tint times opacity; white gives (o, o, o, o) as before.
            let o = min(max(opacity, 0), 1), t = item.tint
            set(p + paint, t.r * o, t.g * o, t.b * o, t.a * o)
        case .blurredShape(let c, let sigma):
            set(p + paint, c.r, c.g, c.b, c.a)
            // The shadow shader reads σ and the corner radius from uv (constant across the quad).
            let r = Float(item.shape?.radii.first ?? 0)
            set(p + uv, sigma, r, sigma, r)
        }
        set(p + imageExtent, Float(extent.width), Float(extent.height), 0, 0)
        if let g = item.gradient {
            // The gradient shader reads its geometry from the record: the type beside the opacity,
            // start and end points (local points) in the image-extent slot it has no use for.
            let type: Float = g.type == .axial ? 0 : g.type == .radial ? 1 : 2
            p[paint + 1] = type
            set(p + imageExtent, Float(g.start.x), Float(g.start.y), Float(g.end.x), Float(g.end.y))
        }
        // Always written: every vertex shader reads it into its position's depth.
        set(p + stack, StencilTarget.depth(rank: item.stackStencil?.rank ?? 0), 0, 0, 0)
        if let s = item.shape { write(s, p + shape) }
        if let s = item.innerShape { write(s, p + inner) }
        for (i, clip) in item.clips.prefix(DrawItem.maxClips).enumerated() {
            write(clip.transform, p + clips + i * clipStride)
            write(clip.shape, p + clips + i * clipStride + 16)
        }
    }

    /// The antialiasing margin (`EdgeRamp.outset`, shared with the plan's split of large items).
    static func antialiasingOutset(_ t: Transform3D, _ q: Rect) -> Double { EdgeRamp.outset(t, q) }

    /// A CA row-vector matrix in memory order, which is the GLSL column-major layout of Mᵀ, so the
    /// shader's `M * v` is Core Animation's `v · M`.
    static func write(_ t: Transform3D, _ p: UnsafeMutablePointer<Float>) {
        p[0] = Float(t.m11); p[1] = Float(t.m12); p[2] = Float(t.m13); p[3] = Float(t.m14)
        p[4] = Float(t.m21); p[5] = Float(t.m22); p[6] = Float(t.m23); p[7] = Float(t.m24)
        p[8] = Float(t.m31); p[9] = Float(t.m32); p[10] = Float(t.m33); p[11] = Float(t.m34)
        p[12] = Float(t.m41); p[13] = Float(t.m42); p[14] = Float(t.m43); p[15] = Float(t.m44)
    }

    /// RoundedRect: rect (minX, minY, maxX, maxY), then per corner (minXMinY, maxXMinY, maxXMaxY,
    /// minXMaxY) the centre inset, the continuous-profile scale and the circular bias
    /// (see `CornerProfile`). Radii are clamped so corners fit: l = min(W, H) / 2.
    static func write(_ s: RoundedShape, _ p: UnsafeMutablePointer<Float>) {
        let r = s.rect.standardized
        set(p, Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY))
        let limit = min(r.width, r.height) / 2
        for i in 0..<4 {
            let radius = i < s.radii.count ? s.radii[i] : 0
            let corner = s.curve == .continuous
                ? CornerProfile.continuous(radius: radius, limit: limit)
                : CornerProfile.circular(radius: radius, limit: limit)
            p[4 + i] = Float(corner.inset)
            p[8 + i] = Float(corner.profileScale)
            p[12 + i] = Float(corner.circularRadius)
        }
    }

    @inline(__always)
    static func set(_ p: UnsafeMutablePointer<Float>, _ a: Float, _ b: Float, _ c: Float, _ d: Float) {
        p[0] = a; p[1] = b; p[2] = c; p[3] = d
    }
}

/// The host-visible storage buffer holding a frame's draw records, with descriptor set 0 pointing at
/// it. Reused every frame (the previous frame's fence has been waited on) and replaced only when a
/// frame has more items than it holds.
final class DrawRecordBuffer {
    let buffer: HostBuffer
    let descriptorSet: VkDescriptorSet
    private let pool: VkDescriptorPool
    var capacity: Int { buffer.size / DrawRecord.byteSize }

    init(_ device: VulkanDevice, items: Int, pipelines: PipelineLibrary) throws {
        buffer = try HostBuffer.ensure(nil, device, size: max(items, 1) * DrawRecord.byteSize,
                                       usage: VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue)
        let arena = PinnedArena()
        var poolInfo = VkDescriptorPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        poolInfo.maxSets = 1
        poolInfo.poolSizeCount = 1
        poolInfo.pPoolSizes = UnsafePointer(arena.pin(VkDescriptorPoolSize(type: VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, descriptorCount: 1)))
        var pool: VkDescriptorPool?
        try vkCheck(vkCreateDescriptorPool(device.handle, &poolInfo, nil, &pool), "vkCreateDescriptorPool")
        self.pool = pool!
        var allocInfo = VkDescriptorSetAllocateInfo()
        allocInfo.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        allocInfo.descriptorPool = pool
        allocInfo.descriptorSetCount = 1
        allocInfo.pSetLayouts = UnsafePointer(arena.pin(Optional(pipelines.recordSetLayout)))
        var set: VkDescriptorSet?
        let result = vkAllocateDescriptorSets(device.handle, &allocInfo, &set)
        if result != VK_SUCCESS { vkDestroyDescriptorPool(device.handle, pool, nil) }
        try vkCheck(result, "vkAllocateDescriptorSets")
        descriptorSet = set!
        var write = VkWriteDescriptorSet()
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
        write.dstSet = set
        write.descriptorCount = 1
        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
        write.pBufferInfo = UnsafePointer(arena.pin(VkDescriptorBufferInfo(
            buffer: buffer.handle, offset: 0, range: VkDeviceSize(buffer.size))))
        vkUpdateDescriptorSets(device.handle, 1, &write, 0, nil)
    }

    deinit { vkDestroyDescriptorPool(buffer.device.handle, pool, nil) }

    var records: UnsafeMutablePointer<Float> { buffer.mapped.assumingMemoryBound(to: Float.self) }
}
