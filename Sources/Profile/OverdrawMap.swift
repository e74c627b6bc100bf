/// How many draw items shade each device pixel of one frame, saturating at 255. Rows top-down,
/// no padding. The input of the overdraw heat map; its histogram goes into the report.
public struct OverdrawMap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public private(set) var counts: [UInt8]

    public init(width: Int, height: Int) {
        self.width = width; self.height = height
        counts = [UInt8](repeating: 0, count: width * height)
    }

    public func count(_ x: Int, _ y: Int) -> Int { Int(counts[y * width + x]) }

    /// Adds one layer of drawing over `coverage`; returns the number of pixels it covers.
    @discardableResult
    public mutating func add(_ coverage: PixelCoverage) -> Int {
        let w = width
        var n = 0
        counts.withUnsafeMutableBufferPointer { buf in
            coverage.forEachSpan { y, xs in
                n += xs.count
                let row = y * w
                for i in (row + xs.lowerBound)..<(row + xs.upperBound) where buf[i] < 255 { buf[i] += 1 }
            }
        }
        return n
    }

    public var maxCount: Int { Int(counts.max() ?? 0) }

    /// Pixels drawn 0, 1, 2, 3 and 4-or-more times. (Android's overdraw scale counts draws beyond
    /// the first: drawn twice is "1×"; the heat map, `OverlayPainter`, follows Android.)
    public var histogram: [Int] {
        // One pass over every pixel of every frame: count by byte value into an unchecked table
        // (no clamp, no array checks per pixel), then fold 4 and above.
        var byValue = [Int](repeating: 0, count: 256)
        byValue.withUnsafeMutableBufferPointer { h in
            counts.withUnsafeBufferPointer { buf in for c in buf { h[Int(c)] += 1 } }
        }
        return [byValue[0], byValue[1], byValue[2], byValue[3], byValue[4...].reduce(0, +)]
    }
}
