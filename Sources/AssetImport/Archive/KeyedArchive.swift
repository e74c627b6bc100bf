/// An NSKeyedArchiver object graph (`$archiver`, `$top`, `$objects`), resolved on demand.
///
/// `$objects` is a flat table; `UID(n)` points at entry n (0 is `$null`). An object entry is a
/// dictionary with `$class` → a class entry (`$classname`, `$classes`: the chain, most derived
/// first) and its coder keys. Object graphs may be cyclic (Kite layers are their own `delegate`):
/// `object(_:)` memoises the `ArchivedObject` of each entry, and the CA decoder tracks the objects
/// it is inside, so following a reference can never recurse forever.
public final class KeyedArchive {
    public let objects: [PlistValue]
    /// The `$top` entries (`root` for NSKeyedArchiver's archivedDataWithRootObject:).
    public let top: [(String, PlistValue)]
    private var memo: [Int: ArchivedObject] = [:]

    /// Reads the archive around a parsed plist; throws a `PlistError` when it is not a keyed archive.
    public init(_ plist: PlistValue) throws {
        guard case .dictionary = plist else { throw PlistError("not a keyed archive: the property list is \(plist.kindDescription), not a dictionary") }
        guard let archiver = plist["$archiver"]?.string else { throw PlistError("not a keyed archive: no $archiver key") }
        guard archiver == "NSKeyedArchiver" else { throw PlistError("unsupported archiver '\(archiver)' (expected NSKeyedArchiver)") }
        guard let objs = plist["$objects"]?.array else { throw PlistError("not a keyed archive: $objects is missing or not an array") }
        guard case .dictionary(let t)? = plist["$top"] else { throw PlistError("not a keyed archive: $top is missing or not a dictionary") }
        objects = objs
        top = t
    }

    /// Parses binary (`bplist00`) or XML plist bytes and reads the archive.
    public convenience init(data: [UInt8]) throws {
        let plist: PlistValue
        if BinaryPlistReader.isBinaryPlist(data) || data.count < 8 {
            plist = try BinaryPlistReader.parse(data)
        } else if data.starts(with: Array("<?xml".utf8)) || data.starts(with: Array("<plist".utf8)) {
            plist = try XMLPlistReader.parse(data)
        } else {
            throw PlistError("not a property list: it starts with neither 'bplist' nor '<?xml'")
        }
        try self.init(plist)
    }

    /// What a value in an object's field stands for once its UID is followed.
    public enum Resolved {
        case null
        /// An inline scalar, or a plain plist value in `$objects` (strings, numbers).
        case scalar(PlistValue)
        case object(ArchivedObject)
    }

    /// Follows a UID (any other value is itself). Throws on a UID outside `$objects` or an object
    /// entry whose `$class` is not a class entry.
    public func resolve(_ v: PlistValue) throws -> Resolved {
        guard case .uid(let n) = v else { return .scalar(v) }
        if n == 0 { return .null }
        guard n > 0, n < objects.count else { throw PlistError("UID \(n) points outside $objects (\(objects.count) entries)") }
        switch objects[n] {
        case .dictionary:
            return .object(try object(n))
        case .string("$null"):
            return .null
        case let plain:
            return .scalar(plain)
        }
    }

    /// The object at `$objects[n]` (memoised).
    public func object(_ n: Int) throws -> ArchivedObject {
        if let o = memo[n] { return o }
        guard n > 0, n < objects.count, case .dictionary(let pairs) = objects[n] else {
            throw PlistError("$objects[\(n)] is not an archived object")
        }
        guard let classUID = objects[n]["$class"]?.uid else {
            throw PlistError("$objects[\(n)] has no $class reference")
        }
        guard classUID > 0, classUID < objects.count, let className = objects[classUID]["$classname"]?.string else {
            throw PlistError("$objects[\(n)]: $class points at $objects[\(classUID)], which is not a class entry with $classname")
        }
        let chain = objects[classUID]["$classes"]?.array?.compactMap(\.string) ?? [className]
        let o = ArchivedObject(index: n, className: className, classes: chain,
                               fields: pairs.filter { $0.0 != "$class" })
        memo[n] = o
        return o
    }

    /// The object `$top.root` points at.
    public func rootObject() throws -> Resolved {
        guard let root = top.first(where: { $0.0 == "root" })?.1 ?? top.first?.1 else {
            throw PlistError("the keyed archive's $top is empty")
        }
        return try resolve(root)
    }
}

/// One archived object: its class chain and raw coder keys (values are UIDs or inline scalars).
public final class ArchivedObject {
    public let index: Int
    public let className: String
    /// Most derived first (`CAShapeLayer`, `CALayer`, `NSObject`).
    public let classes: [String]
    public let fields: [(String, PlistValue)]
    init(index: Int, className: String, classes: [String], fields: [(String, PlistValue)]) {
        self.index = index; self.className = className; self.classes = classes; self.fields = fields
    }
    public subscript(key: String) -> PlistValue? { fields.first { $0.0 == key }?.1 }
    public func isKind(of name: String) -> Bool { classes.contains(name) }
}
