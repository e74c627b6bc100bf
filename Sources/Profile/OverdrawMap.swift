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
                Self.increment(buf, (row + xs.lowerBound)..<(row + xs.upperBound))
            }
        }
        return n
    }

    /// Adds one draw over pixels `xs` of row `y`.
    mutating func add(y: Int, _ xs: Range<Int>) {
        let row = y * width
        counts.withUnsafeMutableBufferPointer { buf in Self.increment(buf, (row + xs.lowerBound)..<(row + xs.upperBound)) }
    }

    /// One more draw at each count in `range`, saturating at 255: branch-free, so the compiler
    /// turns it into vector saturating adds (a branch per pixel kept it byte by byte).
    @inline(__always)
    private static func increment(_ buf: UnsafeMutableBufferPointer<UInt8>, _ range: Range<Int>) {
        for i in range { let v = buf[i]; buf[i] = v &+ (v == 255 ? 0 : 1) }
    }

    public var maxCount: Int { Int(counts.max() ?? 0) }

    /// Pixels drawn 0, 1, 2, 3 and 4-or-more times. (Android's overdraw scale counts draws beyond
    /// the first: drawn twice is "1×"; the heat map, `OverlayPainter`, follows Android.)
    public var histogram: [Int] {
        // One pass over every pixel of every frame, so it is written for speed: eight pixels at a
        // time, with the common runs (all 0, all 1) counted without looking at single bytes, and
        // the rest counted by byte value into four unchecked tables (four, so consecutive equal
        // bytes do not wait on one counter); then 4 and above are folded.
        var byValue = [Int](repeating: 0, count: 4 * 256)
        var zeros = 0, ones = 0
        byValue.withUnsafeMutableBufferPointer { h in
            counts.withUnsafeBytes { raw in
                let n = raw.count, words = n / 8
                let allOnes: UInt64 = 0x0101_0101_0101_0101
                for w in 0..<words {
                    let v = raw.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)
                    if v == 0 { zeros += 8; continue }
                    if v == allOnes { ones += 8; continue }
                    var x = v
                    for k in 0..<8 { h[(k & 3) * 256 + Int(x & 0xFF)] += 1; x >>= 8 }
                }
                for i in (words * 8)..<n { h[Int(raw[i])] += 1 }
            }
        }
        func total(_ value: Int) -> Int { byValue[value] + byValue[256 + value] + byValue[512 + value] + byValue[768 + value] }
        let fourPlus = (4..<256).reduce(0) { $0 + total($1) }
        return [zeros + total(0), ones + total(1), total(2), total(3), fourPlus]
    }
}
