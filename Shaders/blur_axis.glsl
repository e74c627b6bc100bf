// One axis of the separable Gaussian blur of premultiplied RGBA shared by filter_blur.frag and
// variable_blur.frag (include gaussian.glsl first): taps t in [-radius, radius] from p along dir,
// each weighing the whole source texel under it by the Gaussian's integral over that texel; beyond
// the source transparent black, or with normalizeEdges left out and the weights renormalised by
// what lies inside.

bool inside(ivec2 q, ivec2 size) { return all(greaterThanEqual(q, ivec2(0))) && all(lessThan(q, size)); }

vec4 blurAxis(sampler2D source, ivec2 p, ivec2 dir, float sigma, int radius, bool normalizeEdges) {
    ivec2 size = textureSize(source, 0);
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
    float norm = normalizeEdges ? inTotal : total;
    return norm > 0.0 ? sum / norm : vec4(0.0);
}
