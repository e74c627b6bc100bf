import Geometry
import LayerModel

/// The type-dependent arithmetic of animation values (reference §5): interpolation for
/// CABasicAnimation and keyframe segments (§4.3–§4.4), addition for `additive` (§4.2),
/// subtraction for `toValue − byValue` (§4.3), `cumulative` repeats (§4.2) and the paced metric
/// (§4.4). Pure functions; scalars, points, sizes, rects, colours and transforms allocate nothing.
///
/// Decisions where the reference is silent (each tested in ValueInterpolationTests):
/// - **Discrete values** (bool, enumeration, string, image, corner mask, mismatched kinds,
///   mismatched arrays and paths, singular transforms) switch from `from` to `to` at
///   p ≥ `discreteSwitchProgress` = 1 (§5.1's recommendation, §10 item 15), so a 0.25 s implicit
///   animation of `hidden` behaves like a delayed set.
/// - **Colours** interpolate and add component-wise in gamma-encoded, **non-premultiplied** sRGB,
///   unclamped (§5.2's recommendation, §10 item 7). A nil colour (`.null`) interpolates as the other
///   end's RGB at alpha 0 (a fade, not a detour through black), and adds/subtracts as clear
///   (0, 0, 0, 0). Only nil ↔ nil stays nil.
/// - **Transforms** interpolate decomposed (`DecomposedTransform`, §5.3); addition is
///   `add(base, δ) = δ · base` (row vectors: δ acts first, in the layer's own space, then the
///   underlying transform), the order of CATransform3DTranslate/Scale/Rotate(base, …) and the
///   one under which WebKit's "first animation non-additive, later ones additive" reproduces a CSS
///   function list (§4.2, §10 item 6). Hence `subtract(a, b) = b⁻¹ · a`, so that
///   `add(subtract(a, b), b) == a`.
/// - **Arrays** (`locations`, gradient `colors`) work element-wise when the counts match, else
///   switch discretely; **paths** element-wise when the element kinds match (§5.6), else discretely.
/// - Endpoints are exact: p = 0 returns `from` and p = 1 returns `to` unchanged, whatever the type.
public enum ValueInterpolation {
    /// The progress at which a discrete value switches from `from` to `to` (§5.1, §10 item 15).
    public static let discreteSwitchProgress = 1.0

    // MARK: interpolate

    /// The value at progress `p` between `from` and `to`; `p` outside [0, 1] extrapolates (springs,
    /// overshooting timing curves) for every continuous type.
    public static func interpolate(_ from: AnimationValue, _ to: AnimationValue, _ p: Double) -> AnimationValue {
        if p == 0 { return from }
        if p == 1 { return to }
        switch (from, to) {
        case (.number(let a), .number(let b)):
            return .number(lerp(a, b, p))
        case (.point(let a), .point(let b)):
            return .point(lerp(a, b, p))
        case (.size(let a), .size(let b)):
            return .size(lerp(a, b, p))
        case (.rect(let a), .rect(let b)):
            return .rect(lerp(a, b, p))
        case (.color(let a), .color(let b)):
            return .color(lerp(a, b, p))
        case (.null, .color(let b)):
            return .color(lerp(Color(b.red, b.green, b.blue, 0), b, p))
        case (.color(let a), .null):
            return .color(lerp(a, Color(a.red, a.green, a.blue, 0), p))
        case (.transform(let a), .transform(let b)):
            return .transform(TransformInterpolation(from: a, to: b)(p))
        case (.path(let a), .path(let b)):
            if let r = combinePaths(a, b, { lerp($0, $1, p) }) { return .path(r) }
        case (.numberArray(let a), .numberArray(let b)) where a.count == b.count:
            return .numberArray(zip(a, b).map { lerp($0, $1, p) })
        case (.colorArray(let a), .colorArray(let b)) where a.count == b.count:
            return .colorArray(zip(a, b).map { lerp($0, $1, p) })
        default:
            break
        }
        return p < discreteSwitchProgress ? from : to
    }

    // MARK: add / subtract

    /// `additive`: the animation's value `delta` combined with the underlying value `base` (§4.2).
    /// Numbers +, points/sizes/rects/colours component-wise, transforms `delta · base` (see the
    /// type's notes). Values that do not add (discrete kinds, mismatched arrays or paths) give
    /// `delta`: the animation's value replaces the base, as a non-additive animation would.
    public static func add(_ base: AnimationValue, _ delta: AnimationValue) -> AnimationValue {
        switch (base, delta) {
        case (.number(let a), .number(let b)): return .number(a + b)
        case (.point(let a), .point(let b)): return .point(a + b)
        case (.size(let a), .size(let b)): return .size(Size(a.width + b.width, a.height + b.height))
        case (.rect(let a), .rect(let b)):
            return .rect(Rect(a.origin.x + b.origin.x, a.origin.y + b.origin.y,
                              a.size.width + b.size.width, a.size.height + b.size.height))
        case (.color, .color), (.null, .color), (.color, .null):
            return .color(combine(asColor(base), asColor(delta), +))
        case (.transform(let a), .transform(let b)):
            return .transform(TransformProduct.concat(b, a))
        case (.path(let a), .path(let b)):
            if let r = combinePaths(a, b, +) { return .path(r) }
        case (.numberArray(let a), .numberArray(let b)) where a.count == b.count:
            return .numberArray(zip(a, b).map { $0 + $1 })
        case (.colorArray(let a), .colorArray(let b)) where a.count == b.count:
            return .colorArray(zip(a, b).map { combine($0, $1, +) })
        default:
            break
        }
        return delta
    }

    /// The inverse of `add`: `add(subtract(a, b), b) == a` (CABasicAnimation's `toValue − byValue`,
    /// §4.3). Transforms: `b⁻¹ · a`. Values that do not subtract give `a`.
    public static func subtract(_ a: AnimationValue, _ b: AnimationValue) -> AnimationValue {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x - y)
        case (.point(let x), .point(let y)): return .point(x - y)
        case (.size(let x), .size(let y)): return .size(Size(x.width - y.width, x.height - y.height))
        case (.rect(let x), .rect(let y)):
            return .rect(Rect(x.origin.x - y.origin.x, x.origin.y - y.origin.y,
                              x.size.width - y.size.width, x.size.height - y.size.height))
        case (.color, .color), (.null, .color), (.color, .null):
            return .color(combine(asColor(a), asColor(b), -))
        case (.transform(let x), .transform(let y)):
            return .transform(TransformProduct.concat(y.inverted, x))
        case (.path(let x), .path(let y)):
            if let r = combinePaths(x, y, -) { return .path(r) }
        case (.numberArray(let x), .numberArray(let y)) where x.count == y.count:
            return .numberArray(zip(x, y).map { $0 - $1 })
        case (.colorArray(let x), .colorArray(let y)) where x.count == y.count:
            return .colorArray(zip(x, y).map { combine($0, $1, -) })
        default:
            break
        }
        return a
    }

    // MARK: zero

    /// The additive identity of a property type: 0, the zero point/size/rect, clear
    /// (0, 0, 0, 0), the identity transform, empty arrays; `false`, "" and no corners for
    /// discrete types; nil for paths and images (nothing to add to); the first spelling of an
    /// enumeration.
    public static func zero(of type: ValueType) -> AnimationValue {
        switch type {
        case .number, .integer: return .number(0)
        case .bool: return .bool(false)
        case .point: return .point(.zero)
        case .size: return .size(.zero)
        case .rect: return .rect(.zero)
        case .color: return .color(.clear)
        case .transform: return .transform(.identity)
        case .path, .image: return .null
        case .numberArray: return .numberArray([])
        case .colorArray: return .colorArray([])
        case .string: return .string("")
        case .cornerMask: return .cornerMask([])
        case .enumeration(let cases): return cases.first.map { .enumeration($0) } ?? .null
        }
    }

    /// The additive identity shaped like `v`: for arrays the same count of zeros, for paths the
    /// same elements with every point at the origin (so `add` keeps the structure). Discrete
    /// kinds with no zero (enumeration, image, nil) return `v` itself.
    public static func zero(like v: AnimationValue) -> AnimationValue {
        switch v {
        case .number: return .number(0)
        case .bool: return .bool(false)
        case .point: return .point(.zero)
        case .size: return .size(.zero)
        case .rect: return .rect(.zero)
        case .color: return .color(.clear)
        case .transform: return .transform(.identity)
        case .path(let p): return .path(mapPoints(p) { _ in .zero })
        case .numberArray(let a): return .numberArray(Array(repeating: 0, count: a.count))
        case .colorArray(let a): return .colorArray(Array(repeating: .clear, count: a.count))
        case .string: return .string("")
        case .cornerMask: return .cornerMask([])
        case .image, .enumeration, .null: return v
        }
    }

    // MARK: cumulative

    /// k · V(1): what iteration k of a `cumulative` animation starts from, to be `add`ed to the
    /// current iteration's value (SMIL `V_k(p) = k·V(1) + V(p)`, §4.2, §10 item 12). Numbers,
    /// points, sizes, rects, colours, arrays and paths scale component-wise; transforms are
    /// concatenated k times (the exact matrix power, by repeated squaring: a rotation by θ
    /// accumulates to kθ, a translation to k times it, a scale s to sᵏ). k ≤ 0, and discrete kinds
    /// (which do not add), give `zero(like:)`.
    public static func accumulate(_ endValue: AnimationValue, count k: Int) -> AnimationValue {
        guard k > 0 else { return zero(like: endValue) }
        let f = Double(k)
        switch endValue {
        case .number(let v): return .number(v * f)
        case .point(let v): return .point(Point(v.x * f, v.y * f))
        case .size(let v): return .size(Size(v.width * f, v.height * f))
        case .rect(let v): return .rect(Rect(v.origin.x * f, v.origin.y * f, v.size.width * f, v.size.height * f))
        case .color(let c): return .color(Color(c.red * f, c.green * f, c.blue * f, c.alpha * f))
        case .transform(let m): return .transform(TransformProduct.power(m, k))
        case .path(let p): return .path(mapPoints(p) { Point($0.x * f, $0.y * f) })
        case .numberArray(let a): return .numberArray(a.map { $0 * f })
        case .colorArray(let a): return .colorArray(a.map { Color($0.red * f, $0.green * f, $0.blue * f, $0.alpha * f) })
        default: return zero(like: endValue)
        }
    }

    // MARK: distance

    /// The paced metric (§4.4 `paced`, §10 item 11): |Δ| for numbers; Euclidean for points,
    /// sizes, rects (x, y, w, h), colours (R, G, B, A; nil = clear of the other's RGB, as in
    /// interpolation), arrays of equal count and paths of equal structure (over all their points);
    /// for transforms `DecomposedTransform.distance` (translation in points together with rotation in
    /// radians, scale, shear, perspective), or the Euclidean distance of the 16 elements when one
    /// end is singular. Anything else: 0 when equal, 1 when different (each discrete change is one
    /// step).
    public static func distance(_ a: AnimationValue, _ b: AnimationValue) -> Double {
        switch (a, b) {
        case (.number(let x), .number(let y)): return abs(x - y)
        case (.point(let x), .point(let y)): return hypot(x.x - y.x, x.y - y.y)
        case (.size(let x), .size(let y)): return hypot(x.width - y.width, x.height - y.height)
        case (.rect(let x), .rect(let y)):
            return norm4(x.origin.x - y.origin.x, x.origin.y - y.origin.y,
                         x.size.width - y.size.width, x.size.height - y.size.height)
        case (.color(let x), .color(let y)): return colorDistance(x, y)
        case (.null, .color(let y)): return colorDistance(Color(y.red, y.green, y.blue, 0), y)
        case (.color(let x), .null): return colorDistance(x, Color(x.red, x.green, x.blue, 0))
        case (.transform(let x), .transform(let y)):
            if let dx = DecomposedTransform(x), let dy = DecomposedTransform(y) { return dx.distance(to: dy) }
            return zip(x.elements, y.elements).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        case (.path(let x), .path(let y)):
            if let d = combinePaths(x, y, -) { return pointNorm(d) }
        case (.numberArray(let x), .numberArray(let y)) where x.count == y.count:
            return zip(x, y).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
        case (.colorArray(let x), .colorArray(let y)) where x.count == y.count:
            return zip(x, y).reduce(0) { let d = colorDistance($1.0, $1.1); return $0 + d * d }.squareRoot()
        default:
            break
        }
        return a == b ? 0 : 1
    }

    // MARK: typed lerps

    // The same interpolation without the `AnimationValue` enum, for evaluators that already know
    // the type (the enum is large: passing it by value costs a copy of its biggest payload).
    @inline(__always) public static func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double { a + (b - a) * p }
    @inline(__always) public static func lerp(_ a: Point, _ b: Point, _ p: Double) -> Point {
        Point(lerp(a.x, b.x, p), lerp(a.y, b.y, p))
    }
    @inline(__always) public static func lerp(_ a: Size, _ b: Size, _ p: Double) -> Size {
        Size(lerp(a.width, b.width, p), lerp(a.height, b.height, p))
    }
    @inline(__always) public static func lerp(_ a: Rect, _ b: Rect, _ p: Double) -> Rect {
        Rect(origin: lerp(a.origin, b.origin, p), size: lerp(a.size, b.size, p))
    }
    /// Component-wise in non-premultiplied encoded sRGB (§5.2).
    @inline(__always) public static func lerp(_ a: Color, _ b: Color, _ p: Double) -> Color {
        Color(lerp(a.red, b.red, p), lerp(a.green, b.green, p), lerp(a.blue, b.blue, p), lerp(a.alpha, b.alpha, p))
    }

    // MARK: helpers

    @inline(__always) private static func combine(_ a: Color, _ b: Color, _ op: (Double, Double) -> Double) -> Color {
        Color(op(a.red, b.red), op(a.green, b.green), op(a.blue, b.blue), op(a.alpha, b.alpha))
    }
    /// A colour operand of add/subtract: nil is clear (0, 0, 0, 0).
    @inline(__always) private static func asColor(_ v: AnimationValue) -> Color {
        if case .color(let c) = v { return c }
        return .clear
    }
    private static func colorDistance(_ a: Color, _ b: Color) -> Double {
        norm4(a.red - b.red, a.green - b.green, a.blue - b.blue, a.alpha - b.alpha)
    }
    @inline(__always) private static func norm4(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
        (a * a + b * b + c * c + d * d).squareRoot()
    }

    /// Applies `op` to corresponding points of two paths with the same element kinds; nil when
    /// the structures differ (§5.6: then the path switches discretely).
    private static func combinePaths(_ a: Path, _ b: Path, _ op: (Point, Point) -> Point) -> Path? {
        guard a.elements.count == b.elements.count else { return nil }
        var out: [Path.Element] = []
        out.reserveCapacity(a.elements.count)
        for (x, y) in zip(a.elements, b.elements) {
            switch (x, y) {
            case (.move(let p), .move(let q)): out.append(.move(op(p, q)))
            case (.line(let p), .line(let q)): out.append(.line(op(p, q)))
            case (.quad(let p1, let p), .quad(let q1, let q)): out.append(.quad(op(p1, q1), op(p, q)))
            case (.cubic(let p1, let p2, let p), .cubic(let q1, let q2, let q)):
                out.append(.cubic(op(p1, q1), op(p2, q2), op(p, q)))
            case (.close, .close): out.append(.close)
            default: return nil
            }
        }
        return Path(out)
    }

    private static func mapPoints(_ p: Path, _ f: (Point) -> Point) -> Path {
        Path(p.elements.map { e in
            switch e {
            case .move(let a): return .move(f(a))
            case .line(let a): return .line(f(a))
            case .quad(let a, let b): return .quad(f(a), f(b))
            case .cubic(let a, let b, let c): return .cubic(f(a), f(b), f(c))
            case .close: return .close
            }
        })
    }

    /// √(Σ x² + y²) over every point of a path.
    private static func pointNorm(_ p: Path) -> Double {
        var s = 0.0
        func add(_ q: Point) { s += q.x * q.x + q.y * q.y }
        for e in p.elements {
            switch e {
            case .move(let a), .line(let a): add(a)
            case .quad(let a, let b): add(a); add(b)
            case .cubic(let a, let b, let c): add(a); add(b); add(c)
            case .close: break
            }
        }
        return s.squareRoot()
    }
}
