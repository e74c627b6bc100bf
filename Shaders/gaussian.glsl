// The Gaussian and its integral, for shadows (σ = shadowRadius) and blur passes.

// erf(x), Abramowitz & Stegun 7.1.27 (|error| ≤ 5e-4, an eighth of a level of 8-bit colour): a
// quartic and two squarings, no exp (llvmpipe pays for every instruction of every fragment; this
// form is 12 % faster there than 7.1.28's |error| ≤ 3e-7, measured on 20 analytic shadows).
float erfApprox(float x) {
    float a = abs(x);
    float p = 1.0 + a * (0.278393 + a * (0.230389 + a * (0.000972 + a * 0.078108)));
    p *= p; p *= p;                                  // p^4
    return sign(x) * (1.0 - 1.0 / p);
}

// The share of a 1D Gaussian of standard deviation sigma centred at x that falls inside [lo, hi]:
// the box [lo, hi] blurred, at x.
float blurredInterval(float x, float lo, float hi, float sigma) {
    float k = 0.70710678118654752 / sigma;
    return 0.5 * (erfApprox((hi - x) * k) - erfApprox((lo - x) * k));
}
