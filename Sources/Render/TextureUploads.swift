import CVulkan
import Plan
import Raster

/// The textures one frame draws with: plan image index -> slot, one slot per distinct content hash,
/// and the uploads the frame must record for textures that were not yet resident.
struct FrameTextures {
    private(set) var slots: [Texture] = []
    private var slotOfImage: [Int]
    private var slotOfContent: [UInt64: Int] = [:]
    private(set) var uploads: [(texture: Texture, bitmap: Bitmap)] = []
    var uploadBytes: Int { uploads.reduce(0) { $0 + $1.bitmap.pixels.count } }

    /// Resolves every image the items paint. Throws for an unknown index or key, or an image the
    /// device cannot hold; textures created before the throw are discarded from the cache again.
    init(_ plan: FramePlan, images: [UInt64: Bitmap], cache: TextureCache, frame: UInt64,
         pipelines: PipelineLibrary, maxDimension: Int) throws {
        slotOfImage = [Int](repeating: -1, count: plan.images.count)
        do {
            for item in plan.items {
                guard case .image(let index, _, _) = item.paint else { continue }
                guard plan.images.indices.contains(index) else { throw RenderError.badImageIndex(index) }
                if slotOfImage[index] >= 0 { continue }
                let planned = plan.images[index]
                guard let bitmap = images[planned.key] else { throw RenderError.missingImage(key: planned.key) }
                guard (1...maxDimension).contains(bitmap.width), (1...maxDimension).contains(bitmap.height) else {
                    throw RenderError.unsupportedSize(what: "Image \(planned.key)", width: bitmap.width,
                                                      height: bitmap.height, maximum: maxDimension)
                }
                if let slot = slotOfContent[bitmap.contentHash] { slotOfImage[index] = slot; continue }
                let (texture, needsUpload) = try cache.texture(for: bitmap, frame: frame, pipelines: pipelines)
                if needsUpload { uploads.append((texture, bitmap)) }
                slotOfContent[bitmap.contentHash] = slots.count
                slotOfImage[index] = slots.count
                slots.append(texture)
            }
        } catch {
            discardUploads(from: cache)
            throw error
        }
    }

    func slot(ofImage index: Int) -> Int { slotOfImage[index] }

    /// Textures created for this frame are empty until its command buffer runs: if the frame fails
    /// before that, drop them so a later frame uploads them again.
    func discardUploads(from cache: TextureCache) { uploads.forEach { cache.discard($0.texture) } }

    /// Copies the pixels into `staging` and records buffer -> image copies with the layout
    /// transitions that make them readable by fragment shaders.
    func recordUploads(_ cmd: VkCommandBuffer, staging: HostBuffer) {
        var offset = 0
        for (texture, bitmap) in uploads {
            bitmap.pixels.withUnsafeBytes { src in
                (staging.mapped + offset).copyMemory(from: src.baseAddress!, byteCount: src.count)
            }
            let image = texture.image.handle
            Barriers.image(cmd, image, from: VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                           to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT)
            var region = VkBufferImageCopy()
            region.bufferOffset = VkDeviceSize(offset)
            region.imageSubresource = GPUImage.colorLayers
            region.imageExtent = VkExtent3D(width: UInt32(bitmap.width), height: UInt32(bitmap.height), depth: 1)
            vkCmdCopyBufferToImage(cmd, staging.handle, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
            Barriers.image(cmd, image, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                           VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                           VK_ACCESS_2_SHADER_SAMPLED_READ_BIT)
            offset += bitmap.pixels.count
        }
    }
}
