import Geometry

/// Parses the transform-function strings of scene-format.md: `"translate(10, 20) rotate(45deg) scale(2)"`.
///
/// The list reads like a chain of Core Animation calls: `CATransform3DMake…(first)`, then
/// `CATransform3D…(t, next)` for each following function. `CATransform3DTranslate(t, …)` is
/// `translation · t` in row-vector form (the new operation acts before `t`), so the result is
/// `Mₙ · … · M₂ · M₁`: the rightmost function acts first on the layer's points, as in CSS.
/// `scale(s)` is CSS's 2D scale (s, s, 1). Angles take `deg` or `rad`; a bare number is radians.
enum TransformFunctionParser {
    static let functions = ["translate", "translateX", "translateY", "translateZ", "scale", "scaleX", "scaleY", "scaleZ",
                            "rotate", "rotateX", "rotateY", "rotateZ", "rotate3d", "perspective", "matrix"]

    static func parse(_ s: String) throws -> Transform3D {
        var sc = GrammarScanner(s)
        var result = Transform3D.identity
        sc.skipWhitespace()
        while !sc.atEnd {
            let nameStart = sc.i
            let name = sc.word()
            if name.isEmpty { throw GrammarError(sc.i, "expected a transform function such as translate(…), found \(sc.describeCurrent)") }
            guard functions.contains(name) else {
                throw GrammarError(nameStart, "unknown transform function \(Echo.quoted(name))",
                                   suggestion: Suggestion.nearest(to: name, among: functions))
            }
            sc.skipWhitespace()
            guard sc.current == "(" else { throw GrammarError(sc.i, "expected '(' after \(name), found \(sc.describeCurrent)") }
            sc.i += 1
            var args: [(value: Double, unit: String, offset: Int)] = []
            sc.skipWhitespace()
            if sc.current != ")" {
                while true {
                    sc.skipWhitespace()
                    let off = sc.i
                    let v = try sc.number(what: "a number in \(name)(…)")
                    let unit = sc.word()
                    args.append((v, unit, off))
                    sc.skipWhitespace()
                    if sc.current == "," { sc.i += 1; continue }
                    if sc.current == ")" { break }
                    throw GrammarError(sc.i, "expected ',' or ')' in \(name)(…), found \(sc.describeCurrent)")
                }
            }
            sc.i += 1  // )
            result = try matrix(name, args, at: nameStart) * result
            // perspective(0), rotate3d about a zero axis, or products past ±1.8e308 give no usable matrix.
            guard result.elements.allSatisfy(\.isFinite) else {
                throw GrammarError(nameStart, "\(name)(…) makes the transform non-finite (a zero perspective distance or rotation axis, or values overflowing ±1.8e308)")
            }
            sc.skipWhitespace()
        }
        return result
    }

    private static func matrix(_ name: String, _ args: [(value: Double, unit: String, offset: Int)], at offset: Int) throws -> Transform3D {
        let angleArgs: Set<Int>
        switch name {
        case "rotate", "rotateX", "rotateY", "rotateZ": angleArgs = [0]
        case "rotate3d": angleArgs = [3]
        default: angleArgs = []
        }
        var v: [Double] = []
        for (k, a) in args.enumerated() {
            if angleArgs.contains(k) {
                switch a.unit {
                case "", "rad": v.append(a.value)
                case "deg": v.append(a.value * .pi / 180)
                default: throw GrammarError(a.offset, "unknown angle unit '\(a.unit)' in \(name)(…); use deg or rad",
                                            suggestion: Suggestion.nearest(to: a.unit, among: ["deg", "rad"]))
                }
            } else {
                guard a.unit.isEmpty else {
                    throw GrammarError(a.offset, "\(name)(…) takes plain numbers (points or factors), found the unit '\(a.unit)'")
                }
                v.append(a.value)
            }
        }
        func want(_ counts: ClosedRange<Int>, _ form: String) throws {
            guard counts.contains(v.count) else {
                throw GrammarError(offset, "\(name) takes \(form), found \(v.count) argument\(v.count == 1 ? "" : "s")")
            }
        }
        switch name {
        case "translate": try want(2...3, "(x, y[, z])"); return .translation(v[0], v[1], v.count == 3 ? v[2] : 0)
        case "translateX": try want(1...1, "one number"); return .translation(v[0], 0, 0)
        case "translateY": try want(1...1, "one number"); return .translation(0, v[0], 0)
        case "translateZ": try want(1...1, "one number"); return .translation(0, 0, v[0])
        case "scale":
            try want(1...3, "(s) or (sx, sy[, sz])")
            return v.count == 1 ? .scale(v[0], v[0], 1) : .scale(v[0], v[1], v.count == 3 ? v[2] : 1)
        case "scaleX": try want(1...1, "one number"); return .scale(v[0], 1, 1)
        case "scaleY": try want(1...1, "one number"); return .scale(1, v[0], 1)
        case "scaleZ": try want(1...1, "one number"); return .scale(1, 1, v[0])
        case "rotate", "rotateZ": try want(1...1, "one angle"); return .rotation(v[0], 0, 0, 1)
        case "rotateX": try want(1...1, "one angle"); return .rotation(v[0], 1, 0, 0)
        case "rotateY": try want(1...1, "one angle"); return .rotation(v[0], 0, 1, 0)
        case "rotate3d": try want(4...4, "(x, y, z, angle)"); return .rotation(v[3], v[0], v[1], v[2])
        case "perspective": try want(1...1, "one distance"); return .perspective(v[0])
        default:  // matrix
            try want(16...16, "16 numbers in CATransform3D field order (m11, m12, …, m44)")
            return Transform3D(v)
        }
    }
}
