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

    /// The blur of σ device pixels in a target whose longer side is `side` pixels.
    public init(sigma s: Double, side: Int = 1 << 20) {
        guard s >= Self.minimumSigma else { downsample = 1; sigma = 0; return }
        let f = Self.factor(sigma: s, side: side)
        downsample = f
        sigma = min(Self.reducedSigma(s, factor: f), Self.maximumReducedSigma)
    }

    /// The reduction factor for a blur of σ device pixels.
    public static func factor(sigma s: Double) -> Int { s >= 24 ? 4 : s >= 8 ? 2 : 1 }

    /// The same in a target whose longer side is `side` pixels: beyond σ = 48 px the factor doubles
    /// until σ′ ≤ 12 texels (as shadowPath rasters do), while the reduced target keeps 16 texels on
    /// its longer side. So a blur's taps per texel stay bounded however large its radius (a
    /// 5,000 pt shadowRadius took minutes at a quarter of the resolution), and the averaging pass
    /// reads each texel once.
    public static func factor(sigma s: Double, side: Int) -> Int {
        doubled(factor(sigma: s), sigma: s, side: side)
    }

    /// σ′ in texels that a reduction beyond the fixed factors aims at (shadows, shadowPath rasters
    /// and filter blurs alike).
    public static let largestReducedSigma = 12.0

    /// `f` doubled while σ/f passes `largestReducedSigma` and the reduced target keeps 16 texels on
    /// its longer side of `side`. The fixed factors leave σ/f ≤ 12 below their last step, so
    /// only σ past it doubles.
    static func doubled(_ f: Int, sigma s: Double, side: Int) -> Int {
        var f = f
        while s / Double(f) > largestReducedSigma, f < 1 << 24, side / (2 * f) >= minimumReducedSide { f *= 2 }
        return f
    }

    /// The fewest texels a reduced target keeps on its longer side when σ alone would reduce it
    /// further (`doubled`, `VariableBlurPyramid`).
    static let minimumReducedSide = 16

    /// σ (pixels or texels) as planned: 0 under `minimumSigma`.
    public static func visibleSigma(_ s: Double) -> Double { s >= minimumSigma ? s : 0 }

    /// Below this σ (pixels) a blur changes no 8-bit value: the taps at ±1 weigh exp(−8) ≈ 3·10⁻⁴,
    /// under half a level of 255 on either side. It is planned as no blur (σ 0), which also keeps
    /// 1/σ² finite in the shaders' single-precision kernels (σ = 10⁻³⁰ gave NaN there).
    public static let minimumSigma = 0.25

    /// σ′ beyond which a reduced target of at most a few thousand texels is blurred flat (the
    /// weights of taps 4,096 texels apart differ by 0.2 %): larger radii are planned as this one,
    /// which keeps σ′ finite in single precision (a 10³⁰⁰ pt shadowRadius).
    public static let maximumReducedSigma = 65_536.0

    /// σ in texels of a target reduced f× that, averaged f×f, blurred and magnified bilinearly,
    /// gives the Gaussian of σ device pixels.
    public static func reducedSigma(_ s: Double, factor f: Int) -> Double {
        reducedSigma(s, factor: Double(f))
    }

    /// The same for any factor ≥ 1 (a texture rasterised at 1/f of the device resolution).
    public static func reducedSigma(_ s: Double, factor f: Double) -> Double {
        if f <= 1 { return s }
        let ff = f * f
        // Where s² or f² overflows (radii near 10³⁰⁰), the same in units of f.
        guard (s * s).isFinite, ff.isFinite else {
            let r = s / f
            return max(r * r - (1 - 1 / ff) / 12 - 1.0 / 6, 0).squareRoot()
        }
        let extra = (ff - 1) / 12 + ff / 6
        return max(s * s - extra, 0).squareRoot() / f
    }
}
