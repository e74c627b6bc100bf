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
        pipeline = try Self.build(device, layout!, vertexShader, fragmentShader)
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

    private static func build(_ device: VulkanDevice, _ layout: VkPipelineLayout, _ vs: VkShaderModule,
                              _ fs: VkShaderModule) throws -> VkPipeline {
        let arena = PinnedArena()
        let name = CStringArray(["main"])
        var stages = [VkPipelineShaderStageCreateInfo(), VkPipelineShaderStageCreateInfo()]
        for i in 0..<2 {
            stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
            stages[i].pName = name[0]
        }
        stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT
        stages[0].module = vs
        stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT
        stages[1].module = fs
        var vertexInput = VkPipelineVertexInputStateCreateInfo()
        vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO
        var inputAssembly = VkPipelineInputAssemblyStateCreateInfo()
        inputAssembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO
        inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST
        var viewport = VkPipelineViewportStateCreateInfo()
        viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO
        viewport.viewportCount = 1
        viewport.scissorCount = 1
        var raster = VkPipelineRasterizationStateCreateInfo()
        raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO
        raster.polygonMode = VK_POLYGON_MODE_FILL
        raster.cullMode = VK_CULL_MODE_NONE.rawValue
        raster.lineWidth = 1
        var multisample = VkPipelineMultisampleStateCreateInfo()
        multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO
        multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT
        var blend = VkPipelineColorBlendAttachmentState()
        blend.blendEnable = VkBool32(VK_FALSE)   // the shader writes every texel's final colour
        blend.colorWriteMask = 0xF
        var colorBlend = VkPipelineColorBlendStateCreateInfo()
        colorBlend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO
        colorBlend.attachmentCount = 1
        colorBlend.pAttachments = UnsafePointer(arena.pin(blend))
        var dynamic = VkPipelineDynamicStateCreateInfo()
        dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO
        dynamic.dynamicStateCount = 2
        dynamic.pDynamicStates = UnsafePointer(arena.pin(array: [VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR]))
        var rendering = VkPipelineRenderingCreateInfo()
        rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO
        rendering.colorAttachmentCount = 1
        rendering.pColorAttachmentFormats = UnsafePointer(arena.pin(DeviceSelector.colorFormat))
        var info = VkGraphicsPipelineCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO
        info.pNext = UnsafeRawPointer(arena.pin(rendering))
        info.stageCount = 2
        info.pStages = UnsafePointer(arena.pin(array: stages))
        info.pVertexInputState = UnsafePointer(arena.pin(vertexInput))
        info.pInputAssemblyState = UnsafePointer(arena.pin(inputAssembly))
        info.pViewportState = UnsafePointer(arena.pin(viewport))
        info.pRasterizationState = UnsafePointer(arena.pin(raster))
        info.pMultisampleState = UnsafePointer(arena.pin(multisample))
        info.pColorBlendState = UnsafePointer(arena.pin(colorBlend))
        info.pDynamicState = UnsafePointer(arena.pin(dynamic))
        info.layout = layout
        var pipeline: VkPipeline?
        try vkCheck(vkCreateGraphicsPipelines(device.handle, nil, 1, &info, nil, &pipeline), "vkCreateGraphicsPipelines")
        return pipeline!
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
