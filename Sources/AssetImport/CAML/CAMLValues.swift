import SystemSupport
import Geometry
import LayerModel
import Animation
import SceneFormat

/// The value grammars of CAML attributes (asset-formats.md §2.3): numbers (`1e-100`, `Inf`),
/// space-separated points/sizes/rects, colours `"r g b"` (+ a separate `opacity`), transform
/// function lists, PostScript-like postfix path data and timing functions. Each parser returns nil
/// (the caller reports the place) rather than throwing: a bad value is a warning, not a failure.
enum CAMLValues {
    static func number(_ s: String) -> Double? {
        let t = s.trimmingWhitespace()
        switch t.lowercased() {
        case "inf", "+inf", "infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        case "true", "yes": return 1
        case "false", "no": return 0
        default:
            guard let d = Double(t), d.isFinite else { return nil }
            return d
        }
    }

    static func numbers(_ s: String) -> [Double]? {
        let parts = s.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" })
        var out: [Double] = []
        for p in parts { guard let n = number(String(p)) else { return nil }; out.append(n) }
        return out
    }

    /// `"r g b"` or `"r g b a"` (0–1, extended range allowed), alpha times `opacity`; nil when a
    /// component is not finite (`Inf` reads as a number, but a colour of it became NaN in the plan
    /// once animated: a fuzz finding).
    static func color(_ s: String, opacity: String?) -> Color? {
        guard let n = numbers(s), n.count == 3 || n.count == 4 else { return nil }
        let o = opacity.flatMap(number) ?? 1
        let alpha = (n.count == 4 ? n[3] : 1) * o
        guard n.allSatisfy(\.isFinite), alpha.isFinite else { return nil }
        return Color(n[0], n[1], n[2], alpha)
    }

    /// A value for a property or key path of type `type`, from attribute text.
    static func value(_ s: String, as type: ValueType, opacity: String? = nil) -> ImportedValue? {
        switch type {
        case .number, .integer, .bool, .cornerMask:
            return number(s).map { .number($0) }
        case .point:
            guard let n = numbers(s), n.count == 2 else { return nil }
            return .point(Point(n[0], n[1]))
        case .size:
            guard let n = numbers(s), n.count == 2 else { return nil }
            return .size(Size(n[0], n[1]))
        case .rect:
            guard let n = numbers(s), n.count == 4 else { return nil }
            return .rect(Rect(n[0], n[1], n[2], n[3]))
        case .color:
            return color(s, opacity: opacity).map { .color($0) }
        case .transform:
            return transform(s).map { .transform($0) }
        case .path:
            return path(s).map { .path($0) }
        case .string, .enumeration:
            return .string(s)
        case .numberArray:
            return numbers(s).map { .array($0.map { .number($0) }) }
        case .image, .colorArray:
            return nil
        }
    }

    /// `default`, `linear`, `easeIn`, `easeOut`, `easeInEaseOut` or four control-point numbers.
    static func timingFunction(_ s: String) -> TimingFunctionSpec? {
        if let n = TimingFunctionName(rawValue: s.trimmingWhitespace()) { return .named(n) }
        guard let n = numbers(s), n.count == 4 else { return nil }
        return .controlPoints(n[0], n[1], n[2], n[3])
    }

    /// A transform function list, read as a chain of calls (the scene format's rule: the first
    /// function is `CATransform3DMake…`, each next one `CATransform3D…(t, next)`, so the rightmost
    /// acts first on the layer's points). `rotate(a)` is about z; `rotate(a, x, y, z)` about an axis;
    /// `matrix(…)` or 16 bare numbers are CATransform3D field order; `""` is the identity.
    static func transform(_ s: String) -> Transform3D? {
        let text = s.trimmingWhitespaceAndNewlines()
        if text.isEmpty { return .identity }
        if let n = numbers(text), n.count == 16 { return Transform3D(n) }
        var result = Transform3D.identity
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" })
            if rest.isEmpty { break }
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else { return nil }
            let name = rest[..<open].trimmingWhitespace()
            let argText = rest[rest.index(after: open)..<close]
            var args: [Double] = []
            for raw in argText.split(separator: ",") {
                var a = raw.trimmingWhitespace()
                var factor = 1.0
                if a.hasSuffix("deg") { a.removeLast(3); factor = .pi / 180 } else if a.hasSuffix("rad") { a.removeLast(3) }
                guard let v = number(a) else { return nil }
                args.append(v * factor)
            }
            guard let m = function(name, args) else { return nil }
            result = m * result
            rest = rest[rest.index(after: close)...]
        }
        return result
    }

    private static func function(_ name: String, _ a: [Double]) -> Transform3D? {
        switch (name, a.count) {
        case ("translate", 1): return .translation(a[0], 0)
        case ("translate", 2): return .translation(a[0], a[1])
        case ("translate", 3): return .translation(a[0], a[1], a[2])
        case ("scale", 1): return .scale(a[0], a[0])
        case ("scale", 2): return .scale(a[0], a[1])
        case ("scale", 3): return .scale(a[0], a[1], a[2])
        case ("rotate", 1), ("rotateZ", 1): return .rotation(a[0], 0, 0, 1)
        case ("rotate", 4): return .rotation(a[0], a[1], a[2], a[3])
        case ("rotateX", 1): return .rotation(a[0], 1, 0, 0)
        case ("rotateY", 1): return .rotation(a[0], 0, 1, 0)
        case ("perspective", 1): return a[0] == 0 ? nil : .perspective(a[0])
        case ("matrix", 16): return Transform3D(a)
        default: return nil
        }
    }

    /// Postfix path data: `x y m`, `x y l`, `cx cy x y q`, `c1x c1y c2x c2y x y c`, `x y w h re`, `h`/`z` (close).
    static func path(_ s: String) -> Path? {
        var stack: [Double] = []
        var elements: [Path.Element] = []
        for token in s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "," }) {
            if let n = number(String(token)), !token.allSatisfy(\.isLetter) { stack.append(n); continue }
            func take(_ k: Int) -> [Double]? {
                guard stack.count >= k else { return nil }
                defer { stack.removeLast(k) }
                return Array(stack.suffix(k))
            }
            switch token {
            case "m": guard let p = take(2) else { return nil }; elements.append(.move(Point(p[0], p[1])))
            case "l": guard let p = take(2) else { return nil }; elements.append(.line(Point(p[0], p[1])))
            case "q": guard let p = take(4) else { return nil }; elements.append(.quad(Point(p[0], p[1]), Point(p[2], p[3])))
            case "c": guard let p = take(6) else { return nil }
                elements.append(.cubic(Point(p[0], p[1]), Point(p[2], p[3]), Point(p[4], p[5])))
            case "re": guard let p = take(4) else { return nil }
                elements.append(contentsOf: Path.rect(Rect(p[0], p[1], p[2], p[3])).elements)
            case "h", "z", "Z": elements.append(.close)
            default: return nil
            }
            if elements.count > SceneLimits.maxPathElements { return nil }
        }
        return Path(elements)
    }
}

