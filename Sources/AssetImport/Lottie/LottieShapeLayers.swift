import Geometry
import LayerModel
import Animation
import SceneFormat

/// A shape layer's items as Core Animation layers, the way lottie-ios's Core Animation engine
/// builds them: a group is a CALayer with the group's transform; each fill or stroke is a
/// CAShapeLayer with the paths listed before it (in its group, combined into one path, and in
/// the groups before it, drawn inside them so their transforms apply); a gradient is a
/// CAGradientLayer masked by such a shape. Items listed first are drawn on top.
struct LottieShapeBuilder {
    let ctx: LottieContext
    let clock: LottieClock
    /// The composition's size: every shape layer's bounds, so paths are in its coordinates.
    let size: Size

    /// A style inherited from an enclosing group, with the trim that applies to it.
    typealias Applied = (style: LottieStyle, trim: LottieTrim?)

    /// Adds the layers of `items` to `container`, bottom first. `inherited` are the enclosing
    /// groups' styles listed after this group (top first): they draw this group's paths too,
    /// below this group's own styles.
    func build(_ items: [LottieShapeItem], into container: inout Layer, depth: Int, inherited: [Applied], inheritedTrim: LottieTrim?) throws {
        let paths = items.enumerated().compactMap { (i, item) -> (Int, LottieProperty<Path>, JSONValue)? in
            if case .path(let p, let v) = item { return (i, p, v) }
            return nil
        }
        // A trim applies to every stroke of its group and of the groups inside it, wherever it
        // is listed, as lottie-ios's Core Animation engine applies it (the last one if several).
        var groupTrim: LottieTrim?
        for item in items { if case .trim(let t) = item { groupTrim = t } }
        // The enclosing groups' styles, lowest first.
        for applied in inherited.reversed() where !paths.isEmpty {
            try addStyle(applied.style, paths: paths.map { ($0.1, $0.2) }, trim: applied.trim, to: &container, depth: depth)
        }
        for (i, item) in items.enumerated().reversed() {
            switch item {
            case .style(let style):
                let before = paths.filter { $0.0 < i }
                guard !before.isEmpty else { continue }
                try addStyle(style, paths: before.map { ($0.1, $0.2) }, trim: groupTrim ?? inheritedTrim, to: &container, depth: depth)
            case .group(let name, let children, let transform, let v):
                // Styles after the group in this one draw its paths too (top first), and so do ours.
                var down: [Applied] = []
                for (j, later) in items.enumerated() where j > i {
                    if case .style(let s) = later { down.append((s, groupTrim ?? inheritedTrim)) }
                }
                down += inherited
                var group = try ctx.newLayer(at: v, depth: depth + 1)
                group.name = name
                try transform.apply(to: &group, size: size, clock: clock, ctx: ctx, opacity: true, at: v)
                let innerTrim = groupTrim ?? inheritedTrim
                try build(children, into: &group, depth: depth + 1, inherited: down, inheritedTrim: innerTrim)
                if !group.sublayers.isEmpty { container.sublayers.append(group) }
            case .path, .trim, .ignored:
                continue
            }
        }
    }

    func fullSizeLayer(at v: JSONValue, depth: Int, _ cls: LayerClass) throws -> Layer {
        var layer = try ctx.newLayer(at: v, depth: depth + 1)
        layer.layerClass = cls
        layer.bounds = Rect(0, 0, size.width, size.height)
        layer.anchorPoint = Point(0, 0)
        layer.position = Point(0, 0)
        return layer
    }

    /// One style's layer(s) for `paths`. Constant paths are combined into one path (one fill
    /// rule over all of them, as one CGPath); an animated path gets a layer of its own.
    func addStyle(_ style: LottieStyle, paths: [(LottieProperty<Path>, JSONValue)], trim: LottieTrim?, to container: inout Layer, depth: Int) throws {
        let constant = paths.filter { !$0.0.isAnimated }
        var groups: [[(LottieProperty<Path>, JSONValue)]] = paths.filter { $0.0.isAnimated }.map { [$0] }
        if !constant.isEmpty { groups.insert(constant, at: 0) }
        // Paths listed first are on top: the combined constant paths first in the list, so last added.
        for group in groups.reversed() {
            let path: LottieProperty<Path> = group.count == 1 ? group[0].0
                : .constant(Path(group.flatMap { $0.0.initial.elements }))
            container.sublayers.append(try styleLayer(style, path: path, trim: trim, at: style.json, depth: depth))
        }
    }

    func styleLayer(_ style: LottieStyle, path: LottieProperty<Path>, trim: LottieTrim?, at v: JSONValue, depth: Int) throws -> Layer {
        var shape = try fullSizeLayer(at: v, depth: depth, .shape)
        shape.name = style.name
        shape.shape.path = path.initial
        if let a = LottieAnimator.animation(path, keyPath: "path", clock: clock, { .path($0) }, ctx: ctx, at: v) {
            try ctx.add(a, to: shape, at: v)
        }
        if let stroke = style.stroke {
            shape.shape.fillColor = nil
            shape.shape.strokeColor = .black
            shape.shape.lineWidth = max(stroke.width.initial, 0)
            shape.shape.lineCap = stroke.cap
            shape.shape.lineJoin = stroke.join
            shape.shape.miterLimit = stroke.miterLimit
            shape.shape.lineDashPattern = stroke.dashes
            shape.shape.lineDashPhase = stroke.dashPhase
            if let a = LottieAnimator.animation(stroke.width, keyPath: "lineWidth", clock: clock, { .number(max($0, 0)) }, ctx: ctx, at: v) {
                try ctx.add(a, to: shape, at: v)
            }
            if let trim { try applyTrim(trim, to: &shape) }
        } else {
            shape.shape.fillColor = .black
            shape.shape.fillRule = style.fillRule
        }
        switch style.paint {
        case .color(let color):
            if style.stroke != nil { shape.shape.strokeColor = color.initial } else { shape.shape.fillColor = color.initial }
            if let a = LottieAnimator.animation(color, keyPath: style.stroke != nil ? "strokeColor" : "fillColor", clock: clock, { .color($0) }, ctx: ctx, at: v) {
                try ctx.add(a, to: shape, at: v)
            }
            try applyOpacity(style.opacity, to: &shape, at: v)
            return shape
        case .gradient(let gradient):
            // The gradient, masked by the shape (filled or stroked in opaque black).
            // A CAGradientLayer draws only inside its bounds: they are the path's (every keyframe's),
            // with the bounds' origin there too so the mask and the points keep the group's coordinates.
            var layer = try fullSizeLayer(at: v, depth: depth, .gradient)
            layer.name = style.name
            var extent = Self.controlBounds(path)
            if let stroke = style.stroke {
                let w = Self.maximum(stroke.width) * max(stroke.miterLimit, 1) + 1
                extent = Rect(extent.origin.x - w, extent.origin.y - w, extent.size.width + 2 * w, extent.size.height + 2 * w)
            }
            layer.bounds = extent
            layer.position = extent.origin
            try LottieGradients.apply(gradient, to: &layer, frame: extent, clock: clock, ctx: ctx, at: v)
            try applyOpacity(style.opacity, to: &layer, at: v)
            layer.mask = shape
            return layer
        }
    }

    func applyOpacity(_ opacity: LottieProperty<Double>, to layer: inout Layer, at v: JSONValue) throws {
        layer.opacity = LottieTransform.clampedOpacity(opacity.initial)
        if let a = LottieAnimator.animation(opacity, keyPath: "opacity", clock: clock, { .number(LottieTransform.clampedOpacity($0)) }, ctx: ctx, at: v) {
            try ctx.add(a, to: layer, at: v)
        }
    }

    /// Trim paths as strokeStart and strokeEnd: the trim's start and end (percent) moved by its
    /// offset (degrees: 360° is the whole path). A trimmed span that wraps past the path's end is
    /// clamped at the end (Core Animation's strokeEnd is at most 1).
    func applyTrim(_ trim: LottieTrim, to shape: inout Layer) throws {
        let span = LottieShapeReader.combine3(trim.start, trim.end, trim.offset) { s, e, o -> [Double] in
            var a = min(s, e) / 100, b = max(s, e) / 100
            a = min(max(a, 0), 1); b = min(max(b, 0), 1)
            var shift = o / 360
            shift -= shift.rounded(.down)
            a += shift; b += shift
            if a >= 1 { a -= 1; b -= 1 }
            return [min(max(a, 0), 1), min(max(b, 0), 1)]
        }
        shape.shape.strokeStart = span.initial[0]
        shape.shape.strokeEnd = span.initial[1]
        if let a = LottieAnimator.animation(span.map { $0[0] }, keyPath: "strokeStart", clock: clock, { .number($0) }, ctx: ctx, at: trim.json) {
            try ctx.add(a, to: shape, at: trim.json)
        }
        if let a = LottieAnimator.animation(span.map { $0[1] }, keyPath: "strokeEnd", clock: clock, { .number($0) }, ctx: ctx, at: trim.json) {
            try ctx.add(a, to: shape, at: trim.json)
        }
    }

    /// The rectangle holding every point and control point of the path in every keyframe (the
    /// curves lie inside their control points' hull); at least 1 point each way.
    static func controlBounds(_ path: LottieProperty<Path>) -> Rect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func add(_ p: Point) {
            guard p.x.isFinite, p.y.isFinite else { return }
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        func add(_ path: Path) {
            for e in path.elements {
                switch e {
                case .move(let p), .line(let p): add(p)
                case .quad(let a, let b): add(a); add(b)
                case .cubic(let a, let b, let c): add(a); add(b); add(c)
                case .close: break
                }
            }
        }
        switch path {
        case .constant(let p): add(p)
        case .animated(let keys): for k in keys { add(k.value) }
        }
        guard minX.isFinite else { return Rect(0, 0, 1, 1) }
        return Rect(minX, minY, max(maxX - minX, 1), max(maxY - minY, 1))
    }

    static func maximum(_ p: LottieProperty<Double>) -> Double {
        switch p {
        case .constant(let v): return v
        case .animated(let keys): return keys.map(\.value).max() ?? 1
        }
    }
}
