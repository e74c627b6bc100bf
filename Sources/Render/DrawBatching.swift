import Plan

/// One instanced draw: a run of consecutive items that share pipeline, texture and sampler.
/// The items' records are consecutive in the record buffer, so `firstInstance` = `firstItem`
/// and the vertex shader finds its record at gl_InstanceIndex.
struct DrawBatch: Equatable {
    var key: PipelineKey
    /// Index into the frame's resolved textures (nil for solid paint).
    var texture: Int?
    var sampler: SamplerKind
    var firstItem: Int
    var count: Int
}

/// Splits the painter's-order item list into batches. Order is never changed (blending is not
/// commutative), so only neighbours merge: O(items).
enum DrawBatching {
    static func pipelineKey(for item: DrawItem) -> PipelineKey {
        let paint: PipelineKey.Paint
        switch item.paint {
        case .solid: paint = .solid
        case .image(_, .texelFetch, _): paint = .texelFetch
        case .image(_, .nearest, _), .image(_, .linear, _): paint = .filtered
        case .image(_, .trilinear, _): paint = .mipmapped
        }
        // A gradient's image is its colour ramp, read at a position the gradient shader computes.
        let key = item.gradient != nil ? PipelineKey.Paint.gradient : paint
        return PipelineKey(paint: key, hasShape: item.shape != nil, hasInner: item.innerShape != nil,
                           clipCount: min(item.clips.count, DrawItem.maxClips))
    }

    /// `textureSlot` maps a plan image index to the frame's texture slot (textures shared by
    /// content hash get the same slot, so items showing the same pixels batch together).
    static func batches(_ items: [DrawItem], textureSlot: (Int) -> Int) -> [DrawBatch] {
        var batches: [DrawBatch] = []
        batches.reserveCapacity(8)
        for (i, item) in items.enumerated() {
            let key = pipelineKey(for: item)
            var texture: Int?
            var sampler = SamplerKind.nearest
            if case .image(let index, let sampling, _) = item.paint {
                texture = textureSlot(index)
                sampler = samplerKind(sampling)
            }
            if var last = batches.last, last.key == key, last.texture == texture, last.sampler == sampler {
                last.count += 1
                batches[batches.count - 1] = last
            } else {
                batches.append(DrawBatch(key: key, texture: texture, sampler: sampler, firstItem: i, count: 1))
            }
        }
        return batches
    }

    /// texelFetch ignores the sampler; it binds the nearest one.
    static func samplerKind(_ sampling: DrawItem.Sampling) -> SamplerKind {
        switch sampling {
        case .texelFetch, .nearest: return .nearest
        case .linear: return .linear
        case .trilinear: return .trilinear
        }
    }
}
