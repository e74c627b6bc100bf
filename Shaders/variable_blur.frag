#version 450
#extension GL_GOOGLE_include_directive : require
// One axis of variableBlur: the Gaussian blur of filter_blur.frag with σ at each output texel
// scaled by the alpha of the mask image (set 1), stretched over maskRect (the layer's bounds in
// this target's texels, clamped to its edges beyond). Each axis gathers at the σ of the texel it
// writes: exact where the mask is constant over the kernel's reach, an approximation of the 2-D
// variable kernel where it varies. Taps reach ceil(3.5σ) of that texel's σ.
#include "gaussian.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 1, binding = 0) uniform sampler2D mask;
layout(push_constant) uniform Blur {
    vec4 maskRect;
    float sigma;
    int horizontal;
    int normalizeEdges;
    int maxRadius;
};
layout(location = 0) out vec4 outColor;

bool inside(ivec2 q, ivec2 size) { return all(greaterThanEqual(q, ivec2(0))) && all(lessThan(q, size)); }

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 size = textureSize(source, 0);
    vec2 uv = clamp((gl_FragCoord.xy - maskRect.xy) / max(maskRect.zw, vec2(1e-6)), 0.0, 1.0);
    float s = sigma * texture(mask, uv).a;
    int radius = min(int(ceil(3.5 * s)), maxRadius);
    if (radius <= 0 || s <= 0.0) {
        outColor = inside(p, size) ? texelFetch(source, p, 0) : vec4(0.0);
        return;
    }
    ivec2 dir = horizontal != 0 ? ivec2(1, 0) : ivec2(0, 1);
    float k = 0.70710678118654752 / s;
    vec4 sum = vec4(0.0);
    float total = 0.0, inTotal = 0.0;
    float lower = erfApprox((float(-radius) - 0.5) * k);
    for (int t = -radius; t <= radius; t++) {
        float upper = erfApprox((float(t) + 0.5) * k);
        float w = 0.5 * (upper - lower);
        lower = upper;
        ivec2 q = p + dir * t;
        total += w;
        if (inside(q, size)) { sum += w * texelFetch(source, q, 0); inTotal += w; }
    }
    float norm = normalizeEdges != 0 ? inTotal : total;
    outColor = norm > 0.0 ? sum / norm : vec4(0.0);
}
