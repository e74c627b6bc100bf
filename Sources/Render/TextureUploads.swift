import CVulkan
import Plan
import Raster

/// A texture created this frame and what fills it: level 0 from the image's pixels (taken from the
/// frame's `FramePixels` when the upload is recorded, and let go right after), and for a mipmapped
/// texture either device blits or (the fallback) levels computed on the CPU, uploaded with it.
struct TextureUpload {
    var texture: Texture
    /// The plan key the pixels are asked for, and what they must be.
    var key: UInt64
    var image: ImageIdentity
    /// Levels 1… are made on the CPU (`MipmapGeneration.cpu`) and uploaded with level 0.
    var cpuLevels: Bool
    var byteCount: Int {
        if texture.layout == .blocks { return texture.image.width * texture.image.height * 4 }
        let levels = cpuLevels ? texture.image.mipLevels : 1
        return (0..<levels).reduce(0) { sum, level in
            let (w, h) = GPUImage.levelExtent(image.width, image.height, level)
            return sum + w * h * 4
        }
    }
}

/// The textures one frame draws with: plan image index -> slot, one slot per distinct content hash,
/// and the uploads the frame must record for textures that were not yet resident.
struct FrameTextures {
    private(set) var slots: [Texture] = []
    private var slotOfImage: [Int]
    /// The slot of an image's `.blocks` texture (flattened regions' image layers), or -1.
    private var blockSlotOfImage: [Int]
    private struct Content: Hashable { var hash: UInt64; var layout: TexelLayout }
    private var slotOfContent: [Content: Int] = [:]
    private(set) var uploads: [TextureUpload] = []
    var uploadBytes: Int { uploads.reduce(0) { $0 + $1.byteCount } }

    /// Resolves every image the items paint. Throws for an unknown index or key, or an image the
    /// device cannot hold; textures created before the throw are discarded from the cache again.
    /// Content that any item samples trilinearly gets a mipmapped texture.
    /// `blocks`: flattened regions' image layers get `.blocks` textures (`TexelLayout`) where the
    /// device can hold them so (others, and every other use, get `.rows`).
    init(_ plan: FramePlan, images: FramePixels, cache: TextureCache, frame: UInt64,
         pipelines: PipelineLibrary, maxDimension: Int, mipmapGeneration: MipmapGeneration, blocks: Bool = false) throws {
        slotOfImage = [Int](repeating: -1, count: plan.images.count)
        blockSlotOfImage = slotOfImage
        var mipmappedContent = Set<UInt64>()
        let drawn = plan.executedItems
        for item in drawn {
            guard case .image(let index, .trilinear, _) = item.paint, plan.images.indices.contains(index),
                  let image = images.identity(plan.images[index].key) else { continue }
            mipmappedContent.insert(image.contentHash)
        }
        do {
            for (index, layer) in Self.sampledImages(drawn, plan.offscreenPasses, regionLayers: blocks) {
                try resolve(index, plan, images, cache, frame, pipelines, maxDimension, mipmappedContent, mipmapGeneration,
                            layout: layer ? .blocks : .rows)
            }
        } catch {
            discardUploads(from: cache)
            throw error
        }
    }

    /// Gives plan image `index` its slot: a texture resident or created (and queued for upload).
    private mutating func resolve(_ index: Int, _ plan: FramePlan, _ images: FramePixels, _ cache: TextureCache,
                          _ frame: UInt64, _ pipelines: PipelineLibrary, _ maxDimension: Int,
                          _ mipmappedContent: Set<UInt64>, _ mipmapGeneration: MipmapGeneration,
                          layout requested: TexelLayout) throws {
        guard plan.images.indices.contains(index) else { throw RenderError.badImageIndex(index) }
        if requested == .blocks ? blockSlotOfImage[index] >= 0 : slotOfImage[index] >= 0 { return }
        let planned = plan.images[index]
        guard let image = images.identity(planned.key) else { throw RenderError.missingImage(key: planned.key) }
        guard (1...maxDimension).contains(image.width), (1...maxDimension).contains(image.height) else {
            throw RenderError.unsupportedSize(what: "Image \(planned.key)", width: image.width,
                                              height: image.height, maximum: maxDimension)
        }
        // An image too wide for blocks (over a quarter of the largest texture) stays in rows.
        let layout = requested == .blocks && TexelBlocks.fits(width: image.width, height: image.height, maxDimension: maxDimension)
            ? TexelLayout.blocks : .rows
        func assign(_ slot: Int) {
            if layout == .blocks { blockSlotOfImage[index] = slot } else { slotOfImage[index] = slot }
        }
        let content = Content(hash: image.contentHash, layout: layout)
        if let slot = slotOfContent[content] { assign(slot); return }
        let mipmapped = layout == .rows && mipmappedContent.contains(image.contentHash)
        let (texture, needsUpload) = try cache.texture(for: image, mipmapped: mipmapped, layout: layout, frame: frame,
                                                       pipelines: pipelines)
        if needsUpload {
            uploads.append(TextureUpload(texture: texture, key: planned.key, image: image,
                                         cpuLevels: mipmapped && mipmapGeneration == .cpu && texture.image.mipLevels > 1))
        }
        slotOfContent[content] = slots.count
        assign(slots.count)
        slots.append(texture)
    }

    /// The slot of an image as items paint it (`.rows`).
    func slot(ofImage index: Int) -> Int { slotOfImage[index] }

    /// The slot of an image as a flattened region's layer reads it: its `.blocks` texture if it
    /// has one, else its `.rows` texture.
    func regionSlot(ofImage index: Int) -> Int {
        blockSlotOfImage[index] >= 0 ? blockSlotOfImage[index] : slotOfImage[index]
    }

    /// Lets go of the frame's textures (after its fence, when nothing will draw with them again).
    mutating func releaseTextures() {
        slots = []
        uploads = []
    }

    /// Textures created for this frame are empty until its command buffer runs: if the frame fails
    /// before that, drop them so a later frame uploads them again.
    func discardUploads(from cache: TextureCache) { uploads.forEach { cache.discard($0.texture) } }

    /// Copies the pixels into `staging` and records buffer -> image copies (and, for mipmapped
    /// textures without CPU levels, the blit chain) with the layout transitions that make every
    /// level readable by fragment shaders.
    /// Each image's pixels are asked of `images` as it is copied and let go after (`FramePixels`).
    func recordUploads(_ cmd: VkCommandBuffer, staging: HostBuffer, images: FramePixels) throws {
        try recordUploads(cmd, staging: staging, uploads.indices, images: images)
    }

    /// The uploads in `range` only, from the start of `staging` (one chunk of a chunked upload).
    func recordUploads(_ cmd: VkCommandBuffer, staging: HostBuffer, _ range: Range<Int>, images: FramePixels) throws {
        var offset = 0
        for upload in uploads[range] {
            // Checked before anything is recorded for it: a source that decodes again (after
            // letting its copy go) must give back the pixels the texture was made for.
            let bitmap = try images.bitmap(upload.key)
            guard bitmap.width == upload.image.width, bitmap.height == upload.image.height else {
                throw RenderError.imageSizeMismatch(key: upload.key, width: bitmap.width, height: bitmap.height,
                                                    plannedWidth: upload.image.width, plannedHeight: upload.image.height)
            }
            guard bitmap.contentHash == upload.image.contentHash else { throw RenderError.imageChanged(key: upload.key) }
            let levels = upload.cpuLevels
                ? MipChain.cpuLevels(bitmap.pixels, width: bitmap.width, height: bitmap.height, levels: upload.texture.image.mipLevels)
                : []
            let blocks = upload.texture.layout == .blocks
            let gpuImage = upload.texture.image
            let image = gpuImage.handle
            let allLevels = GPUImage.colorRange(levels: gpuImage.mipLevels)
            // Every level is written by a transfer: level 0 (and CPU levels) by copies, the rest by blits.
            Barriers.image(cmd, image, from: VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                           to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                           VK_ACCESS_2_TRANSFER_WRITE_BIT, levels: allLevels)
            for (level, pixels) in ([bitmap.pixels] + levels).enumerated() {
                pixels.withUnsafeBytes { src in
                    if blocks {
                        TexelBlocks.write(src, width: bitmap.width, height: bitmap.height, to: staging.mapped + offset)
                    } else {
                        (staging.mapped + offset).copyMemory(from: src.baseAddress!, byteCount: src.count)
                    }
                }
                let (w, h) = GPUImage.levelExtent(gpuImage.width, gpuImage.height, level)
                var region = VkBufferImageCopy()
                region.bufferOffset = VkDeviceSize(offset)
                region.imageSubresource = GPUImage.colorLayers(level: level)
                region.imageExtent = VkExtent3D(width: UInt32(w), height: UInt32(h), depth: 1)
                vkCmdCopyBufferToImage(cmd, staging.handle, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
                offset += w * h * 4
            }
            if gpuImage.mipLevels > 1, !upload.cpuLevels {
                MipChain.recordBlits(cmd, gpuImage)
            } else {
                Barriers.image(cmd, image, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                               VK_ACCESS_2_TRANSFER_WRITE_BIT,
                               to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                               VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, levels: allLevels)
            }
            images.uploaded(upload.key)
        }
    }
}

extension FrameTextures {
    /// The uploads split into consecutive runs of at most `limit` bytes each (an upload larger than
    /// `limit` is a run of its own), in order.
    func uploadChunks(limit: Int) -> [Range<Int>] {
        var chunks: [Range<Int>] = [], start = 0, bytes = 0
        for (i, u) in uploads.enumerated() {
            if i > start, bytes + u.byteCount > limit { chunks.append(start..<i); start = i; bytes = 0 }
            bytes += u.byteCount
        }
        if start < uploads.count { chunks.append(start..<uploads.count) }
        return chunks
    }

    func uploadBytes(_ range: Range<Int>) -> Int { uploads[range].reduce(0) { $0 + $1.byteCount } }
}

extension FramePlan {
    /// Every item the backend draws this frame: the offscreen passes' items, then the canvas's.
    var executedItems: [DrawItem] {
        if offscreenPasses.isEmpty { return canvasItems }
        return offscreenPasses.flatMap(\.items) + canvasItems
    }
}
