import CVulkan
import Plan
import Raster

/// A texture created this frame and what fills it: level 0 from the bitmap, and for a mipmapped
/// texture either device blits or (the fallback) levels computed on the CPU, uploaded with it.
struct TextureUpload {
    var texture: Texture
    var bitmap: Bitmap
    /// Levels 1… when the CPU made them (`MipmapGeneration.cpu`); empty otherwise.
    var cpuLevels: [[UInt8]] = []
    var byteCount: Int { cpuLevels.reduce(bitmap.pixels.count) { $0 + $1.count } }
}

/// The textures one frame draws with: plan image index -> slot, one slot per distinct content hash,
/// and the uploads the frame must record for textures that were not yet resident.
struct FrameTextures {
    private(set) var slots: [Texture] = []
    private var slotOfImage: [Int]
    private var slotOfContent: [UInt64: Int] = [:]
    private(set) var uploads: [TextureUpload] = []
    var uploadBytes: Int { uploads.reduce(0) { $0 + $1.byteCount } }

    /// Resolves every image the items paint. Throws for an unknown index or key, or an image the
    /// device cannot hold; textures created before the throw are discarded from the cache again.
    /// Content that any item samples trilinearly gets a mipmapped texture.
    init(_ plan: FramePlan, images: [UInt64: Bitmap], cache: TextureCache, frame: UInt64,
         pipelines: PipelineLibrary, maxDimension: Int, mipmapGeneration: MipmapGeneration) throws {
        slotOfImage = [Int](repeating: -1, count: plan.images.count)
        var mipmappedContent = Set<UInt64>()
        let drawn = plan.executedItems
        for item in drawn {
            guard case .image(let index, .trilinear, _) = item.paint, plan.images.indices.contains(index),
                  let bitmap = images[plan.images[index].key] else { continue }
            mipmappedContent.insert(bitmap.contentHash)
        }
        do {
            for index in Self.sampledImages(drawn, plan.offscreenPasses) {
                try resolve(index, plan, images, cache, frame, pipelines, maxDimension, mipmappedContent, mipmapGeneration)
            }
        } catch {
            discardUploads(from: cache)
            throw error
        }
    }

    /// Gives plan image `index` its slot: a texture resident or created (and queued for upload).
    private mutating func resolve(_ index: Int, _ plan: FramePlan, _ images: [UInt64: Bitmap], _ cache: TextureCache,
                          _ frame: UInt64, _ pipelines: PipelineLibrary, _ maxDimension: Int,
                          _ mipmappedContent: Set<UInt64>, _ mipmapGeneration: MipmapGeneration) throws {
        guard plan.images.indices.contains(index) else { throw RenderError.badImageIndex(index) }
        if slotOfImage[index] >= 0 { return }
        let planned = plan.images[index]
        guard let bitmap = images[planned.key] else { throw RenderError.missingImage(key: planned.key) }
        guard (1...maxDimension).contains(bitmap.width), (1...maxDimension).contains(bitmap.height) else {
            throw RenderError.unsupportedSize(what: "Image \(planned.key)", width: bitmap.width,
                                              height: bitmap.height, maximum: maxDimension)
        }
        if let slot = slotOfContent[bitmap.contentHash] { slotOfImage[index] = slot; return }
        let mipmapped = mipmappedContent.contains(bitmap.contentHash)
        let (texture, needsUpload) = try cache.texture(for: bitmap, mipmapped: mipmapped, frame: frame, pipelines: pipelines)
        if needsUpload {
            var upload = TextureUpload(texture: texture, bitmap: bitmap)
            if mipmapped, mipmapGeneration == .cpu {
                upload.cpuLevels = MipChain.cpuLevels(bitmap.pixels, width: bitmap.width, height: bitmap.height,
                                                      levels: texture.image.mipLevels)
            }
            uploads.append(upload)
        }
        slotOfContent[bitmap.contentHash] = slots.count
        slotOfImage[index] = slots.count
        slots.append(texture)
    }

    func slot(ofImage index: Int) -> Int { slotOfImage[index] }

    /// Textures created for this frame are empty until its command buffer runs: if the frame fails
    /// before that, drop them so a later frame uploads them again.
    func discardUploads(from cache: TextureCache) { uploads.forEach { cache.discard($0.texture) } }

    /// Copies the pixels into `staging` and records buffer -> image copies (and, for mipmapped
    /// textures without CPU levels, the blit chain) with the layout transitions that make every
    /// level readable by fragment shaders.
    func recordUploads(_ cmd: VkCommandBuffer, staging: HostBuffer) {
        recordUploads(cmd, staging: staging, uploads.indices)
    }

    /// The uploads in `range` only, from the start of `staging` (one chunk of a chunked upload).
    func recordUploads(_ cmd: VkCommandBuffer, staging: HostBuffer, _ range: Range<Int>) {
        var offset = 0
        for upload in uploads[range] {
            let gpuImage = upload.texture.image
            let image = gpuImage.handle
            let allLevels = GPUImage.colorRange(levels: gpuImage.mipLevels)
            // Every level is written by a transfer: level 0 (and CPU levels) by copies, the rest by blits.
            Barriers.image(cmd, image, from: VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                           to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                           VK_ACCESS_2_TRANSFER_WRITE_BIT, levels: allLevels)
            for (level, pixels) in ([upload.bitmap.pixels] + upload.cpuLevels).enumerated() {
                pixels.withUnsafeBytes { src in
                    (staging.mapped + offset).copyMemory(from: src.baseAddress!, byteCount: src.count)
                }
                let (w, h) = GPUImage.levelExtent(gpuImage.width, gpuImage.height, level)
                var region = VkBufferImageCopy()
                region.bufferOffset = VkDeviceSize(offset)
                region.imageSubresource = GPUImage.colorLayers(level: level)
                region.imageExtent = VkExtent3D(width: UInt32(w), height: UInt32(h), depth: 1)
                vkCmdCopyBufferToImage(cmd, staging.handle, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
                offset += pixels.count
            }
            if gpuImage.mipLevels > 1, upload.cpuLevels.isEmpty {
                MipChain.recordBlits(cmd, gpuImage)
            } else {
                Barriers.image(cmd, image, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                               VK_ACCESS_2_TRANSFER_WRITE_BIT,
                               to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                               VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, levels: allLevels)
            }
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
