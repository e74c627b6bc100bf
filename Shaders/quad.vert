#version 450
#extension GL_GOOGLE_include_directive : require
#include "draw_record.glsl"

layout(location = VARYING_LOCAL, component = 0) out vec2 vLocal;
layout(location = VARYING_UV, component = 2) out vec2 vUV;
layout(location = VARYING_PAINT) flat out vec4 vPaint;
layout(location = VARYING_TEXEL) flat out ivec4 vTexel;
layout(location = VARYING_RECORD) flat out uint vRecord;
layout(location = VARYING_RECORD, component = 1) flat out uint vPixelScale;
layout(location = VARYING_CLIP0) out vec3 vClip[4];
layout(location = VARYING_SHAPE) flat out vec4 vShape[4];
layout(location = VARYING_INNER) flat out vec4 vInner[4];

// Two triangles of the quad, as unit-square corners.
const vec2 CORNERS[6] = vec2[6](vec2(0, 0), vec2(1, 0), vec2(0, 1), vec2(0, 1), vec2(1, 0), vec2(1, 1));

void main() {
    uint index = uint(gl_InstanceIndex);
    vec2 corner = CORNERS[gl_VertexIndex];
    vec4 quad = records[index].quad;
    vec4 uv = records[index].uv;
    vec2 local = mix(quad.xy, quad.zw, corner);
    vec4 p = records[index].transform * vec4(local, 0.0, 1.0);
    // Device pixels -> clip space. Vulkan's NDC is y-down like our device space; 0 <= z <= w, so
    // clipping against w > 0 is all that happens (w < 0 behind the eye is culled).
    // Depth: stack culling's rank (0 elsewhere), times w so that z / w is the rank's exactly.
    gl_Position = vec4(p.x * (2.0 / targetSize.x) - p.w, p.y * (2.0 / targetSize.y) - p.w,
                       clamp(records[index].stack.x, 0.0, 1.0) * p.w, p.w);

    vec2 texel = mix(uv.xy, uv.zw, corner);
    vLocal = local;
    vUV = texel;
    vPaint = records[index].paint;
    // texelFetch items show texels 1:1 at a whole-pixel translation (the plan guarantees it), so the
    // fragment's texel is its pixel minus this offset, the same at every vertex.
    ivec2 offset = SAMPLING == 0 && p.w > 0.0 ? ivec2(round(p.xy / p.w - texel)) : ivec2(0);
    vTexel = ivec4(ivec2(records[index].imageExtent.xy) - 1, offset);
    vRecord = index;
    // A similarity (the plan checked) scales every direction by √|det| of its 2×2 part.
    mat4 t = records[index].transform;
    vPixelScale = ISOTROPIC ? floatBitsToUint(sqrt(abs(t[0].x * t[1].y - t[1].x * t[0].y))) : 0u;
    for (int i = 0; i < 4; i++) {
        // Homogeneous: the fragment shader divides, which is exact under perspective.
        vClip[i] = i < CLIP_COUNT ? (records[index].clips[i].transform * vec4(local, 0.0, 1.0)).xyw : vec3(0.0, 0.0, 1.0);
    }
    RoundedRect s = records[index].shape;
    vShape = HAS_SHAPE ? vec4[4](s.rect, s.inset, s.scale, s.bias) : vec4[4](vec4(0), vec4(0), vec4(0), vec4(0));
    RoundedRect n = records[index].inner;
    vInner = HAS_INNER ? vec4[4](n.rect, n.inset, n.scale, n.bias) : vec4[4](vec4(0), vec4(0), vec4(0), vec4(0));
}
