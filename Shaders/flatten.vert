#version 450
// A flattened region (see flatten.glsl): the rectangle from its record, and the record's base
// colour and layers handed to the fragment stage as flat varyings. Flat inputs are constant
// across the draw, which llvmpipe reads once per block of fragments; read from a uniform or
// storage buffer in the fragment shader they cost more than the blending they replace
// (measured: 1.04× the per-layer draws instead of 0.74×).

// The records as vec4s: a region's record is DrawRecord's 49 vec4s with its own layout past
// the quad (Sources/Render/FlattenedRegions.swift): [4] the rectangle (device pixels), [6] the
// base colour, [8 + i] layer i as four 32-bit words, [48] stack culling's depth (x).
layout(std430, set = 0, binding = 0) readonly buffer Records { vec4 words[]; };
layout(push_constant) uniform Target { vec2 targetSize; };

layout(location = 0) flat out vec4 vBase;
layout(location = 1) flat out ivec4 vLayers[16];

const vec2 CORNERS[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(0, 1), vec2(1, 0), vec2(1, 1));

void main() {
    uint record = uint(gl_InstanceIndex) * 49u;
    vec4 rect = words[record + 4u];
    vec2 p = mix(rect.xy, rect.zw, CORNERS[gl_VertexIndex]);
    gl_Position = vec4(p * (2.0 / targetSize) - 1.0, clamp(words[record + 48u].x, 0.0, 1.0), 1.0);
    vBase = words[record + 6u];
    for (int i = 0; i < 16; i++) vLayers[i] = floatBitsToInt(words[record + 8u + uint(i)]);
}
