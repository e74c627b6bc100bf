#version 450
#extension GL_GOOGLE_include_directive : require
// One axis of a separable Gaussian blur of premultiplied RGBA (filters, backdrops). Tap k in
// [-R, R], R = ceil(3.5σ) (FilterOperation.kernelReach), weighs the whole source texel under it by the Gaussian's integral over
// that texel, Φ((k+½)/σ) − Φ((k−½)/σ) (one erf per tap, the previous one reused), so the result is
// the continuous Gaussian of the pixel image at any σ, small ones included; the weights are
// normalised by their sum. Texels beyond the source are transparent black, or, with
// normalizeEdges, left out of the sum and its weight (renormalised by what lies inside). With
// downsample f > 1 (σ 0) each texel is the mean of the f×f source texels under it.
#include "gaussian.glsl"
#include "blur_axis.glsl"

layout(set = 0, binding = 0) uniform sampler2D source;
layout(push_constant) uniform Blur {
    float sigma;
    int horizontal;
    int radius;
    int downsample;
    int normalizeEdges;
};
layout(location = 0) out vec4 outColor;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 size = textureSize(source, 0);
    if (downsample > 1) {
        vec4 s = vec4(0.0);
        float n = 0.0;
        ivec2 base = p * downsample;
        if (downsample % 2 == 0 && all(lessThanEqual(base + downsample, size))) {
            // A whole block inside the source: one bilinear read at the centre of each 2×2 quad
            // (weights exactly ¼ each: a quarter of the fetches, bound with a linear sampler).
            vec2 inv = 1.0 / vec2(size);
            for (int j = 0; j < downsample; j += 2) {
                for (int i = 0; i < downsample; i += 2) s += texture(source, (vec2(base + ivec2(i, j)) + 1.0) * inv);
            }
            outColor = s / float(downsample * downsample / 4);
            return;
        }
        for (int j = 0; j < downsample; j++) {
            for (int i = 0; i < downsample; i++) {
                ivec2 t = base + ivec2(i, j);
                if (inside(t, size)) { s += texelFetch(source, t, 0); n += 1.0; }
            }
        }
        // Beyond the source: transparent (counted), unless edges are normalised (left out).
        outColor = normalizeEdges != 0 ? (n > 0.0 ? s / n : vec4(0.0)) : s / float(downsample * downsample);
        return;
    }
    if (radius <= 0 || sigma <= 0.0) {
        outColor = inside(p, size) ? texelFetch(source, p, 0) : vec4(0.0);
        return;
    }
    outColor = blurAxis(source, p, horizontal != 0 ? ivec2(1, 0) : ivec2(0, 1), sigma, radius, normalizeEdges != 0);
}
