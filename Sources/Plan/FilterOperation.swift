import Geometry

/// One step of a filter chain, run over an earlier pass's target (see `OffscreenPass.Operation.filter`).
public struct FilterOperation: Sendable, Hashable {
    /// The pass whose target is read.
    public var source: Int
    public var kind: Kind
    /// A second pass read: the result of the next coarser level of a variableBlur pyramid, which
    /// the vertical pass samples (bilinearly, magnified 2×) where σ passes its level's band.
    public var coarse: Int?
    /// Only these texels of the target are drawn (the rest stay transparent); nil: all of it. A
    /// variableBlur's full-resolution level draws only what reaches the canvas (and, horizontally,
    /// the rows its vertical pass reads there): the rest of its target, grown by the blur's reach,
    /// is never shown.
    public var region: PixelRect?

    public enum Kind: Sendable, Hashable {
        /// One axis of a separable Gaussian blur of premultiplied RGBA with standard deviation
        /// `sigma` texels of this target. Each tap weighs a whole source texel by the Gaussian's
        /// integral over it (erf differences), so the result is the continuous Gaussian of the
        /// pixel-box image at any σ, small ones included; taps reach ⌈3.5σ⌉ (`kernelReach`). Beyond the source the
        /// texels are transparent black, or, with `normalizeEdges`, left out and the weights
        /// renormalised by the kernel weight inside the source. The horizontal pass writes a
        /// half-float target (no 8-bit rounding in between). `downsample` f > 1 (horizontal pass,
        /// σ 0): each texel averages f×f source texels (this target is the source's size ÷ f).
        case blur(sigma: Double, horizontal: Bool, downsample: Int, normalizeEdges: Bool)
        /// A colour matrix on non-premultiplied colour: 20 numbers, rows R G B A of
        /// [r g b a bias], applied after un-premultiplying, clamped to 0…1, premultiplied again.
        case colorMatrix([Float])
        /// One axis of `variableBlur`: the blur above with σₜ = `sigma` × the alpha of image `mask`
        /// (of `FramePlan.images`) at each output texel, stretched over `maskRect` (the layer's
        /// bounds in this target's texels; clamped to its edges beyond). `sigma` is in texels of
        /// the pyramid's full resolution; `level` says which resolution this target is and which
        /// σₜ it draws (`VariableBlurLevel`).
        case variableBlur(sigma: Double, horizontal: Bool, normalizeEdges: Bool, mask: Int, maskRect: Rect,
                          level: VariableBlurLevel)
    }

    public init(source: Int, kind: Kind, coarse: Int? = nil, region: PixelRect? = nil) {
        self.source = source; self.kind = kind; self.coarse = coarse; self.region = region
    }

    /// The passes read: `source`, then `coarse`.
    public var sources: [Int] { coarse.map { [source, $0] } ?? [source] }

    /// How far a blur's taps reach, in σ: ⌈3.5σ⌉ texels each side. A kernel cut at 3σ misses
    /// 0.27 % of the Gaussian's weight, which with the 8-bit rounding of the result put a step
    /// edge up to 1.3/255 off the error function (measured at σ 40 px); at 3.5σ the missing
    /// weight is 0.05 %. Targets grow by as much, so the taps find all the content there is.
    public static let kernelReach = 3.5

    /// The taps each side of a blur of `sigma` texels: ⌈3.5σ⌉, at most 4,096.
    public static func reach(sigma: Double) -> Int {
        Int(min((kernelReach * max(sigma, 0)).rounded(.up), 4096))
    }

    /// Writes a half-float target (the horizontal blur and the downsampling average; a
    /// variableBlur's reduced levels, which a finer level magnifies).
    public var writesFloat: Bool {
        if case .blur(_, let horizontal, _, _) = kind { return horizontal }
        if case .variableBlur(_, let horizontal, _, _, _, let level) = kind { return horizontal || level.downsample > 1 }
        return false
    }
}

/// One level of a variableBlur pyramid (`Builder+VariableBlur.swift`): a target `downsample`
/// times smaller than the pyramid's full resolution, whose content is the full-resolution source
/// averaged `downsample`² texels at a time. At a texel of σₜ (full-resolution texels) it blurs with
/// σ′ = √((σₜ² − `variance`) / downsample² − 1/12) of its own texels (σₜ itself at downsample 1),
/// σₜ taken at most `upper`; where σₜ passes `upper`, the vertical pass takes the coarser level's
/// result instead (`FilterOperation.coarse`), and over the top quarter below it fades into it. `variance` is what the averaging and the bilinear
/// magnifications back to full resolution add (texels² of the full resolution).
public struct VariableBlurLevel: Sendable, Hashable {
    public var downsample: Int
    public var variance: Double
    public var upper: Double

    public init(downsample: Int, variance: Double, upper: Double) {
        self.downsample = downsample; self.variance = variance; self.upper = upper
    }

    /// Full resolution, every σₜ: the whole blur in one level.
    public static let whole = VariableBlurLevel(downsample: 1, variance: 0, upper: .infinity)

    /// How far this level's passes gather, in its texels, for a largest σ of `sigma`.
    public func reach(sigma: Double) -> Int {
        FilterOperation.reach(sigma: reducedSigma(max(sigma, 0)))
    }

    /// σ′ in this level's texels for σₜ in full-resolution texels.
    public func reducedSigma(_ sigmaT: Double) -> Double {
        let s = min(sigmaT, upper)
        guard downsample > 1 else { return s }
        let d = Double(downsample)
        return max((s * s - variance) / (d * d) - 1.0 / 12, 0).squareRoot()
    }
}

/// What a backdrop capture copies (see `OffscreenPass.Operation.backdrop`).
public struct BackdropCapture: Sendable, Equatable {
    /// How many of `FramePlan.canvasItems` are composited before the capture: the backend draws
    /// them, copies `region`, and goes on drawing the rest over them.
    public var canvasItemCount: Int
    /// The canvas pixels captured (device pixels, inside the canvas); the target is this region
    /// scaled by the backdrop's `scale` (rounded up), filtered bilinearly when scaled.
    public var region: PixelRect

    public init(canvasItemCount: Int, region: PixelRect) { self.canvasItemCount = canvasItemCount; self.region = region }
}
