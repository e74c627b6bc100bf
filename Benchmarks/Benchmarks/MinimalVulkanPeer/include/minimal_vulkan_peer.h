// A minimal hand-written Vulkan compositor: the peer that caprof's identity composite is measured
// against (Benchmarks/README.md). Benchmark-only code; nothing in the product uses it.
//
// Work per frame, and nothing else: one render pass (clear, then one full-screen quad per layer,
// each reading its own texture with texelFetch at gl_FragCoord and multiplying by the layer's
// opacity, premultiplied source-over blending into an R8G8B8A8_UNORM target), a copy of the target
// into a host-visible buffer, submit, wait on a fence, and a memcpy of the pixels into the caller's
// memory. Textures are uploaded once, at creation.
#pragma once
#include <stddef.h>
#include <stdint.h>

typedef struct minimal_vulkan_peer minimal_vulkan_peer;

/// Creates the compositor on the most preferred Vulkan 1.3 device (discrete > integrated >
/// virtual > CPU, as caprof chooses): a width × height target and `layer_count` textures of the
/// same size, each from premultiplied RGBA8 pixels (rows top-down, no padding), uploaded now.
/// Returns 0, or a negative VkResult (or -1) with a message in `error`.
int minimal_vulkan_peer_create(int width, int height, int layer_count, const uint8_t *const *layers,
                               float opacity, const float clear_rgba[4],
                               minimal_vulkan_peer **out, char *error, size_t error_size);

/// Draws one frame and copies its width · height · 4 bytes into `pixels`. Returns 0 or a VkResult.
int minimal_vulkan_peer_frame(minimal_vulkan_peer *peer, uint8_t *pixels);

/// The device's name (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
const char *minimal_vulkan_peer_device_name(const minimal_vulkan_peer *peer);

void minimal_vulkan_peer_destroy(minimal_vulkan_peer *peer);
