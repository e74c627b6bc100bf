import CVulkan

/// How the mip levels of a trilinearly sampled texture are made.
///
/// Each level halves the previous one (a 2×2 average for even sizes). Texels are premultiplied and
/// sRGB-encoded, and levels are averaged as stored: averaging premultiplied values weights colour
/// by coverage (a transparent texel adds no colour), and averaging encoded values is consistent
/// with caprof's encoded-space blending (design.md §2), so a minified layer looks like the same
/// layer blended at full size and averaged.
enum MipmapGeneration: Equatable {
    /// `vkCmdBlitImage` level by level with a linear filter, on the device. Needs the format's
    /// BLIT_SRC, BLIT_DST and SAMPLED_IMAGE_FILTER_LINEAR features (lavapipe and every desktop GPU
    /// have them for R8G8B8A8_UNORM).
    case deviceBlit
    /// The fallback where the format cannot be blitted: 2×2 box averages computed on the CPU and
    /// uploaded with level 0 (costs CPU time and upload bytes, reported in `uploadedBytes`).
    case cpu

    /// `.deviceBlit` when the device can blit and linearly filter `format` with optimal tiling.
    static func supported(by physical: VkPhysicalDevice, format: VkFormat) -> MipmapGeneration {
        var properties = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(physical, format, &properties)
        let needed = VK_FORMAT_FEATURE_BLIT_SRC_BIT.rawValue | VK_FORMAT_FEATURE_BLIT_DST_BIT.rawValue
            | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT.rawValue
        return properties.optimalTilingFeatures & needed == needed ? .deviceBlit : .cpu
    }
}

enum MipChain {
    /// Records the blit chain for `image`, whose every level is in TRANSFER_DST_OPTIMAL with level 0
    /// already written (by a copy); leaves every level in SHADER_READ_ONLY_OPTIMAL for fragment reads.
    static func recordBlits(_ cmd: VkCommandBuffer, _ image: GPUImage) {
        let handle = image.handle
        for level in 1..<image.mipLevels {
            // Level − 1 is complete: make it the blit source.
            Barriers.image(cmd, handle, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                           VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                           levels: GPUImage.colorRange(base: level - 1, levels: 1))
            let (sw, sh) = GPUImage.levelExtent(image.width, image.height, level - 1)
            let (dw, dh) = GPUImage.levelExtent(image.width, image.height, level)
            var blit = VkImageBlit()
            blit.srcSubresource = GPUImage.colorLayers(level: level - 1)
            blit.srcOffsets = (VkOffset3D(x: 0, y: 0, z: 0), VkOffset3D(x: Int32(sw), y: Int32(sh), z: 1))
            blit.dstSubresource = GPUImage.colorLayers(level: level)
            blit.dstOffsets = (VkOffset3D(x: 0, y: 0, z: 0), VkOffset3D(x: Int32(dw), y: Int32(dh), z: 1))
            vkCmdBlitImage(cmd, handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           1, &blit, VK_FILTER_LINEAR)
            Barriers.image(cmd, handle, from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
                           VK_ACCESS_2_TRANSFER_READ_BIT,
                           to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                           VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                           levels: GPUImage.colorRange(base: level - 1, levels: 1))
        }
        // The last level was only written.
        Barriers.image(cmd, handle, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                       VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                       VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                       levels: GPUImage.colorRange(base: image.mipLevels - 1, levels: 1))
    }

    /// Levels 1 ..< `levels` of premultiplied RGBA8 `pixels` (w × h) on the CPU: each texel the
    /// rounded mean of the 2×2 block above it. An odd side's last row or column falls outside every
    /// block (sizes round down); a side of 1 is repeated. Power-of-two images match the blits up to
    /// rounding; other sizes differ slightly, as mip filters do between drivers.
    static func cpuLevels(_ pixels: [UInt8], width: Int, height: Int, levels: Int) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var source = pixels, sw = width, sh = height
        for level in 1..<max(levels, 1) {
            let (dw, dh) = GPUImage.levelExtent(width, height, level)
            var next = [UInt8](repeating: 0, count: dw * dh * 4)
            source.withUnsafeBufferPointer { src in
                next.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<dh {
                        let y0 = min(2 * y, sh - 1), y1 = min(2 * y + 1, sh - 1)
                        for x in 0..<dw {
                            let x0 = min(2 * x, sw - 1), x1 = min(2 * x + 1, sw - 1)
                            let a = (y0 * sw + x0) * 4, b = (y0 * sw + x1) * 4
                            let c = (y1 * sw + x0) * 4, d = (y1 * sw + x1) * 4
                            let o = (y * dw + x) * 4
                            for k in 0..<4 {
                                let sum = Int(src[a + k]) + Int(src[b + k]) + Int(src[c + k]) + Int(src[d + k])
                                dst[o + k] = UInt8((sum + 2) / 4)
                            }
                        }
                    }
                }
            }
            result.append(next)
            source = next; sw = dw; sh = dh
        }
        return result
    }
}
