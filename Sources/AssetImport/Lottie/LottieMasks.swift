import Geometry
import LayerModel
import Animation
import SceneFormat

/// A layer's masks (`masksProperties`) as its Core Animation mask: one mask layer whose
/// sublayers are the masks' paths in opaque black, in list order, each composited onto the ones
/// before as its mode says (add: over; subtract: destination-out; intersect: destination-in); an
/// inverted mask is its path inside a large rectangle with the even-odd rule (its outside). Mask opacity and expansion are not
/// applied by lottie-ios's Core Animation engine: a warning says so.
enum LottieMasks {
    static func apply(_ l: JSONValue, to layer: inout Layer, size: Size, clock: LottieClock, ctx: LottieContext, depth: Int) throws {
        guard let list = l["masksProperties"]?.array, !list.isEmpty else { return }
        let name = l["nm"]?.string ?? "layer"
        // The outside of a path: a rectangle well beyond the layer, and the path, even-odd.
        let w: Double = max(size.width, 1), h: Double = max(size.height, 1)
        let outer = Rect(-4 * w - 2000, -4 * h - 2000, 9 * w + 4000, 9 * h + 4000)
        func shape(_ m: JSONValue, inverted: Bool) throws -> Layer {
            guard let pt = m["pt"] else { throw ctx.error(m, "a mask of layer '\(name)' has no path 'pt'", kind: .missingKey) }
            let path = try ctx.counted(LottieProperty.read(pt, ctx, what: "mask of layer '\(name)'", parse: { try LottiePaths.bezier($0, ctx, what: "mask of layer '\(name)'") }), at: m)
                .map { inverted ? Path(Path.rect(outer).elements + $0.elements) : $0 }
            var s = try ctx.newLayer(at: m, depth: depth + 2)
            s.layerClass = .shape
            s.name = m["nm"]?.string ?? "mask"
            s.bounds = Rect(0, 0, size.width, size.height)
            s.anchorPoint = Point(0, 0)
            s.position = Point(0, 0)
            s.shape.path = path.initial
            s.shape.fillColor = .black
            s.shape.fillRule = inverted ? .evenOdd : .nonZero
            if let a = LottieAnimator.animation(path, keyPath: "path", clock: clock, { .path($0) }, ctx: ctx, at: m) {
                try ctx.add(a, to: s, at: m)
            }
            if let o = m["o"], let op = try? LottieValues.scalar(o, ctx, what: "mask opacity"), op.isAnimated || op.initial != 100 {
                ctx.warn("a mask of layer '\(name)' has an opacity: lottie-ios's Core Animation engine draws masks opaque, as the device shows", at: o, layer: layer.id)
            }
            if let x = m["x"], let ex = try? LottieValues.scalar(x, ctx, what: "mask expansion"), ex.isAnimated || ex.initial != 0 {
                ctx.warn("a mask of layer '\(name)' has an expansion: lottie-ios's Core Animation engine does not expand masks, as the device shows", at: x, layer: layer.id)
            }
            return s
        }
        // Masks apply in list order to what the ones before them left: adding draws the path
        // over it, subtracting cuts the path out of it (destination-out), intersecting keeps it
        // only inside the path (destination-in). The first mask starts from nothing, or, when it
        // subtracts or intersects, from the whole layer.
        var parts: [Layer] = []
        for m in list {
            guard m.members != nil else { throw ctx.error(m, "a mask must be an object", kind: .wrongType) }
            let inverted = m["inv"]?.bool ?? false
            let mode = m["mode"]?.string ?? "a"
            switch mode {
            case "n":
                continue
            case "a", "s", "i":
                if parts.isEmpty && mode != "a" {
                    var all = try ctx.newLayer(at: m, depth: depth + 2)
                    all.name = "whole layer"
                    all.backgroundColor = .black
                    all.bounds = outer
                    all.anchorPoint = Point(0, 0)
                    all.position = outer.origin
                    parts.append(all)
                }
                var part = try shape(m, inverted: inverted)
                if mode == "s" { part.compositingFilter = .destinationOut }
                if mode == "i" { part.compositingFilter = .destinationIn }
                parts.append(part)
            default:
                ctx.warn("a mask of layer '\(name)' uses mode '\(mode)' (lighten, darken or difference), which lottie-ios's Core Animation engine draws as an added mask", at: m, layer: layer.id)
                parts.append(try shape(m, inverted: inverted))
            }
        }
        guard !parts.isEmpty else { return }
        var mask: Layer
        if parts.count == 1 {
            mask = parts[0]
        } else {
            mask = try ctx.newLayer(at: l["masksProperties"]!, depth: depth + 1)
            mask.name = "masks of \(name)"
            mask.bounds = Rect(0, 0, size.width, size.height)
            mask.anchorPoint = Point(0, 0)
            mask.position = Point(0, 0)
            mask.sublayers = parts
        }
        layer.mask = mask
    }
}
