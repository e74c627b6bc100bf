/// Cumulative arc length sampled at uniform parameter steps along a chain of curve segments: what
/// `paced` along a keyframe `path` and `cubicPaced` need to turn progress into "the same distance
/// per unit of time" (reference §4.4).
///
/// Each segment is sampled at `samplesPerSegment` equal parameter steps and the chords summed;
/// inverting it interpolates linearly between samples. With 32 samples a quarter circle's length is
/// within 1e-4 relative of the true value, far below a pixel. Built once per animation.
struct ArcLengthTable: Sendable {
    static let samplesPerSegment = 32

    let segmentCount: Int
    /// segmentCount · samplesPerSegment + 1 entries; entry e is at segment e / K, parameter (e % K)/K.
    private let cumulative: [Double]
    var total: Double { cumulative.last ?? 0 }

    /// `chord(i, s0, s1)` is the straight distance between two parameters of segment i.
    init(segmentCount: Int, chord: (Int, Double, Double) -> Double) {
        let k = Self.samplesPerSegment
        var c = [Double](repeating: 0, count: segmentCount * k + 1)
        var sum = 0.0
        for i in 0..<segmentCount {
            for j in 0..<k {
                sum += chord(i, Double(j) / Double(k), Double(j + 1) / Double(k))
                c[i * k + j + 1] = sum
            }
        }
        self.segmentCount = segmentCount
        cumulative = c
    }

    /// The segment and its local parameter at fraction `p` of the total length. Zero-length
    /// segments are skipped; `p` outside [0, 1] extrapolates along the first or last segment in
    /// proportion to its length.
    func locate(_ p: Double) -> (segment: Int, s: Double) {
        let k = Self.samplesPerSegment
        let target = p * total
        let last = cumulative.count - 1
        if target <= 0 || total == 0 {
            let len = cumulative[min(k, last)]
            return (0, len > 0 ? target / len : 0)
        }
        if target >= total {
            let len = total - cumulative[last - k]
            return (segmentCount - 1, len > 0 ? 1 + (target - total) / len : 1)
        }
        // The last entry e with cumulative[e] ≤ target (binary search; entries are non-decreasing).
        var lo = 0, hi = last
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if cumulative[mid] <= target { lo = mid } else { hi = mid }
        }
        let span = cumulative[lo + 1] - cumulative[lo]
        let u = Double(lo) + (span > 0 ? (target - cumulative[lo]) / span : 0)
        let segment = min(lo / k, segmentCount - 1)
        return (segment, (u - Double(segment * k)) / Double(k))
    }
}
