#pragma once
#include <vulkan/vulkan.h>

// Swift cannot import function-like macros; these static inline helpers stand in for them.

/// VK_MAKE_API_VERSION(variant, major, minor, patch)
static inline uint32_t caprof_vk_make_api_version(uint32_t variant, uint32_t major, uint32_t minor, uint32_t patch) {
    return VK_MAKE_API_VERSION(variant, major, minor, patch);
}
/// VK_API_VERSION_1_3
static inline uint32_t caprof_vk_api_version_1_3(void) { return VK_API_VERSION_1_3; }
/// VK_API_VERSION_MAJOR / MINOR / PATCH
static inline uint32_t caprof_vk_api_version_major(uint32_t v) { return VK_API_VERSION_MAJOR(v); }
static inline uint32_t caprof_vk_api_version_minor(uint32_t v) { return VK_API_VERSION_MINOR(v); }
static inline uint32_t caprof_vk_api_version_patch(uint32_t v) { return VK_API_VERSION_PATCH(v); }
/// VK_WHOLE_SIZE and VK_QUEUE_FAMILY_IGNORED are macros of unsigned type that Swift imports with
/// the wrong width on some toolchains; spell them out.
static inline uint64_t caprof_vk_whole_size(void) { return VK_WHOLE_SIZE; }
static inline uint32_t caprof_vk_queue_family_ignored(void) { return VK_QUEUE_FAMILY_IGNORED; }
