import Geometry
import LayerModel

/// `filters` (reference §1.11b): the layer and its subtree are rendered offscreen (the content
/// pass of `Builder+Offscreen.swift`, its target grown by each blur's reach), then the chain is
/// applied in order as passes over that target, and the result is composited with the layer's
/// opacity, mask and ancestors' clips like any offscreen result.
///
/// - `gaussianBlur`: σ = inputRadius points × the target's scale, in texels. Two passes
///   (horizontal into half-float, vertical), each tap weighted by the Gaussian's integral over its
///   texel, so the result matches the Gaussian of the pixel image within 1/255 at any σ. For a
///   large σ the content is first averaged f×f and the two passes run at 1/f the size
///   (`FilterBlur`: f = 2 … 16, and beyond σ 192 px what keeps σ′ ≤ 12 texels); the step-edge
///   tests measure ≤ 1/255 there. The target grows by ⌈3.5σ⌉ + 1 texels each side (the kernel's reach; transparent black beyond the content);
///   with `inputNormalizeEdges` it does not grow and the weights are renormalised by what lies
///   inside the content.
/// - colour filters: consecutive ones fold into one `ColorMatrix` and are one pass.
/// - `variableBlur`: σ at each texel is inputRadius × the alpha of `inputMaskImage` stretched over
///   the layer's bounds there (a per-pixel-σ gather, each axis at the σ of the texel it writes).
///   Exact where the mask is constant over the kernel's reach; where it varies, the separable
///   passes approximate the 2-D variable kernel (each axis reads its neighbours at this texel's σ).
///   Each texel is drawn at the resolution its own σ would be blurred at, so the taps per texel
///   are bounded at any radius and a texel whose mask alpha is small stays sharp
///   (`Builder+VariableBlur.swift`); σ is bounded by what its targets hold
///   (`maxVariableBlurSigma`).
///   Without a mask image it is a gaussianBlur.
/// An identity chain (σ 0, identity matrices) plans no pass.
enum FilterStep: Equatable {
    case blur(sigma: Double, normalizeEdges: Bool)
    case color(ColorMatrix)
    /// variableBlur with its mask image's size and identity.
    case variableBlur(sigma: Double, normalizeEdges: Bool, mask: ImageInfo)
}

extension Builder {
    /// The steps of a chain that change pixels, colour filters folded.
    func filterSteps(_ filters: [Filter]) -> [FilterStep] {
        Self.filterSteps(filters) { self.images[$0.origin] }
    }

    static func filterSteps(_ filters: [Filter], mask: (ImageSource) -> ImageInfo? = { _ in nil }) -> [FilterStep] {
        var steps: [FilterStep] = []
        for f in filters {
            if let m = ColorMatrix(filter: f) {
                if case .color(let prev)? = steps.last {
                    steps[steps.count - 1] = .color(prev.then(m))
                } else {
                    steps.append(.color(m))
                }
            } else if f.inputRadius.isFinite, f.inputRadius > 0 {
                if f.type == .variableBlur, let src = f.inputMaskImage, let info = mask(src), info.width > 0, info.height > 0 {
                    steps.append(.variableBlur(sigma: f.inputRadius, normalizeEdges: f.inputNormalizeEdges, mask: info))
                } else {
                    steps.append(.blur(sigma: f.inputRadius, normalizeEdges: f.inputNormalizeEdges))
                }
            }
        }
        return steps.filter { if case .color(let m) = $0 { return !m.isIdentity }; return true }
    }

    /// The largest σ of a variableBlur, in texels. Its pyramid bounds the taps per texel at any σ,
    /// but its target grows by the blur's reach (⌈3.5σ⌉ each side) and its full-resolution level
    /// (half-float, then 8-bit) covers all of it: at this σ a full-screen layer at 1170×2532 px
    /// needs about 0.7 GiB of targets and a few seconds on lavapipe; at σ 3,000 px its targets
    /// passed the frame's 4 GiB. A larger radius is drawn at this one and reported.
    static let maxVariableBlurSigma = 512.0

    /// `steps` with every variableBlur's σ (points, at `scale` texels per point) within
    /// `maxVariableBlurSigma`, reporting the layer where one was cut.
    mutating func boundedVariableBlurs(_ steps: [FilterStep], scale: Double, _ layer: Layer, _ path: [Int]) -> [FilterStep] {
        steps.map { step in
            guard case .variableBlur(let sigma, let normalize, let mask) = step, scale > 0, sigma * scale > Self.maxVariableBlurSigma else { return step }
            report(.variableBlurRadius, layer, path)
            return .variableBlur(sigma: Self.maxVariableBlurSigma / scale, normalizeEdges: normalize, mask: mask)
        }
    }

    /// How far the chain spreads the content, in texels of a target at `scale` texels per point.
    static func filterReach(_ steps: [FilterStep], scale: Double) -> Double {
        steps.reduce(0) { total, step in
            let sigma: Double
            switch step {
            case .blur(let s, false), .variableBlur(let s, false, _): sigma = s
            default: return total
            }
            return total + min((FilterOperation.kernelReach * sigma * scale).rounded(.up) + 1, 16384)
        }
    }

    /// Appends the chain's passes over pass `source` (a target of `r`'s size) and returns the last
    /// pass and the factor its target is reduced by (1, or the product of the blurs' downsampling).
    mutating func planFilterChain(_ steps: [FilterStep], _ layer: Layer, reasons: [OffscreenReason], source: Int,
                                  _ r: PixelRect, scale: Double, canvasSpace: Bool, boundsInTarget: Rect = .zero,
                                  footprint: PixelRect? = nil) -> (pass: Int, factor: Int) {
        var current = source, factor = 1
        // Where the passes' results land on the canvas (a backdrop's scaled capture covers its region).
        // The part of a target (reduced by f) that reaches the canvas, where the target is in canvas
        // pixels (not inside a shouldRasterize bitmap, not a backdrop's scaled capture).
        let onCanvas = footprint == nil && canvasSpace && cullToCanvas
        func visible(_ f: Int) -> PixelRect? {
            guard onCanvas else { return nil }
            let c = clippedToCanvas(r)
            guard !c.isEmpty else { return nil }
            let x0 = (c.x - r.x) / f, y0 = (c.y - r.y) / f
            let x1 = (c.x + c.width - r.x + f - 1) / f, y1 = (c.y + c.height - r.y + f - 1) / f
            return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        let footprint = footprint ?? r
        let space: Transform3D? = canvasSpace ? .identity : nil
        func size(_ f: Int) -> PixelRect {
            PixelRect(x: r.x, y: r.y, width: (r.width + f - 1) / f, height: (r.height + f - 1) / f)
        }
        for step in steps {
            switch step {
            case .color(let m):
                current = addPass(reasons, layer.id, size(factor), space: space,
                                  .filter(FilterOperation(source: current, kind: .colorMatrix(m.m.map { Float($0) }))), footprint: footprint)
            case .variableBlur(let sigmaPoints, let normalize, let info):
                let mask = imageSlot(info)
                let f = Double(factor)
                let rect = Rect(boundsInTarget.minX / f, boundsInTarget.minY / f, boundsInTarget.width / f, boundsInTarget.height / f)
                current = planVariableBlur(sigma: FilterBlur.clamped(sigmaPoints * scale / f), normalizeEdges: normalize, mask: mask,
                                           maskRect: rect, source: current, size: { size(factor * $0) }, reasons: reasons,
                                           layer: layer.id, space: space, footprint: footprint, visible: visible(factor))
            case .blur(let sigmaPoints, let normalize):
                let reduced = size(factor)
                let blur = FilterBlur(sigma: sigmaPoints * scale / Double(factor), side: max(reduced.width, reduced.height))
                let f = blur.downsample
                // A chain reduces at most 16× in all, unless one blur needs more to bound its taps.
                let downsampled = f > 1 && (factor * f <= 16 || f > 16)
                if downsampled {
                    factor *= f
                    current = addPass(reasons, layer.id, size(factor), space: space,
                                      .filter(FilterOperation(source: current, kind: .blur(sigma: 0, horizontal: true, downsample: f,
                                                                                        normalizeEdges: normalize))), footprint: footprint)
                }
                let sigma = downsampled ? blur.sigma : FilterBlur.clamped(sigmaPoints * scale / Double(factor))
                let h = addPass(reasons, layer.id, size(factor), space: space,
                                .filter(FilterOperation(source: current, kind: .blur(sigma: sigma, horizontal: true, downsample: 1,
                                                                                  normalizeEdges: normalize))), footprint: footprint)
                current = addPass(reasons, layer.id, size(factor), space: space,
                                  .filter(FilterOperation(source: h, kind: .blur(sigma: sigma, horizontal: false, downsample: 1,
                                                                                normalizeEdges: normalize))), footprint: footprint)
            }
        }
        return (current, factor)
    }

    /// The item drawing a filter chain's result (a target `factor` times smaller than `r`) over `r`.
    func filteredComposite(_ pass: Int, factor: Int, _ layer: Layer, _ r: PixelRect) -> DrawItem {
        var item = composite(.pass(pass), layer, r, at: Point(Double(r.x), Double(r.y)), role: .offscreen)
        if factor > 1 {
            item.uv = Rect(0, 0, Double(r.width) / Double(factor), Double(r.height) / Double(factor))
            item.paint = .offscreen(.pass(pass), sampling: .linear, opacity: 1)
        }
        return item
    }
}

/// The resolution a filter's Gaussian blur runs at: full, or reduced by f (the content averaged
/// f×f once, the two passes at 1/f the size, the result magnified bilinearly). f = 2 from σ 8 px,
/// 4 from 24, 8 from 48, 16 from 96: σ stays at least 4–6 reduced texels, where the box and tent
/// kernels the reduction adds are small against the Gaussian (the step-edge tests measure within
/// 1/255 up to σ 120 px). σ′ is corrected for their variances, (f² − 1)/12 + f²/6 px², and for
/// the reduced texel the blur's taps integrate over (1/12 texel²), as `ShadowBlur` does for shadows.
/// Beyond σ = 192 px the factor doubles until σ′ ≤ 12 texels, while the reduced target keeps 16
/// texels on its longer side (`ShadowBlur.doubled`: bounded taps for any radius); σ
/// under `ShadowBlur.minimumSigma` is no blur and σ′ stays under `ShadowBlur.maximumReducedSigma`.
struct FilterBlur: Equatable {
    var downsample: Int
    var sigma: Double

    /// σ planned without reduction: 0 below the smallest visible blur, bounded above.
    static func clamped(_ s: Double) -> Double {
        min(ShadowBlur.visibleSigma(s), ShadowBlur.maximumReducedSigma)
    }

    init(sigma s: Double, side: Int = 1 << 20) {
        guard s >= ShadowBlur.minimumSigma else { downsample = 1; sigma = 0; return }
        let f = ShadowBlur.doubled(s >= 96 ? 16 : s >= 48 ? 8 : s >= 24 ? 4 : s >= 8 ? 2 : 1, sigma: s, side: side)
        downsample = f
        if f == 1 {
            sigma = min(s, ShadowBlur.maximumReducedSigma)
        } else {
            let ff = Double(f * f)
            sigma = min(max((s * s - (ff - 1) / 12 - ff / 6) / ff - 1.0 / 12, 0).squareRoot(), ShadowBlur.maximumReducedSigma)
        }
    }
}
