#version 450
// One axis of a separable Gaussian blur of a target's alpha (shadows without shadowPath).
// Taps at whole-texel offsets k in [-R, R], R = ceil(3σ), weighted by the Gaussian sampled at k
// and normalised by the weights' sum; texels outside the source are transparent. The horizontal
// pass writes the blurred coverage to a 16-bit float target (no 8-bit rounding in between); the
// vertical pass writes the premultiplied tint times it. With `downsample` f > 1 (horizontal pass
// only) each tap is the mean of the f×f source texels under one texel of this target. Weights are
// built incrementally (a ratio that itself changes by a constant factor), so each tap costs a
// multiply, not an exp. texelFetch with a bounds test: on lavapipe it is faster than folding tap
// pairs into bilinear fetches (measured: 122 vs 133 ms for the same passes).
layout(set = 0, binding = 0) uniform sampler2D source;
layout(push_constant) uniform Blur {
    vec4 tint;
    float sigma;
    int horizontal;
    int radius;
    int downsample;
};
layout(location = 0) out vec4 outColor;

float sourceAlpha(ivec2 q, ivec2 size) {
    if (downsample <= 1) {
        return all(greaterThanEqual(q, ivec2(0))) && all(lessThan(q, size)) ? texelFetch(source, q, 0).a : 0.0;
    }
    float s = 0.0;
    ivec2 base = q * downsample;
    for (int j = 0; j < downsample; j++) {
        for (int i = 0; i < downsample; i++) {
            ivec2 t = base + ivec2(i, j);
            if (all(greaterThanEqual(t, ivec2(0))) && all(lessThan(t, size))) s += texelFetch(source, t, 0).a;
        }
    }
    return s / float(downsample * downsample);
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 size = textureSize(source, 0);
    ivec2 dir = horizontal != 0 ? ivec2(1, 0) : ivec2(0, 1);
    float sum = 0.0, total = 0.0;
    if (radius <= 0 || sigma <= 0.0) {
        sum = sourceAlpha(p, size);
        total = 1.0;
    } else {
        // g(k) = exp(-k²/2σ²) from k = -R: g(k+1) = g(k)·r(k), r(k+1) = r(k)·c, c = exp(-1/σ²).
        float c = exp(-1.0 / (sigma * sigma));
        float k0 = float(-radius);
        float g = exp(-k0 * k0 / (2.0 * sigma * sigma));
        float r = exp(-(2.0 * k0 + 1.0) / (2.0 * sigma * sigma));
        for (int k = -radius; k <= radius; k++) {
            sum += g * sourceAlpha(p + dir * k, size);
            total += g;
            g *= r;
            r *= c;
        }
    }
    float a = sum / total;
    outColor = horizontal != 0 ? vec4(a) : tint * a;
}
