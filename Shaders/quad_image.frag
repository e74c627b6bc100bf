#version 450
#extension GL_GOOGLE_include_directive : require
// variant: AFFINE
// An image (premultiplied RGBA8, sRGB-encoded, read without conversion) times the paint (the
// premultiplied tint times opacity: (o, o, o, o) untinted) and coverage.
#include "draw_record.glsl"
#include "corners.glsl"
#include "coverage.glsl"

layout(set = 1, binding = 0) uniform sampler2D image;
layout(location = VARYING_UV, component = 2) ITEM_VARYING in vec2 vUV;
layout(location = VARYING_PAINT) flat in vec4 vPaint;
layout(location = VARYING_TEXEL) flat in ivec4 vTexel;
layout(location = 0) out vec4 outColor;

void main() {
    vec4 texel;
    if (SAMPLING == 0) {
        // 1:1 texel-to-pixel at a whole-pixel offset: the texel under the pixel, found from
        // gl_FragCoord with no interpolated varying at all; clamped to the edge like the samplers.
        texel = texelFetch(image, clamp(ivec2(gl_FragCoord.xy) - vTexel.zw, ivec2(0), vTexel.xy), 0);
    } else if (SAMPLING == 1) {
        // Nearest or linear sampler (CLAMP_TO_EDGE), level 0: the sampler's maxLod of 0 clamps
        // the level of detail to 0, and its min and mag filters are the same, so this is
        // textureLod(…, 0.0) exactly; llvmpipe samples it faster (16 rotated full-screen layers:
        // 0.94× the GPU time, interleaved pairs, the same bytes).
        texel = texture(image, vUV / vec2(vTexel.xy + 1));
    } else {
        // Trilinear (SAMPLING == 2): the level of detail from the uv derivatives, bilinear in the
        // two nearest mip levels, blended. SAMPLING is a specialisation constant, so this is
        // uniform control flow and the implicit derivatives are defined.
        texel = texture(image, vUV / vec2(vTexel.xy + 1));
    }
    vec4 paint = vPaint;
    if (HAS_SHAPE || HAS_INNER || CLIP_COUNT > 0) paint *= itemCoverage();
    outColor = texel * paint;
}
