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
        let f = Self.factor(sigma: s)
        downsample = f
        sigma = Self.reducedSigma(s, factor: f)
    }

    /// The reduction factor for a blur of σ device pixels.
    public static func factor(sigma s: Double) -> Int { s >= 24 ? 4 : s >= 8 ? 2 : 1 }

    /// σ in texels of a target reduced f× that, averaged f×f, blurred and magnified bilinearly,
    /// gives the Gaussian of σ device pixels.
    public static func reducedSigma(_ s: Double, factor f: Int) -> Double {
        reducedSigma(s, factor: Double(f))
    }

    /// The same for any factor ≥ 1 (a texture rasterised at 1/f of the device resolution).
    public static func reducedSigma(_ s: Double, factor f: Double) -> Double {
        if f <= 1 { return s }
        let ff = f * f
        let extra = (ff - 1) / 12 + ff / 6
        return max(s * s - extra, 0).squareRoot() / f
    }
}
