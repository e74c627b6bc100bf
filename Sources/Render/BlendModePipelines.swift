import CVulkan
import Plan

/// The pipeline of a compositingFilter's blend-mode pass (Shaders/blend_mode.frag): a full-target
/// triangle reading the flattened layer (set 0) and what lay beneath it (set 1) texel for texel,
/// the mode as a fragment push constant, blending off (the shader writes the final colour).
final class BlendModePipelines {
    private let device: VulkanDevice
    let layout: VkPipelineLayout
    let pipeline: VkPipeline
    private let vertexShader: VkShaderModule
    private let fragmentShader: VkShaderModule

    init(_ device: VulkanDevice, textureSetLayout: VkDescriptorSetLayout) throws {
        self.device = device
        let arena = PinnedArena()
        var layoutInfo = VkPipelineLayoutCreateInfo()
        layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        layoutInfo.setLayoutCount = 2
        layoutInfo.pSetLayouts = UnsafePointer(arena.pin(array: [Optional(textureSetLayout), Optional(textureSetLayout)]))
        layoutInfo.pushConstantRangeCount = 1
        layoutInfo.pPushConstantRanges = UnsafePointer(arena.pin(VkPushConstantRange(
            stageFlags: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, offset: 0, size: 4)))
        var layout: VkPipelineLayout?
        try vkCheck(vkCreatePipelineLayout(device.handle, &layoutInfo, nil, &layout), "vkCreatePipelineLayout")
        self.layout = layout!
        vertexShader = try PipelineLibrary.module(device, SPIRV.shader_blur_vert)
        fragmentShader = try PipelineLibrary.module(device, SPIRV.shader_blend_mode_frag)
        // The full-target triangle pipeline the blur and filter passes use (blending off).
        pipeline = try BlurPipelines.build(device, layout!, vertexShader, fragmentShader, format: DeviceSelector.colorFormat)
    }

    deinit {
        let d = device.handle
        vkDestroyPipeline(d, pipeline, nil)
        vkDestroyShaderModule(d, vertexShader, nil)
        vkDestroyShaderModule(d, fragmentShader, nil)
        vkDestroyPipelineLayout(d, layout, nil)
    }

    /// Records the pass's draw (the caller has begun rendering into the target).
    func record(_ cmd: VkCommandBuffer, source: OffscreenTarget, destination: OffscreenTarget, formula: BlendFormula) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline)
        var sets: [VkDescriptorSet?] = [source.descriptorSet(.nearest), destination.descriptorSet(.nearest)]
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 2, &sets, 0, nil)
        var mode = Int32(formula.rawValue)
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, 0, 4, &mode)
        vkCmdDraw(cmd, 3, 1, 0, 0)
    }
}

/// The blend states of the compositingFilter modes that fixed-function blending computes exactly
/// on premultiplied colour: co = cs·Fa + cb·Fb for colour and alpha alike (W3C Compositing §9.1;
/// screen is cs·1 + cb·(1 − cs), whose alpha factor is 1 − αs). The RGBA8 UNORM target clamps,
/// which is plusL's min(1, ·).
enum CompositingBlendStates {
    static func factors(_ blend: DrawItem.Blend) -> (src: VkBlendFactor, dst: VkBlendFactor)? {
        switch blend {
        case .screen: return (VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR)
        case .sourceAtop: return (VK_BLEND_FACTOR_DST_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA)
        case .sourceIn: return (VK_BLEND_FACTOR_DST_ALPHA, VK_BLEND_FACTOR_ZERO)
        case .sourceOut: return (VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA, VK_BLEND_FACTOR_ZERO)
        case .destinationOver: return (VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA, VK_BLEND_FACTOR_ONE)
        case .layerDestinationIn: return (VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_SRC_ALPHA)
        case .destinationOut: return (VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA)
        case .xor: return (VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA)
        case .plusLighter: return (VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE)
        // A blend-mode pass's result replaces the target (it holds what lay beneath already).
        case .replace, .blendMode: return (VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO)
        case .sourceOver, .destinationIn, .plus: return nil
        }
    }

    /// The pipeline key's blend for a compositingFilter item (nil for the others).
    static func key(_ blend: DrawItem.Blend) -> PipelineKey.Blend? {
        factors(blend).map { .factors($0.src.rawValue, $0.dst.rawValue) }
    }
}
