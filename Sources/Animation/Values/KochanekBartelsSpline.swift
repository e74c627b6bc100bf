/// The Kochanek–Bartels cubic spline of CAKeyframeAnimation's `cubic` and `cubicPaced`
/// calculation modes (reference §4.4), over keyframes of 1 to 4 components (numbers, points,
/// sizes, rects).
///
/// Tangents at keyframe Pᵢ with tension T, continuity C, bias B (missing = 0 ⇒ Catmull-Rom):
///
///     outgoing Dᵢ⁺ = (1−T)(1+B)(1+C)/2 · (Pᵢ − Pᵢ₋₁) + (1−T)(1−B)(1−C)/2 · (Pᵢ₊₁ − Pᵢ)
///     incoming Dᵢ⁻ = (1−T)(1+B)(1−C)/2 · (Pᵢ − Pᵢ₋₁) + (1−T)(1−B)(1+C)/2 · (Pᵢ₊₁ − Pᵢ)
///     segment i:  H(s) = (2s³−3s²+1)Pᵢ + (s³−2s²+s)Dᵢ⁺ + (−2s³+3s²)Pᵢ₊₁ + (s³−s²)Dᵢ₊₁⁻
///
/// Decisions (§10 item 11, reference's recommendations): the end keyframes are duplicated
/// (P₋₁ = P₀, Pₙ = Pₙ₋₁), and with non-uniform key times Δtᵢ = tᵢ₊₁ − tᵢ an interior keyframe's
/// outgoing tangent is scaled by 2Δtᵢ/(Δtᵢ₋₁ + Δtᵢ) and its incoming one by 2Δtᵢ₋₁/(Δtᵢ₋₁ + Δtᵢ),
/// so the curve's speed is continuous across keyframes. T, C, B are used as given (the header
/// documents [−1, 1]). Built once per animation; evaluation reads flat arrays and allocates nothing.
struct KochanekBartelsSpline: Sendable {
    let dimension: Int
    let count: Int
    /// count × dimension, keyframe-major.
    private let points: [Double]
    private let outgoing: [Double]
    private let incoming: [Double]

    /// `keyTimes` (count entries) scale the tangents; nil = uniform spacing.
    init(points: [Double], dimension: Int, tension: [Double]?, continuity: [Double]?, bias: [Double]?,
         keyTimes: [Double]?) {
        let n = points.count / dimension
        self.dimension = dimension; self.count = n; self.points = points
        var out = [Double](repeating: 0, count: points.count)
        var inc = [Double](repeating: 0, count: points.count)
        func param(_ a: [Double]?, _ i: Int) -> Double { a.flatMap { i < $0.count ? $0[i] : nil } ?? 0 }
        for i in 0..<n {
            let t = param(tension, i), c = param(continuity, i), b = param(bias, i)
            let outPrev = (1 - t) * (1 + b) * (1 + c) / 2, outNext = (1 - t) * (1 - b) * (1 - c) / 2
            let inPrev = (1 - t) * (1 + b) * (1 - c) / 2, inNext = (1 - t) * (1 - b) * (1 + c) / 2
            var outScale = 1.0, inScale = 1.0
            if let k = keyTimes, i > 0, i < n - 1 {
                let dPrev = k[i] - k[i - 1], dNext = k[i + 1] - k[i]
                if dPrev + dNext > 0 {
                    outScale = 2 * dNext / (dPrev + dNext)
                    inScale = 2 * dPrev / (dPrev + dNext)
                }
            }
            let prev = max(i - 1, 0), next = min(i + 1, n - 1)
            for d in 0..<dimension {
                let a = points[i * dimension + d] - points[prev * dimension + d]
                let bb = points[next * dimension + d] - points[i * dimension + d]
                out[i * dimension + d] = (outPrev * a + outNext * bb) * outScale
                inc[i * dimension + d] = (inPrev * a + inNext * bb) * inScale
            }
        }
        outgoing = out; incoming = inc
    }

    /// Component `k` of segment `i` (keyframe i → i + 1) at local parameter `s` (extrapolates).
    @inline(__always)
    func component(_ k: Int, segment i: Int, _ s: Double) -> Double {
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        let a = i * dimension + k, b = a + dimension
        return h00 * points[a] + h10 * outgoing[a] + h01 * points[b] + h11 * incoming[b]
    }

    /// The Euclidean distance between two parameters of one segment (for arc-length tables).
    func distance(segment i: Int, _ s0: Double, _ s1: Double) -> Double {
        var sum = 0.0
        for k in 0..<dimension {
            let d = component(k, segment: i, s1) - component(k, segment: i, s0)
            sum += d * d
        }
        return sum.squareRoot()
    }
}
