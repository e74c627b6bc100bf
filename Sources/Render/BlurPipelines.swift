import CVulkan

/// The two pipelines of a separable Gaussian blur (Shaders/blur.frag): horizontal into a half-float
/// target, vertical (tinted) into an RGBA8 target. A full-target triangle, one texture (set 0) and
/// the blur's parameters as fragment push constants.
final class BlurPipelines {
    private let device: VulkanDevice
    let layout: VkPipelineLayout
    let horizontal: VkPipeline
    let vertical: VkPipeline
    private let vertexShader: VkShaderModule
    private let fragmentShader: VkShaderModule

    /// tint (vec4), sigma (float), horizontal (int), radius (int), downsample (int): 32 bytes.
    struct Constants {
        var tint: (Float, Float, Float, Float)
        var sigma: Float
        var horizontal: Int32
        var radius: Int32
        var downsample: Int32 = 1
    }

    init(_ device: VulkanDevice, textureSetLayout: VkDescriptorSetLayout) throws {
        self.device = device
        let arena = PinnedArena()
        var layoutInfo = VkPipelineLayoutCreateInfo()
        layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        layoutInfo.setLayoutCount = 1
        layoutInfo.pSetLayouts = UnsafePointer(arena.pin(Optional(textureSetLayout)))
        layoutInfo.pushConstantRangeCount = 1
        layoutInfo.pPushConstantRanges = UnsafePointer(arena.pin(VkPushConstantRange(
            stageFlags: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue, offset: 0, size: UInt32(MemoryLayout<Constants>.size))))
        var layout: VkPipelineLayout?
        try vkCheck(vkCreatePipelineLayout(device.handle, &layoutInfo, nil, &layout), "vkCreatePipelineLayout")
        self.layout = layout!
        vertexShader = try PipelineLibrary.module(device, SPIRV.shader_blur_vert)
        fragmentShader = try PipelineLibrary.module(device, SPIRV.shader_blur_frag)
        horizontal = try Self.build(device, layout!, vertexShader, fragmentShader, format: GPUImage.floatFormat)
        vertical = try Self.build(device, layout!, vertexShader, fragmentShader, format: DeviceSelector.colorFormat)
    }

    deinit {
        let d = device.handle
        vkDestroyPipeline(d, horizontal, nil)
        vkDestroyPipeline(d, vertical, nil)
        vkDestroyShaderModule(d, vertexShader, nil)
        vkDestroyShaderModule(d, fragmentShader, nil)
        vkDestroyPipelineLayout(d, layout, nil)
    }

    static func build(_ device: VulkanDevice, _ layout: VkPipelineLayout, _ vs: VkShaderModule, _ fs: VkShaderModule,
                              format: VkFormat) throws -> VkPipeline {
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
        blend.blendEnable = VkBool32(VK_FALSE)   // the pass writes every texel of its target
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
        rendering.pColorAttachmentFormats = UnsafePointer(arena.pin(format))
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
