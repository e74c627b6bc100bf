/// Where a texture is fully opaque: per texel row, the ranges of texels whose alpha is 255. With it
/// the blended analysis counts an image or a shape's or text's rasterised content as blended only
/// where it lets the background through (a filled shape's interior replaces what lies beneath;
/// its antialiased rim and the transparent texels around it blend), instead of over its whole
/// quad. Used only where the item maps texels 1:1 onto device pixels on the grid; a resampled
/// texture mixes neighbouring texels, so there it stays blended as a whole.
public struct OpaqueTexels: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// rows[y]: sorted, disjoint ranges of x with alpha 255.
    public let rows: [[Range<Int>]]

    /// From premultiplied RGBA8 texels, row-major (`pixels.count == width × height × 4`).
    public init(width: Int, height: Int, rgba pixels: [UInt8]) {
        self.width = width; self.height = height
        var rows: [[Range<Int>]] = []
        rows.reserveCapacity(height)
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                var row: [Range<Int>] = []
                var start = -1
                let base = y * width * 4 + 3
                for x in 0..<width {
                    let opaque = base + x * 4 < p.count && p[base + x * 4] == 255
                    if opaque, start < 0 { start = x }
                    if !opaque, start >= 0 { row.append(start..<x); start = -1 }
                }
                if start >= 0 { row.append(start..<width) }
                rows.append(row)
            }
        }
        self.rows = rows
    }

    /// Calls `body` for the pieces of texel row `y`, columns `xs`, in order, each with whether it
    /// is opaque. Texels outside the texture are not opaque.
    func forEachPiece(row y: Int, _ xs: Range<Int>, _ body: (Range<Int>, Bool) -> Void) {
        guard y >= 0, y < height else { body(xs, false); return }
        var x = xs.lowerBound
        for r in rows[y] where r.upperBound > x {
            if r.lowerBound >= xs.upperBound { break }
            let start = max(r.lowerBound, x)
            if start > x { body(x..<start, false) }
            let end = min(r.upperBound, xs.upperBound)
            body(start..<end, true)
            x = end
            if x >= xs.upperBound { return }
        }
        if x < xs.upperBound { body(x..<xs.upperBound, false) }
    }
}
