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

    var b: FuzzBytes
    var objs: [BinaryPlistObject] = []
    var stringMemo: [String: Int] = [:]
    var uidMemo: [Int: Int] = [:]
    var realMemo: [UInt64: Int] = [:]
    var intMemo: [Int: Int] = [:]
    var longestArray = 0
    var payload = 0

    /// `$objects`: the plist object of each entry (−1 while reserved).
    var entries: [Int] = []
    var classMemo: [String: Int] = [:]
    var stringEntries: [String: Int] = [:]
    var layers: [Int] = []
    var animations: [Int] = []
    var animationLists: [Int] = []
    /// Values made so far, by kind (entries' field values: UIDs or inline numbers), for sharing.
    var values: [ValueKind: [Int]] = [:]
    var valueArrays: [ValueKind: [Int]] = [:]
    var paths: [Int] = []

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

    mutating func plist(_ o: BinaryPlistObject) -> Int { objs.append(o); return objs.count - 1 }

    mutating func str(_ s: String) -> Int {
        if let i = stringMemo[s] { return i }
        let i = plist(s.utf8.allSatisfy { $0 < 0x80 } ? .ascii(Array(s.utf8)) : .utf16(Array(s.utf16)))
        stringMemo[s] = i
        return i
    }
    mutating func ref(_ uid: Int) -> Int {
        if let i = uidMemo[uid] { return i }
        let i = plist(.uid(UInt64(truncatingIfNeeded: uid), size: uid < 256 ? 1 : uid < 65_536 ? 2 : 4))
        uidMemo[uid] = i
        return i
    }
    mutating func real(_ d: Double) -> Int {
        if let i = realMemo[d.bitPattern] { return i }
        let i = plist(.real(d, size: 8))
        realMemo[d.bitPattern] = i
        return i
    }
    mutating func integer(_ v: Int) -> Int {
        if let i = intMemo[v] { return i }
        let size = v < 0 ? 8 : BinaryPlistWriter.bytesFor(UInt64(v))
        let i = plist(.integer(Int64(v), size: size))
        intMemo[v] = i
        return i
    }
    mutating func boolean(_ v: Bool) -> Int { plist(.bool(v)) }
    mutating func pdict(_ pairs: [(String, Int)]) -> Int {
        plist(.dictionary(keys: pairs.map { str($0.0) }, values: pairs.map { $0.1 }))
    }
    mutating func parray(_ refs: [Int]) -> Int {
        longestArray = max(longestArray, refs.count)
        return plist(.array(refs))
    }

    // MARK: archive entries

    mutating func newEntry(_ p: Int) -> Int { entries.append(p); return entries.count - 1 }
    mutating func reserve() -> Int { entries.append(-1); return entries.count - 1 }

    mutating func classEntry(_ chain: [String]) -> Int {
        if let u = classMemo[chain[0]] { return u }
        let u = newEntry(pdict([("$classname", str(chain[0])), ("$classes", parray(chain.map { str($0) }))]))
        classMemo[chain[0]] = u
        return u
    }
    /// A new object entry of the class chain (most derived first) with `fields`.
    mutating func object(_ chain: [String], _ fields: [(String, Int)], at reserved: Int? = nil) -> Int {
        let c = ref(classEntry(chain))
        let p = pdict(fields + [("$class", c)])
        if let r = reserved { entries[r] = p; return r }
        return newEntry(p)
    }
    mutating func stringEntry(_ s: String) -> Int {
        if let u = stringEntries[s] { return u }
        let u = newEntry(str(s))
        stringEntries[s] = u
        return u
    }

    // MARK: layers

    mutating func layer(sublayers: [Int]) -> Int {
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
    mutating func someLayers() -> [Int] {
        guard !layers.isEmpty else { return [] }
        let n = Int(b.byte() % 5)
        return (0..<n).map { _ in
            ref(layers[b.flag() ? layers.count - 1 - b.below(min(layers.count, 6)) : b.below(layers.count)])
        }
    }

    mutating func flag() -> Bool { b.flag() }
    mutating func oneIn(_ n: Int) -> Bool { b.oneIn(n) }
    mutating func pick<T>(_ o: [T]) -> T { b.pick(o) }

    mutating func step() {
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
    mutating func corrupt() {
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
