import Geometry
import LayerModel

/// A CAKeyframeAnimation's values as a function of its progress (reference §4.4), built once per
/// animation so that each frame is a binary search and one interpolation.
///
/// `value(at: p)` takes the progress **after** the animation's own `timingFunction` (the
/// evaluator applies that to the whole normalised time first); this type then finds the segment,
/// applies that segment's `timingFunctions` entry to the segment-local fraction, and interpolates.
///
/// - `keyTimes` are used only when valid (§4.4): every entry in [0, 1] and ≥ the previous, the
///   first 0 and the last 1, and as many entries as values (`linear`, `cubic`) or one more
///   (`discrete`: value i holds on [tᵢ, tᵢ₊₁)). Anything else is ignored, and the default spacing
///   applies: i/(n−1), or i/n for `discrete`. `paced` and `cubicPaced` ignore them.
/// - `timingFunctions`: entry i warps segment i's local fraction (`linear` and `cubic`, also along a
///   path); missing entries are linear, extra entries ignored; the paced modes ignore them.
/// - `linear`: `ValueInterpolation.interpolate` between neighbouring values (transforms decomposed,
///   with each keyframe decomposed once here).
/// - `discrete`: the value of the interval p falls in; before 0 the first, from 1 on the last.
/// - `paced`: key times from the cumulative `ValueInterpolation.distance` (constant speed);
///   all-equal values fall back to the default spacing.
/// - `cubic`: a Kochanek–Bartels spline (`KochanekBartelsSpline`) for numbers, points, sizes and
///   rects (component-wise); other types fall back to `linear` [INF: a spline through colours or
///   matrices has no documented meaning].
/// - `cubicPaced`: the same spline with uniform tangents, traversed at constant speed by sampled
///   arc length (`ArcLengthTable`); other types fall back to `paced`.
/// - `path` (point key paths only; overrides `values`): `KeyframePath`'s segments are followed
///   exactly. `linear`/`cubic` spend each segment's key-time interval on it at uniform Bézier
///   parameter; `paced`/`cubicPaced` move at constant speed by arc length; `discrete` holds the
///   keyframe points. With `rotationMode` the result carries the tangent angle atan2(dy, dx) in
///   point space (+π for `autoReverse`); otherwise, and without a path, `rotation` is nil.
/// - Progress outside [0, 1] (overshooting curves) extrapolates the first or last segment; with
///   a single value the value is constant; with no values at all `isEmpty` is true and the value
///   is `.null`.
public struct KeyframeSampler: Sendable {
    public let calculationMode: CalculationMode
    /// The number of keyframes: values, or the path's keyframe points.
    public var keyframeCount: Int { keyframes.count }
    /// Nothing to animate: no values and no usable path.
    public var isEmpty: Bool { keyframes.isEmpty }

    /// The keyframe values (for a path, its keyframe points as `.point`).
    let keyframes: [AnimationValue]
    /// The key times in effect: n entries, or n + 1 for `discrete`; empty when an arc-length table
    /// decides the timing instead.
    let keyTimes: [Double]
    /// Per segment; nil = linear.
    let segmentTiming: [TimingFunction?]
    let path: KeyframePath?
    let spline: KochanekBartelsSpline?
    /// For `paced` along a path and for `cubicPaced`.
    let arcLength: ArcLengthTable?
    /// One per keyframe when the values are transforms (nil entries are singular).
    let decomposed: [DecomposedTransform?]
    /// 0 for `auto`, π for `autoReverse`, nil without a rotation mode or a path.
    let rotationOffset: Double?

    public init(spec: KeyframeSpec, valueType: ValueType) {
        let mode = spec.calculationMode
        calculationMode = mode
        let keyPath = valueType == .point ? spec.path.flatMap(KeyframePath.init) : nil
        path = keyPath
        rotationOffset = keyPath == nil ? nil : spec.rotationMode.map { $0 == .autoReverse ? Double.pi : 0 }
        let values: [AnimationValue] = keyPath.map { $0.keyframes.map { .point($0) } } ?? spec.values ?? []
        keyframes = values
        let n = values.count
        let segments = max(n - 1, 0)

        // Segment timing functions (linear and cubic modes only).
        if mode == .linear || mode == .cubic, let tfs = spec.timingFunctions {
            segmentTiming = (0..<segments).map { i in
                guard i < tfs.count else { return nil }
                let tf = TimingFunction(tfs[i])
                return tf.isLinear ? nil : tf
            }
        } else {
            segmentTiming = []
        }

        decomposed = values.allSatisfy { if case .transform = $0 { return true }; return false }
            ? values.map { if case .transform(let m) = $0 { return DecomposedTransform(m) }; return nil }
            : []

        // Numeric component layout for the cubic modes.
        let layout = keyPath == nil ? ComponentLayout(values) : nil
        var spline: KochanekBartelsSpline?
        var arc: ArcLengthTable?
        var times: [Double] = []

        switch mode {
        case .linear, .cubic:
            times = Self.validKeyTimes(spec.keyTimes, count: n) ?? Self.defaultKeyTimes(count: n)
            if mode == .cubic, let layout, n >= 2 {
                spline = KochanekBartelsSpline(points: layout.components, dimension: layout.dimension,
                                               tension: spec.tensionValues, continuity: spec.continuityValues,
                                               bias: spec.biasValues, keyTimes: times)
            }
        case .discrete:
            times = Self.validKeyTimes(spec.keyTimes, count: n + 1) ?? Self.defaultKeyTimes(count: n + 1)
        case .paced, .cubicPaced:
            if let keyPath, !keyPath.segments.isEmpty {
                arc = ArcLengthTable(segmentCount: keyPath.segments.count) { keyPath.chord(segment: $0, $1, $2) }
            } else if mode == .cubicPaced, let layout, n >= 2 {
                let s = KochanekBartelsSpline(points: layout.components, dimension: layout.dimension,
                                              tension: spec.tensionValues, continuity: spec.continuityValues,
                                              bias: spec.biasValues, keyTimes: nil)
                spline = s
                arc = ArcLengthTable(segmentCount: n - 1) { s.distance(segment: $0, $1, $2) }
            } else {
                times = Self.pacedKeyTimes(values)
            }
            if let a = arc, a.total == 0 { arc = nil; times = Self.defaultKeyTimes(count: n) }
        }
        self.spline = spline
        arcLength = arc
        keyTimes = times
    }

    /// The value at progress `p` (after the animation's own timing function), and the rotation
    /// (radians) a `rotationMode` asks for.
    public func value(at p: Double) -> (value: AnimationValue, rotation: Double?) {
        let n = keyframes.count
        if n == 0 { return (.null, nil) }
        if n == 1 { return (keyframes[0], rotationOffset) }

        if calculationMode == .discrete {
            let i = Self.lastIndex(in: keyTimes, atMost: p, upTo: n - 1)
            return (keyframes[i], rotation(atKeyframe: i))
        }
        var (i, s): (Int, Double)
        if let arcLength {
            (i, s) = arcLength.locate(p)
        } else {
            i = Self.lastIndex(in: keyTimes, atMost: p, upTo: n - 2)
            let span = keyTimes[i + 1] - keyTimes[i]
            s = span > 0 ? (p - keyTimes[i]) / span : (p >= keyTimes[i + 1] ? 1 : 0)
            if s > 0 && s < 1 && i < segmentTiming.count, let tf = segmentTiming[i] { s = tf(s) }
        }
        return segmentValue(i, s)
    }

    // MARK: evaluation

    private func segmentValue(_ i: Int, _ s: Double) -> (AnimationValue, Double?) {
        if let path {
            if path.segments.isEmpty { return (keyframes[0], rotationOffset) }
            let seg = min(i, path.segments.count - 1)
            let point = path.point(segment: seg, s)
            return (.point(point), rotationOffset.map { angle(path.tangent(segment: seg, s)) + $0 })
        }
        if let spline { return (splineValue(spline, i, s), nil) }
        if s == 0 { return (keyframes[i], nil) }
        if s == 1 { return (keyframes[i + 1], nil) }
        if !decomposed.isEmpty {
            if let a = decomposed[i], let b = decomposed[i + 1] { return (.transform(a.interpolated(to: b, s).matrix), nil) }
            return (s < ValueInterpolation.discreteSwitchProgress ? keyframes[i] : keyframes[i + 1], nil)
        }
        return (ValueInterpolation.interpolate(keyframes[i], keyframes[i + 1], s), nil)
    }

    private func splineValue(_ spline: KochanekBartelsSpline, _ i: Int, _ s: Double) -> AnimationValue {
        @inline(__always) func c(_ k: Int) -> Double { spline.component(k, segment: i, s) }
        switch keyframes[0] {
        case .point: return .point(Point(c(0), c(1)))
        case .size: return .size(Size(c(0), c(1)))
        case .rect: return .rect(Rect(c(0), c(1), c(2), c(3)))
        default: return .number(c(0))
        }
    }

    /// For `discrete` along a path: the direction of the segment leaving keyframe i (arriving, for
    /// the last keyframe).
    private func rotation(atKeyframe i: Int) -> Double? {
        guard let offset = rotationOffset, let path, !path.segments.isEmpty else { return rotationOffset }
        let t = i < path.segments.count ? path.tangent(segment: i, 0) : path.tangent(segment: path.segments.count - 1, 1)
        return angle(t) + offset
    }

    @inline(__always) private func angle(_ d: Point) -> Double { atan2(d.y, d.x) }

    // MARK: key times

    /// `keyTimes` when they follow §4.4's rules for `count` entries; nil otherwise.
    static func validKeyTimes(_ k: [Double]?, count: Int) -> [Double]? {
        guard let k, k.count == count, count >= 2, k.first == 0, k.last == 1 else { return nil }
        for i in 0..<k.count {
            guard k[i].isFinite, k[i] >= 0, k[i] <= 1, i == 0 || k[i] >= k[i - 1] else { return nil }
        }
        return k
    }

    /// i/(count−1) for `count` entries (`discrete` passes n + 1 and so gets i/n). One entry: [0].
    static func defaultKeyTimes(count: Int) -> [Double] {
        guard count > 1 else { return [0] }
        return (0..<count).map { Double($0) / Double(count - 1) }
    }

    /// `paced`: tᵢ = Lᵢ / L with Lᵢ the cumulative distance to value i; uniform when L = 0.
    static func pacedKeyTimes(_ values: [AnimationValue]) -> [Double] {
        let n = values.count
        guard n > 1 else { return [0] }
        var cumulative = [0.0]
        for i in 1..<n { cumulative.append(cumulative[i - 1] + ValueInterpolation.distance(values[i - 1], values[i])) }
        let total = cumulative[n - 1]
        guard total > 0, total.isFinite else { return defaultKeyTimes(count: n) }
        var t = cumulative.map { $0 / total }
        t[n - 1] = 1
        return t
    }

    /// The last index i in 0...upper with k[i] ≤ p (0 when p is before k[0]).
    @inline(__always)
    static func lastIndex(in k: [Double], atMost p: Double, upTo upper: Int) -> Int {
        if !(p >= k[0]) { return 0 }
        var lo = 0, hi = upper
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if k[mid] <= p { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// Keyframe values as flat numeric components for the spline: all numbers, all points, all sizes
/// or all rects; nil for anything else.
private struct ComponentLayout {
    let dimension: Int
    let components: [Double]

    init?(_ values: [AnimationValue]) {
        guard let first = values.first else { return nil }
        var out: [Double] = []
        switch first {
        case .number:
            dimension = 1
            for v in values { guard case .number(let x) = v else { return nil }; out.append(x) }
        case .point:
            dimension = 2
            for v in values { guard case .point(let p) = v else { return nil }; out += [p.x, p.y] }
        case .size:
            dimension = 2
            for v in values { guard case .size(let s) = v else { return nil }; out += [s.width, s.height] }
        case .rect:
            dimension = 4
            for v in values {
                guard case .rect(let r) = v else { return nil }
                out += [r.origin.x, r.origin.y, r.size.width, r.size.height]
            }
        default:
            return nil
        }
        components = out
    }
}
