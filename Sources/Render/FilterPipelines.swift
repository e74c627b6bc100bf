import CVulkan
import Plan

/// The pipelines of filter chains (`FilterOperation`): the RGBA Gaussian blur
/// (Shaders/filter_blur.frag) into a half-float target (horizontal, downsampling) or an RGBA8 one
/// (vertical), and the colour matrix (Shaders/color_matrix.frag) into RGBA8. Full-target
/// triangles (Shaders/blur.vert), one texture (set 0), parameters as fragment push constants.
final class FilterPipelines {
    private let device: VulkanDevice
    let blurLayout: VkPipelineLayout
    let matrixLayout: VkPipelineLayout
    let blurToFloat: VkPipeline
    let blurToColor: VkPipeline
    let matrix: VkPipeline
    let variableLayout: VkPipelineLayout
    let variableToFloat: VkPipeline
    let variableToColor: VkPipeline
    private let modules: [VkShaderModule]

    /// sigma, horizontal, radius, downsample, normalizeEdges (+ padding): 32 bytes.
    struct BlurConstants {
        var sigma: Float
        var horizontal: Int32
        var radius: Int32
        var downsample: Int32
        var normalizeEdges: Int32
        var pad: (Int32, Int32, Int32) = (0, 0, 0)
    }

    /// maskRect (vec4), sigma, horizontal, normalizeEdges, maxRadius, then the pyramid level's
    /// downsample, variance, upper and whether a coarser level is bound: 48 bytes.
    struct VariableConstants {
        var maskRect: (Float, Float, Float, Float)
        var sigma: Float
        var horizontal: Int32
        var normalizeEdges: Int32
        var maxRadius: Int32
        var downsample: Int32
        var variance: Float
        var upper: Float
        var hasCoarse: Int32
    }

    /// mat4 (column-major: column j = the weights of input component j) and the bias: 80 bytes.
    struct MatrixConstants {
        var m: (Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float)
        var bias: (Float, Float, Float, Float)

        /// From 20 numbers, rows R G B A of [r g b a bias].
        init(_ rows: [Float]) {
            func e(_ row: Int, _ col: Int) -> Float { rows[row * 5 + col] }
            m = (e(0, 0), e(1, 0), e(2, 0), e(3, 0), e(0, 1), e(1, 1), e(2, 1), e(3, 1),
                 e(0, 2), e(1, 2), e(2, 2), e(3, 2), e(0, 3), e(1, 3), e(2, 3), e(3, 3))
            bias = (e(0, 4), e(1, 4), e(2, 4), e(3, 4))
        }
    }

    init(_ device: VulkanDevice, textureSetLayout: VkDescriptorSetLayout) throws {
        self.device = device
        blurLayout = try Self.layout(device, textureSetLayout, size: MemoryLayout<BlurConstants>.size)
        matrixLayout = try Self.layout(device, textureSetLayout, size: MemoryLayout<MatrixConstants>.size)
        // The source (set 0), the mask image (set 1) and the coarser level (set 2), all combined
        // image samplers.
        variableLayout = try Self.layout(device, textureSetLayout, size: MemoryLayout<VariableConstants>.size, sets: 3)
        let vs = try PipelineLibrary.module(device, SPIRV.shader_blur_vert)
        let blurFS = try PipelineLibrary.module(device, SPIRV.shader_filter_blur_frag)
        let matrixFS = try PipelineLibrary.module(device, SPIRV.shader_color_matrix_frag)
        let variableFS = try PipelineLibrary.module(device, SPIRV.shader_variable_blur_frag)
        modules = [vs, blurFS, matrixFS, variableFS]
        variableToFloat = try BlurPipelines.build(device, variableLayout, vs, variableFS, format: GPUImage.floatFormat)
        variableToColor = try BlurPipelines.build(device, variableLayout, vs, variableFS, format: DeviceSelector.colorFormat)
        blurToFloat = try BlurPipelines.build(device, blurLayout, vs, blurFS, format: GPUImage.floatFormat)
        blurToColor = try BlurPipelines.build(device, blurLayout, vs, blurFS, format: DeviceSelector.colorFormat)
        matrix = try BlurPipelines.build(device, matrixLayout, vs, matrixFS, format: DeviceSelector.colorFormat)
    }

    deinit {
        let d = device.handle
        for p in [blurToFloat, blurToColor, matrix, variableToFloat, variableToColor] { vkDestroyPipeline(d, p, nil) }
        vkDestroyPipelineLayout(d, variableLayout, nil)
        for m in modules { vkDestroyShaderModule(d, m, nil) }
        vkDestroyPipelineLayout(d, blurLayout, nil)
        vkDestroyPipelineLayout(d, matrixLayout, nil)
    }

    private static func layout(_ device: VulkanDevice, _ set: VkDescriptorSetLayout, size: Int, sets: Int = 1) throws -> VkPipelineLayout {
        let arena = PinnedArena()
        var info = VkPipelineLayoutCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        info.setLayoutCount = UInt32(sets)
        info.pSetLayouts = UnsafePointer(arena.pin(array: Array(repeating: Optional(set), count: sets)))
        info.pushConstantRangeCount = 1
        info.pPushConstantRanges = UnsafePointer(arena.pin(VkPushConstantRange(
            stageFlags: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, offset: 0, size: UInt32(size))))
        var layout: VkPipelineLayout?
        try vkCheck(vkCreatePipelineLayout(device.handle, &info, nil, &layout), "vkCreatePipelineLayout")
        return layout!
    }

    /// Records one filter step (inside dynamic rendering into its target).
    /// `mask`: the mask image's descriptor set and `coarse` the coarser level's target (variableBlur).
    func record(_ cmd: VkCommandBuffer, _ op: FilterOperation, from source: OffscreenTarget, mask: VkDescriptorSet? = nil,
                coarse: OffscreenTarget? = nil) {
        // Linear: the downsampling average reads 2×2 quads bilinearly; texelFetch ignores the sampler.
        var set: VkDescriptorSet? = source.descriptorSet(.linear)
        switch op.kind {
        case .blur(let sigma, let horizontal, let downsample, let normalize):
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, op.writesFloat ? blurToFloat : blurToColor)
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, blurLayout, 0, 1, &set, 0, nil)
            var c = BlurConstants(sigma: Float(sigma), horizontal: horizontal ? 1 : 0,
                                  radius: Int32(FilterOperation.reach(sigma: sigma)),
                                  downsample: Int32(max(downsample, 1)), normalizeEdges: normalize ? 1 : 0)
            vkCmdPushConstants(cmd, blurLayout, VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, 0, UInt32(MemoryLayout<BlurConstants>.size), &c)
        case .variableBlur(let sigma, let horizontal, let normalize, _, let r, let level):
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, op.writesFloat ? variableToFloat : variableToColor)
            // Bilinear: the coarser level is magnified 2×.
            var sets: [VkDescriptorSet?] = [set, mask ?? set, coarse?.descriptorSet(.linear) ?? set]
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, variableLayout, 0, 3, &sets, 0, nil)
            var c = VariableConstants(maskRect: (Float(r.minX), Float(r.minY), Float(r.width), Float(r.height)), sigma: Float(sigma),
                                      horizontal: horizontal ? 1 : 0, normalizeEdges: normalize ? 1 : 0,
                                      maxRadius: Int32(level.reach(sigma: sigma)),
                                      downsample: Int32(level.downsample), variance: Float(level.variance),
                                      upper: Float(min(level.upper, 1e30)), hasCoarse: coarse == nil ? 0 : 1)
            vkCmdPushConstants(cmd, variableLayout, VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, 0,
                               UInt32(MemoryLayout<VariableConstants>.size), &c)
        case .colorMatrix(let rows):
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, matrix)
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, matrixLayout, 0, 1, &set, 0, nil)
            var c = MatrixConstants(rows.count == 20 ? rows : [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])
            vkCmdPushConstants(cmd, matrixLayout, VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, 0, UInt32(MemoryLayout<MatrixConstants>.size), &c)
        }
        vkCmdDraw(cmd, 3, 1, 0, 0)
    }
}

extension FrameTextures {
    /// The images a frame samples: those its items paint, then variableBlur's mask images; each
    /// with whether it is a flattened region's layer (when `regionLayers`, else always false).
    static func sampledImages(_ items: [DrawItem], _ passes: [OffscreenPass], regionLayers: Bool = false) -> [(Int, Bool)] {
        var out: [(Int, Bool)] = []
        for item in items {
            if let region = item.flattened {
                // A flattened region samples its image layers (its paint is not drawn).
                for case .image(let index, _, _, _) in region.layers { out.append((index, regionLayers)) }
            } else if case .image(let index, _, _) = item.paint {
                out.append((index, false))
            }
        }
        for pass in passes {
            if case .filter(let op) = pass.operation, case .variableBlur(_, _, _, let mask, _, _) = op.kind { out.append((mask, false)) }
        }
        return out
    }
}
