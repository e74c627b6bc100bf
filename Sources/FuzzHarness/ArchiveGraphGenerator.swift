/// Fuzz bytes → a plausible Core Animation archive (`.caar`): an NSKeyedArchiver graph (`$archiver`,
/// `$version`, `$top.root`, `$objects` with class entries `$classname`/`$classes`) written as a
/// valid `bplist00` (`BinaryPlistWriter`). The root is an NSDictionary with `rootLayer` (and
/// sometimes `documentWidth`/`documentHeight`/`geometryFlipped`), or a bare layer. Layers of the
/// drawn classes carry geometry and style through the coding proxies (LKNSValueCodingProxy points,
/// sizes, rects and transforms, LKCGColorCodingProxy colours, CACGPathCodingProxy paths,
/// CAMediaTimingFunction, CAFilter, LKCGImageCodingProxy), sublayers and masks (NSArray
/// `NS.objects`, or LKNSArrayCodingProxy), and animations (CABasicAnimation, CAKeyframeAnimation
/// with `values`/`keyTimes`/`timingFunctions`/`path`, CASpringAnimation, CAAnimationGroup,
/// CATransition) with their keys.
///
/// Sharing is deliberate, at both levels: in the plist (uniqued strings, numbers and UIDs, as
/// `NSKeyedArchiver` writes them) and in the archive — a layer that is a sublayer of several parents
/// (a layer DAG, chains of layers each holding the level below several times), one animation in the
/// lists of many layers, one animation list shared by many layers, one values array shared by many
/// keyframe animations, one path segment repeated through a path, one path shared by many shapes,
/// long strings shared by many names. About one decision in 64 writes something corrupt (a UID
/// outside `$objects`, a `$class` that is no class entry, a UID that names itself, a layer inside
/// itself, a dictionary whose keys and objects differ in count).
///
/// Deterministic: the same bytes always give the same file; the graph ends when the bytes do.
public struct ArchiveGraphGenerator {
    public static let maxEntries = 3000
    static let maxPayload = 1 << 20

    private var b: FuzzBytes
    private var objs: [BinaryPlistObject] = []
    private var stringMemo: [String: Int] = [:]
    private var uidMemo: [Int: Int] = [:]
    private var realMemo: [UInt64: Int] = [:]
    private var intMemo: [Int: Int] = [:]
    private var longestArray = 0
    private var payload = 0

    /// `$objects`: the plist object of each entry (−1 while reserved).
    private var entries: [Int] = []
    private var classMemo: [String: Int] = [:]
    private var stringEntries: [String: Int] = [:]
    private var layers: [Int] = []
    private var animations: [Int] = []
    private var animationLists: [Int] = []
    /// Values made so far, by kind (entries' field values: UIDs or inline numbers), for sharing.
    private var values: [ValueKind: [Int]] = [:]
    private var valueArrays: [ValueKind: [Int]] = [:]
    private var paths: [Int] = []

    enum ValueKind: CaseIterable { case number, point, size, rect, transform, color, path, colors, image, string }

    static let keyPaths: [(String, ValueKind)] = [
        ("opacity", .number), ("position", .point), ("transform", .transform), ("transform.rotation.z", .number),
        ("bounds", .rect), ("backgroundColor", .color), ("path", .path), ("cornerRadius", .number),
        ("position.x", .number), ("strokeEnd", .number), ("bounds.size", .size), ("sublayerTransform", .transform),
        ("shadowOpacity", .number), ("colors", .colors), ("contents", .image), ("transform.scale", .number),
        ("anchorPoint", .point), ("borderColor", .color), ("zPosition", .number), ("name", .string), ("lineWidth", .number),
    ]

    /// Whether emitter birth rates and lifetimes take the extremes other numbers take (1e300, the
    /// largest finite double): on since a finite particle estimate past Int.max no longer traps in
    /// `SceneLimits.Message.particles` (the finding `Regressions/archive-dag/emitter-particles-past-int-max`).
    public static let extremeEmitterRates = true

    public init(_ bytes: [UInt8]) { b = FuzzBytes(bytes) }

    public static func generate(_ bytes: [UInt8]) -> GeneratedPlist {
        var g = ArchiveGraphGenerator(bytes)
        return g.generate()
    }

    public mutating func generate() -> GeneratedPlist {
        _ = newEntry(str("$null"))
        while !b.exhausted, entries.count < Self.maxEntries {
            step()
        }
        if layers.isEmpty { layers.append(layer(sublayers: [])) }
        // (Bytes past the end read as zero: zero picks the usual choices.)
        let rootLayer = b.byte() % 8 == 7 ? layers[b.below(layers.count)] : layers.last!
        let root: Int
        switch b.byte() % 64 {
        case 60, 61, 62:
            root = rootLayer   // an archived bare layer
        case 63:
            root = object(["NSDictionary", "NSObject"], [("NS.keys", parray([ref(stringEntry("documentWidth"))])),
                                                          ("NS.objects", parray([]))])   // keys and objects differ
        default:
            var keys = [ref(stringEntry("rootLayer"))], objects = [ref(rootLayer)]
            if !b.flag() {
                keys += [ref(stringEntry("documentWidth")), ref(stringEntry("documentHeight"))]
                objects += [numberField(b.pick([1, 10, 64, 100, 256, 390, 0.4, 1e6, 16_384, 16_385])),
                            numberField(b.pick([1, 10, 64, 100, 256, 844, 0.4, 1e6, 16_384, -5]))]
            }
            if b.flag() { keys.append(ref(stringEntry("geometryFlipped"))); objects.append(boolean(b.flag())) }
            root = object(["NSDictionary", "NSObject"], [("NS.keys", parray(keys)), ("NS.objects", parray(objects))])
        }
        for (i, e) in entries.enumerated() where e < 0 { entries[i] = str("$null") }
        let top = pdict([("$archiver", str("NSKeyedArchiver")), ("$version", integer(100_000)),
                         ("$top", pdict([("root", ref(root))])), ("$objects", parray(entries))])
        // The reader accepts arrays of at most 16 references per object in the file: pad with
        // unreferenced objects, as a file with that many distinct values would have.
        while objs.count * 16 < longestArray { objs.append(.null) }
        return GeneratedPlist(file: BinaryPlistWriter.encode(objs, top: top), objects: objs, top: top)
    }

    // MARK: plist objects (uniqued as NSKeyedArchiver writes them)

    private mutating func plist(_ o: BinaryPlistObject) -> Int { objs.append(o); return objs.count - 1 }

    private mutating func str(_ s: String) -> Int {
        if let i = stringMemo[s] { return i }
        let i = plist(s.utf8.allSatisfy { $0 < 0x80 } ? .ascii(Array(s.utf8)) : .utf16(Array(s.utf16)))
        stringMemo[s] = i
        return i
    }
    private mutating func ref(_ uid: Int) -> Int {
        if let i = uidMemo[uid] { return i }
        let i = plist(.uid(UInt64(truncatingIfNeeded: uid), size: uid < 256 ? 1 : uid < 65_536 ? 2 : 4))
        uidMemo[uid] = i
        return i
    }
    private mutating func real(_ d: Double) -> Int {
        if let i = realMemo[d.bitPattern] { return i }
        let i = plist(.real(d, size: 8))
        realMemo[d.bitPattern] = i
        return i
    }
    private mutating func integer(_ v: Int) -> Int {
        if let i = intMemo[v] { return i }
        let size = v < 0 ? 8 : BinaryPlistWriter.bytesFor(UInt64(v))
        let i = plist(.integer(Int64(v), size: size))
        intMemo[v] = i
        return i
    }
    private mutating func boolean(_ v: Bool) -> Int { plist(.bool(v)) }
    private mutating func pdict(_ pairs: [(String, Int)]) -> Int {
        plist(.dictionary(keys: pairs.map { str($0.0) }, values: pairs.map { $0.1 }))
    }
    private mutating func parray(_ refs: [Int]) -> Int {
        longestArray = max(longestArray, refs.count)
        return plist(.array(refs))
    }

    // MARK: archive entries

    private mutating func newEntry(_ p: Int) -> Int { entries.append(p); return entries.count - 1 }
    private mutating func reserve() -> Int { entries.append(-1); return entries.count - 1 }

    private mutating func classEntry(_ chain: [String]) -> Int {
        if let u = classMemo[chain[0]] { return u }
        let u = newEntry(pdict([("$classname", str(chain[0])), ("$classes", parray(chain.map { str($0) }))]))
        classMemo[chain[0]] = u
        return u
    }
    /// A new object entry of the class chain (most derived first) with `fields`.
    private mutating func object(_ chain: [String], _ fields: [(String, Int)], at reserved: Int? = nil) -> Int {
        let c = ref(classEntry(chain))
        let p = pdict(fields + [("$class", c)])
        if let r = reserved { entries[r] = p; return r }
        return newEntry(p)
    }
    private mutating func stringEntry(_ s: String) -> Int {
        if let u = stringEntries[s] { return u }
        let u = newEntry(str(s))
        stringEntries[s] = u
        return u
    }

    // MARK: values

    private mutating func number(_ typical: ClosedRange<Double>) -> Double {
        let c = b.byte()
        if c < 224 { return typical.lowerBound + (typical.upperBound - typical.lowerBound) * Double(c) / 223 }
        let extremes: [Double] = [0, -0.0, 1e-300, 1e300, -1e300, .infinity, -.infinity, .nan, 1e6, -1e6,
                                  .greatestFiniteMagnitude, 0.5, 1, -1, 2, 16_384, 4e9, 1e15]
        return extremes[Int(c - 224) % extremes.count]
    }
    /// An emitter rate: `number(typical)`, without extremes past 1e6 unless `extremeEmitterRates`.
    private mutating func rate(_ typical: ClosedRange<Double>) -> Double {
        let v = number(typical)
        return Self.extremeEmitterRates || !v.isFinite || abs(v) <= 1e6 ? v : 1e6
    }
    /// A number inline (as proxies hold them) or through a UID to a number entry (as layers do).
    private mutating func numberField(_ v: Double) -> Int {
        if b.flag() { return ref(newEntry(v == v.rounded() && abs(v) < 1e9 ? integer(Int(v)) : real(v))) }
        return real(v)
    }
    private mutating func proxy(_ fields: [(String, Double)], kind: Int) -> Int {
        object(["LKNSValueCodingProxy", "CACodingProxy", "NSObject"], [("kind", integer(kind))] + fields.map { ($0.0, real($0.1)) })
    }

    /// A field value of `kind`: mostly an existing one (shared), else a new one.
    private mutating func value(_ kind: ValueKind) -> Int {
        if let pool = values[kind], !pool.isEmpty, b.byte() < 96 { return pool[b.below(pool.count)] }
        let v = newValue(kind)
        values[kind, default: []].append(v)
        return v
    }

    private mutating func newValue(_ kind: ValueKind) -> Int {
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

    private mutating func longString() -> String {
        let n = b.pick([0, 1, 5, 40, 1000, 65_536, 200_000])
        if payload + n > Self.maxPayload { return "layer \(b.byte())" }
        payload += n
        let unit = b.pick(["a", "é", "日", "\u{1F600}", "layer "])
        return String(repeating: unit, count: n / unit.utf8.count + (n == 0 ? 0 : 1))
    }

    /// An NSArray (or NSMutableArray) of `items` (field values); sometimes behind an
    /// LKNSArrayCodingProxy, as layers archive their arrays.
    private mutating func nsArray(_ items: [Int], proxied: Bool? = nil) -> Int {
        let chain = b.flag() ? ["NSMutableArray", "NSArray", "NSObject"] : ["NSArray", "NSObject"]
        let a = object(chain, [("NS.objects", parray(items))])
        if proxied ?? b.oneIn(3) {
            return ref(object(["LKNSArrayCodingProxy", "CACodingProxy", "NSObject"], [("array", ref(a))]))
        }
        return ref(a)
    }

    /// An array of `count` values of `kind`, drawn from a few distinct ones (so they share).
    private mutating func array(of kind: ValueKind, count: Int) -> Int {
        let distinct = (0..<min(count, 1 + Int(b.byte() % 4))).map { _ in value(kind) }
        guard !distinct.isEmpty else { return nsArray([]) }
        return nsArray((0..<count).map { distinct[$0 % distinct.count] })
    }

    /// A values array for keyframes: an existing one of the kind (shared), or a new one.
    private mutating func valuesArray(_ kind: ValueKind) -> Int {
        if let pool = valueArrays[kind], !pool.isEmpty, b.byte() < 128 { return pool[b.below(pool.count)] }
        let n = b.pick([0, 1, 2, 3, 4, 5, 8, 16, 100, 1000, 10_000, 10_001])
        let a = array(of: kind, count: n)
        valueArrays[kind, default: []].append(a)
        return a
    }

    private mutating func path() -> Int {
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

    private mutating func timingFunction() -> Int {
        ref(object(["CAMediaTimingFunction", "NSObject"], [("c1x", real(number(0...1))), ("c1y", real(number(-1...2))),
                                                          ("c2x", real(number(0...1))), ("c2y", real(number(-1...2)))]))
    }

    private mutating func filter() -> Int {
        let type = b.pick(["gaussianBlur", "colorMatrix", "multiplyColor", "vibrantDark", "variableBlur", "colorSaturate", "nope"])
        let keys = [ref(stringEntry("inputRadius")), ref(stringEntry("inputAmount"))]
        let inputs = object(["NSDictionary", "NSObject"], [("NS.keys", parray(keys)),
                                                          ("NS.objects", parray([numberField(number(0...100)), numberField(number(-1...2))]))])
        return ref(object(["CAFilter", "NSObject"], [("CAFilterType", ref(stringEntry(type))), ("CAFilterName", ref(stringEntry("f"))),
                                                    ("CAFilterInputs", ref(inputs))]))
    }

    // MARK: animations

    private mutating func animation() -> Int {
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
    private mutating func animationList() -> (list: Int, keys: Int?) {
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

    // MARK: layers

    private mutating func layer(sublayers: [Int]) -> Int {
        let u = reserve()
        let cls = b.pick(["CALayer", "CALayer", "CAShapeLayer", "CAGradientLayer", "CATextLayer", "CATransformLayer",
                          "CAReplicatorLayer", "CAEmitterLayer", "CABackdropLayer", "CAPortalLayer"])
        var fields: [(String, Int)] = [("bounds", value(.rect)), ("position", value(.point))]
        if b.flag() { fields.append(("delegate", ref(u))) }
        let count = Int(b.byte() % 8)
        for _ in 0..<count {
            switch b.byte() % 16 {
            case 0: fields.append(("anchorPoint", value(.point)))
            case 1: fields.append(("transform", value(.transform)))
            case 2: fields.append(("opacity", numberField(number(-0.5...1.5))))
            case 3: fields.append(("backgroundColor", value(.color)))
            case 4: fields.append(("cornerRadius", numberField(number(0...80))))
            case 5: fields.append(("masksToBounds", boolean(b.flag())))
            case 6: fields.append(("hidden", boolean(b.byte() > 230)))
            case 7: fields.append(("name", value(.string)))
            case 8: fields.append(("zPosition", numberField(number(-10...10))))
            case 9: fields += [("borderWidth", numberField(number(0...40))), ("borderColor", value(.color))]
            case 10: fields += [("shadowOpacity", numberField(number(0...1))), ("shadowRadius", numberField(number(0...60))),
                                ("shadowOffset", value(.size))]
            case 11: fields.append(("shadowPath", value(.path)))
            case 12: fields.append(("filters", nsArray((0..<Int(b.byte() % 3)).map { _ in filter() })))
            case 13: fields.append(("contents", value(.image)))
            case 14: fields.append(("sublayerTransform", value(.transform)))
            default: fields.append(("geometryFlipped", boolean(b.flag())))
            }
        }
        switch cls {
        case "CAShapeLayer":
            fields += [("path", value(.path)), ("fillColor", value(.color))]
            if b.flag() { fields += [("strokeColor", value(.color)), ("lineWidth", numberField(number(0...30)))] }
            if b.oneIn(4) { fields.append(("lineDashPattern", array(of: .number, count: b.pick([0, 1, 2, 3, 10_000])))) }
            if b.oneIn(4) { fields.append(("strokeEnd", numberField(number(-0.5...1.5)))) }
        case "CAGradientLayer":
            fields.append(("colors", value(.colors)))
            if b.flag() { fields.append(("locations", array(of: .number, count: Int(b.byte() % 5)))) }
        case "CATextLayer":
            fields += [("string", value(.string)), ("fontSize", numberField(number(0...200)))]
        case "CAReplicatorLayer":
            fields += [("instanceCount", numberField(Double(b.pick([0, 1, 2, 5, 100, 10_000, 10_001])))), ("instanceTransform", value(.transform))]
        case "CAEmitterLayer":
            let cell = object(["CAEmitterCell", "NSObject"], [("birthRate", numberField(rate(0...50))), ("lifetime", numberField(rate(0...5))),
                                                             ("velocity", numberField(number(0...100)))])
            fields += [("emitterCells", nsArray([ref(cell)], proxied: false)), ("birthRate", numberField(rate(0...2)))]
        default: break
        }
        if !sublayers.isEmpty { fields.append(("sublayers", nsArray(sublayers))) }
        if !layers.isEmpty, b.byte() > 232 { fields.append(("mask", ref(layers[b.below(layers.count)]))) }
        if b.byte() > 150 {
            let (list, keys) = animationList()
            fields.append(("CALayerAnimations", list))
            if let k = keys { fields.append(("CALayerAnimationKeys", k)) }
        }
        layers.append(object([cls, "CALayer", "NSObject"], fields, at: u))
        return u
    }

    /// Sublayers for a new layer: earlier layers, the same one several times at will.
    private mutating func someLayers() -> [Int] {
        guard !layers.isEmpty else { return [] }
        let n = Int(b.byte() % 5)
        return (0..<n).map { _ in
            ref(layers[b.flag() ? layers.count - 1 - b.below(min(layers.count, 6)) : b.below(layers.count)])
        }
    }

    private mutating func flag() -> Bool { b.flag() }
    private mutating func oneIn(_ n: Int) -> Bool { b.oneIn(n) }
    private mutating func pick<T>(_ o: [T]) -> T { b.pick(o) }

    private mutating func step() {
        switch b.byte() % 16 {
        case 0, 1, 2, 3, 4:
            _ = layer(sublayers: someLayers())
        case 5, 6:
            animations.append(animation())
        case 7:
            _ = value(b.pick(ValueKind.allCases))
        case 8:
            _ = valuesArray(b.pick(ValueKind.allCases))
        case 9, 10:
            // A chain of layers, each holding the one below `fanOut` times: fanOut^levels layers.
            let levels = b.pick([1, 2, 3, 4, 6, 8, 12, 17])
            let fanOut = b.pick([2, 2, 2, 3, 4, 10])
            if layers.isEmpty { _ = layer(sublayers: []) }
            for _ in 0..<levels where entries.count < Self.maxEntries {
                _ = layer(sublayers: [Int](repeating: ref(layers.last!), count: fanOut))
            }
        case 11:
            // A layer shared by several parents.
            guard !layers.isEmpty else { return }
            let shared = ref(layers.last!)
            for _ in 0..<Int(2 + b.byte() % 4) { _ = layer(sublayers: [shared] + someLayers()) }
        case 12:
            _ = animationList()
        case 13:
            _ = path()
        default:
            guard b.oneIn(4) else { _ = layer(sublayers: someLayers()); return }
            corrupt()
        }
    }

    /// Something the importer must refuse or skip with a warning.
    private mutating func corrupt() {
        switch b.byte() % 6 {
        case 0:
            // A UID outside $objects as a sublayer.
            _ = layer(sublayers: [ref(Self.maxEntries + 1000 + Int(b.byte()))])
        case 1:
            // An object whose $class is a string entry, not a class entry.
            let bogus = newEntry(pdict([("$class", ref(stringEntry("CALayer")))]))
            _ = layer(sublayers: [ref(bogus)])
        case 2:
            // An entry that is a UID naming itself (a chain a resolver could follow forever).
            let u = entries.count
            _ = newEntry(plist(.uid(UInt64(u), size: 2)))
            _ = layer(sublayers: [ref(u)])
        case 3:
            // A layer among its own sublayers.
            let v = reserve()
            _ = object(["CALayer", "NSObject"], [("bounds", value(.rect)), ("sublayers", nsArray([ref(v)]))], at: v)
            layers.append(v)
        case 4:
            // A number where a layer is expected, and NaN values.
            _ = layer(sublayers: [numberField(.nan)])
        default:
            // An NSDictionary whose keys and objects differ in count, as a value.
            let d = object(["NSDictionary", "NSObject"], [("NS.keys", parray([ref(stringEntry("a"))])), ("NS.objects", parray([]))])
            _ = layer(sublayers: [ref(d)])
        }
    }
}
