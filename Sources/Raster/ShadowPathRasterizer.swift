import Dispatch
import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// A shadowPath's shadow, for the CPU rasteriser: the path filled with the non-zero winding rule,
/// blurred, in one colour.
public struct ShadowPathRasterJob: Sendable, Equatable {
    public var path: Path
    /// (r, g, b, a), sRGB-encoded, not premultiplied.
    public var color: [Double]
    /// The Gaussian's standard deviation along each axis, in pixels of this bitmap.
    public var sigmaX: Double, sigmaY: Double
    /// Path point → pixel: x·scaleX + offsetX, y·scaleY + offsetY.
    public var scaleX = 1.0, scaleY = 1.0, offsetX = 0.0, offsetY = 0.0
    public var pixelWidth: Int
    public var pixelHeight: Int

    public init(path: Path, color: [Double], sigmaX: Double, sigmaY: Double, pixelWidth: Int, pixelHeight: Int) {
        self.path = path; self.color = color; self.sigmaX = sigmaX; self.sigmaY = sigmaY
        self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
    }
}

/// Rasterises a shadowPath's shadow: cairo fills the path (antialiased coverage), then a separable
/// Gaussian blurs the coverage in single-precision floats, and the colour is multiplied in once,
/// at the end, so the bitmap is rounded to 8 bits a single time. The kernel is the GPU blur's of a
/// path-less shadow (`Shaders/blur.frag`): taps at whole pixels k ∈ [−⌈3σ⌉, ⌈3σ⌉] weighted by
/// exp(−k²/2σ²), normalised by their sum, and transparent beyond the bitmap, so a shadow reads the
/// same whether its shape came from a path or from the layer's alpha.
///
/// Written here rather than taken from a library: cairo has no blur, and this is a dozen lines of
/// loops the compiler vectorises (both passes run along rows).
public enum ShadowPathRasterizer {
    /// `key` becomes the bitmap's `contentHash`.
    public static func rasterize(_ job: ShadowPathRasterJob, key: UInt64) throws -> Bitmap {
        let w = max(job.pixelWidth, 0), h = max(job.pixelHeight, 0)
        guard w > 0, h > 0 else { return Bitmap(width: 0, height: 0, pixels: [], contentHash: key) }
        var shape = ShapeRasterJob(fillPath: job.path, strokePath: Path(), pixelWidth: w, pixelHeight: h)
        shape.fill = [1, 1, 1, 1]
        shape.scaleX = job.scaleX; shape.scaleY = job.scaleY
        shape.offsetX = job.offsetX; shape.offsetY = job.offsetY
        var coverage = try ShapeRasterizer.rasterize(shape, key: key)
        var pixels = coverage.pixels
        coverage.pixels = []                                   // `pixels` is the only reference: reused for the result
        var alpha = [Float](repeating: 0, count: w * h)
        pixels.withUnsafeBufferPointer { px in
            for i in 0..<(w * h) { alpha[i] = Float(px[i * 4 + 3]) * (1 / 255) }
        }
        GaussianBlur.blur(&alpha, width: w, height: h, sigmaX: job.sigmaX, sigmaY: job.sigmaY)

        let c = job.color.map { Float(min(max($0, 0), 1)) }
        let a = c.count == 4 ? c[3] : 1
        let tint: (Float, Float, Float, Float) = c.count == 4 ? (c[0] * a * 255, c[1] * a * 255, c[2] * a * 255, a * 255) : (0, 0, 0, 255)
        alpha.withUnsafeBufferPointer { alpha in
            pixels.withUnsafeMutableBufferPointer { out in
                for i in 0..<(w * h) {
                    // Rounded half up (every value is ≥ 0), as the GPU's unorm conversion rounds.
                    let v = min(max(alpha[i], 0), 1)
                    out[i * 4] = UInt8(tint.0 * v + 0.5); out[i * 4 + 1] = UInt8(tint.1 * v + 0.5)
                    out[i * 4 + 2] = UInt8(tint.2 * v + 0.5); out[i * 4 + 3] = UInt8(tint.3 * v + 0.5)
                }
            }
        }
        return Bitmap(width: w, height: h, pixels: pixels, contentHash: key)
    }
}

/// One axis of a discrete Gaussian over a single-channel float image (rows top to bottom).
///
/// A filled path's coverage is mostly runs of 0 and 1, and a window of the kernel that lies
/// within one run gives that value (the weights sum to 1): only the texels whose window crosses a
/// change, the bands along the path's edges, are convolved. Those runs are found per row in one
/// sweep; the vertical pass transposes, blurs rows and transposes back, so both passes stream
/// along rows and the compiler vectorises the taps across texels. Rows are shared between cores.
public enum GaussianBlur {
    /// The normalised weights at k = −R…R, R = ⌈3σ⌉; [1] for σ ≤ 0.
    public static func kernel(sigma: Double) -> [Float] {
        guard sigma > 0, sigma.isFinite else { return [1] }
        let r = Int((3 * sigma).rounded(.up))
        // (k/σ)² rather than k²/σ²: a σ so small that σ² underflows gives [0, 1, 0], not 0/0.
        var weights = (-r...r).map { k in exp(-0.5 * (Double(k) / sigma) * (Double(k) / sigma)) }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        return weights.map(Float.init)
    }

    /// Blurs `image` (w×h) in place: rows by a Gaussian of `sigmaX`, then columns by `sigmaY`.
    public static func blur(_ image: inout [Float], width w: Int, height h: Int, sigmaX: Double, sigmaY: Double) {
        guard w > 0, h > 0, image.count == w * h else { return }
        blurRows(&image, width: w, height: h, sigma: sigmaX)
        guard kernel(sigma: sigmaY).count > 1 else { return }
        var t = transpose(image, w, h)
        blurRows(&t, width: h, height: w, sigma: sigmaY)
        image = transpose(t, h, w)
    }

    /// Blurs each row of the w×h `image` in place.
    static func blurRows(_ image: inout [Float], width w: Int, height h: Int, sigma: Double) {
        let k = kernel(sigma: sigma)
        guard k.count > 1, w > 0, h > 0 else { return }
        image.withUnsafeMutableBufferPointer { img in
            k.withUnsafeBufferPointer { kw in
                let bands = min(h, 16)
                DispatchQueue.concurrentPerform(iterations: bands) { b in
                    blurRows(img, w, (h * b / bands)..<(h * (b + 1) / bands), kw)
                }
            }
        }
    }

    /// Blurs `rows` of `image` in place, each row read as if between R zeros on either side (a
    /// row is copied out before it is written).
    private static func blurRows(_ image: UnsafeMutableBufferPointer<Float>, _ w: Int, _ rows: Range<Int>,
                                 _ k: UnsafeBufferPointer<Float>) {
        let r = k.count / 2
        var padded = [Float](repeating: 0, count: w + 2 * r)
        // next[i]: the first j ≥ i where padded[j] ≠ padded[j − 1] (w + 2r when none).
        var next = [Int](repeating: 0, count: w + 2 * r + 1)
        padded.withUnsafeMutableBufferPointer { p in
            next.withUnsafeMutableBufferPointer { next in
                for y in rows {
                    for x in 0..<w { p[r + x] = image[y * w + x] }
                    let n = w + 2 * r
                    next[n] = n
                    var i = n - 1
                    while i >= 1 { next[i] = p[i] != p[i - 1] ? i : next[i + 1]; i -= 1 }
                    next[0] = next[1]
                    let o = image.baseAddress! + y * w
                    // The window of output x is padded[x ... x + 2r]: constant when no change
                    // falls in x + 1 ... x + 2r.
                    var x = 0
                    while x < w {
                        if next[x + 1] > x + 2 * r {
                            o[x] = p[x + r]
                            x += 1
                            continue
                        }
                        // A span of windows that cross a change: up to where windows are constant again.
                        var end = x + 1
                        while end < w, next[end + 1] <= end + 2 * r { end += 1 }
                        for xx in x..<end { o[xx] = 0 }
                        for j in 0..<k.count {
                            let weight = k[j]
                            let q = p.baseAddress! + j
                            for xx in x..<end { o[xx] += weight * q[xx] }
                        }
                        x = end
                    }
                }
            }
        }
    }

    /// The w×h image as h×w (rows become columns), in 32×32 tiles.
    private static func transpose(_ a: [Float], _ w: Int, _ h: Int) -> [Float] {
        var t = [Float](repeating: 0, count: w * h)
        a.withUnsafeBufferPointer { a in
            t.withUnsafeMutableBufferPointer { t in
                for y0 in stride(from: 0, to: h, by: 32) {
                    for x0 in stride(from: 0, to: w, by: 32) {
                        for y in y0..<min(y0 + 32, h) {
                            for x in x0..<min(x0 + 32, w) { t[x * h + y] = a[y * w + x] }
                        }
                    }
                }
            }
        }
        return t
    }
}
