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
    let xw = boxWeights(from: width, to: dw), yw = boxWeights(from: height, to: dh)
    // Horizontal: height rows of dw pixels.
    var rows = [Float](repeating: 0, count: height * dw * 4)
    pixels.withUnsafeBufferPointer { src in
        rows.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let s = y * width * 4, d = y * dw * 4
                for x in 0..<dw {
                    var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                    for (i, w) in xw[x] {
                        let p = s + i * 4
                        r += w * Float(src[p]); g += w * Float(src[p + 1])
                        b += w * Float(src[p + 2]); a += w * Float(src[p + 3])
                    }
                    let q = d + x * 4
                    dst[q] = r; dst[q + 1] = g; dst[q + 2] = b; dst[q + 3] = a
                }
            }
        }
    }
    // Vertical: dh rows, then round once.
    var out = [UInt8](repeating: 0, count: dw * dh * 4)
    rows.withUnsafeBufferPointer { src in
        out.withUnsafeMutableBufferPointer { dst in
            var acc = [Float](repeating: 0, count: dw * 4)
            for y in 0..<dh {
                for k in acc.indices { acc[k] = 0 }
                for (j, w) in yw[y] {
                    let s = j * dw * 4
                    for k in 0..<(dw * 4) { acc[k] += w * src[s + k] }
                }
                let d = y * dw * 4
                for k in 0..<(dw * 4) { dst[d + k] = UInt8(min(255, max(0, acc[k].rounded()))) }
            }
        }
    }
    return out
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
