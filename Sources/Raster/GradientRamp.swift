/// A CAGradientLayer's colour ramp (reference §2.2, §5.2): `width` texels, texel i holding the
/// gradient at t = i / (width − 1), premultiplied RGBA8, sRGB-encoded.
///
/// Colours are interpolated component-wise in encoded sRGB (Core Animation's render space), on
/// **premultiplied** components: a fade from a colour to `clear` (0, 0, 0, 0) keeps the colour's
/// hue while its alpha falls, instead of darkening through grey as straight-alpha interpolation
/// would. Before the first location the first colour holds, after the last the last (pad).
/// Locations are used as given (Core Animation requires them increasing); a stop equal to the
/// previous one makes a hard edge.
public enum GradientRamp {
    /// `colors`: (r, g, b, a) straight, 0…1 (clamped); `locations`: one per colour.
    public static func bitmap(colors: [[Double]], locations: [Double], width: Int, key: UInt64) -> Bitmap {
        let n = min(colors.count, locations.count)
        var pixels = [UInt8](repeating: 0, count: max(width, 0) * 4)
        guard n > 0, width > 0 else { return Bitmap(width: max(width, 0), height: width > 0 ? 1 : 0, pixels: pixels, contentHash: key) }
        let pm: [[Double]] = colors.prefix(n).map { c in
            let a = min(max(c[3], 0), 1)
            return [min(max(c[0], 0), 1) * a, min(max(c[1], 0), 1) * a, min(max(c[2], 0), 1) * a, a]
        }
        for i in 0..<width {
            let t = width == 1 ? 0 : Double(i) / Double(width - 1)
            var c = pm[n - 1]
            if t <= locations[0] {
                c = pm[0]
            } else {
                for k in 0..<(n - 1) where t <= locations[k + 1] {
                    let span = locations[k + 1] - locations[k]
                    let f = span > 0 ? (t - locations[k]) / span : 1
                    c = (0..<4).map { pm[k][$0] + (pm[k + 1][$0] - pm[k][$0]) * f }
                    break
                }
            }
            for j in 0..<4 { pixels[i * 4 + j] = UInt8((min(max(c[j], 0), 1) * 255).rounded()) }
        }
        return Bitmap(width: width, height: 1, pixels: pixels, contentHash: key)
    }
}
