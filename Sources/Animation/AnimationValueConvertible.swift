import Geometry
import LayerModel

/// A model type that converts to and from an `AnimationValue`, so `KeyPathTable` can read and write
/// any layer property through one getter/setter shape.
public protocol AnimationValueConvertible {
    init?(animationValue: AnimationValue)
    var animationValue: AnimationValue { get }
}

extension Double: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .number(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .number(self) }
}
extension Int: AnimationValueConvertible {
    /// Whole numbers only; out-of-range values are refused rather than trapping.
    public init?(animationValue v: AnimationValue) {
        guard case .number(let x) = v, x == x.rounded(), abs(x) < 9e15 else { return nil }
        self = Int(x)
    }
    public var animationValue: AnimationValue { .number(Double(self)) }
}
extension Bool: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .bool(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .bool(self) }
}
extension Point: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .point(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .point(self) }
}
extension Size: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .size(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .size(self) }
}
extension Rect: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .rect(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .rect(self) }
}
extension Color: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .color(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .color(self) }
}
extension Transform3D: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .transform(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .transform(self) }
}
extension Path: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .path(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .path(self) }
}
extension ImageSource: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .image(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .image(self) }
}
extension String: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .string(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .string(self) }
}
extension CornerMask: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) { guard case .cornerMask(let x) = v else { return nil }; self = x }
    public var animationValue: AnimationValue { .cornerMask(self) }
}
/// nil is `.null`; a nullable property (a CGColor, CGPath, contents) accepts both.
extension Optional: AnimationValueConvertible where Wrapped: AnimationValueConvertible {
    public init?(animationValue v: AnimationValue) {
        if case .null = v { self = .none; return }
        guard let w = Wrapped(animationValue: v) else { return nil }
        self = .some(w)
    }
    public var animationValue: AnimationValue { map(\.animationValue) ?? .null }
}

/// A Core Animation constant spelled by its raw value (`LayerModel`'s enums).
public protocol AnimationEnumeration: AnimationValueConvertible, RawRepresentable, CaseIterable
    where RawValue == String {}
extension AnimationEnumeration {
    public init?(animationValue v: AnimationValue) {
        guard case .enumeration(let s) = v, let x = Self(rawValue: s) else { return nil }
        self = x
    }
    public var animationValue: AnimationValue { .enumeration(rawValue) }
    /// The accepted spellings, in declaration order.
    public static var spellings: [String] { allCases.map(\.rawValue) }
}
extension ContentsGravity: AnimationEnumeration {}
extension ContentsFilter: AnimationEnumeration {}
extension CornerCurve: AnimationEnumeration {}
extension CompositingFilter: AnimationEnumeration {}
extension FillRule: AnimationEnumeration {}
extension LineCap: AnimationEnumeration {}
extension LineJoin: AnimationEnumeration {}
extension GradientType: AnimationEnumeration {}
extension TextAlignment: AnimationEnumeration {}
extension TruncationMode: AnimationEnumeration {}

/// An element of an array-valued property (`locations`, `lineDashPattern`, gradient `colors`).
public protocol AnimationArrayElement {
    static func array(from value: AnimationValue) -> [Self]?
    static func animationValue(of array: [Self]) -> AnimationValue
}
extension Double: AnimationArrayElement {
    public static func array(from v: AnimationValue) -> [Double]? { if case .numberArray(let a) = v { return a }; return nil }
    public static func animationValue(of a: [Double]) -> AnimationValue { .numberArray(a) }
}
extension Color: AnimationArrayElement {
    public static func array(from v: AnimationValue) -> [Color]? { if case .colorArray(let a) = v { return a }; return nil }
    public static func animationValue(of a: [Color]) -> AnimationValue { .colorArray(a) }
}
extension Array: AnimationValueConvertible where Element: AnimationArrayElement {
    public init?(animationValue v: AnimationValue) {
        guard let a = Element.array(from: v) else { return nil }
        self = a
    }
    public var animationValue: AnimationValue { Element.animationValue(of: self) }
}
