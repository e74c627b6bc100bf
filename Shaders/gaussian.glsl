// The Gaussian and its integral, for shadows (σ = shadowRadius) and blur passes.

// erf(x), Abramowitz & Stegun 7.1.28 (|error| ≤ 3e-7): a polynomial and four squarings, no exp
// (llvmpipe pays for every transcendental of every fragment).
float erfApprox(float x) {
    float a = abs(x);
    float p = 1.0 + a * (0.0705230784 + a * (0.0422820123 + a * (0.0092705272
              + a * (0.0001520143 + a * (0.0002765672 + a * 0.0000430638)))));
    p *= p; p *= p; p *= p; p *= p;                 // p^16
    return sign(x) * (1.0 - 1.0 / p);
}

// The share of a 1D Gaussian of standard deviation sigma centred at x that falls inside [lo, hi]:
// the box [lo, hi] blurred, at x.
float blurredInterval(float x, float lo, float hi, float sigma) {
    float k = 0.70710678118654752 / sigma;
    return 0.5 * (erfApprox((hi - x) * k) - erfApprox((lo - x) * k));
}
