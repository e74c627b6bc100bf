// The Gaussian and its integral, for shadows (σ = shadowRadius) and blur passes.

// erf(x), Abramowitz & Stegun 7.1.26 (|error| ≤ 1.5e-7), odd-extended.
float erfApprox(float x) {
    float s = sign(x);
    float a = abs(x);
    float t = 1.0 / (1.0 + 0.3275911 * a);
    float y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-a * a);
    return s * y;
}

// The share of a 1D Gaussian of standard deviation sigma centred at x that falls inside [lo, hi]:
// the box [lo, hi] blurred, at x.
float blurredInterval(float x, float lo, float hi, float sigma) {
    float k = 0.70710678118654752 / sigma;
    return 0.5 * (erfApprox((hi - x) * k) - erfApprox((lo - x) * k));
}
