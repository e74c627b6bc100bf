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

layout(set = 0, binding = 0) uniform sampler2D source;
layout(push_constant) uniform Blur {
    float sigma;
    int horizontal;
    int radius;
    int downsample;
    int normalizeEdges;
};
layout(location = 0) out vec4 outColor;

bool inside(ivec2 q, ivec2 size) { return all(greaterThanEqual(q, ivec2(0))) && all(lessThan(q, size)); }

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
    ivec2 dir = horizontal != 0 ? ivec2(1, 0) : ivec2(0, 1);
    vec4 sum = vec4(0.0);
    float total = 0.0, inTotal = 0.0;
    if (sigma >= 2.0) {
        // From σ 2 the Gaussian integrated over a texel is, to 1e-5, the Gaussian of variance
        // σ² + 1/12 (its convolution with the texel's box) sampled at the tap: weights by the
        // recurrence g(k+1) = g(k)·r(k), r(k+1) = r(k)·c, c = exp(−1/s²), two multiplies a tap
        // instead of an erf (what makes large blurs affordable on a CPU rasteriser).
        float s2 = sigma * sigma + 1.0 / 12.0;
        float c = exp(-1.0 / s2);
        float k0 = float(-radius);
        float g = exp(-k0 * k0 / (2.0 * s2));
        float r = exp(-(2.0 * k0 + 1.0) / (2.0 * s2));
        for (int t = -radius; t <= radius; t++) {
            ivec2 q = p + dir * t;
            total += g;
            if (inside(q, size)) { sum += g * texelFetch(source, q, 0); inTotal += g; }
            g *= r;
            r *= c;
        }
    } else {
        float k = 0.70710678118654752 / sigma;
        float lower = erfApprox((float(-radius) - 0.5) * k);
        for (int t = -radius; t <= radius; t++) {
            float upper = erfApprox((float(t) + 0.5) * k);
            float w = 0.5 * (upper - lower);
            lower = upper;
            ivec2 q = p + dir * t;
            total += w;
            if (inside(q, size)) { sum += w * texelFetch(source, q, 0); inTotal += w; }
        }
    }
    float norm = normalizeEdges != 0 ? inTotal : total;
    outColor = norm > 0.0 ? sum / norm : vec4(0.0);
}
