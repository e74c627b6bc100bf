/// compositingFilter: how a layer's flattened rendering combines with what lies beneath it
/// (reference §1.11b). Spelled as Core Animation's CAFilter names (scene-format.md "Filters").
///
/// The blend modes are W3C Compositing and Blending Level 1's (the PDF modes Core Graphics and
/// Core Image share), applied with the general formula on premultiplied colour,
/// Cs' = (1 − αb)·Cs + αb·B(Cb, Cs), then source-over. The Porter-Duff operators replace
/// source-over by their own (Fa, Fb) pair; plusL and plusD are Core Graphics' kCGBlendModePlusLighter
/// and kCGBlendModePlusDarker.
public enum CompositingFilter: String, CaseIterable, Sendable {
    /// nil in Core Animation: plain source-over.
    case normalBlendMode
    // Separable blend modes: B applies per colour channel.
    case multiplyBlendMode, screenBlendMode, overlayBlendMode, darkenBlendMode, lightenBlendMode
    case colorDodgeBlendMode, colorBurnBlendMode, softLightBlendMode, hardLightBlendMode
    case differenceBlendMode, exclusionBlendMode
    // Core Image's further separable modes (CILinearBurnBlendMode…), which Core Animation takes by
    // the same names; Apple describes them in words only, so B is the common definition
    // (`Plan`'s `BlendFormula`): linear burn max(0, Cb + Cs − 1), linear dodge min(1, Cb + Cs),
    // linear light clamp(Cb + 2·Cs − 1), pin light, vivid light, subtract, divide.
    case linearBurnBlendMode, linearDodgeBlendMode, linearLightBlendMode, pinLightBlendMode, vividLightBlendMode
    case subtractBlendMode, divideBlendMode
    // Non-separable blend modes: B works on the colour as a whole (hue, saturation, luminosity).
    case hueBlendMode, saturationBlendMode, colorBlendMode, luminosityBlendMode
    // Porter-Duff operators (W3C Compositing §9.1).
    case sourceAtop, sourceIn, sourceOut, destinationOver, destinationIn, destinationOut, xor
    /// plus lighter: min(1, src + dst) per premultiplied component.
    case plusL
    /// plus darker: max(0, 1 − ((αs − cs) + (αb − cb))) per premultiplied component (see `Plan`'s
    /// `BlendEquation.plusDarker` for where the formula comes from).
    case plusD

    /// A blend mode (B(Cb, Cs) with source-over) rather than a Porter-Duff operator.
    public var isBlendMode: Bool { rawValue.hasSuffix("BlendMode") }
}
