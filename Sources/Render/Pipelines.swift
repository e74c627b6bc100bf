import CVulkan
import Plan

/// Which graphics pipeline an item needs. Each field is a specialisation constant of the shaders
/// (Shaders/draw_record.glsl), so every variant compiles to just the code it runs: the common
/// cases (a plain solid quad, a texelFetch image) have no coverage code at all.
struct PipelineKey: Hashable {
    /// solid colour; image read with texelFetch; image through a sampler at level 0 (nearest or
    /// linear); image through the trilinear sampler with the hardware's level of detail; an
    /// analytic blurred shape (shadowPath shadows); a gradient (its colour ramp read at a position
    /// computed per fragment, Shaders/quad_gradient.frag).
    enum Paint: Hashable { case solid, texelFetch, filtered, mipmapped, shadow, gradient }
    var paint: Paint
    var hasShape: Bool
    var hasInner: Bool
    var clipCount: Int
    /// The blend equation (source-over, or destination-in to apply a mask).
    var blend: Blend = .sourceOver
    /// `factors`: a compositingFilter's blend state (`CompositingBlendStates`), raw VkBlendFactors.
    enum Blend: Hashable { case sourceOver, destinationIn, plus, factors(UInt32, UInt32) }
    /// The corner code shapes and clips run (`CORNER_CODE`, from the plan's `Coverage`): 0 straight
    /// edges only, 1 circular corners (the radius, no curve lookup), 2 continuous corners.
    var corners: Int32 = 2
    /// Blending off: the plan found every pixel the items draw opaque (`DrawItem.drawsOpaque`).
    var opaque = false
    /// Shape coverage with one pixel size from the vertex shader instead of derivatives
    /// (`ISOTROPIC`; the plan's `DrawItem.hasIsotropicCoverage`).
    var isotropic = false
    /// The fragment shader's AFFINE build: varyings interpolated linearly in screen space (the
    /// plan's `DrawItem.interpolatesAffinely`, for transforms that keep w constant).
    var affine = false
    /// A flattened region (Shaders/flatten.frag): its stack's depth and image layers.
    var flatten: FlattenVariant? = nil
    /// Stack culling's stencil role (the plan's `StackStencil.Role`, `StencilStates`; nil: no
    /// stencil attachment).
    var stencil: StackStencil.Role? = nil
}

/// Which sampler an image's descriptor set holds.
enum SamplerKind: Hashable, CaseIterable {
    /// Nearest, level 0 (also bound for texelFetch, which ignores the sampler).
    case nearest
    /// Bilinear, level 0.
    case linear
    /// Bilinear within the two nearest mip levels, blended (mipmapMode LINEAR).
    case trilinear
}

/// Shader modules, layouts, samplers and the lazily built, cached pipelines (building one costs an
/// LLVM compile on lavapipe, so pipelines are never re-created per frame).
final class PipelineLibrary {
    let device: VulkanDevice
    /// Set 0: the draw records (storage buffer), read by both stages.
    let recordSetLayout: VkDescriptorSetLayout
    /// Set 1: the image (combined image sampler), fragment stage only; unused by solid pipelines.
    let textureSetLayout: VkDescriptorSetLayout
    let layout: VkPipelineLayout
    /// Set 1 of flattened regions with images (`RegionDescriptorSets.layout`) and their pipeline
    /// layout (set 0 the records and the push constants as every pipeline's, so switching keeps
    /// them bound); regions of solids only use `layout`.
    let regionSetLayout: VkDescriptorSetLayout
    let regionLayout: VkPipelineLayout
    let nearestSampler: VkSampler
    let linearSampler: VkSampler
    let trilinearSampler: VkSampler
    private let vertexShader: VkShaderModule
    private let solidShader: VkShaderModule
    private let imageShader: VkShaderModule
    private let shadowShader: VkShaderModule
    private let gradientShader: VkShaderModule
    /// The AFFINE builds of the four above (`PipelineKey.affine`).
    private let affineSolidShader, affineImageShader, affineShadowShader, affineGradientShader: VkShaderModule
    private let flattenVertexShader: VkShaderModule
    private let flattenShader: VkShaderModule
    private let flattenSolidShader: VkShaderModule
    private let cache: VkPipelineCache
    private var pipelines: [PipelineKey: VkPipeline] = [:]

    /// Push constants: the target size in pixels (vec2), for the device-pixel -> NDC mapping.
    static let pushConstantSize = 8

    init(_ device: VulkanDevice) throws {
        self.device = device
        recordSetLayout = try Self.setLayout(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                             stages: VK_SHADER_STAGE_VERTEX_BIT.rawValue | VK_SHADER_STAGE_FRAGMENT_BIT.rawValue)
        textureSetLayout = try Self.setLayout(device, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                              stages: VK_SHADER_STAGE_FRAGMENT_BIT.rawValue)
        var setLayouts: [VkDescriptorSetLayout?] = [recordSetLayout, textureSetLayout]
        var range = VkPushConstantRange(stageFlags: VK_SHADER_STAGE_VERTEX_BIT.rawValue, offset: 0,
                                        size: UInt32(Self.pushConstantSize))
        var layoutInfo = VkPipelineLayoutCreateInfo()
        layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        layoutInfo.setLayoutCount = 2
        layoutInfo.pushConstantRangeCount = 1
        var layout: VkPipelineLayout?
        try setLayouts.withUnsafeMutableBufferPointer { sets in
            try withUnsafePointer(to: &range) { ranges in
                layoutInfo.pSetLayouts = UnsafePointer(sets.baseAddress)
                layoutInfo.pPushConstantRanges = ranges
                try vkCheck(vkCreatePipelineLayout(device.handle, &layoutInfo, nil, &layout), "vkCreatePipelineLayout")
            }
        }
        self.layout = layout!
        regionSetLayout = try RegionDescriptorSets.layout(device)
        setLayouts[1] = regionSetLayout
        var regionLayout: VkPipelineLayout?
        try setLayouts.withUnsafeMutableBufferPointer { sets in
            try withUnsafePointer(to: &range) { ranges in
                layoutInfo.pSetLayouts = UnsafePointer(sets.baseAddress)
                layoutInfo.pPushConstantRanges = ranges
                try vkCheck(vkCreatePipelineLayout(device.handle, &layoutInfo, nil, &regionLayout), "vkCreatePipelineLayout")
            }
        }
        self.regionLayout = regionLayout!
        nearestSampler = try Self.sampler(device, filter: VK_FILTER_NEAREST)
        linearSampler = try Self.sampler(device, filter: VK_FILTER_LINEAR)
        trilinearSampler = try Self.sampler(device, filter: VK_FILTER_LINEAR, mipmapped: true)
        vertexShader = try Self.module(device, SPIRV.shader_quad_vert)
        solidShader = try Self.module(device, SPIRV.shader_quad_solid_frag)
        imageShader = try Self.module(device, SPIRV.shader_quad_image_frag)
        shadowShader = try Self.module(device, SPIRV.shader_quad_shadow_frag)
        gradientShader = try Self.module(device, SPIRV.shader_quad_gradient_frag)
        affineSolidShader = try Self.module(device, SPIRV.shader_quad_solid_frag_affine)
        affineImageShader = try Self.module(device, SPIRV.shader_quad_image_frag_affine)
        affineShadowShader = try Self.module(device, SPIRV.shader_quad_shadow_frag_affine)
        affineGradientShader = try Self.module(device, SPIRV.shader_quad_gradient_frag_affine)
        flattenVertexShader = try Self.module(device, SPIRV.shader_flatten_vert)
        flattenShader = try Self.module(device, SPIRV.shader_flatten_frag)
        flattenSolidShader = try Self.module(device, SPIRV.shader_flatten_solid_frag)
        var cacheInfo = VkPipelineCacheCreateInfo()
        cacheInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO
        var cache: VkPipelineCache?
        try vkCheck(vkCreatePipelineCache(device.handle, &cacheInfo, nil, &cache), "vkCreatePipelineCache")
        self.cache = cache!
    }

    deinit {
        let d = device.handle
        for p in pipelines.values { vkDestroyPipeline(d, p, nil) }
        vkDestroyPipelineCache(d, cache, nil)
        for m in [vertexShader, solidShader, imageShader, shadowShader, gradientShader, affineSolidShader, affineImageShader,
                  affineShadowShader, affineGradientShader, flattenVertexShader, flattenShader, flattenSolidShader] {
            vkDestroyShaderModule(d, m, nil)
        }
        vkDestroySampler(d, nearestSampler, nil)
        vkDestroySampler(d, linearSampler, nil)
        vkDestroySampler(d, trilinearSampler, nil)
        vkDestroyPipelineLayout(d, layout, nil)
        vkDestroyPipelineLayout(d, regionLayout, nil)
        vkDestroyDescriptorSetLayout(d, regionSetLayout, nil)
        vkDestroyDescriptorSetLayout(d, recordSetLayout, nil)
        vkDestroyDescriptorSetLayout(d, textureSetLayout, nil)
    }

    /// The pipeline for `key`, built on first use.
    func pipeline(_ key: PipelineKey) throws -> VkPipeline {
        if let p = pipelines[key] { return p }
        let p = try build(key)
        pipelines[key] = p
        return p
    }

    var pipelineCount: Int { pipelines.count }

    func sampler(_ kind: SamplerKind) -> VkSampler {
        switch kind {
        case .nearest: return nearestSampler
        case .linear: return linearSampler
        case .trilinear: return trilinearSampler
        }
    }

    // MARK: building

    /// Specialisation data in constant_id order: CLIP_COUNT, HAS_SHAPE, HAS_INNER, SAMPLING, CORNER_CODE
    /// (4 bytes each); SAMPLING is 0 texelFetch, 1 sampler at level 0, 2 sampler with implicit
    /// level of detail; CORNER_CODE is `PipelineKey.corners`.
    /// Then DEPTH, IMAGE_MASK and BLOCK_MASK (flatten.frag; other shaders have no constants 5–7),
    /// and ISOTROPIC (the quad shaders).
    private struct Specialization {
        var clipCount: Int32, hasShape: VkBool32, hasInner: VkBool32, sampling: Int32, corners: Int32
        var depth: Int32 = 1, imageMask: Int32 = 0, blockMask: Int32 = 0, isotropic: VkBool32 = 0
    }

    private func build(_ key: PipelineKey) throws -> VkPipeline {
        let arena = PinnedArena()
        let data = arena.pin(Specialization(
            clipCount: Int32(key.clipCount), hasShape: key.hasShape ? 1 : 0,
            hasInner: key.hasInner ? 1 : 0, sampling: key.paint == .mipmapped ? 2 : key.paint == .filtered || key.paint == .gradient ? 1 : 0,
            corners: key.corners, depth: key.flatten?.depth ?? 1, imageMask: key.flatten?.imageMask ?? 0,
            blockMask: key.flatten?.blockMask ?? 0, isotropic: key.isotropic ? 1 : 0))
        let entries = arena.pin(array: (0..<9).map {
            VkSpecializationMapEntry(constantID: UInt32($0), offset: UInt32($0 * 4), size: 4)
        })
        let specialization = arena.pin(VkSpecializationInfo(
            mapEntryCount: 9, pMapEntries: entries, dataSize: MemoryLayout<Specialization>.size, pData: data))
        let name = CStringArray(["main"])

        var stages = [VkPipelineShaderStageCreateInfo(), VkPipelineShaderStageCreateInfo()]
        // A veil's piece only marks the stencil and depth: no fragment shader, no colour.
        let countsOnly = key.stencil == .mark || key.stencil == .markBit
        for i in 0..<2 {
            stages[i].sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
            stages[i].pName = name[0]
            stages[i].pSpecializationInfo = UnsafePointer(specialization)
        }
        stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT
        stages[0].module = vertexShader
        stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT
        switch key.paint {
        case .solid: stages[1].module = key.affine ? affineSolidShader : solidShader
        case .shadow: stages[1].module = key.affine ? affineShadowShader : shadowShader
        case .gradient: stages[1].module = key.affine ? affineGradientShader : gradientShader
        case .texelFetch, .filtered, .mipmapped: stages[1].module = key.affine ? affineImageShader : imageShader
        }
        if let f = key.flatten {
            stages[0].module = flattenVertexShader
            stages[1].module = f.imageMask != 0 ? flattenShader : flattenSolidShader
        }

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
        raster.cullMode = VK_CULL_MODE_NONE.rawValue   // layers may be flipped (negative scale)
        raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE
        raster.lineWidth = 1
        var multisample = VkPipelineMultisampleStateCreateInfo()
        multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO
        multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT

        var blend = VkPipelineColorBlendAttachmentState()
        // Opaque items replace the destination: no blending, so no read of the target.
        blend.blendEnable = VkBool32(key.opaque || countsOnly ? VK_FALSE : VK_TRUE)
        // Premultiplied source-over: result = src + dst · (1 − src.a), for colour and alpha.
        // Destination-in (mask application): dst · src.a. Plus (cross-dissolve sums): src + dst.
        let (src, dst): (VkBlendFactor, VkBlendFactor)
        switch key.blend {
        case .sourceOver: (src, dst) = (VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA)
        case .destinationIn: (src, dst) = (VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_SRC_ALPHA)
        case .plus: (src, dst) = (VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE)
        case .factors(let s, let d): (src, dst) = (VkBlendFactor(rawValue: s), VkBlendFactor(rawValue: d))
        }
        blend.srcColorBlendFactor = src
        blend.dstColorBlendFactor = dst
        blend.colorBlendOp = VK_BLEND_OP_ADD
        blend.srcAlphaBlendFactor = src
        blend.dstAlphaBlendFactor = dst
        blend.alphaBlendOp = VK_BLEND_OP_ADD
        blend.colorWriteMask = countsOnly ? 0 : VK_COLOR_COMPONENT_R_BIT.rawValue | VK_COLOR_COMPONENT_G_BIT.rawValue
            | VK_COLOR_COMPONENT_B_BIT.rawValue | VK_COLOR_COMPONENT_A_BIT.rawValue
        var colorBlend = VkPipelineColorBlendStateCreateInfo()
        colorBlend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO
        colorBlend.attachmentCount = 1
        colorBlend.pAttachments = UnsafePointer(arena.pin(blend))

        var dynamic = VkPipelineDynamicStateCreateInfo()
        dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO
        let dynamicStates = [VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR]
            + (key.stencil != nil ? [VK_DYNAMIC_STATE_STENCIL_REFERENCE] : [])
            + (key.stencil == .markBit ? [VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK] : [])
        dynamic.dynamicStateCount = UInt32(dynamicStates.count)
        dynamic.pDynamicStates = UnsafePointer(arena.pin(array: dynamicStates))

        // Dynamic rendering (Vulkan 1.3): the attachment format replaces a VkRenderPass.
        var rendering = VkPipelineRenderingCreateInfo()
        rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO
        rendering.colorAttachmentCount = 1
        rendering.pColorAttachmentFormats = UnsafePointer(arena.pin(DeviceSelector.colorFormat))
        var depthStencil: VkPipelineDepthStencilStateCreateInfo?
        if let role = key.stencil {
            rendering.stencilAttachmentFormat = device.stencilFormat
            rendering.depthAttachmentFormat = device.stencilFormat
            depthStencil = StencilStates.state(role)
        }

        var info = VkGraphicsPipelineCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO
        info.pNext = UnsafeRawPointer(arena.pin(rendering))
        // Marking pieces have no fragment shader: rasterisation alone updates stencil and depth.
        info.stageCount = countsOnly ? 1 : 2
        info.pStages = UnsafePointer(arena.pin(array: stages))
        if let depthStencil { info.pDepthStencilState = UnsafePointer(arena.pin(depthStencil)) }
        info.pVertexInputState = UnsafePointer(arena.pin(vertexInput))
        info.pInputAssemblyState = UnsafePointer(arena.pin(inputAssembly))
        info.pViewportState = UnsafePointer(arena.pin(viewport))
        info.pRasterizationState = UnsafePointer(arena.pin(raster))
        info.pMultisampleState = UnsafePointer(arena.pin(multisample))
        info.pColorBlendState = UnsafePointer(arena.pin(colorBlend))
        info.pDynamicState = UnsafePointer(arena.pin(dynamic))
        info.layout = key.flatten.map { $0.imageMask != 0 ? regionLayout : layout } ?? layout
        var pipeline: VkPipeline?
        try vkCheck(vkCreateGraphicsPipelines(device.handle, cache, 1, &info, nil, &pipeline), "vkCreateGraphicsPipelines")
        return pipeline!
    }

    static func module(_ device: VulkanDevice, _ words: [UInt32]) throws -> VkShaderModule {
        var module: VkShaderModule?
        try words.withUnsafeBufferPointer { code in
            var info = VkShaderModuleCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
            info.codeSize = code.count * 4
            info.pCode = code.baseAddress
            try vkCheck(vkCreateShaderModule(device.handle, &info, nil, &module), "vkCreateShaderModule")
        }
        return module!
    }

    static func setLayout(_ device: VulkanDevice, _ type: VkDescriptorType, stages: VkShaderStageFlags) throws -> VkDescriptorSetLayout {
        var binding = VkDescriptorSetLayoutBinding(binding: 0, descriptorType: type, descriptorCount: 1,
                                                   stageFlags: stages, pImmutableSamplers: nil)
        var layout: VkDescriptorSetLayout?
        try withUnsafePointer(to: &binding) { b in
            var info = VkDescriptorSetLayoutCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
            info.bindingCount = 1
            info.pBindings = b
            try vkCheck(vkCreateDescriptorSetLayout(device.handle, &info, nil, &layout), "vkCreateDescriptorSetLayout")
        }
        return layout!
    }

    /// CLAMP_TO_EDGE on both axes: texel space outside the image repeats its edge. Level 0 only,
    /// unless `mipmapped`: then linear between levels, over the whole chain the texture has
    /// (maxLod = VK_LOD_CLAMP_NONE; the view's level count bounds it).
    private static func sampler(_ device: VulkanDevice, filter: VkFilter, mipmapped: Bool = false) throws -> VkSampler {
        var info = VkSamplerCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO
        info.magFilter = filter
        info.minFilter = filter
        info.mipmapMode = mipmapped ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST
        info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.maxLod = mipmapped ? 1000 : 0     // 1000 = VK_LOD_CLAMP_NONE
        var sampler: VkSampler?
        try vkCheck(vkCreateSampler(device.handle, &info, nil, &sampler), "vkCreateSampler")
        return sampler!
    }
}
