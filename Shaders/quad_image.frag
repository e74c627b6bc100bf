#version 450
#extension GL_GOOGLE_include_directive : require
// An image (premultiplied RGBA8, sRGB-encoded, read without conversion) times opacity and coverage.
#include "draw_record.glsl"
#include "corners.glsl"
#include "coverage.glsl"

layout(set = 1, binding = 0) uniform sampler2D image;
layout(location = VARYING_PAINT) flat in vec4 vPaint;
layout(location = VARYING_TEXEL_MAX) flat in ivec2 vTexelMax;
layout(location = 0) out vec4 outColor;

void main() {
    vec2 uv = vLocalUV.zw;
    vec4 texel;
    if (SAMPLING == 0) {
        // 1:1 texel-to-pixel: fetch directly, clamping to the edge like the samplers do.
        texel = texelFetch(image, clamp(ivec2(floor(uv)), ivec2(0), vTexelMax), 0);
    } else {
        // Nearest or linear sampler (CLAMP_TO_EDGE), level 0: no LOD computation needed.
        texel = textureLod(image, uv / vec2(vTexelMax + 1), 0.0);
    }
    float alpha = vPaint.x;
    if (HAS_SHAPE || HAS_INNER || CLIP_COUNT > 0) alpha *= itemCoverage();
    outColor = texel * alpha;
}
