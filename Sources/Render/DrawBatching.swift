import CVulkan
import Plan

/// What a batch samples: a frame texture slot, or an offscreen target of the frame.
enum BatchTexture: Equatable {
    case image(Int)
    case target(OffscreenSource)
}

/// One instanced draw: a run of consecutive items that share pipeline, texture and sampler.
/// The items' records are consecutive in the record buffer, so `firstInstance` = `firstItem`
/// and the vertex shader finds its record at gl_InstanceIndex.
struct DrawBatch: Equatable {
    var key: PipelineKey
    /// What it samples (nil for solid paint and analytic shadows).
    var texture: BatchTexture?
    var sampler: SamplerKind
    var firstItem: Int
    var count: Int
    /// A flattened region (always a batch of one): per layer, bottom to top, the frame texture
    /// slot its image is read from (-1 for a solid layer); empty when no layer is an image.
    var regionTextures: [Int]? = nil
    /// Its descriptor set (set 1 of the region pipelines), made once the frame's records are written.
    var regionSet: VkDescriptorSet? = nil
    /// Stack culling's K for its items (`DrawItem.stackStencil`), the stencil reference.
    var stencilDepth: Int? = nil
    /// Culling by order (`markBit` pieces): the stencil reference, compare mask and write mask.
    var stencilBits: StencilBits? = nil
    struct StencilBits: Equatable { var reference: UInt8, compare: UInt8, write: UInt8 }
}

/// Splits the painter's-order item list into batches. Order is never changed (blending is not
/// commutative), so only neighbours merge: O(items).
enum DrawBatching {
    /// `blocks`: whether a flattened region reads plan image `index` from a `.blocks` texture.
    static func pipelineKey(for item: DrawItem, blocks: (Int) -> Bool = { _ in false }) -> PipelineKey {
        let stencil = item.stackStencil?.role
        if let region = item.flattened {
            return PipelineKey(paint: .solid, hasShape: false, hasInner: false, clipCount: 0, corners: 0, opaque: true,
                               flatten: FlattenVariant(region, blocks: blocks), stencil: stencil)
        }
        let paint: PipelineKey.Paint
        switch item.paint {
        case .solid: paint = .solid
        case .image(_, .texelFetch, _), .offscreen(_, .texelFetch, _): paint = .texelFetch
        case .image(_, .nearest, _), .image(_, .linear, _), .offscreen(_, .nearest, _), .offscreen(_, .linear, _),
             .offscreen(_, .trilinear, _):
            paint = .filtered
        case .image(_, .trilinear, _): paint = .mipmapped
        case .blurredShape: paint = .shadow
        }
        // The shadow shader reads its shape from the record itself (no coverage varyings). A
        // gradient's image is its colour ramp, read at a position the gradient shader computes.
        let shaped = paint != .shadow
        return PipelineKey(paint: item.gradient != nil ? .gradient : paint,
                           hasShape: shaped && item.shape != nil, hasInner: shaped && item.innerShape != nil,
                           clipCount: min(item.clips.count, DrawItem.maxClips),
                           blend: item.blend == .destinationIn ? .destinationIn : item.blend == .plus ? .plus
                               : CompositingBlendStates.key(item.blend) ?? .sourceOver,
                           corners: corners(item.executedCoverage), opaque: item.drawsOpaque,
                           isotropic: shaped && item.hasIsotropicCoverage, affine: item.interpolatesAffinely, stencil: stencil)
    }

    /// The CORNER_CODE specialisation constant for a coverage level (none and straight edges alike:
    /// without shapes or clips no coverage code runs at all).
    static func corners(_ c: Coverage) -> Int32 {
        switch c {
        case .none, .straightEdges: return 0
        case .circularCorners: return 1
        case .continuousCorners: return 2
        }
    }

    /// `textureSlot` maps a plan image index to the frame's texture slot (textures shared by
    /// content hash get the same slot, so items showing the same pixels batch together).
    /// `regionSlot` does for flattened regions' image layers, and `blocks` says which of their
    /// textures hold 4×4 blocks (`FrameTextures.regionSlot(ofImage:)`; by default the same slots, in rows).
    /// `firstRecord`: where the list's records start in the record buffer.
    static func batches(_ items: [DrawItem], firstRecord: Int = 0, textureSlot: (Int) -> Int,
                        regionSlot: ((Int) -> Int)? = nil, blocks: (Int) -> Bool = { _ in false }) -> [DrawBatch] {
        var batches: [DrawBatch] = []
        batches.reserveCapacity(8)
        for (j, item) in items.enumerated() {
            let i = firstRecord + j
            if item.flattened != nil {
                // Each region reads its own record as a uniform block: a draw of its own.
                batches.append(DrawBatch(key: pipelineKey(for: item, blocks: blocks), texture: nil, sampler: .nearest,
                                         firstItem: i, count: 1,
                                         regionTextures: item.regionLayerImages.map { images in
                                             images.map { $0.map { regionSlot?($0) ?? textureSlot($0) } ?? -1 }
                                         } ?? [], stencilDepth: item.stackStencil?.depth))
                continue
            }
            let key = pipelineKey(for: item)
            var texture: BatchTexture?
            var sampler = SamplerKind.nearest
            if case .image(let index, let sampling, _) = item.paint {
                texture = .image(textureSlot(index))
                sampler = samplerKind(sampling)
            } else if case .offscreen(let source, let sampling, _) = item.paint {
                texture = .target(source)
                sampler = samplerKind(sampling) == .nearest ? .nearest : .linear
            }
            let bits = item.stackStencil.flatMap { $0.role == .markBit ? DrawBatch.StencilBits(reference: $0.reference, compare: $0.compareMask, write: $0.writeMask) : nil }
            if var last = batches.last, last.regionTextures == nil, last.key == key, last.texture == texture, last.sampler == sampler,
               last.stencilBits == bits {
                last.count += 1
                batches[batches.count - 1] = last
            } else {
                batches.append(DrawBatch(key: key, texture: texture, sampler: sampler, firstItem: i, count: 1,
                                         stencilDepth: item.stackStencil?.depth,
                                         stencilBits: bits))
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
