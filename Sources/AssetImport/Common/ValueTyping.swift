import Geometry
import LayerModel
import Animation

/// Types an `ImportedValue` by the property or key path it is set on (`ValueType`), as Core
/// Animation's KVC would read it. nil when the value cannot be that type; the caller reports it.
enum ValueTyping {
    /// Core Animation's string constants whose value differs from the scene format's Swift
    /// spelling (`kCAFillRuleEvenOdd` is "even-odd"); every other constant is spelled the same.
    static let constantSpellings: [String: String] = [
        "even-odd": "evenOdd", "non-zero": "nonZero",
        "linear": "linear", "nearest": "nearest", "trilinear": "trilinear",
    ]

    static func typed(_ v: ImportedValue, as type: ValueType, nullable: Bool) -> AnimationValue? {
        if case .null = v { return nullable ? .null : nil }
        switch (type, v) {
        case (.number, .number(let n)): return .number(n)
        case (.integer, .number(let n)): return n.isFinite ? .number(n.rounded(.towardZero)) : nil
        case (.bool, .number(let n)): return .bool(n != 0)
        case (.bool, .string(let s)): return s == "true" || s == "YES" ? .bool(true) : s == "false" || s == "NO" ? .bool(false) : nil
        case (.point, .point(let p)): return .point(p)
        case (.point, .size(let s)): return .point(Point(s.width, s.height))
        case (.size, .size(let s)): return .size(s)
        case (.size, .point(let p)): return .size(Size(p.x, p.y))
        case (.rect, .rect(let r)): return .rect(r)
        case (.color, .color(let c)): return .color(c)
        case (.transform, .transform(let t)): return .transform(t)
        case (.path, .path(let p)): return .path(p)
        case (.image, .image(let i)): return .image(i)
        case (.string, .string(let s)): return .string(s)
        case (.string, .font(let name, _)): return .string(name)
        case (.cornerMask, .number(let n)):
            guard n.isFinite, n >= 0, n <= 15 else { return nil }
            return .cornerMask(CornerMask(rawValue: Int(n)))
        case (.enumeration(let cases), .string(let s)):
            let spelled = constantSpellings[s] ?? s
            return cases.contains(spelled) ? .enumeration(spelled) : nil
        case (.numberArray, .array(let items)):
            var out: [Double] = []
            for i in items { guard let n = i.number else { return nil }; out.append(n) }
            return .numberArray(out)
        case (.colorArray, .array(let items)):
            var out: [Color] = []
            for i in items { guard case .color(let c) = i else { return nil }; out.append(c) }
            return .colorArray(out)
        default:
            return nil
        }
    }

    /// A timing function from a named constant, control points or a stored CAMediaTimingFunction.
    static func timingFunction(_ v: ImportedValue) -> TimingFunctionSpec? {
        switch v {
        case .timingFunction(let t): return t
        case .string(let s): return TimingFunctionName(rawValue: s).map { .named($0) }
        default: return nil
        }
    }
}
