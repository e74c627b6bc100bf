#version 450
#extension GL_GOOGLE_include_directive : require
// A flattened region with image layers (see flatten.glsl): layer i's image is bound at binding i.
#include "flatten.glsl"

layout(set = 1, binding = 0) uniform sampler2D image0;
layout(set = 1, binding = 1) uniform sampler2D image1;
layout(set = 1, binding = 2) uniform sampler2D image2;
layout(set = 1, binding = 3) uniform sampler2D image3;
layout(set = 1, binding = 4) uniform sampler2D image4;
layout(set = 1, binding = 5) uniform sampler2D image5;
layout(set = 1, binding = 6) uniform sampler2D image6;
layout(set = 1, binding = 7) uniform sampler2D image7;
layout(set = 1, binding = 8) uniform sampler2D image8;
layout(set = 1, binding = 9) uniform sampler2D image9;
layout(set = 1, binding = 10) uniform sampler2D image10;
layout(set = 1, binding = 11) uniform sampler2D image11;
layout(set = 1, binding = 12) uniform sampler2D image12;
layout(set = 1, binding = 13) uniform sampler2D image13;
layout(set = 1, binding = 14) uniform sampler2D image14;
layout(set = 1, binding = 15) uniform sampler2D image15;

// Layer I over dst: a solid's colour, or image I's texel under the pixel times the opacity, then
// rounded to 8 bits. The plan flattens an image only where every texel read is inside it (and
// the renderer checks the texture has the planned size), so unlike quad_image.frag there is no
// clamp to the edge: 0.74–0.75× the peer instead of 0.79–0.81×, interleaved. The product is
// `precise`, formed exactly as quad_image.frag forms it: otherwise llvmpipe folds opacity · 255
// into one uniform factor, which rounds differently (51 pixels of RegionFlatteningRenderTests'
// overlapping scene were 1/255 off). `precise` costs less than the clamp that also prevents it
// (0.80× the peer instead of 0.87×, interleaved).
//
// A layer in BLOCK_MASK reads a texture that holds its image in 4×4 blocks, one 64-byte texel
// row segment each (Sources/Render/TexelBlocks.swift): pixel (x, y) is texel
// (16·⌊x/4⌋ + 4·(y mod 4) + x mod 4, ⌊y/4⌋). x, y ≥ 0 here (the plan flattens only texels inside).
#define LAYER(I, IMAGE) \
    if (DEPTH > I) { \
        ivec4 l = vLayers[I]; \
        if ((IMAGE_MASK & (1 << I)) != 0) { \
            ivec2 t = pixel - l.yz; \
            if ((BLOCK_MASK & (1 << I)) != 0) t = ivec2(((t.x >> 2) << 4) | ((t.y & 3) << 2) | (t.x & 3), t.y >> 2); \
            precise vec4 product = texelFetch(IMAGE, t, 0) * intBitsToFloat(l.x); \
            dst = overValid(dst, roundEven(product * 255.0)); \
        } else { \
            dst = over(dst, unorm8(intBitsToFloat(l))); \
        } \
    }

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    vec4 dst = unorm8(vBase);
    LAYER(0, image0) LAYER(1, image1) LAYER(2, image2) LAYER(3, image3)
    LAYER(4, image4) LAYER(5, image5) LAYER(6, image6) LAYER(7, image7)
    LAYER(8, image8) LAYER(9, image9) LAYER(10, image10) LAYER(11, image11)
    LAYER(12, image12) LAYER(13, image13) LAYER(14, image14) LAYER(15, image15)
    outColor = dst / 255.0;
}
