/// Per device pixel of one frame, what Color Blended Layers shows there: whether the pixel's final
/// colour involves blending, and why. Built from every item's coverage runs, top item first
/// (`applyFromAbove`, which also says where each fragment shows), with the rules of draw order:
///
/// - a fragment of full coverage from an item whose paint is opaque replaces the pixel: the
///   pixel is opaque again (depth 0);
/// - a fragment from an item that blends wherever it covers (`BlendReason.blendsEveryPixel`:
///   its paint, a shadow, a masked result, a transition's state, an additive particle) adds one
///   to the depth and marks the pixel as blended by paint;
/// - a fragment of partial coverage (an antialiased edge, a rounded corner, the rim of a rounded
///   clip) from an opaque paint adds one to the depth without the paint mark.
///
/// So a pixel is *blended* (depth ≥ 1) when at least one blended fragment lies above the topmost
/// fragment that replaced it, and *edge-blended* when all of those are partial edge fragments.
/// These are the definitions of `FrameCounters.blendedPixels` and `edgeBlendedPixels` (Profile
/// README, "Figures").
public struct BlendMap: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Bit 7: blended by paint above the topmost replacing fragment; bit 6: that replacing
    /// fragment has been seen (only while building from above); bits 0–5: blended fragments above
    /// it (saturating at 63); 0 for opaque or never-drawn pixels.
    public private(set) var states: [UInt8]

    public init(width: Int, height: Int) {
        self.width = width; self.height = height
        states = [UInt8](repeating: 0, count: width * height)
    }

    static let paintBit: UInt8 = 0x80
    static let sealedBit: UInt8 = 0x40

    /// Applies one item's run, items visited from the top of the frame down: pixels already sealed
    /// by a replacing fragment above are left alone; for a blending run, `visible` receives the
    /// runs of pixels where this fragment is not hidden (it is part of what the pixel shows).
    mutating func applyFromAbove(y: Int, _ xs: Range<Int>, paintBlends: Bool, partial: Bool, visible: (Range<Int>) -> Void) {
        let row = y * width
        if !paintBlends && !partial {
            // A replacing run seals every pixel not sealed yet, and OR-ing the bit into a sealed
            // one changes nothing: a branch-free loop (most of a frame's pixels take this path).
            // Its visible part matters to no finding, so `visible` is not called.
            states.withUnsafeMutableBufferPointer { s in
                for i in (row + xs.lowerBound)..<(row + xs.upperBound) { s[i] |= Self.sealedBit }
            }
            return
        }
        var start = -1
        let paintBit = paintBlends ? Self.paintBit : 0
        states.withUnsafeMutableBufferPointer { s in
            var x = xs.lowerBound
            while x < xs.upperBound {
                // Eight pixels at a time where none of them is sealed (the common case under a
                // blending layer): each depth goes up by one, saturating at 63, and the paint bit
                // is set, as the loop below does pixel by pixel. A depth is at most 0x3F, so adding
                // one never carries into the next byte; a byte that reaches 0x40 is put back to 0x3F.
                if x + 8 <= xs.upperBound {
                    let raw = UnsafeMutableRawPointer(s.baseAddress! + row + x)
                    let v = raw.loadUnaligned(as: UInt64.self)
                    if v & Self.sealedBits == 0 {
                        let incremented = (v & Self.depthBits) &+ Self.ones
                        let saturated = incremented &- ((incremented & Self.sealedBits) >> 6)
                        let painted = paintBlends ? Self.paintBits : 0
                        raw.storeBytes(of: (v & Self.paintBits) | painted | saturated, as: UInt64.self)
                        if start < 0 { start = x }
                        x += 8
                        continue
                    }
                }
                let i = row + x, v = s[i]
                if v & Self.sealedBit != 0 {
                    if start >= 0 { visible(start..<x); start = -1 }
                    x += 1
                    continue
                }
                if start < 0 { start = x }
                let depth = v & 0x3F
                s[i] = (v & ~0x3F) | paintBit | (depth < 0x3F ? depth + 1 : depth)
                x += 1
            }
        }
        if start >= 0 { visible(start..<xs.upperBound) }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let depthBits: UInt64 = 0x3F3F_3F3F_3F3F_3F3F
    private static let sealedBits: UInt64 = 0x4040_4040_4040_4040
    private static let paintBits: UInt64 = 0x8080_8080_8080_8080

    /// Blended fragments stacked above the topmost replacing one at (x, y).
    public func depth(_ x: Int, _ y: Int) -> Int { Int(states[y * width + x] & 0x3F) }
    /// Whether a fragment whose paint blends is among them.
    public func isPaintBlended(_ x: Int, _ y: Int) -> Bool { states[y * width + x] & Self.paintBit != 0 }

    /// (blended pixels, the part of them blended only at edges).
    public var counts: (blended: Int, edgeOnly: Int) {
        var blended = 0, edge = 0
        states.withUnsafeBytes { raw in
            // Eight pixels at a time: most words are all sealed-or-untouched with depth 0.
            let n = raw.count, words = n / 8
            let depthMask: UInt64 = 0x3F3F_3F3F_3F3F_3F3F, bit6: UInt64 = 0x4040_4040_4040_4040
            for w in 0..<words {
                let v = raw.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)
                let depths = v & depthMask
                if depths == 0 { continue }
                // A byte's depth (0…63) plus 63 reaches bit 6 exactly when the depth is not 0, and
                // never carries into the next byte; the paint bit (bit 7) moved onto bit 6 then
                // leaves the blended bytes without paint.
                let blendedBits = (depths &+ depthMask) & bit6
                blended += blendedBits.nonzeroBitCount
                edge += (blendedBits & ~(v >> 1)).nonzeroBitCount
            }
            for i in (words * 8)..<n where raw[i] & 0x3F != 0 {
                blended += 1
                if raw[i] & Self.paintBit == 0 { edge += 1 }
            }
        }
        return (blended, edge)
    }
}
