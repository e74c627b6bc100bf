extension Bitmap {
    /// Every pixel has alpha 255: the image hides whatever lies beneath it (the profiler's
    /// `blended` analysis). Scans the alpha bytes, stopping at the first translucent one.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count { if p[i] != 255 { return false }; i += 4 }
            return true
        }
    }
}

extension Bitmap {
    /// Pixels whose alpha is 255 (the profiler's `blended` finding says how much of an image with
    /// an alpha channel is opaque). One pass over the alpha bytes.
    public var opaquePixelCount: Int {
        pixels.withUnsafeBufferPointer { p in
            var n = 0, i = 3
            while i < p.count { n += p[i] == 255 ? 1 : 0; i += 4 }
            return n
        }
    }
}

extension Bitmap {
    /// The smallest alpha byte of any pixel (255 for an opaque image, 0 for an empty one): stack
    /// culling counts a large translucent image as covering its whole quad at least this much
    /// (`StackCulling`). Stops at the first fully transparent pixel.
    public var minimumAlpha: UInt8 {
        pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            var least: UInt32 = 255
            var i = 0
            // In rows of 4,096 pixels, each reduced without a branch (vectorised), then checked.
            while i < words.count && least > 0 {
                let end = min(i + 4096, words.count)
                var m: UInt32 = 255
                for j in i..<end { m = min(m, UInt32(littleEndian: words[j]) >> 24) }
                least = min(least, m)
                i = end
            }
            return words.isEmpty ? 0 : UInt8(least)
        }
    }
}

extension Bitmap {
    /// The opaque parts of a translucent image, for stack culling: rectangles (texel units, within
    /// the image) made of `cell`×`cell` cells whose every pixel has alpha 255, merged along rows
    /// and then down columns; nil when they would take more than `maxRects` rectangles. Each
    /// cell's scan stops at its first translucent pixel.
    public func opaqueRects(cell: Int = 32, maxRects: Int = 4096) -> [(x: Int, y: Int, width: Int, height: Int)]? {
        guard width > 0, height > 0, cell > 0 else { return [] }
        let columns = (width + cell - 1) / cell, rows = (height + cell - 1) / cell
        var opaque = [Bool](repeating: false, count: columns * rows)
        pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            let alpha = UInt32(0xFF).littleEndian << 24   // RGBA8: alpha is the fourth byte
            for row in 0..<rows {
                let y0 = row * cell, y1 = min(y0 + cell, height)
                for column in 0..<columns {
                    let x0 = column * cell, x1 = min(x0 + cell, width)
                    var all = true
                    scan: for y in y0..<y1 {
                        let base = y * width
                        for x in x0..<x1 where words[base + x] & alpha != alpha { all = false; break scan }
                    }
                    opaque[row * columns + column] = all
                }
            }
        }
        // Runs of opaque cells per row; a run continues the rectangle above with the same span.
        var rects: [(x: Int, y: Int, width: Int, height: Int)] = []
        var open: [Int: Int] = [:]   // run start column × 65536 + end column → index in rects
        for row in 0..<rows {
            var next: [Int: Int] = [:]
            var column = 0
            while column < columns {
                guard opaque[row * columns + column] else { column += 1; continue }
                let start = column
                while column < columns, opaque[row * columns + column] { column += 1 }
                let key = start * 65536 + column
                let y1 = min((row + 1) * cell, height)
                if let i = open[key] {
                    rects[i].height = y1 - rects[i].y
                    next[key] = i
                } else {
                    let x0 = start * cell
                    rects.append((x0, row * cell, min(column * cell, width) - x0, y1 - row * cell))
                    next[key] = rects.count - 1
                }
            }
            open = next
            if rects.count > maxRects { return nil }
        }
        return rects
    }
}
