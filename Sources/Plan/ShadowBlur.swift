/// How a shadow without shadowPath is blurred: at full resolution, or, for a large σ, at a
/// reduced one (the content averaged f×f once, then the two blur passes at that size).
///
/// Downsampling by f (an f×f box average), blurring, then magnifying bilinearly adds the box's and
/// the tent's variances to the Gaussian's: (f² − 1)/12 + f²/6 texels², so the blur at the reduced
/// resolution uses σ' = √(σ² − that) / f and the result is the Gaussian of σ again. What remains
/// is the shape of those small kernels against a Gaussian's; it shrinks with σ. The factors start
/// where the shadowPath-vs-path-less reftests measure at most 1/255 (σ ≥ 8 px: 2, σ ≥ 24 px: 4).
public struct ShadowBlur: Sendable, Equatable {
    /// The reduction factor (1, 2 or 4).
    public var downsample: Int
    /// σ in texels of the reduced target.
    public var sigma: Double

    public init(sigma s: Double) {
        let f = s >= 24 ? 4 : s >= 8 ? 2 : 1
        downsample = f
        if f == 1 {
            sigma = s
        } else {
            let ff = Double(f * f)
            let extra = (ff - 1) / 12 + ff / 6
            sigma = max(s * s - extra, 0).squareRoot() / Double(f)
        }
    }
}
