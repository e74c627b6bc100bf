import Geometry
import LayerModel

/// `variableBlur` as a pyramid of resolutions, so its cost is bounded at any radius.
///
/// σₜ, the blur at a texel, is inputRadius × the mask's alpha there: anything from 0 (sharp) to
/// σ. One full-resolution gather of ⌈3.5σₜ⌉ taps per axis costs σ per texel (a full-screen layer
/// at σ 42 pt at 3× took 8.7 s a frame on lavapipe; with the levels, about 0.5 s). A Gaussian blur
/// reduces its resolution for a large σ (`FilterBlur`), but a variable one cannot reduce as a whole: where σₜ is small the
/// result must stay sharp. So each texel is drawn at the resolution `FilterBlur` would pick for its
/// own σₜ:
///
/// | σₜ (texels) | level |
/// |---|---|
/// | under 8 | full resolution, σₜ itself (the gather as before) |
/// | 8 … 24 | ½, the source averaged 2×2 |
/// | 24 … 48, 48 … 96, … | ¼, ⅛, …: each octave of σₜ one level further |
///
/// and from σ′ ≥ 4 reduced texels on, as there, the box averaging and the bilinear magnification
/// are small against the Gaussian: their variances are subtracted from σₜ² (`VariableBlurLevel`).
/// Each level blurs its own downsampled copy (each level averages the one above 2×2, the same as
/// averaging the source d×d) with σₜ capped at its band's top, coarsest first; the vertical pass of
/// each level takes, where σₜ passes its band, the next coarser level's result magnified 2×, so
/// the full-resolution result holds every texel from its own level. Over the top quarter of its
/// band a texel fades into the coarser level's result, so no row steps where σ passes from one
/// level to the next (each level is within 1/255 of the Gaussian on a step edge, in the fades too;
/// a hard switch stepped by up to 3/255 on stripes). The taps are bounded: at most
/// ⌈3.5 × 8⌉ each side at full resolution and about ⌈3.5 × 12⌉ at every other level; a horizontal
/// pass gathers only where a texel of its level within the vertical pass's reach (same column)
/// reads it, which the shader finds exactly from the mask's texels in that span (elsewhere it
/// copies the texel: most of a full-resolution level, where the mask is mostly opaque). On the
/// canvas the full-resolution level draws only what reaches it (`FilterOperation.region`): the
/// target is grown by the whole blur's reach for the reduced levels, which gather from that far.
///
/// The coarsest level keeps 16 texels on its longer side (as `ShadowBlur.doubled`); it draws every
/// σₜ beyond the band above it. A σ under 8 texels is one full-resolution level, as before.
enum VariableBlurPyramid {
    /// σₜ below which the full resolution gathers: `FilterBlur`'s first reduction.
    static let fullResolutionBand = 8.0

    /// The levels, finest first, for a largest σ of `sigma` texels over a target whose longer side
    /// is `side` texels.
    static func levels(sigma: Double, side: Int) -> [VariableBlurLevel] {
        guard sigma >= fullResolutionBand else { return [.whole] }
        var levels = [VariableBlurLevel(downsample: 1, variance: 0, upper: fullResolutionBand)]
        var magnification = 0.0   // Σ g²/6 over the 2× magnifications g = 2, 4, … d: a tent of g texels each
        var d = 2
        while true {
            magnification += Double(d * d) / 6
            let variance = (Double(d * d) - 1) / 12 + magnification
            let upper = 12 * Double(d)
            // The last level: σ within its band, or a coarser one would fall under 16 texels.
            let last = sigma < upper || side / (2 * d) < ShadowBlur.minimumReducedSide || d >= 1 << 20
            levels.append(VariableBlurLevel(downsample: d, variance: variance, upper: last ? .infinity : upper))
            if last { return levels }
            d *= 2
        }
    }
}

extension Builder {
    /// Appends a variableBlur's passes over pass `source` (a target of `size(1)`, whose texels σ is
    /// in) and returns the pass holding its result at that size. `size(d)`: the target a level `d`
    /// times smaller; `maskRect`: the layer's bounds in `source`'s texels; the other arguments are
    /// `addPass`'s for each pass.
    /// `visible`: the part of the full-resolution target ever shown (texels of `source`), or nil.
    mutating func planVariableBlur(sigma: Double, normalizeEdges: Bool, mask: Int, maskRect: Rect, source: Int,
                                   size: (Int) -> PixelRect, reasons: [OffscreenReason], layer: LayerID,
                                   space: Transform3D?, footprint: PixelRect, visible: PixelRect? = nil) -> Int {
        let full = size(1)
        let levels = VariableBlurPyramid.levels(sigma: sigma, side: max(full.width, full.height))
        func add(_ target: PixelRect, _ op: FilterOperation) -> Int {
            addPass(reasons, layer, target, space: space, .filter(op), footprint: footprint)
        }
        // The downsampled copies, finest first (the full resolution is the source itself).
        var sources = [source]
        for level in levels.dropFirst() {
            sources.append(add(size(level.downsample), FilterOperation(
                source: sources[sources.count - 1], kind: .blur(sigma: 0, horizontal: true, downsample: 2, normalizeEdges: normalizeEdges))))
        }
        // Coarsest first: each vertical pass reads the next coarser level's result.
        var coarser: Int?
        for (level, levelSource) in zip(levels, sources).reversed() {
            let d = Double(level.downsample)
            let rect = Rect(maskRect.minX / d, maskRect.minY / d, maskRect.width / d, maskRect.height / d)
            let target = size(level.downsample)
            // The full resolution, the largest level, draws only what is shown, and horizontally
            // the rows its vertical pass reads for that.
            var hRegion: PixelRect?, vRegion: PixelRect?
            if level.downsample == 1, let v = visible {
                let reach = level.reach(sigma: sigma)
                vRegion = v
                hRegion = DamageRegion.intersection(PixelRect(x: v.x, y: v.y - reach, width: v.width, height: v.height + 2 * reach),
                                                    PixelRect(x: 0, y: 0, width: target.width, height: target.height))
            }
            let h = add(target, FilterOperation(source: levelSource, kind: .variableBlur(
                sigma: sigma, horizontal: true, normalizeEdges: normalizeEdges, mask: mask, maskRect: rect, level: level), region: hRegion))
            coarser = add(target, FilterOperation(source: h, kind: .variableBlur(
                sigma: sigma, horizontal: false, normalizeEdges: normalizeEdges, mask: mask, maskRect: rect, level: level),
                coarse: coarser, region: vRegion))
        }
        return coarser ?? source
    }
}
