import Geometry
import LayerModel

/// Reading and writing key-path sub-fields of structured values (`position.x`,
/// `bounds.size.width`, `transform.rotation.z`; reference §5.5, Core Animation Programming Guide
/// "Key-Value Coding Extensions").
///
/// Points, sizes and rects are plain structs: a field is a component. Transform fields follow
/// §5.5's [INF] rule: decompose the matrix (`DecomposedTransform`, lenient, so a base with a zero
/// scale still works), read or replace one component, recompose. Decisions:
/// - `rotation.x/.y/.z` are Euler angles in the order of `DecomposedTransform.eulerAngles`
///   (x acts first, z last); `rotation` is `rotation.z`.
/// - `scale.x/.y/.z` are the decomposition's scale factors; `scale` reads their **average** and
///   writes all three (KVC guide); `scale.xy` (undocumented, used by Apple's code) reads the
///   average of x and y and writes both.
/// - `translation.x/.y/.z` are m41…m43 (divided by m44); `translation` is a **size** (x, y).
/// - A mirrored transform reads as a negative scale on one axis (see `DecomposedTransform`).
/// - Additive field animations add to the field, then write it back:
///   `setting(f, to: add(field(f), δ))`, which `addingToField` does with one decomposition. For
///   `rotation.z` that turns the base by δ more about z; for `scale` it adds δ to every factor
///   (KVC numbers add; they do not multiply).
/// - A transform with m44 = 0 (or perspective on a zero scale) cannot be decomposed: rotation and
///   scale fields read nil and writes fail; translation fields still work when m44 ≠ 0.
extension AnimationValue {
    /// The sub-field `f` of this value; nil when the value has no such field.
    public func field(_ f: KeyPathField) -> AnimationValue? {
        switch (self, f) {
        case (.point(let p), .x): return .number(p.x)
        case (.point(let p), .y): return .number(p.y)
        case (.size(let s), .width): return .number(s.width)
        case (.size(let s), .height): return .number(s.height)
        case (.rect(let r), .origin): return .point(r.origin)
        case (.rect(let r), .originX): return .number(r.origin.x)
        case (.rect(let r), .originY): return .number(r.origin.y)
        case (.rect(let r), .size): return .size(r.size)
        case (.rect(let r), .sizeWidth): return .number(r.size.width)
        case (.rect(let r), .sizeHeight): return .number(r.size.height)
        case (.transform(let m), _): return TransformField.read(f, of: m)
        default: return nil
        }
    }

    /// This value with the sub-field `f` replaced by `v`; nil when the value has no such field or
    /// `v` has the wrong type for it.
    public func setting(_ f: KeyPathField, to v: AnimationValue) -> AnimationValue? {
        switch (self, f, v) {
        case (.point(var p), .x, .number(let x)): p.x = x; return .point(p)
        case (.point(var p), .y, .number(let y)): p.y = y; return .point(p)
        case (.size(var s), .width, .number(let w)): s.width = w; return .size(s)
        case (.size(var s), .height, .number(let h)): s.height = h; return .size(s)
        case (.rect(var r), .origin, .point(let o)): r.origin = o; return .rect(r)
        case (.rect(var r), .originX, .number(let x)): r.origin.x = x; return .rect(r)
        case (.rect(var r), .originY, .number(let y)): r.origin.y = y; return .rect(r)
        case (.rect(var r), .size, .size(let s)): r.size = s; return .rect(r)
        case (.rect(var r), .sizeWidth, .number(let w)): r.size.width = w; return .rect(r)
        case (.rect(var r), .sizeHeight, .number(let h)): r.size.height = h; return .rect(r)
        case (.transform(let m), _, _): return TransformField.write(f, v, into: m).map { .transform($0) }
        default: return nil
        }
    }

    /// An additive animation of the sub-field `f`: the field plus `delta`
    /// (`ValueInterpolation.add`), written back. For transforms this decomposes once.
    public func addingToField(_ f: KeyPathField, _ delta: AnimationValue) -> AnimationValue? {
        if case .transform(let m) = self {
            return TransformField.add(f, delta, to: m).map { .transform($0) }
        }
        guard let current = field(f) else { return nil }
        return setting(f, to: ValueInterpolation.add(current, delta))
    }
}

/// The transform half of key-path access (see `AnimationValue.field(_:)`).
enum TransformField {
    static func read(_ f: KeyPathField, of m: Transform3D) -> AnimationValue? {
        switch f {
        case .translationX, .translationY, .translationZ, .translation:
            guard m.m44 != 0 else { return nil }
            let t = Point3(m.m41 / m.m44, m.m42 / m.m44, m.m43 / m.m44)
            return readTranslation(f, t)
        default:
            if m == .identity { return read(f, of: DecomposedTransform.identity) }
            guard let d = DecomposedTransform(m, lenient: true) else { return nil }
            return read(f, of: d)
        }
    }

    static func write(_ f: KeyPathField, _ v: AnimationValue, into m: Transform3D) -> Transform3D? {
        // Translation of a matrix without perspective is its last row: write it exactly.
        if f.isTranslation && m.m14 == 0 && m.m24 == 0 && m.m34 == 0 && m.m44 != 0 {
            var t = Point3(m.m41 / m.m44, m.m42 / m.m44, m.m43 / m.m44)
            guard writeTranslation(f, v, into: &t) else { return nil }
            var r = m
            r.m41 = t.x * m.m44; r.m42 = t.y * m.m44; r.m43 = t.z * m.m44
            return r
        }
        guard var d = m == .identity ? DecomposedTransform.identity : DecomposedTransform(m, lenient: true),
              write(f, v, into: &d) else { return nil }
        return d.matrix
    }

    static func add(_ f: KeyPathField, _ delta: AnimationValue, to m: Transform3D) -> Transform3D? {
        if f.isTranslation && m.m14 == 0 && m.m24 == 0 && m.m34 == 0 && m.m44 != 0 {
            guard let cur = read(f, of: m) else { return nil }
            return write(f, ValueInterpolation.add(cur, delta), into: m)
        }
        guard var d = m == .identity ? DecomposedTransform.identity : DecomposedTransform(m, lenient: true),
              let cur = read(f, of: d), write(f, ValueInterpolation.add(cur, delta), into: &d) else { return nil }
        return d.matrix
    }

    // MARK: on a decomposition

    static func read(_ f: KeyPathField, of d: DecomposedTransform) -> AnimationValue? {
        switch f {
        case .rotationX: return .number(d.eulerAngles.x)
        case .rotationY: return .number(d.eulerAngles.y)
        case .rotationZ, .rotation: return .number(d.eulerAngles.z)
        case .scaleX: return .number(d.scale.x)
        case .scaleY: return .number(d.scale.y)
        case .scaleZ: return .number(d.scale.z)
        case .scale: return .number((d.scale.x + d.scale.y + d.scale.z) / 3)
        case .scaleXY: return .number((d.scale.x + d.scale.y) / 2)
        case .translationX, .translationY, .translationZ, .translation: return readTranslation(f, d.translation)
        default: return nil
        }
    }

    static func write(_ f: KeyPathField, _ v: AnimationValue, into d: inout DecomposedTransform) -> Bool {
        if f.isTranslation { return writeTranslation(f, v, into: &d.translation) }
        guard case .number(let x) = v else { return false }
        switch f {
        case .rotationX: var e = d.eulerAngles; e.x = x; d.eulerAngles = e
        case .rotationY: var e = d.eulerAngles; e.y = x; d.eulerAngles = e
        case .rotationZ, .rotation:
            // A rotation about z only (every 2D layer): set it directly, no Euler round trip.
            if d.rotation.x == 0 && d.rotation.y == 0 {
                d.rotation = Quaternion(x: 0, y: 0, z: sin(x / 2), w: cos(x / 2))
            } else {
                var e = d.eulerAngles; e.z = x; d.eulerAngles = e
            }
        case .scaleX: d.scale.x = x
        case .scaleY: d.scale.y = x
        case .scaleZ: d.scale.z = x
        case .scale: d.scale = Point3(x, x, x)
        case .scaleXY: d.scale.x = x; d.scale.y = x
        default: return false
        }
        return true
    }

    private static func readTranslation(_ f: KeyPathField, _ t: Point3) -> AnimationValue? {
        switch f {
        case .translationX: return .number(t.x)
        case .translationY: return .number(t.y)
        case .translationZ: return .number(t.z)
        case .translation: return .size(Size(t.x, t.y))
        default: return nil
        }
    }

    private static func writeTranslation(_ f: KeyPathField, _ v: AnimationValue, into t: inout Point3) -> Bool {
        switch (f, v) {
        case (.translationX, .number(let x)): t.x = x
        case (.translationY, .number(let y)): t.y = y
        case (.translationZ, .number(let z)): t.z = z
        case (.translation, .size(let s)): t.x = s.width; t.y = s.height
        default: return false
        }
        return true
    }
}

extension KeyPathField {
    var isTranslation: Bool {
        self == .translationX || self == .translationY || self == .translationZ || self == .translation
    }
}

/// Key-path access on a layer: `valueForKeyPath:` / `setValue:forKeyPath:` through `KeyPathTable`'s
/// getters and setters plus the sub-field functions above.
extension Layer {
    /// The value at a resolved key path. A sub-field the root value cannot provide (a transform
    /// that cannot be decomposed) reads as the field type's zero.
    public func value(forKeyPath keyPath: ResolvedKeyPath) -> AnimationValue {
        let root = keyPath.layerProperty.get(self)
        guard let f = keyPath.field else { return root }
        return root.field(f) ?? ValueInterpolation.zero(of: keyPath.valueType)
    }

    /// Writes `value` at a resolved key path; false (and the layer unchanged) when the value has the
    /// wrong type. Whole-number properties (`instanceCount`) take an interpolated number truncated
    /// toward zero, as `-[NSNumber integerValue]` does for KVC [INF].
    @discardableResult
    public mutating func setValue(_ value: AnimationValue, forKeyPath keyPath: ResolvedKeyPath) -> Bool {
        let property = keyPath.layerProperty
        guard let f = keyPath.field else {
            if property.valueType == .integer, case .number(let x) = value, x.isFinite {
                return property.set(&self, .number(x.rounded(.towardZero)))
            }
            return property.set(&self, value)
        }
        guard let root = property.get(self).setting(f, to: value) else { return false }
        return property.set(&self, root)
    }
}
