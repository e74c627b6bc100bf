import Geometry

/// One step of a filter chain, run over an earlier pass's target (see `OffscreenPass.Operation.filter`).
public struct FilterOperation: Sendable, Hashable {
    /// The pass whose target is read.
    public var source: Int
    public var kind: Kind

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
        /// One axis of `variableBlur`: the blur above with σ scaled at each output texel by the
        /// alpha of image `mask` (of `FramePlan.images`), stretched over `maskRect` (the layer's
        /// bounds in this target's texels; clamped to its edges beyond). Full resolution only.
        case variableBlur(sigma: Double, horizontal: Bool, normalizeEdges: Bool, mask: Int, maskRect: Rect)
    }

    public init(source: Int, kind: Kind) { self.source = source; self.kind = kind }

    /// How far a blur's taps reach, in σ: ⌈3.5σ⌉ texels each side. A kernel cut at 3σ misses
    /// 0.27 % of the Gaussian's weight, which with the 8-bit rounding of the result put a step
    /// edge up to 1.3/255 off the error function (measured at σ 40 px); at 3.5σ the missing
    /// weight is 0.05 %. Targets grow by as much, so the taps find all the content there is.
    public static let kernelReach = 3.5

    /// Writes a half-float target (the horizontal blur and the downsampling average).
    public var writesFloat: Bool {
        if case .blur(_, let horizontal, _, _) = kind { return horizontal }
        if case .variableBlur(_, let horizontal, _, _, _) = kind { return horizontal }
        return false
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
