/// The values and animations `ArchiveGraphGenerator` archives (numbers with extremes, colours,
/// NSValue proxies, paths, keyframe lists), each an archive entry it may share.
extension ArchiveGraphGenerator {
    // MARK: values

    mutating func number(_ typical: ClosedRange<Double>) -> Double {
        let c = b.byte()
        if c < 224 { return typical.lowerBound + (typical.upperBound - typical.lowerBound) * Double(c) / 223 }
        let extremes: [Double] = [0, -0.0, 1e-300, 1e300, -1e300, .infinity, -.infinity, .nan, 1e6, -1e6,
                                  .greatestFiniteMagnitude, 0.5, 1, -1, 2, 16_384, 4e9, 1e15]
        return extremes[Int(c - 224) % extremes.count]
    }
    /// An emitter rate: `number(typical)`, without extremes past 1e6 unless `extremeEmitterRates`.
    mutating func rate(_ typical: ClosedRange<Double>) -> Double {
        let v = number(typical)
        return Self.extremeEmitterRates || !v.isFinite || abs(v) <= 1e6 ? v : 1e6
    }
    /// A number inline (as proxies hold them) or through a UID to a number entry (as layers do).
    mutating func numberField(_ v: Double) -> Int {
        if b.flag() { return ref(newEntry(v == v.rounded() && abs(v) < 1e9 ? integer(Int(v)) : real(v))) }
        return real(v)
    }
    mutating func proxy(_ fields: [(String, Double)], kind: Int) -> Int {
        object(["LKNSValueCodingProxy", "CACodingProxy", "NSObject"], [("kind", integer(kind))] + fields.map { ($0.0, real($0.1)) })
    }

    /// A field value of `kind`: mostly an existing one (shared), else a new one.
    mutating func value(_ kind: ValueKind) -> Int {
        if let pool = values[kind], !pool.isEmpty, b.byte() < 96 { return pool[b.below(pool.count)] }
        let v = newValue(kind)
        values[kind, default: []].append(v)
        return v
    }

    mutating func newValue(_ kind: ValueKind) -> Int {
        switch kind {
        case .number: return numberField(number(-2...400))
        case .point: return ref(proxy([("x", number(-100...500)), ("y", number(-100...500))], kind: 0))
        case .size: return ref(proxy([("width", number(0...400)), ("height", number(0...400))], kind: 1))
        case .rect:
            return ref(proxy([("x", number(-50...50)), ("y", number(-50...50)), ("width", number(0...400)), ("height", number(0...400))], kind: 2))
        case .transform:
            let keys = ["m11", "m12", "m21", "m22", "m34", "m41", "m42", "m43", "m44", "m13", "m31", "m33"]
            let n = Int(b.byte() % 6)
            var fields: [(String, Double)] = []
            for _ in 0..<n { fields.append((b.pick(keys), number(-2...2))) }
            if b.oneIn(16) { return ref(proxy(fields, kind: b.pick([4, -1, 3])) ) }
            return ref(proxy(fields, kind: 3))
        case .color:
            return ref(object(["LKCGColorCodingProxy", "CACodingProxy", "NSObject"],
                              [("r", real(number(0...1))), ("g", real(number(0...1))), ("b", real(number(0...1))), ("a", real(number(0...1)))]))
        case .path: return path()
        case .colors: return array(of: .color, count: Int(b.byte() % 6))
        case .image:
            let n = b.pick([0, 8, 100, 5000])
            payload += n
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            let bytes = b.flag() ? Array((png + [UInt8](repeating: 0, count: n)).prefix(max(n, 1))) : [UInt8](repeating: 0xFF, count: n)
            return ref(object(["LKCGImageCodingProxy", "CACodingProxy", "NSObject"], [("data", plist(.data(bytes)))]))
        case .string: return ref(stringEntry(longString()))
        }
    }

    mutating func longString() -> String {
        let n = b.pick([0, 1, 5, 40, 1000, 65_536, 200_000])
        if payload + n > Self.maxPayload { return "layer \(b.byte())" }
        payload += n
        let unit = b.pick(["a", "é", "日", "\u{1F600}", "layer "])
        return String(repeating: unit, count: n / unit.utf8.count + (n == 0 ? 0 : 1))
    }

    /// An NSArray (or NSMutableArray) of `items` (field values); sometimes behind an
    /// LKNSArrayCodingProxy, as layers archive their arrays.
    mutating func nsArray(_ items: [Int], proxied: Bool? = nil) -> Int {
        let chain = b.flag() ? ["NSMutableArray", "NSArray", "NSObject"] : ["NSArray", "NSObject"]
        let a = object(chain, [("NS.objects", parray(items))])
        if proxied ?? b.oneIn(3) {
            return ref(object(["LKNSArrayCodingProxy", "CACodingProxy", "NSObject"], [("array", ref(a))]))
        }
        return ref(a)
    }

    /// An array of `count` values of `kind`, drawn from a few distinct ones (so they share).
    mutating func array(of kind: ValueKind, count: Int) -> Int {
        let distinct = (0..<min(count, 1 + Int(b.byte() % 4))).map { _ in value(kind) }
        guard !distinct.isEmpty else { return nsArray([]) }
        return nsArray((0..<count).map { distinct[$0 % distinct.count] })
    }

    /// A values array for keyframes: an existing one of the kind (shared), or a new one.
    mutating func valuesArray(_ kind: ValueKind) -> Int {
        if let pool = valueArrays[kind], !pool.isEmpty, b.byte() < 128 { return pool[b.below(pool.count)] }
        let n = b.pick([0, 1, 2, 3, 4, 5, 8, 16, 100, 1000, 10_000, 10_001])
        let a = array(of: kind, count: n)
        valueArrays[kind, default: []].append(a)
        return a
    }

    mutating func path() -> Int {
        if !paths.isEmpty, b.byte() < 96 { return paths[b.below(paths.count)] }
        let n = b.pick([0, 1, 3, 5, 12, 100, 1000, 20_000])
        let segmentClass = ["CACGPathCodingSegment", "NSObject"]
        var distinct: [Int] = []
        for k in 0..<min(max(n, 0), 1 + Int(b.byte() % 6)) {
            let type = k == 0 ? 0 : Int(b.byte() % 6)   // 5: not a CGPathElementType
            var fields: [(String, Int)] = [("LKCGPathType", integer(type))]
            for p in 0..<[1, 1, 2, 3, 0, 1][type] {
                fields += [("LKCGPathPoint\(p)_x", real(number(-50...300))), ("LKCGPathPoint\(p)_y", real(number(-50...300)))]
            }
            distinct.append(ref(object(segmentClass, fields)))
        }
        let segments = distinct.isEmpty ? nsArray([], proxied: false) : nsArray((0..<n).map { distinct[$0 % distinct.count] }, proxied: false)
        let p = ref(object(["CACGPathCodingProxy", "CACodingProxy", "NSObject"], [("LKCGPathSegments", segments)]))
        paths.append(p)
        return p
    }

    mutating func timingFunction() -> Int {
        ref(object(["CAMediaTimingFunction", "NSObject"], [("c1x", real(number(0...1))), ("c1y", real(number(-1...2))),
                                                          ("c2x", real(number(0...1))), ("c2y", real(number(-1...2)))]))
    }

    mutating func filter() -> Int {
        let type = b.pick(["gaussianBlur", "colorMatrix", "multiplyColor", "vibrantDark", "variableBlur", "colorSaturate", "nope"])
        let keys = [ref(stringEntry("inputRadius")), ref(stringEntry("inputAmount"))]
        let inputs = object(["NSDictionary", "NSObject"], [("NS.keys", parray(keys)),
                                                          ("NS.objects", parray([numberField(number(0...100)), numberField(number(-1...2))]))])
        return ref(object(["CAFilter", "NSObject"], [("CAFilterType", ref(stringEntry(type))), ("CAFilterName", ref(stringEntry("f"))),
                                                    ("CAFilterInputs", ref(inputs))]))
    }

    // MARK: animations

    mutating func animation() -> Int {
        let (keyPath, kind) = b.pick(Self.keyPaths)
        var fields: [(String, Int)] = [("keyPath", ref(stringEntry(keyPath)))]
        func timing(_ g: inout ArchiveGraphGenerator) {
            fields.append(("duration", g.numberField(g.number(0...10))))
            if g.flag() { fields.append(("beginTime", g.numberField(g.number(-2...5)))) }
            if g.flag() { fields.append(("repeatCount", g.numberField(g.pick([0, 1, 2.5, .infinity, 1e9, -1])))) }
            if g.flag() { fields.append(("autoreverses", g.boolean(g.flag()))) }
            if g.flag() { fields.append(("speed", g.numberField(g.number(-2...4)))) }
            if g.flag() { fields.append(("fillMode", g.ref(g.stringEntry(g.pick(["both", "forwards", "backwards", "removed", "?"]))))) }
            if g.flag() { fields.append(("removedOnCompletion", g.boolean(g.flag()))) }
            if g.oneIn(4) { fields.append(("timingFunction", g.timingFunction())) }
            if g.oneIn(6) { fields.append(("additive", g.boolean(true))) }
        }
        let base = ["CAPropertyAnimation", "CAAnimation", "NSObject"]
        switch b.byte() % 8 {
        case 0, 1, 2:
            timing(&self)
            if flag() { fields.append(("fromValue", value(kind))) }
            if flag() { fields.append(("toValue", value(kind))) }
            if oneIn(4) { fields.append(("byValue", value(kind))) }
            return object(["CABasicAnimation"] + base, fields)
        case 3, 4, 5:
            timing(&self)
            let values = valuesArray(kind)
            fields.append(("values", values))
            if flag() {
                let n = b.pick([0, 2, 3, 4, 100, 10_000])
                fields.append(("keyTimes", nsArray((0..<n).map { i in real(n <= 1 ? 0 : Double(i) / Double(n - 1)) })))
            }
            if oneIn(4) { let t = timingFunction(); fields.append(("timingFunctions", nsArray([t, t, t]))) }
            if flag() { fields.append(("calculationMode", ref(stringEntry(b.pick(["linear", "discrete", "paced", "cubic", "cubicPaced", "?"]))))) }
            if kind == .point, oneIn(4) { fields.append(("path", path())) }
            if oneIn(8) { fields.append(("rotationMode", ref(stringEntry("auto")))) }
            return object(["CAKeyframeAnimation"] + base, fields)
        case 6:
            timing(&self)
            fields += [("mass", numberField(number(0...5))), ("stiffness", numberField(number(0...500))),
                       ("damping", numberField(number(0...50))), ("initialVelocity", numberField(number(-5...5)))]
            if flag() { fields.append(("toValue", value(kind))) }
            return object(["CASpringAnimation", "CABasicAnimation"] + base, fields)
        default:
            fields = []
            timing(&self)
            if animations.isEmpty || oneIn(6) {
                fields += [("type", ref(stringEntry(b.pick(["fade", "push", "moveIn", "reveal"])))),
                           ("subtype", ref(stringEntry(b.pick(["fromLeft", "fromTop"]))))]
                return object(["CATransition", "CAAnimation", "NSObject"], fields)
            }
            let n = b.pick([1, 2, 3, 16, 100])
            let children = (0..<n).map { _ in ref(animations[b.below(animations.count)]) }
            fields.append(("animations", nsArray(children)))
            return object(["CAAnimationGroup", "CAAnimation", "NSObject"], fields)
        }
    }

    /// A list of animations for layers: one animation repeated, or several; shared when reused.
    mutating func animationList() -> (list: Int, keys: Int?) {
        if !animationLists.isEmpty, b.byte() < 128 { return (animationLists[b.below(animationLists.count)], nil) }
        if animations.isEmpty { animations.append(animation()) }
        let n = b.pick([1, 1, 2, 3, 4, 16, 100])
        let items = b.flag() ? [Int](repeating: ref(animations.last!), count: n)
                             : (0..<n).map { _ in ref(animations[b.below(animations.count)]) }
        let list = nsArray(items, proxied: false)
        animationLists.append(list)
        // Keys: none (no key replaces another), or fewer than the animations, or one each.
        let keys: Int?
        switch b.byte() % 3 {
        case 0: keys = nil
        case 1: keys = nsArray([ref(stringEntry("k"))], proxied: false)
        default: keys = nsArray((0..<n).map { ref(stringEntry("k\($0 % 64)")) }, proxied: false)
        }
        return (list, keys)
    }
}
