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
        let vs = try PipelineLibrary.module(device, SPIRV.shader_blur_vert)
        let blurFS = try PipelineLibrary.module(device, SPIRV.shader_filter_blur_frag)
        let matrixFS = try PipelineLibrary.module(device, SPIRV.shader_color_matrix_frag)
        modules = [vs, blurFS, matrixFS]
        blurToFloat = try BlurPipelines.build(device, blurLayout, vs, blurFS, format: GPUImage.floatFormat)
        blurToColor = try BlurPipelines.build(device, blurLayout, vs, blurFS, format: DeviceSelector.colorFormat)
        matrix = try BlurPipelines.build(device, matrixLayout, vs, matrixFS, format: DeviceSelector.colorFormat)
    }

    deinit {
        let d = device.handle
        for p in [blurToFloat, blurToColor, matrix] { vkDestroyPipeline(d, p, nil) }
        for m in modules { vkDestroyShaderModule(d, m, nil) }
        vkDestroyPipelineLayout(d, blurLayout, nil)
        vkDestroyPipelineLayout(d, matrixLayout, nil)
    }

    private static func layout(_ device: VulkanDevice, _ set: VkDescriptorSetLayout, size: Int) throws -> VkPipelineLayout {
        let arena = PinnedArena()
        var info = VkPipelineLayoutCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        info.setLayoutCount = 1
        info.pSetLayouts = UnsafePointer(arena.pin(Optional(set)))
        info.pushConstantRangeCount = 1
        info.pPushConstantRanges = UnsafePointer(arena.pin(VkPushConstantRange(
            stageFlags: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, offset: 0, size: UInt32(size))))
        var layout: VkPipelineLayout?
        try vkCheck(vkCreatePipelineLayout(device.handle, &info, nil, &layout), "vkCreatePipelineLayout")
        return layout!
    }

    /// Records one filter step (inside dynamic rendering into its target).
    func record(_ cmd: VkCommandBuffer, _ op: FilterOperation, from source: OffscreenTarget) {
        var set: VkDescriptorSet? = source.descriptorSet(.nearest)
        switch op.kind {
        case .blur(let sigma, let horizontal, let downsample, let normalize):
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, op.writesFloat ? blurToFloat : blurToColor)
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, blurLayout, 0, 1, &set, 0, nil)
            var c = BlurConstants(sigma: Float(sigma), horizontal: horizontal ? 1 : 0,
                                  radius: Int32(min((FilterOperation.kernelReach * max(sigma, 0)).rounded(.up), 4096)),
                                  downsample: Int32(max(downsample, 1)), normalizeEdges: normalize ? 1 : 0)
            vkCmdPushConstants(cmd, blurLayout, VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, 0, UInt32(MemoryLayout<BlurConstants>.size), &c)
        case .colorMatrix(let rows):
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, matrix)
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, matrixLayout, 0, 1, &set, 0, nil)
            var c = MatrixConstants(rows.count == 20 ? rows : [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])
            vkCmdPushConstants(cmd, matrixLayout, VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, 0, UInt32(MemoryLayout<MatrixConstants>.size), &c)
        }
        vkCmdDraw(cmd, 3, 1, 0, 0)
    }
}
