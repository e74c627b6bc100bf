import Geometry
import Animation

/// A property's value at any frame, eased as its keyframes say: used where lottie-ios combines
/// several properties into one Core Animation value (a rectangle's path from its position, size
/// and roundness; a trim's start and end with its offset) at the union of their keyframe times.
extension LottieProperty {
    func value(at frame: Double, _ lerp: (Value, Value, Double) -> Value) -> Value {
        switch self {
        case .constant(let v): return v
        case .animated(let keys):
            if frame <= keys[0].frame { return keys[0].value }
            guard let last = keys.last, frame < last.frame else { return keys[keys.count - 1].value }
            var i = 0
            while i + 1 < keys.count && keys[i + 1].frame <= frame { i += 1 }
            let a = keys[i], b = keys[i + 1]
            if a.hold || b.frame <= a.frame { return a.value }
            let x = (frame - a.frame) / (b.frame - a.frame)
            let ease = TimingFunction(LottieAnimator.ease(a.outEase, a.inEase))
            return lerp(a.value, b.value, ease(x))
        }
    }

    /// The sorted union of the keyframe frames of several properties.
    static func unionFrames(_ lists: [[Double]]) -> [Double] {
        var all = lists.flatMap { $0 }
        all.sort()
        var out: [Double] = []
        for f in all where out.last.map({ f - $0 > 1e-9 }) ?? true { out.append(f) }
        return out
    }
}

enum LottieLerp {
    static func number(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
    static func vector(_ a: [Double], _ b: [Double], _ t: Double) -> [Double] {
        zip(a, b).map { $0 + ($1 - $0) * t }
    }

    /// Paths of the same elements, point by point (Core Animation interpolates paths so); nil
    /// when their elements differ.
    static func path(_ a: Path, _ b: Path, _ t: Double) -> Path? {
        guard a.elements.count == b.elements.count else { return nil }
        func mix(_ p: Point, _ q: Point) -> Point { Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t) }
        var out: [Path.Element] = []
        out.reserveCapacity(a.elements.count)
        for (x, y) in zip(a.elements, b.elements) {
            switch (x, y) {
            case (.move(let p), .move(let q)): out.append(.move(mix(p, q)))
            case (.line(let p), .line(let q)): out.append(.line(mix(p, q)))
            case (.quad(let p1, let p), .quad(let q1, let q)): out.append(.quad(mix(p1, q1), mix(p, q)))
            case (.cubic(let p1, let p2, let p), .cubic(let q1, let q2, let q)): out.append(.cubic(mix(p1, q1), mix(p2, q2), mix(p, q)))
            case (.close, .close): out.append(.close)
            default: return nil
            }
        }
        return Path(out)
    }
}
