/// Area-averaging (box filter) downscale of premultiplied RGBA8, for thumbnails.
///
/// Each destination pixel is the average of the source area it covers, with source pixels that
/// straddle its edges weighted by the fraction inside (so any ratio works, not only integers).
/// The filter is separable — a horizontal pass then a vertical one, accumulated in `Float` and
/// rounded once at the end — and runs on premultiplied pixels, so transparent pixels do not bleed
/// their colour into neighbours. Enlarging is not its job: each side must not grow.
public func boxDownscale(_ pixels: [UInt8], width: Int, height: Int, toWidth dw: Int, toHeight dh: Int) -> [UInt8] {
    precondition(pixels.count == width * height * 4, "boxDownscale: pixel count does not match size")
    precondition(dw >= 1 && dh >= 1 && dw <= width && dh <= height, "boxDownscale: only shrinks")
    let xw = FlatTaps(boxWeights(from: width, to: dw)), yw = FlatTaps(boxWeights(from: height, to: dh))
    // Horizontal: height rows of dw pixels.
    var rows = [Float](repeating: 0, count: height * dw * 4)
    pixels.withUnsafeBufferPointer { src in
        rows.withUnsafeMutableBufferPointer { dst in
            xw.index.withUnsafeBufferPointer { xi in
                xw.weight.withUnsafeBufferPointer { xf in
                    for y in 0..<height {
                        let s = y * width * 4, d = y * dw * 4
                        for x in 0..<dw {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            for t in xw.start[x]..<xw.start[x + 1] {
                                let p = s + xi[t] * 4, w = xf[t]
                                r += w * Float(src[p]); g += w * Float(src[p + 1])
                                b += w * Float(src[p + 2]); a += w * Float(src[p + 3])
                            }
                            let q = d + x * 4
                            dst[q] = r; dst[q + 1] = g; dst[q + 2] = b; dst[q + 3] = a
                        }
                    }
                }
            }
        }
    }
    // Vertical: dh rows, then round once (half away from zero, as Float.rounded(), without a libm call).
    var out = [UInt8](repeating: 0, count: dw * dh * 4)
    let n = dw * 4
    rows.withUnsafeBufferPointer { src in
        out.withUnsafeMutableBufferPointer { dst in
            var acc = [Float](repeating: 0, count: n)
            acc.withUnsafeMutableBufferPointer { acc in
                for y in 0..<dh {
                    for k in 0..<n { acc[k] = 0 }
                    for t in yw.start[y]..<yw.start[y + 1] {
                        let s = yw.index[t] * n, w = yw.weight[t]
                        for k in 0..<n { acc[k] += w * src[s + k] }
                    }
                    let d = y * n
                    for k in 0..<n { dst[d + k] = roundedByte(acc[k]) }
                }
            }
        }
    }
    return out
}

/// `UInt8(min(255, max(0, v.rounded())))`: truncation is exact below 2^23 and `v − t` is exact.
@inline(__always) private func roundedByte(_ v: Float) -> UInt8 {
    guard v > 0 else { return 0 }
    guard v < 255 else { return 255 }
    let t = Float(Int32(v))
    return UInt8(v - t >= 0.5 ? t + 1 : t)
}

/// `boxWeights` in three flat arrays: cell i's taps are `start[i] ..< start[i + 1]`.
private struct FlatTaps {
    var start: [Int] = [0], index: [Int] = [], weight: [Float] = []
    init(_ taps: [[(Int, Float)]]) {
        for cell in taps {
            for (i, w) in cell { index.append(i); weight.append(w) }
            start.append(index.count)
        }
    }
}

/// For each of `n` destination cells over `m` source cells (n ≤ m): the source indices it covers and
/// their weights (the covered fraction of each, divided by the cell's width, so they sum to 1).
func boxWeights(from m: Int, to n: Int) -> [[(Int, Float)]] {
    let step = Double(m) / Double(n)
    return (0..<n).map { i in
        let lo = Double(i) * step, hi = Double(i + 1) * step
        var taps: [(Int, Float)] = []
        var j = Int(lo.rounded(.down))
        while Double(j) < hi - 1e-9 && j < m {
            let cover = min(hi, Double(j + 1)) - max(lo, Double(j))
            if cover > 1e-9 { taps.append((j, Float(cover / step))) }
            j += 1
        }
        return taps
    }
}

extension Bitmap {
    /// This bitmap shrunk to `width`×`height` by `boxDownscale`.
    public func downscaled(toWidth w: Int, height h: Int) -> Bitmap {
        Bitmap(width: w, height: h, pixels: boxDownscale(pixels, width: width, height: height, toWidth: w, toHeight: h))
    }
}
