// The minimal Vulkan peer of caprof's identity composite (see include/minimal_vulkan_peer.h).
// Plain Vulkan 1.0-style code on a 1.3 instance: a VkRenderPass with a framebuffer, static viewport,
// one pipeline, one descriptor set per texture, one command buffer re-recorded per frame.
// Shaders: shaders/peer.vert and shaders/peer.frag, compiled into peer_spirv.h by
// shaders/regenerate.sh (glslc); the fragment shader has no varyings at all.
#include "minimal_vulkan_peer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "peer_spirv.h"

struct minimal_vulkan_peer {
    int width, height, layer_count;
    float opacity;
    float clear[4];
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkPhysicalDeviceMemoryProperties memory;
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    // The target, its render pass and framebuffer, and the host-visible readback buffer.
    VkImage target;
    VkDeviceMemory target_memory;
    VkImageView target_view;
    VkRenderPass render_pass;
    VkFramebuffer framebuffer;
    VkBuffer readback;
    VkDeviceMemory readback_memory;
    void *readback_mapped;
    // One texture and descriptor set per layer.
    VkImage *textures;
    VkDeviceMemory *texture_memory;
    VkImageView *texture_views;
    VkSampler sampler;
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet *sets;
    VkPipelineLayout pipeline_layout;
    VkPipeline pipeline;
    VkCommandPool command_pool;
    VkCommandBuffer cmd;
    VkFence fence;
};

#define FORMAT VK_FORMAT_R8G8B8A8_UNORM

// On failure: record the call and result, jump to `fail`.
#define CHECK(call)                                                                     \
    do {                                                                                \
        VkResult r_ = (call);                                                           \
        if (r_ != VK_SUCCESS) {                                                         \
            if (error) snprintf(error, error_size, "%s failed: VkResult %d", #call, r_); \
            result = r_;                                                                \
            goto fail;                                                                  \
        }                                                                               \
    } while (0)

static int memory_type(const minimal_vulkan_peer *p, uint32_t bits, VkMemoryPropertyFlags required,
                       VkMemoryPropertyFlags preferred) {
    int fallback = -1;
    for (uint32_t i = 0; i < p->memory.memoryTypeCount; i++) {
        VkMemoryPropertyFlags f = p->memory.memoryTypes[i].propertyFlags;
        if (!(bits & (1u << i)) || (f & required) != required) continue;
        if ((f & preferred) == preferred) return (int)i;
        if (fallback < 0) fallback = (int)i;
    }
    return fallback;
}

static VkResult allocate(const minimal_vulkan_peer *p, VkMemoryRequirements req, VkMemoryPropertyFlags required,
                         VkMemoryPropertyFlags preferred, VkDeviceMemory *out) {
    int type = memory_type(p, req.memoryTypeBits, required, preferred);
    if (type < 0) return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    VkMemoryAllocateInfo info = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, NULL, req.size, (uint32_t)type};
    return vkAllocateMemory(p->device, &info, NULL, out);
}

static VkResult create_image(const minimal_vulkan_peer *p, VkImageUsageFlags usage, VkImage *image,
                             VkDeviceMemory *memory, VkImageView *view) {
    VkImageCreateInfo info = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = FORMAT;
    info.extent = (VkExtent3D){(uint32_t)p->width, (uint32_t)p->height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkResult r = vkCreateImage(p->device, &info, NULL, image);
    if (r != VK_SUCCESS) return r;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(p->device, *image, &req);
    if ((r = allocate(p, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, memory)) != VK_SUCCESS) return r;
    if ((r = vkBindImageMemory(p->device, *image, *memory, 0)) != VK_SUCCESS) return r;
    VkImageViewCreateInfo v = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    v.image = *image;
    v.viewType = VK_IMAGE_VIEW_TYPE_2D;
    v.format = FORMAT;
    v.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    return vkCreateImageView(p->device, &v, NULL, view);
}

static VkResult create_buffer(const minimal_vulkan_peer *p, VkDeviceSize size, VkBufferUsageFlags usage,
                              VkMemoryPropertyFlags preferred, VkBuffer *buffer, VkDeviceMemory *memory, void **mapped) {
    VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage;
    VkResult r = vkCreateBuffer(p->device, &info, NULL, buffer);
    if (r != VK_SUCCESS) return r;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(p->device, *buffer, &req);
    r = allocate(p, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, preferred, memory);
    if (r != VK_SUCCESS) return r;
    if ((r = vkBindBufferMemory(p->device, *buffer, *memory, 0)) != VK_SUCCESS) return r;
    return vkMapMemory(p->device, *memory, 0, size, 0, mapped);
}

static void image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                          VkAccessFlags src_access, VkAccessFlags dst_access,
                          VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage) {
    VkImageMemoryBarrier b = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = src_access;
    b.dstAccessMask = dst_access;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}

static VkResult submit_and_wait(minimal_vulkan_peer *p) {
    VkResult r = vkEndCommandBuffer(p->cmd);
    if (r != VK_SUCCESS) return r;
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &p->cmd;
    if ((r = vkQueueSubmit(p->queue, 1, &submit, p->fence)) != VK_SUCCESS) return r;
    if ((r = vkWaitForFences(p->device, 1, &p->fence, VK_TRUE, UINT64_MAX)) != VK_SUCCESS) return r;
    return vkResetFences(p->device, 1, &p->fence);
}

static VkResult begin(minimal_vulkan_peer *p) {
    VkResult r = vkResetCommandPool(p->device, p->command_pool, 0);
    if (r != VK_SUCCESS) return r;
    VkCommandBufferBeginInfo info = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    return vkBeginCommandBuffer(p->cmd, &info);
}

static VkResult shader(const minimal_vulkan_peer *p, const uint32_t *code, size_t size, VkShaderModule *out) {
    VkShaderModuleCreateInfo info = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    info.codeSize = size;
    info.pCode = code;
    return vkCreateShaderModule(p->device, &info, NULL, out);
}

static int device_preference(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
    }
}

int minimal_vulkan_peer_create(int width, int height, int layer_count, const uint8_t *const *layers,
                               float opacity, const float clear_rgba[4],
                               minimal_vulkan_peer **out, char *error, size_t error_size) {
    int result = 0;
    VkShaderModule vert = VK_NULL_HANDLE, frag = VK_NULL_HANDLE;
    VkBuffer staging = VK_NULL_HANDLE;
    VkDeviceMemory staging_memory = VK_NULL_HANDLE;
    VkPhysicalDevice *devices = NULL;
    minimal_vulkan_peer *p = calloc(1, sizeof *p);
    if (!p) return -1;
    p->width = width;
    p->height = height;
    p->layer_count = layer_count;
    p->opacity = opacity;
    memcpy(p->clear, clear_rgba, sizeof p->clear);
    p->textures = calloc((size_t)layer_count, sizeof *p->textures);
    p->texture_memory = calloc((size_t)layer_count, sizeof *p->texture_memory);
    p->texture_views = calloc((size_t)layer_count, sizeof *p->texture_views);
    p->sets = calloc((size_t)layer_count, sizeof *p->sets);
    size_t bytes = (size_t)width * (size_t)height * 4;

    // Instance, device, queue.
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "minimal-vulkan-peer";
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo instance_info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    instance_info.pApplicationInfo = &app;
    CHECK(vkCreateInstance(&instance_info, NULL, &p->instance));
    uint32_t count = 0;
    CHECK(vkEnumeratePhysicalDevices(p->instance, &count, NULL));
    devices = calloc(count ? count : 1, sizeof *devices);
    CHECK(vkEnumeratePhysicalDevices(p->instance, &count, devices));
    int best = -1, best_preference = -1;
    for (uint32_t i = 0; i < count; i++) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(devices[i], &props);
        if (props.apiVersion < VK_API_VERSION_1_3) continue;
        if (device_preference(props.deviceType) > best_preference) {
            best = (int)i;
            best_preference = device_preference(props.deviceType);
            p->physical = devices[i];
        }
    }
    if (best < 0) {
        if (error) snprintf(error, error_size, "no Vulkan 1.3 device");
        result = -1;
        goto fail;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(p->physical, &props);
    memcpy(p->device_name, props.deviceName, sizeof p->device_name);
    vkGetPhysicalDeviceMemoryProperties(p->physical, &p->memory);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(p->physical, &families, NULL);
    VkQueueFamilyProperties family_props[16];
    if (families > 16) families = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(p->physical, &families, family_props);
    p->family = UINT32_MAX;
    for (uint32_t i = 0; i < families && p->family == UINT32_MAX; i++)
        if (family_props[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) p->family = i;
    float priority = 1;
    VkDeviceQueueCreateInfo queue_info = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue_info.queueFamilyIndex = p->family;
    queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    VkDeviceCreateInfo device_info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    device_info.queueCreateInfoCount = 1;
    device_info.pQueueCreateInfos = &queue_info;
    CHECK(vkCreateDevice(p->physical, &device_info, NULL, &p->device));
    vkGetDeviceQueue(p->device, p->family, 0, &p->queue);

    VkCommandPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool_info.queueFamilyIndex = p->family;
    CHECK(vkCreateCommandPool(p->device, &pool_info, NULL, &p->command_pool));
    VkCommandBufferAllocateInfo cmd_info = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cmd_info.commandPool = p->command_pool;
    cmd_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cmd_info.commandBufferCount = 1;
    CHECK(vkAllocateCommandBuffers(p->device, &cmd_info, &p->cmd));
    VkFenceCreateInfo fence_info = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    CHECK(vkCreateFence(p->device, &fence_info, NULL, &p->fence));

    // Target, render pass (clear; ends in TRANSFER_SRC for the readback copy), framebuffer.
    CHECK(create_image(p, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                       &p->target, &p->target_memory, &p->target_view));
    VkAttachmentDescription attachment = {0};
    attachment.format = FORMAT;
    attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    attachment.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    VkAttachmentReference color_ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {0};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &color_ref;
    VkSubpassDependency dependencies[2] = {
        // The previous frame's readback copy finished reading before this frame writes.
        {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
         0, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, 0},
        // The copy after the pass reads what the pass wrote.
        {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, 0},
    };
    VkRenderPassCreateInfo rp_info = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rp_info.attachmentCount = 1;
    rp_info.pAttachments = &attachment;
    rp_info.subpassCount = 1;
    rp_info.pSubpasses = &subpass;
    rp_info.dependencyCount = 2;
    rp_info.pDependencies = dependencies;
    CHECK(vkCreateRenderPass(p->device, &rp_info, NULL, &p->render_pass));
    VkFramebufferCreateInfo fb_info = {VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb_info.renderPass = p->render_pass;
    fb_info.attachmentCount = 1;
    fb_info.pAttachments = &p->target_view;
    fb_info.width = (uint32_t)width;
    fb_info.height = (uint32_t)height;
    fb_info.layers = 1;
    CHECK(vkCreateFramebuffer(p->device, &fb_info, NULL, &p->framebuffer));
    CHECK(create_buffer(p, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                        &p->readback, &p->readback_memory, &p->readback_mapped));

    // Textures, uploaded once through one staging buffer.
    void *staging_mapped = NULL;
    CHECK(create_buffer(p, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 0, &staging, &staging_memory, &staging_mapped));
    for (int i = 0; i < layer_count; i++) {
        CHECK(create_image(p, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                           &p->textures[i], &p->texture_memory[i], &p->texture_views[i]));
        memcpy(staging_mapped, layers[i], bytes);
        CHECK(begin(p));
        image_barrier(p->cmd, p->textures[i], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      0, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
        VkBufferImageCopy region = {0};
        region.imageSubresource = (VkImageSubresourceLayers){VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = (VkExtent3D){(uint32_t)width, (uint32_t)height, 1};
        vkCmdCopyBufferToImage(p->cmd, staging, p->textures[i], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        image_barrier(p->cmd, p->textures[i], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                      VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
        CHECK(submit_and_wait(p));
    }

    // Descriptor sets: one combined image sampler per layer (texelFetch ignores the sampler).
    VkSamplerCreateInfo sampler_info = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sampler_info.magFilter = VK_FILTER_NEAREST;
    sampler_info.minFilter = VK_FILTER_NEAREST;
    sampler_info.addressModeU = sampler_info.addressModeV = sampler_info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    CHECK(vkCreateSampler(p->device, &sampler_info, NULL, &p->sampler));
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo set_info = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    set_info.bindingCount = 1;
    set_info.pBindings = &binding;
    CHECK(vkCreateDescriptorSetLayout(p->device, &set_info, NULL, &p->set_layout));
    VkDescriptorPoolSize pool_size = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, (uint32_t)layer_count};
    VkDescriptorPoolCreateInfo dp_info = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dp_info.maxSets = (uint32_t)layer_count;
    dp_info.poolSizeCount = 1;
    dp_info.pPoolSizes = &pool_size;
    CHECK(vkCreateDescriptorPool(p->device, &dp_info, NULL, &p->descriptor_pool));
    for (int i = 0; i < layer_count; i++) {
        VkDescriptorSetAllocateInfo alloc = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        alloc.descriptorPool = p->descriptor_pool;
        alloc.descriptorSetCount = 1;
        alloc.pSetLayouts = &p->set_layout;
        CHECK(vkAllocateDescriptorSets(p->device, &alloc, &p->sets[i]));
        VkDescriptorImageInfo image_info = {p->sampler, p->texture_views[i], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = p->sets[i];
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        write.pImageInfo = &image_info;
        vkUpdateDescriptorSets(p->device, 1, &write, 0, NULL);
    }

    // The pipeline: full-screen strip, texelFetch × opacity, premultiplied source-over.
    VkPushConstantRange push = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(float)};
    VkPipelineLayoutCreateInfo layout_info = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &p->set_layout;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &push;
    CHECK(vkCreatePipelineLayout(p->device, &layout_info, NULL, &p->pipeline_layout));
    CHECK(shader(p, peer_vert_spv, sizeof peer_vert_spv, &vert));
    CHECK(shader(p, peer_frag_spv, sizeof peer_frag_spv, &frag));
    VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_VERTEX_BIT, vert, "main", NULL},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_FRAGMENT_BIT, frag, "main", NULL},
    };
    VkPipelineVertexInputStateCreateInfo vertex_input = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    VkViewport viewport = {0, 0, (float)width, (float)height, 0, 1};
    VkRect2D scissor = {{0, 0}, {(uint32_t)width, (uint32_t)height}};
    VkPipelineViewportStateCreateInfo viewport_state = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport_state.viewportCount = 1;
    viewport_state.pViewports = &viewport;
    viewport_state.scissorCount = 1;
    viewport_state.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo raster = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1;
    VkPipelineMultisampleStateCreateInfo multisample = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend = {0};
    blend.blendEnable = VK_TRUE;
    blend.srcColorBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend.colorBlendOp = VK_BLEND_OP_ADD;
    blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    blend.alphaBlendOp = VK_BLEND_OP_ADD;
    blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    VkPipelineColorBlendStateCreateInfo blend_state = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend_state.attachmentCount = 1;
    blend_state.pAttachments = &blend;
    VkGraphicsPipelineCreateInfo pipeline_info = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    pipeline_info.stageCount = 2;
    pipeline_info.pStages = stages;
    pipeline_info.pVertexInputState = &vertex_input;
    pipeline_info.pInputAssemblyState = &assembly;
    pipeline_info.pViewportState = &viewport_state;
    pipeline_info.pRasterizationState = &raster;
    pipeline_info.pMultisampleState = &multisample;
    pipeline_info.pColorBlendState = &blend_state;
    pipeline_info.layout = p->pipeline_layout;
    pipeline_info.renderPass = p->render_pass;
    CHECK(vkCreateGraphicsPipelines(p->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &p->pipeline));

    vkDestroyShaderModule(p->device, vert, NULL);
    vkDestroyShaderModule(p->device, frag, NULL);
    vkDestroyBuffer(p->device, staging, NULL);
    vkFreeMemory(p->device, staging_memory, NULL);
    free(devices);
    *out = p;
    return 0;

fail:
    if (p->device) {
        vkDeviceWaitIdle(p->device);
        if (vert) vkDestroyShaderModule(p->device, vert, NULL);
        if (frag) vkDestroyShaderModule(p->device, frag, NULL);
        if (staging) vkDestroyBuffer(p->device, staging, NULL);
        if (staging_memory) vkFreeMemory(p->device, staging_memory, NULL);
    }
    free(devices);
    minimal_vulkan_peer_destroy(p);
    return result ? result : -1;
}

int minimal_vulkan_peer_frame(minimal_vulkan_peer *p, uint8_t *pixels) {
    VkResult r = begin(p);
    if (r != VK_SUCCESS) return r;
    VkClearValue clear;
    memcpy(clear.color.float32, p->clear, sizeof p->clear);
    VkRenderPassBeginInfo rp = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rp.renderPass = p->render_pass;
    rp.framebuffer = p->framebuffer;
    rp.renderArea = (VkRect2D){{0, 0}, {(uint32_t)p->width, (uint32_t)p->height}};
    rp.clearValueCount = 1;
    rp.pClearValues = &clear;
    vkCmdBeginRenderPass(p->cmd, &rp, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(p->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
    vkCmdPushConstants(p->cmd, p->pipeline_layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(float), &p->opacity);
    for (int i = 0; i < p->layer_count; i++) {
        vkCmdBindDescriptorSets(p->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline_layout, 0, 1, &p->sets[i], 0, NULL);
        vkCmdDraw(p->cmd, 4, 1, 0, 0);
    }
    vkCmdEndRenderPass(p->cmd);   // -> TRANSFER_SRC_OPTIMAL
    VkBufferImageCopy region = {0};
    region.imageSubresource = (VkImageSubresourceLayers){VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = (VkExtent3D){(uint32_t)p->width, (uint32_t)p->height, 1};
    vkCmdCopyImageToBuffer(p->cmd, p->target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, p->readback, 1, &region);
    VkBufferMemoryBarrier host = {VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    host.srcQueueFamilyIndex = host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    host.buffer = p->readback;
    host.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(p->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &host, 0, NULL);
    if ((r = submit_and_wait(p)) != VK_SUCCESS) return r;
    memcpy(pixels, p->readback_mapped, (size_t)p->width * (size_t)p->height * 4);
    return 0;
}

const char *minimal_vulkan_peer_device_name(const minimal_vulkan_peer *p) { return p->device_name; }

void minimal_vulkan_peer_destroy(minimal_vulkan_peer *p) {
    if (!p) return;
    if (p->device) {
        VkDevice d = p->device;
        vkDeviceWaitIdle(d);
        if (p->pipeline) vkDestroyPipeline(d, p->pipeline, NULL);
        if (p->pipeline_layout) vkDestroyPipelineLayout(d, p->pipeline_layout, NULL);
        if (p->descriptor_pool) vkDestroyDescriptorPool(d, p->descriptor_pool, NULL);
        if (p->set_layout) vkDestroyDescriptorSetLayout(d, p->set_layout, NULL);
        if (p->sampler) vkDestroySampler(d, p->sampler, NULL);
        for (int i = 0; i < p->layer_count; i++) {
            if (p->texture_views && p->texture_views[i]) vkDestroyImageView(d, p->texture_views[i], NULL);
            if (p->textures && p->textures[i]) vkDestroyImage(d, p->textures[i], NULL);
            if (p->texture_memory && p->texture_memory[i]) vkFreeMemory(d, p->texture_memory[i], NULL);
        }
        if (p->readback) vkDestroyBuffer(d, p->readback, NULL);
        if (p->readback_memory) vkFreeMemory(d, p->readback_memory, NULL);   // unmaps
        if (p->framebuffer) vkDestroyFramebuffer(d, p->framebuffer, NULL);
        if (p->render_pass) vkDestroyRenderPass(d, p->render_pass, NULL);
        if (p->target_view) vkDestroyImageView(d, p->target_view, NULL);
        if (p->target) vkDestroyImage(d, p->target, NULL);
        if (p->target_memory) vkFreeMemory(d, p->target_memory, NULL);
        if (p->fence) vkDestroyFence(d, p->fence, NULL);
        if (p->command_pool) vkDestroyCommandPool(d, p->command_pool, NULL);
        vkDestroyDevice(d, NULL);
    }
    if (p->instance) vkDestroyInstance(p->instance, NULL);
    free(p->textures);
    free(p->texture_memory);
    free(p->texture_views);
    free(p->sets);
    free(p);
}
