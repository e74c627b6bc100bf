#version 450
#extension GL_GOOGLE_include_directive : require
// One axis of variableBlur: the Gaussian blur of filter_blur.frag with σ at each output texel
// scaled by the alpha of the mask image (set 1), stretched over maskRect (the layer's bounds in
// this target's texels, clamped to its edges beyond). Each axis gathers at the σ of the texel it
// writes: exact where the mask is constant over the kernel's reach, an approximation of the 2-D
// variable kernel where it varies. Taps reach ceil(3.5σ) of that texel's σ.
// One level of the pyramid (VariableBlurLevel): this target is `downsample` times smaller than the
// full resolution σ is in; σₜ is taken at most `upper`, and converted to this level's texels by
// subtracting what the averaging and the magnifications add (`variance`). Where σₜ passes `upper`,
// the vertical pass takes the coarser level's result (set 2) magnified 2× instead, and fades into
// it over the top quarter below `upper`. The horizontal pass gathers only where the vertical one
// reads (`readBelow`).
#include "gaussian.glsl"
#include "blur_axis.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 1, binding = 0) uniform sampler2D mask;
layout(set = 2, binding = 0) uniform sampler2D coarse;
layout(push_constant) uniform Blur {
    vec4 maskRect;
    float sigma;
    int horizontal;
    int normalizeEdges;
    int maxRadius;
    int downsample;
    float variance;
    float upper;
    int hasCoarse;
};
layout(location = 0) out vec4 outColor;

// Whether the vertical pass reads this texel of the horizontal one: whether a texel of this column
// within its reach (maxRadius rows) has σₜ ≤ upper (one beyond takes the coarser level and reads
// nothing). Along a column the mask is linear between its texels' centres (bilinear, clamped), so
// its least value over the rows is at those centres or the rows' ends: exact, from a few samples.
bool readBelow(float u) {
    float h = max(maskRect.w, 1e-6);
    float v0 = clamp((gl_FragCoord.y - float(maxRadius) - maskRect.y) / h, 0.0, 1.0);
    float v1 = clamp((gl_FragCoord.y + float(maxRadius) - maskRect.y) / h, 0.0, 1.0);
    float rows = float(textureSize(mask, 0).y);
    float limit = upper * 1.0001;
    if (sigma * texture(mask, vec2(u, v0)).a <= limit || sigma * texture(mask, vec2(u, v1)).a <= limit) return true;
    int k0 = int(ceil(v0 * rows - 0.5)), k1 = int(floor(v1 * rows - 0.5));
    if (k1 - k0 > 64) return true;   // a mask finer than the reach: drawn, not searched
    for (int k = k0; k <= k1; k++) {
        if (sigma * texture(mask, vec2(u, (float(k) + 0.5) / rows)).a <= limit) return true;
    }
    return false;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 size = textureSize(source, 0);
    vec2 uv = clamp((gl_FragCoord.xy - maskRect.xy) / max(maskRect.zw, vec2(1e-6)), 0.0, 1.0);
    float st = sigma * texture(mask, uv).a;
    if (st > upper) {
        if (hasCoarse != 0 && horizontal == 0) {
            outColor = texture(coarse, gl_FragCoord.xy * 0.5 / vec2(textureSize(coarse, 0)));
            return;
        }
        if (horizontal != 0 && !readBelow(uv.x)) {
            // Nothing reads it: the centre texel, not a gather.
            outColor = inside(p, size) ? texelFetch(source, p, 0) : vec4(0.0);
            return;
        }
        st = upper;
    }
    float d = float(downsample);
    float s = downsample > 1 ? sqrt(max((st * st - variance) / (d * d) - 1.0 / 12.0, 0.0)) : st;
    int radius = min(int(ceil(3.5 * s)), maxRadius);
    vec4 result;
    if (radius <= 0 || s <= 0.0) {
        result = inside(p, size) ? texelFetch(source, p, 0) : vec4(0.0);
    } else {
        result = blurAxis(source, p, horizontal != 0 ? ivec2(1, 0) : ivec2(0, 1), s, radius, normalizeEdges != 0);
    }
    // In the top quarter of its band a texel fades into the coarser level's result, so that no
    // row steps where σ passes from one level to the next (both are the same Gaussian within
    // 1/255; a hard switch stepped by up to 3/255 on stripes).
    float fade = hasCoarse != 0 && horizontal == 0 ? smoothstep(0.75 * upper, upper, st) : 0.0;
    outColor = fade > 0.0 ? mix(result, texture(coarse, gl_FragCoord.xy * 0.5 / vec2(textureSize(coarse, 0))), fade) : result;
}
