// A flattened region (Plan's region flattening): one draw over a disjoint device-pixel rectangle
// whose stack of layers (solid colours, images read texel for pixel) is blended here, in
// registers, from the region's base colour up, and written with blending off.
//
// Pixels must equal those of drawing each layer with fixed-function blending into the RGBA8
// target, so each step does what that blend does in 8 bits: the layer's colour is converted to
// UNORM8 (round to nearest), then dst = src + dst · (255 − src.a) / 255 with the product divided
// as lavapipe's blend unit divides it, (t + (t >> 8) + 128) >> 8 (not quite round(t / 255):
// 24 of the 65,536 products round down from n + 128/255), saturated. Blending the floats
// unrounded rounds once instead of once per layer: faster (0.68× instead of 0.87–0.90× the
// minimal Vulkan peer on 16 full-screen layers) and closer to the exact value, but not the same
// bytes: 1/255 off in almost every pixel of that stack, and more where many faint layers each
// round away in 8 bits (sixteen layers of alpha 0.3/255 vanish per layer, not in registers).
//
// The stack's depth and which layers are images are specialisation constants, so every layer's
// code is straight-line with constant binding indices: dynamically indexed sampler arrays are not
// supported by this Mesa, and a loop over the layers would be one.

layout(constant_id = 5) const int DEPTH = 1;        // layers in the stack, 1…16
layout(constant_id = 6) const int IMAGE_MASK = 0;   // bit i: layer i is an image
layout(constant_id = 7) const int BLOCK_MASK = 0;   // bit i: layer i's texture is in 4×4 blocks

// From flatten.vert: the base colour, and per layer either a solid's premultiplied colour (the
// bits of four floats) or an image's opacity (float bits) and the device pixel of its texel
// (0, 0), x and y.
layout(location = 0) flat in vec4 vBase;
layout(location = 1) flat in ivec4 vLayers[16];

layout(location = 0) out vec4 outColor;

// 8-bit values held in floats (integers, exact), cheaper on llvmpipe than uvec4s (no 32-bit
// integer multiply, no conversions): 0.875× instead of 0.92–0.96× the peer, interleaved (both
// measured before image layers skipped this clamp, see flatten.frag). Solids and the base colour
// come through here.
vec4 unorm8(vec4 c) { return roundEven(clamp(c, 0.0, 1.0) * 255.0); }

// (t + (t >> 8) + 128) >> 8 for every product t = dst · (255 − src.a) of two 8-bit values equals
// floor(t · C + 0.5) for any C in [0.00392150784, 0.00392151230) (checked over all 65,536
// products; it is not 1/255, which rounds 24 of them up). C = 0.00392151 in float32 leaves every
// t · C + 0.5 at least 7.3e-5 from an integer, far more than float32's rounding of it (< 1.6e-5),
// however the product is associated: (255 − a) · C is formed once for the four channels.
const float BLEND_DIVIDE = 0.00392151;

// dst · (255 − src.a) / 255 rounded as the blend unit rounds it, plus src: fused into one
// multiply-add, whose single rounding lands on the same side of every n + ½ as the two roundings
// of a multiply then an add (the exact value is at least 7.3e-5 from it, see BLEND_DIVIDE; checked
// over every product in RegionFlatteningRenderTests). No saturation: for a valid premultiplied
// src (every colour ≤ its alpha) the sum never exceeds src.a + 255 − src.a = 255, as the blend unit's
// never does. Image layers (textures of premultiplied pixels, c ≤ a by construction) use this
// directly; solids keep over()'s saturation.
vec4 overValid(vec4 dst, vec4 src) {
    return src + floor(fma(dst, vec4((255.0 - src.a) * BLEND_DIVIDE), vec4(0.5)));
}

vec4 over(vec4 dst, vec4 src) {
    return min(overValid(dst, src), vec4(255.0));
}
