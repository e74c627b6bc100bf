import SystemSupport
import Geometry
import LayerModel
import Animation

/// Reads typed value elements of CAML (`<value type="integer" value="1"/>`, `<CGColor value
/// opacity/>`, `<contents type="CGImage" src/>`, `<values><real value/>…</values>`) into
/// `ImportedValue`s; images resolve relative to the bundle.
struct CAMLNodes {
    let ctx: ImportContext
    /// The directory images are relative to (the `.ca` bundle, or a bare file's directory).
    let bundle: String

    func place(_ n: XMLNode) -> SourceLocation { ctx.place("<\(n.name)>", line: n.line, column: n.column) }

    /// The value a property element holds; `hint` is the type of the property or key path.
    func value(_ n: XMLNode, hint: ValueType?) -> ImportedValue? {
        if let type = n["type"] { return typed(type, n, hint: hint) }
        if hint == .colorArray || hint == .numberArray || (n.children.count > 1) {
            return .array(n.children.compactMap { typed($0.name, $0, hint: elementHint(hint)) })
        }
        if let only = n.children.first { return typed(only.name, only, hint: hint) }
        if let v = n["value"], let h = hint { return CAMLValues.value(v, as: h, opacity: n["opacity"]) }
        if let v = n["value"] { return CAMLValues.number(v).map { .number($0) } ?? .string(v) }
        if let src = n["src"] { return image(src, at: n) }
        return nil
    }

    private func elementHint(_ h: ValueType?) -> ValueType? {
        switch h {
        case .colorArray?: return .color
        case .numberArray?: return .number
        default: return h
        }
    }

    /// A value element by its type name (the `type` attribute or the element's own name); a value
    /// that does not parse is reported at its line and skipped.
    func typed(_ type: String, _ n: XMLNode, hint: ValueType?) -> ImportedValue? {
        if let v = parse(type, n, hint: hint) { return v }
        ctx.warn("<\(n.name)> of type \(type) with value \"\((n["value"] ?? n["src"] ?? "").prefix(60))\" could not be read; it is skipped", at: place(n))
        return nil
    }

    private func parse(_ type: String, _ n: XMLNode, hint: ValueType?) -> ImportedValue? {
        let v = n["value"] ?? ""
        switch type {
        case "integer", "real", "float", "number", "NSNumber", "bool", "BOOL", "CGFloat", "double":
            return CAMLValues.number(v).map { .number($0) }
        case "string", "NSString":
            return .string(v)
        case "CGColor", "color":
            return CAMLValues.color(v, opacity: n["opacity"]).map { .color($0) }
        case "CGPoint", "point":
            return CAMLValues.value(v, as: .point)
        case "CGSize", "size":
            return CAMLValues.value(v, as: .size)
        case "CGRect", "rect":
            return CAMLValues.value(v, as: .rect)
        case "CAPoint3D":
            guard let p = CAMLValues.numbers(v), p.count == 3 else { return nil }
            return .point3(Point3(p[0], p[1], p[2]))
        case "CATransform3D", "transform":
            return CAMLValues.transform(v).map { .transform($0) }
        case "CGPath", "path":
            return CAMLValues.path(v).map { .path($0) }
        case "CGImage", "image", "CAImage":
            guard let src = n["src"] else { return nil }
            return image(src, at: n)
        case "CAMediaTimingFunction":
            return CAMLValues.timingFunction(v).map { .timingFunction($0) }
        case "NSArray", "NSMutableArray", "array":
            return .array(n.children.compactMap { typed($0["type"] ?? $0.name, $0, hint: elementHint(hint)) })
        case "CAFilter":
            return .filter(type: n["filter"] ?? n["type"] ?? "?", name: n["name"], inputs: [])
        default:
            if let h = hint, let vv = n["value"] { return CAMLValues.value(vv, as: h, opacity: n["opacity"]) }
            return .object(className: type, reference: n.line)
        }
    }

    /// An image file relative to the bundle. Missing files, absolute device paths, paths that lead
    /// outside the package (`../outside.png`, or a symbolic link in it that points out) and formats
    /// the renderer cannot decode become warnings naming the layer's place and the path (the layer
    /// is drawn without contents): a package never reads outside itself.
    func image(_ src: String, at n: XMLNode) -> ImportedValue {
        let at = place(n)
        var candidates = [src]
        // Bare .caml files in frameworks keep their images beside them while src says assets/….
        if !src.hasPrefix("/") { candidates.append(src.lastPathComponent) }
        var found: String?
        var outside: PackagePath?
        for candidate in candidates {
            switch PackagePath.resolve(candidate, inside: bundle) {
            case .inside(let path): found = path
            case .missing: continue
            case let other: outside = outside ?? other
            }
            if found != nil { break }
        }
        guard let path = found else {
            switch outside {
            case .absolute?:
                ctx.warn("image '\(src)' is an absolute device path; it is not read (the layer is drawn without contents)", at: at)
            case .climbsOut?:
                ctx.warn("image '\(src)' climbs out of the package; a package's images are read from inside it only (the layer is drawn without contents)", at: at)
            case .linksOut?:
                ctx.warn("image '\(src)' is a symbolic link that leads out of the package; a package's images are read from inside it only (the layer is drawn without contents)", at: at)
            default:
                ctx.warn("image '\(src)' is missing from the package; the layer is drawn without contents", at: at)
            }
            return .null
        }
        guard FileStatus.isRegularFile(path) else {
            ctx.warn("image '\(src)' is not a regular file (a FIFO, socket or device); the layer is drawn without contents", at: at)
            return .null
        }
        guard let head = FileBytes.read(path: path, upTo: 256, expected: 256) else {  // ImageFormat names SVG from its first 256 bytes
            ctx.warn("image '\(src)' cannot be read; the layer is drawn without contents", at: at)
            return .null
        }
        if head.isEmpty {
            ctx.warn("image '\(src)' is empty (0 bytes); the layer is drawn without contents", at: at)
            return .null
        }
        let format = ImageFormat(signatureOf: head)
        guard format.isDecodable else {
            ctx.warn("image '\(src)' is \(format.name), which caprof cannot decode (it reads \(ImageFormat.decodableNames)); the layer is drawn without contents", at: at)
            return .null
        }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        return .image(ImageSource(origin: .file(absolute), location: at))
    }
}
