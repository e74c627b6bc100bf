import Geometry
import LayerModel
import Animation

/// Turns archived values (inline scalars, Foundation collections and Core Animation's coding
/// proxies) into `ImportedValue`s. Memoised per `$objects` entry; an entry met again while it is
/// being decoded (a collection that contains itself) decodes as a reference, never recursively.
final class ArchiveValueDecoder {
    let archive: KeyedArchive
    let ctx: ImportContext
    private var memo: [Int: (value: ImportedValue, values: Int, bytes: Int)] = [:]
    private var inProgress = Set<Int>()
    private var depth = 0
    static let maxDepth = 256
    /// Values within values (a UID naming a UID, arrays in arrays): a chain that names itself
    /// would recurse forever, so nesting is bounded and refused past this.
    private var valueDepth = 0
    static let maxValueDepth = 2048
    /// What decoding the whole graph may reach, a shared object counted each time it is reached
    /// (a memoised one costs nothing to reach, but what walks the values next pays for each
    /// reference): values, and bytes of strings and data, as `BinaryPlistReader` budgets the plist.
    static let maxDecodedValues = BinaryPlistReader.maxValues
    static let maxDecodedBytes = BinaryPlistReader.maxExpandedBytes
    private var decodedValues = 0
    private var decodedBytes = 0

    init(archive: KeyedArchive, ctx: ImportContext) { self.archive = archive; self.ctx = ctx }

    /// Decodes a field value. `path` is the archive object path used in warnings.
    func value(_ raw: PlistValue, path: String) throws -> ImportedValue {
        guard valueDepth < Self.maxValueDepth else {
            throw PlistError("values nested more than \(Self.maxValueDepth) deep at \(path) (a reference that names itself?)")
        }
        valueDepth += 1
        defer { valueDepth -= 1 }
        try count(values: 1, bytes: 0, path: path)
        switch try archive.resolve(raw) {
        case .null: return .null
        case .scalar(let p): return try scalar(p, path: path)
        case .object(let o): return try object(o, path: path)
        }
    }

    private func scalar(_ p: PlistValue, path: String) throws -> ImportedValue {
        switch p {
        case .bool, .integer, .real:
            guard let n = p.number else {
                ctx.warn("NaN is no Core Animation value; it is ignored", at: ctx.place(path))
                return .null
            }
            return .number(n)
        case .string(let s):
            try countBytes(s.utf8.count, path: path)
            return .string(s)
        case .data(let d):
            try countBytes(d.count, path: path)
            return .data(d)
        case .date(let d): return .number(d)
        case .null: return .null
        case .uid: return try value(p, path: path)
        case .array(let items): return .array(try items.enumerated().map { try value($1, path: "\(path)/\($0)") })
        case .dictionary(let pairs): return .dictionary(try pairs.map { ($0.0, try value($0.1, path: "\(path)/\($0.0)")) })
        }
    }

    private func countBytes(_ n: Int, path: String) throws { try count(values: 0, bytes: n, path: path) }

    private func count(values: Int, bytes: Int, path: String) throws {
        decodedValues += values
        decodedBytes += bytes
        if decodedValues > Self.maxDecodedValues {
            throw PlistError.limit("the archive's values expand to more than \(Self.maxDecodedValues) values through shared references (at \(path.isEmpty ? "/" : path); ArchiveValueDecoder.maxDecodedValues)")
        }
        if decodedBytes > Self.maxDecodedBytes {
            throw PlistError.limit("the archive's values expand to more than \(Self.maxDecodedBytes >> 20) MiB of strings and data through shared references (at \(path.isEmpty ? "/" : path); ArchiveValueDecoder.maxDecodedBytes)")
        }
    }

    func object(_ o: ArchivedObject, path: String) throws -> ImportedValue {
        if let m = memo[o.index] {
            // Shared, but whoever reads the value next (a keyframe list typed per animation, say)
            // pays for it again: it counts as much as it did the first time.
            try count(values: m.values, bytes: m.bytes, path: path)
            return m.value
        }
        if inProgress.contains(o.index) || depth >= Self.maxDepth {
            return .object(className: o.className, reference: o.index)
        }
        inProgress.insert(o.index); depth += 1
        defer { inProgress.remove(o.index); depth -= 1 }
        let (values0, bytes0) = (decodedValues, decodedBytes)
        let v = try decode(o, path: path)
        memo[o.index] = (v, decodedValues - values0, decodedBytes - bytes0)
        return v
    }

    private func field(_ o: ArchivedObject, _ key: String, _ path: String) throws -> ImportedValue {
        guard let raw = o[key] else { return .null }
        return try value(raw, path: path)
    }
    private func number(_ o: ArchivedObject, _ key: String, default d: Double = 0) throws -> Double {
        guard let raw = o[key] else { return d }
        return try value(raw, path: "").number ?? d
    }

    private func decode(_ o: ArchivedObject, path: String) throws -> ImportedValue {
        switch o.className {
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
            guard let items = o["NS.objects"]?.array else { return .array([]) }
            return .array(try items.enumerated().map { try value($1, path: "\(path)/\($0)") })
        case "NSDictionary", "NSMutableDictionary":
            let keys = o["NS.keys"]?.array ?? [], objs = o["NS.objects"]?.array ?? []
            guard keys.count == objs.count else {
                ctx.warn("\(o.className) with \(keys.count) keys and \(objs.count) values; it is read as empty", at: ctx.place(path))
                return .dictionary([])
            }
            var pairs: [(String, ImportedValue)] = []
            for (k, v) in zip(keys, objs) {
                let key = try value(k, path: path).string ?? "?"
                pairs.append((key, try value(v, path: "\(path)/\(key)")))
            }
            return .dictionary(pairs)
        case "NSString", "NSMutableString":
            return .string(o["NS.string"]?.string ?? "")
        case "NSData", "NSMutableData":
            if case .data(let d)? = o["NS.data"] { return .data(d) }
            return .data([])
        case "NSNull":
            return .null
        case "LKNSArrayCodingProxy":
            return try field(o, "array", path)
        case "LKNSDictionaryCodingProxy":
            return try field(o, "dict", path)
        case "LKNSValueCodingProxy":
            return try nsValue(o, path: path)
        case "LKCGColorCodingProxy":
            let c = [try number(o, "r"), try number(o, "g"), try number(o, "b"), try number(o, "a", default: 1)]
            guard c.allSatisfy(\.isFinite) else {
                ctx.warn("a colour with a component that is not finite (\(c.map { "\($0)" }.joined(separator: ", "))) is no Core Animation colour; it is ignored", at: ctx.place(path))
                return .null
            }
            return .color(Color(c[0], c[1], c[2], c[3]))
        case "CACGPathCodingProxy":
            return try cgPath(o, path: path)
        case "LKCGImageCodingProxy":
            return try image(o, path: path)
        case "CAMediaTimingFunction":
            return .timingFunction(.controlPoints(try number(o, "c1x"), try number(o, "c1y"), try number(o, "c2x", default: 1), try number(o, "c2y", default: 1)))
        case "CAFilter":
            let type = try field(o, "CAFilterType", path).string ?? "?"
            let name = try field(o, "CAFilterName", path).string
            var inputs: [(String, ImportedValue)] = []
            if case .dictionary(let d) = try field(o, "CAFilterInputs", path) { inputs = d }
            return .filter(type: type, name: name, inputs: inputs)
        case "NSFont", "UIFont", "UICTFont":
            let nsName = try field(o, "NSName", path).string
            let uiName = try field(o, "UIFontName", path).string
            let name = nsName ?? uiName ?? "Helvetica"
            let sizeKey = o["NSSize"] != nil ? "NSSize" : "UIFontPointSize"
            let size: Double? = o[sizeKey] != nil ? try number(o, sizeKey) : nil
            return .font(name: name, size: size)
        default:
            // Layers, animations, emitter cells and unknown classes are built by their decoders.
            return .object(className: o.className, reference: o.index)
        }
    }

    /// NSValue coding proxy: kind 0 CGPoint, 1 CGSize, 2 CGRect, 3 CATransform3D (missing m-keys
    /// keep the identity's value, as Kite's keyframe values rely on).
    private func nsValue(_ o: ArchivedObject, path: String) throws -> ImportedValue {
        let kind = Self.whole(try number(o, "kind", default: -1))
        switch kind {
        case 0: return .point(Point(try number(o, "x"), try number(o, "y")))
        case 1: return .size(Size(try number(o, "width"), try number(o, "height")))
        case 2: return .rect(Rect(try number(o, "x"), try number(o, "y"), try number(o, "width"), try number(o, "height")))
        case 3:
            var m = Transform3D.identity.elements
            for r in 1...4 { for c in 1...4 where o["m\(r)\(c)"] != nil { m[(r - 1) * 4 + c - 1] = try number(o, "m\(r)\(c)") } }
            return .transform(Transform3D(m))
        default:
            ctx.warn("an NSValue of kind \(kind) (not a point, size, rect or transform) is not supported", at: ctx.place(path))
            return .object(className: "NSValue kind \(kind)", reference: o.index)
        }
    }

    /// A stored number as a small whole number; -1 for anything else (NaN, infinite, fractional, huge).
    static func whole(_ d: Double) -> Int {
        guard d.isFinite, d == d.rounded(), abs(d) < 1e9 else { return -1 }
        return Int(d)
    }

    private func cgPath(_ o: ArchivedObject, path: String) throws -> ImportedValue {
        guard case .array(let segments) = try field(o, "LKCGPathSegments", path) else { return .path(Path()) }
        var elements: [Path.Element] = []
        elements.reserveCapacity(segments.count)
        for (i, s) in segments.enumerated() {
            guard case .object(_, let ref) = s else { continue }
            let seg = try archive.object(ref)
            func pt(_ k: Int) throws -> Point { Point(try number(seg, "LKCGPathPoint\(k)_x"), try number(seg, "LKCGPathPoint\(k)_y")) }
            switch Self.whole(try number(seg, "LKCGPathType", default: -1)) {
            case 0: elements.append(.move(try pt(0)))
            case 1: elements.append(.line(try pt(0)))
            case 2: elements.append(.quad(try pt(0), try pt(1)))
            case 3: elements.append(.cubic(try pt(0), try pt(1), try pt(2)))
            case 4: elements.append(.close)
            case let t: ctx.warn("path segment type \(t) is not a CGPathElementType; it is skipped", at: ctx.place("\(path)/\(i)"))
            }
        }
        return .path(Path(elements))
    }

    private func image(_ o: ArchivedObject, path: String) throws -> ImportedValue {
        guard case .data(let bytes) = try field(o, "data", path) else {
            ctx.warn("an image with no data is not drawn", at: ctx.place(path))
            return .null
        }
        return ImageCheck.embedded(bytes, ctx: ctx, place: ctx.place(path))
    }
}

/// What the renderer can decode (`ImageFormat.isDecodable`: PNG and JPEG), checked at import so
/// an image of another format is a warning at its place rather than a render failure.
enum ImageCheck {
    static func embedded(_ bytes: [UInt8], ctx: ImportContext, place: SourceLocation) -> ImportedValue {
        if bytes.isEmpty {
            ctx.warn("the image is empty (0 bytes); the layer is drawn without contents", at: place)
            return .null
        }
        let format = ImageFormat(signatureOf: bytes)
        guard format.isDecodable else {
            ctx.warn("\(format.name) image (\(bytes.count) bytes) cannot be decoded (caprof reads \(ImageFormat.decodableNames)); the layer is drawn without contents", at: place)
            return .null
        }
        return .image(ImageSource(origin: ctx.images.intern(.data(bytes)), location: place))
    }
}
