#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Geometry
import LayerModel
import Animation
import SceneFormat

/// A Lottie transform (`ks` of a layer, `tr` of a shape group): anchor `a`, position `p` (or split
/// `px`/`py`), scale `s` (percent), rotation `r` (degrees; `rz` with `rx`/`ry` on 3D layers),
/// opacity `o` (percent), skew `sk` along the axis `sa` (degrees).
///
/// As lottie-ios's Core Animation engine maps it: the layer's bounds are its composition's size,
/// its anchorPoint is `a` in unit coordinates of them (so `a` lands on `position` and scale and
/// rotation turn about it), `position` is `p`, and scale, rotation and opacity are the layer's
/// `transform.scale.x/y`, `transform.rotation.x/y/z` and `opacity`, each animated by its own
/// CAKeyframeAnimation. Skew has no such key path: a skew is built into the model transform (an
/// animated skew is a warning).
struct LottieTransform {
    var anchor: LottieProperty<[Double]> = .constant([0, 0])
    var position: LottieProperty<[Double]> = .constant([0, 0])
    var positionX: LottieProperty<Double>?
    var positionY: LottieProperty<Double>?
    var scale: LottieProperty<[Double]> = .constant([100, 100])
    var rotation: LottieProperty<Double> = .constant(0)
    var rotationX: LottieProperty<Double>?
    var rotationY: LottieProperty<Double>?
    var opacity: LottieProperty<Double> = .constant(100)
    var skew: LottieProperty<Double> = .constant(0)
    var skewAxis: LottieProperty<Double> = .constant(0)

    static func read(_ ks: JSONValue?, _ ctx: LottieContext, what: String) throws -> LottieTransform {
        var t = LottieTransform()
        guard let ks, ks.members != nil else { return t }
        if let a = ks["a"] { t.anchor = try LottieValues.vector(a, ctx, what: "\(what) anchor") }
        if let p = ks["p"] {
            if p["s"]?.bool == true || p["s"]?.number == 1 {
                // Split position: x and y animated on their own.
                t.positionX = try p["x"].map { try LottieValues.scalar($0, ctx, what: "\(what) position x") }
                t.positionY = try p["y"].map { try LottieValues.scalar($0, ctx, what: "\(what) position y") }
            } else {
                t.position = try LottieValues.vector(p, ctx, what: "\(what) position")
            }
        }
        if let s = ks["s"] { t.scale = try LottieValues.vector(s, ctx, what: "\(what) scale") }
        if let r = ks["r"] ?? ks["rz"] { t.rotation = try LottieValues.scalar(r, ctx, what: "\(what) rotation") }
        t.rotationX = try ks["rx"].map { try LottieValues.scalar($0, ctx, what: "\(what) x rotation") }
        t.rotationY = try ks["ry"].map { try LottieValues.scalar($0, ctx, what: "\(what) y rotation") }
        if let o = ks["o"] { t.opacity = try LottieValues.scalar(o, ctx, what: "\(what) opacity") }
        if let sk = ks["sk"] { t.skew = try LottieValues.scalar(sk, ctx, what: "\(what) skew") }
        if let sa = ks["sa"] { t.skewAxis = try LottieValues.scalar(sa, ctx, what: "\(what) skew axis") }
        if ks["or"] != nil {
            ctx.warn("\(what): the 3D orientation 'or' is not applied (only rx, ry and rz are)", at: ks["or"]!)
        }
        return t
    }

    /// Sets the layer's geometry and adds its animations. `size` is the layer's bounds size (its
    /// composition's, a solid's, an image's, a precomposition's).
    func apply(to layer: inout Layer, size: Size, clock: LottieClock, ctx: LottieContext, opacity includeOpacity: Bool,
               at v: JSONValue) throws {
        layer.bounds = Rect(0, 0, size.width, size.height)
        func unit(_ a: [Double]) -> Point {
            Point(size.width > 0 ? a[0] / size.width : 0, size.height > 0 ? a[1] / size.height : 0)
        }
        layer.anchorPoint = unit(anchor.initial)
        if let px = positionX, let py = positionY {
            layer.position = Point(px.initial, py.initial)
        } else {
            layer.position = Point(position.initial[0], position.initial[1])
        }
        let s = scale.initial
        let skewAngle = skew.initial, skewAxisAngle = skewAxis.initial
        layer.transform = Self.matrix(scaleX: s[0] / 100, scaleY: s[1] / 100, rotation: rotation.initial,
                                      rotationX: rotationX?.initial ?? 0, rotationY: rotationY?.initial ?? 0,
                                      skew: skewAngle, skewAxis: skewAxisAngle)
        if includeOpacity { layer.opacity = Self.clampedOpacity(opacity.initial) }

        var specs: [AnimationSpec] = []
        func add(_ spec: AnimationSpec?) { if let spec { specs.append(spec) } }
        add(LottieAnimator.animation(anchor, keyPath: "anchorPoint", clock: clock, { .point(unit($0)) }, ctx: ctx, at: v))
        if let px = positionX, let py = positionY {
            add(LottieAnimator.animation(px, keyPath: "position.x", clock: clock, { .number($0) }, ctx: ctx, at: v))
            add(LottieAnimator.animation(py, keyPath: "position.y", clock: clock, { .number($0) }, ctx: ctx, at: v))
        } else {
            add(Self.positionAnimation(position, clock: clock, ctx: ctx, at: v))
        }
        add(LottieAnimator.animation(scale.map { $0[0] / 100 }, keyPath: "transform.scale.x", clock: clock, { .number($0) }, ctx: ctx, at: v))
        add(LottieAnimator.animation(scale.map { $0[1] / 100 }, keyPath: "transform.scale.y", clock: clock, { .number($0) }, ctx: ctx, at: v))
        if let rx = rotationX {
            add(LottieAnimator.animation(rx, keyPath: "transform.rotation.x", clock: clock, { .number($0 * .pi / 180) }, ctx: ctx, at: v))
        }
        if let ry = rotationY {
            add(LottieAnimator.animation(ry, keyPath: "transform.rotation.y", clock: clock, { .number($0 * .pi / 180) }, ctx: ctx, at: v))
        }
        add(LottieAnimator.animation(rotation, keyPath: "transform.rotation.z", clock: clock, { .number($0 * .pi / 180) }, ctx: ctx, at: v))
        if includeOpacity {
            add(LottieAnimator.animation(opacity, keyPath: "opacity", clock: clock, { .number(Self.clampedOpacity($0)) }, ctx: ctx, at: v))
        }
        if skew.isAnimated || skewAxis.isAnimated {
            ctx.warn("an animated skew: Core Animation has no skew key path, so the skew stays at its first keyframe's value", at: v, layer: layer.id)
        } else if skewAngle != 0 && (scale.isAnimated || rotation.isAnimated) {
            ctx.warn("a skew with an animated scale or rotation: the animation replaces the skewed transform's scale and rotation, so the skew is approximate while it runs", at: v, layer: layer.id)
        }
        for spec in specs { try ctx.add(spec, to: layer, at: v) }
    }

    static func clampedOpacity(_ percent: Double) -> Double { min(max(percent / 100, 0), 1) }

    /// Scale, then skew, then rotation (z last), about the anchor: Lottie's order, in Core
    /// Animation's row-vector convention (the left factor acts first).
    static func matrix(scaleX: Double, scaleY: Double, rotation: Double, rotationX: Double, rotationY: Double,
                       skew: Double, skewAxis: Double) -> Transform3D {
        var m = Transform3D.scale(scaleX, scaleY, 1)
        if skew != 0 {
            // Skew along the axis at `skewAxis`: rotate the axis onto x, shear, rotate back.
            let axis = skewAxis * .pi / 180
            let shear = tan(-max(min(skew, 85), -85) * .pi / 180)
            var k = Transform3D.identity
            k.m21 = shear
            m = m * Transform3D.rotation(-axis, 0, 0, 1) * k * Transform3D.rotation(axis, 0, 0, 1)
        }
        if rotationX != 0 { m = m * Transform3D.rotation(rotationX * .pi / 180, 1, 0, 0) }
        if rotationY != 0 { m = m * Transform3D.rotation(rotationY * .pi / 180, 0, 1, 0) }
        if rotation != 0 { m = m * Transform3D.rotation(rotation * .pi / 180, 0, 0, 1) }
        return m
    }

    /// `position` keyframes; with spatial tangents (`to`/`ti`) the keyframes lie on a path of
    /// cubic segments that the layer follows, as lottie-ios gives CAKeyframeAnimation.path.
    static func positionAnimation(_ p: LottieProperty<[Double]>, clock: LottieClock, ctx: LottieContext, at v: JSONValue) -> AnimationSpec? {
        guard case .animated(let keys) = p,
              var spec = LottieAnimator.animation(p, keyPath: "position", clock: clock, { .point(Point($0[0], $0[1])) }, ctx: ctx, at: v)
        else { return nil }
        let curved = keys.dropLast().contains { k in
            (k.spatialOut?.prefix(2).contains { $0 != 0 } ?? false) || (k.spatialIn?.prefix(2).contains { $0 != 0 } ?? false)
        }
        guard curved, !keys.contains(where: \.hold), clock.remap == nil else { return spec }
        var elements: [Path.Element] = [.move(Point(keys[0].value[0], keys[0].value[1]))]
        for i in 1..<keys.count {
            let a = keys[i - 1].value, b = keys[i].value
            let o = keys[i - 1].spatialOut ?? [0, 0], ti = keys[i - 1].spatialIn ?? [0, 0]
            let c1 = Point(a[0] + (o.count > 0 ? o[0] : 0), a[1] + (o.count > 1 ? o[1] : 0))
            let c2 = Point(b[0] + (ti.count > 0 ? ti[0] : 0), b[1] + (ti.count > 1 ? ti[1] : 0))
            elements.append(.cubic(c1, c2, Point(b[0], b[1])))
        }
        spec.keyframes?.path = Path(elements)
        return spec
    }
}
