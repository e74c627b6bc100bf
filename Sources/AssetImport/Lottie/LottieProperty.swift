import SceneFormat

/// A Bézier ease handle of a Lottie keyframe (`o` out of a keyframe, `i` into the next): the
/// control point of CAMediaTimingFunction(controlPoints:) for the segment it bounds.
struct LottieEase: Equatable {
    var x: Double, y: Double
}

/// One keyframe of an animated Lottie property, in its composition's frames.
struct LottieKeyframe<Value> {
    var frame: Double
    var value: Value
    /// `h: 1`: the value holds until the next keyframe, then jumps.
    var hold: Bool
    /// The easing of the segment that starts here (`o` here, `i` of this keyframe object): nil = linear.
    var outEase: LottieEase?
    var inEase: LottieEase?
    /// Spatial tangents of a position keyframe (`to` leaving this keyframe, `ti` entering the next), relative to the values.
    var spatialOut: [Double]?
    var spatialIn: [Double]?
    /// Where the keyframe is written.
    var source: JSONValue
}

/// A Lottie property (`{"a": 0, "k": value}` or `{"a": 1, "k": [keyframes]}`), in both keyframe
/// formats: Bodymovin ≥ 5.5 writes each keyframe's value in `s`, the last one included; older files
/// write `s` and the segment's end value `e`, and the last keyframe only a time.
enum LottieProperty<Value> {
    case constant(Value)
    case animated([LottieKeyframe<Value>])

    /// The value at the first keyframe (the model value of the layer).
    var initial: Value {
        switch self {
        case .constant(let v): return v
        case .animated(let k): return k[0].value
        }
    }

    var isAnimated: Bool { if case .animated = self { return true } else { return false } }

    /// Every keyframe frame (for combining properties into one animation).
    var frames: [Double] {
        if case .animated(let k) = self { return k.map(\.frame) }
        return []
    }

    func map<T>(_ f: (Value) -> T) -> LottieProperty<T> {
        switch self {
        case .constant(let v): return .constant(f(v))
        case .animated(let ks):
            return .animated(ks.map { k in
                LottieKeyframe(frame: k.frame, value: f(k.value), hold: k.hold, outEase: k.outEase, inEase: k.inEase,
                               spatialOut: k.spatialOut, spatialIn: k.spatialIn, source: k.source)
            })
        }
    }
}

extension LottieProperty {
    /// Reads a property object; `parse` reads one value (a number, an array, a shape).
    /// `keyframeValue` reads a keyframe's `s`/`e`, which wraps scalars and shapes in an array.
    static func read(_ v: JSONValue, _ ctx: LottieContext, what: String,
                     parse: (JSONValue) throws -> Value,
                     keyframeValue: ((JSONValue) throws -> Value)? = nil) throws -> LottieProperty<Value> {
        guard v.members != nil else { throw ctx.error(v, "\(what): expected a property object {\"a\", \"k\"}, found \(v.typeDescription)", kind: .wrongType) }
        guard let k = v["k"] else { throw ctx.error(v, "\(what): missing key 'k' (the value or keyframes)", kind: .missingKey) }
        if let items = k.array, let first = items.first, first.members != nil, first["t"] != nil {
            if let keyframeValue { return .animated(try readKeyframes(items, k, ctx, what: what, parse: keyframeValue)) }
            return .animated(try readKeyframes(items, k, ctx, what: what, parse: parse))
        }
        // `x` (an expression) is dropped by lottie-ios's Core Animation engine: the value stays.
        if let x = v["x"], x.string.map({ !$0.isEmpty }) ?? false {
            ctx.warn("\(what) has an expression: lottie-ios's Core Animation engine ignores expressions, so the device shows the property's keyframes or value without it", at: x)
        }
        return .constant(try parse(k))
    }

    private static func readKeyframes(_ items: [JSONValue], _ k: JSONValue, _ ctx: LottieContext, what: String,
                                      parse: (JSONValue) throws -> Value) throws -> [LottieKeyframe<Value>] {
        if items.count > SceneLimits.maxKeyframes {
            throw ctx.error(k, SceneLimits.Message.keyframes(what, items.count), kind: .limitExceeded)
        }
        ctx.keyframeCount += items.count
        if ctx.keyframeCount > 4_000_000 {
            throw ctx.error(k, "more than 4,000,000 keyframes in the animation", kind: .limitExceeded)
        }
        var out: [LottieKeyframe<Value>] = []
        out.reserveCapacity(items.count)
        var previousEnd: Value?
        var previousFrame = -Double.infinity
        for item in items {
            guard item.members != nil else { throw ctx.error(item, "\(what): a keyframe must be an object {\"t\", \"s\"}, found \(item.typeDescription)", kind: .wrongType) }
            guard let tv = item["t"], let t = tv.number, t.isFinite, abs(t) <= 1e7 else {
                throw ctx.error(item["t"] ?? item, "\(what): a keyframe's time 't' must be a frame number within ±10,000,000", kind: .outOfRange)
            }
            if t < previousFrame {
                throw ctx.error(tv, "\(what): keyframe at frame \(LottieNumber.text(t)) comes after one at frame \(LottieNumber.text(previousFrame)); keyframes must be in time order", kind: .outOfRange)
            }
            previousFrame = t
            let value: Value
            if let s = item["s"] {
                value = try parse(s)
            } else if let e = previousEnd {
                value = e   // the old format's last keyframe: the previous segment's end value
            } else {
                throw ctx.error(item, "\(what): the first keyframe has no value 's'", kind: .missingKey)
            }
            previousEnd = try item["e"].map(parse)
            var key = LottieKeyframe(frame: t, value: value, hold: (item["h"]?.number ?? 0) == 1,
                                     outEase: try ease(item["o"], ctx), inEase: try ease(item["i"], ctx),
                                     spatialOut: item["to"].flatMap(LottieNumber.numbers),
                                     spatialIn: item["ti"].flatMap(LottieNumber.numbers), source: item)
            if key.spatialOut?.contains(where: { !$0.isFinite }) ?? false { key.spatialOut = nil }
            if key.spatialIn?.contains(where: { !$0.isFinite }) ?? false { key.spatialIn = nil }
            out.append(key)
        }
        guard !out.isEmpty else { throw ctx.error(k, "\(what): an empty keyframe list", kind: .outOfRange) }
        return out
    }

    /// `{"x": [0.33], "y": [0]}` or `{"x": 0.33, "y": 0}`: the first dimension's handle (Core
    /// Animation has one timing function per segment; lottie-ios's Core Animation engine takes the first).
    private static func ease(_ v: JSONValue?, _ ctx: LottieContext) throws -> LottieEase? {
        guard let v, v.members != nil else { return nil }
        func first(_ c: JSONValue?) -> Double? {
            guard let c else { return nil }
            if let n = c.number { return n }
            return c.array?.first?.number
        }
        guard let x = first(v["x"]), let y = first(v["y"]), x.isFinite, y.isFinite else { return nil }
        return LottieEase(x: min(max(x, 0), 1), y: min(max(y, -1e3), 1e3))
    }
}

/// Reading numbers as Lottie writes them.
enum LottieNumber {
    /// A number or an array of numbers (finite), else nil.
    static func numbers(_ v: JSONValue) -> [Double]? {
        if let n = v.number { return n.isFinite ? [n] : nil }
        guard let items = v.array, items.count <= 64 else { return nil }
        var out: [Double] = []
        out.reserveCapacity(items.count)
        for i in items {
            guard let n = i.number, n.isFinite else { return nil }
            out.append(n)
        }
        return out
    }

    static func text(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
