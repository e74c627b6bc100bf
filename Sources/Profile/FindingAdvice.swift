import Geometry

/// The one-line explanation and the fix a Core Animation engineer would apply, per finding.
public enum FindingAdvice {
    public static func advise(_ id: FindingID, _ e: Evidence, layer: LayerDirectory.Entry, canvasScale: Double) -> (explanation: String, fix: String) {
        let scale = fmt(canvasScale)
        // At 1× a device pixel is a point: "multiples of 1/1 pt" says "whole points" badly.
        let pixelGrid = canvasScale == 1 ? "whole points" : "multiples of 1/\(scale) pt"
        switch id {
        case .blended:
            let reasons = e.blendReasons ?? []
            var why: [String] = []
            var fixes: [String] = []
            if reasons.contains(.translucentColor) {
                why.append("its colour has alpha \(fmt(e.colorAlpha ?? 0))")
                // A frosted bar's tint over its backdrop is the design: opaque, nothing would show through.
                fixes.append(layer.inBackdrop
                    ? "nothing to fix for the tint: a translucent colour over a backdrop is the frosted look (its cost is the backdrop's, offscreen.backdrop)"
                    : "make backgroundColor (and borderColor) opaque by pre-mixing it with what lies beneath, and set opaque = true")
            }
            if reasons.contains(.opacity) {
                why.append("it is drawn at opacity \(fmt(e.opacity ?? 0))")
                fixes.append("keep opacity at 1 (and its ancestors') where the layer is at rest; for a fade, hide it at the end instead of leaving it translucent")
            }
            if reasons.contains(.imageAlpha) {
                why.append("its contents image has an alpha channel" + imageOpacity(e))
                fixes.append("supply an image without alpha (flattened onto its background) and set opaque = true")
            }
            if reasons.contains(.alphaChannel) {
                // Core Animation looks at the image's format, not its pixels (Color Blended Layers: red).
                why.append("its contents image has an alpha channel, so Core Animation blends it although " + imageOpacity(e, all: true))
                fixes.append("re-export the image without an alpha channel (a PNG of colour type RGB, or a JPEG): its pixels stay the same and it replaces what lies beneath")
            }
            if reasons.contains(.rasterizedContent) {
                switch e.rasterContent {
                case "text" where layer.backgroundAlpha >= 1:
                    // It already has one: the glyphs' texture blends only over its own background.
                    why.append("its glyphs are drawn over its own opaque backgroundColor")
                    fixes.append("nothing more to fix: it already has an opaque backgroundColor, so only its own background shows through around the glyphs")
                case "text":
                    why.append("its text is drawn with transparent space around the glyphs")
                    fixes.append("give the text layer an opaque backgroundColor matching what lies beneath (as UILabel does when opaque)")
                case "gradient":
                    why.append("its gradient has translucent colours")
                    fixes.append("use opaque colours in the gradient where it lies over a plain background")
                default:
                    why.append("its shape's texture is transparent outside its fill and stroke")
                    fixes.append("nothing to fix for a shape over other content; a plain or rounded rectangle drawn as a layer's backgroundColor and cornerRadius is opaque inside")
                }
            }
            if reasons.contains(.compositingFilter) {
                why.append("its compositingFilter combines it with what lies beneath")
                fixes.append("bake the blend into the image when the content is static, or use normalBlendMode")
            }
            return ("blended over the content beneath: " + why.joined(separator: "; "), fixes.joined(separator: "; "))

        case .misalignedSubpixel:
            let r = e.deviceRect ?? [0, 0, 0, 0]
            let edges = describeEdges(r)
            let what = e.part == .contents ? "its contents image falls" : "its edges fall"
            let fix = e.part == .contents
                ? "choose bounds (and a position) that put the gravity's image rectangle on \(pixelGrid): whole-pixel margins for centred gravities, the image's aspect ratio for resizeAspect/resizeAspectFill"
                : "round its frame (position − anchorPoint·size, and the size) to \(pixelGrid) so every edge falls on a device pixel"
            return ("\(what) between device pixels (\(edges)): edges are smeared over two pixels and images resampled", fix)

        case .misalignedScaled:
            let t = e.imagePixels ?? [0, 0], s = e.shownPixels ?? [0, 0]
            if e.transformed == true {
                return ("its \(fmt(t[0]))×\(fmt(t[1])) px image is rotated, skewed or in perspective, so it is resampled (over about \(whole(s[0]))×\(whole(s[1])) device pixels)",
                        "expected while it is transformed; make sure it is shown at its pixel size when the transform is at rest (identity or a translation by whole pixels)")
            }
            if e.rasterContent == "text" {
                return ("its text is rasterised at \(fmt(t[0]))×\(fmt(t[1])) px and resampled to \(fmt(round2(s[0])))×\(fmt(round2(s[1]))) device pixels",
                        "set contentsScale = \(scale) (the screen scale) so the text is rasterised at the pixels it is shown")
            }
            if layer.stretchable {
                // Supplying the image at the shown size would defeat contentsCenter.
                return ("its \(fmt(t[0]))×\(fmt(t[1])) px image is stretched through contentsCenter to \(fmt(round2(s[0])))×\(fmt(round2(s[1]))) device pixels: its centre and edges are resampled",
                        "expected for a stretchable image; supply it at the screen scale (contentsScale = \(scale)) so its corners are drawn 1:1, and keep its stretchable centre a flat colour so the resampling cannot show")
            }
            return ("its \(fmt(t[0]))×\(fmt(t[1])) px image is resampled to \(shownSize(s, beside: t)) device pixels",
                    "supply the image at the pixel size it is shown (\(whole(s[0]))×\(whole(s[1])) px), or show it at its natural size with a non-scaling contentsGravity")

        case .contentsLowScale:
            let value = fmt(e.value ?? 1)
            if e.property == .rasterizationScale {
                return ("shouldRasterize caches the layer at rasterizationScale \(value), below the screen scale \(scale): it is magnified and blurry",
                        "set rasterizationScale = \(scale) (the screen scale)")
            }
            return ("contentsScale \(value) is below the screen scale \(scale): each image pixel covers \(fmt(round2(canvasScale / max(e.value ?? 1, 1e-9)))) device pixels and looks blurry",
                    "set contentsScale = \(scale) (the screen scale) and supply the image at \(scale)× its point size")

        case .offscreenRoundedClip:
            return ("masksToBounds with cornerRadius clips \(layer.hasSublayers ? "its sublayers" : "its contents") to the rounded shape in an offscreen pass\(area(e))",
                    "pre-round the contents image (draw the corners into it) or give the sublayers their own cornerRadius, and drop masksToBounds; cornerRadius on a background alone needs no pass")
        case .offscreenMask:
            return ("the mask layer renders the layer and the mask offscreen, then combines them\(area(e))",
                    "use masksToBounds with cornerRadius for rounded shapes, or pre-mask the contents image")
        case .shadowHidden:
            let why = e.hiddenShadow == .clippedAway
                ? "this shadow is never visible: masksToBounds (of the layer or an ancestor) clips all of it away"
                : "this shadow is never visible: what masksToBounds leaves of it lies beneath the layer's own opaque backgroundColor"
            return (why + (e.passBounds != nil ? ", yet without shadowPath it is rendered offscreen every frame\(area(e))" : ""),
                    "remove it (shadowOpacity = 0); to show a shadow, set it on an unclipped container behind the clipped layer")
        case .offscreenShadow:
            return ("a shadow without shadowPath is shaped from the rendered layer's alpha in an offscreen pass\(area(e))",
                    "set shadowPath to the layer's shape (e.g. a rounded rect of its bounds)")
        case .offscreenRasterize:
            return ("shouldRasterize renders the layer into the raster cache\(area(e)); a hit then costs one textured draw, every miss another offscreen pass",
                    "keep shouldRasterize only on layers whose content stays the same for many frames, with rasterizationScale = \(scale)")
        case .rasterCacheMiss:
            return ("the cached bitmap was rendered again: \(describe(e.invalidation))",
                    e.invalidation?.kind == "propertyChanged" || e.invalidation?.kind == "contentChanged"
                        ? "turn shouldRasterize off while the content inside animates (or move the animated layer out of the rasterised subtree)"
                        : e.invalidation?.kind == "firstUse" ? "nothing to fix if the layer then stays unchanged: the first frame always renders the bitmap"
                        : "keep fewer or smaller layers rasterised, or keep them on screen: the cache holds 2.5 screens and drops bitmaps unused for 100 ms")
        case .unsupported:
            return ("caprof does not draw this yet: \(e.feature ?? "unsupported content"); the layer still takes part in the analyses its geometry allows",
                    "nothing to change in the scene: the figures for this layer leave out what that content costs on a device")
        case .rasterCPU:
            return rasterCPU(e)
        case .offscreenTransition:
            return ("a CATransition renders the layer's previous and new states offscreen as snapshots while it runs\(area(e))",
                    "nothing to fix for a short transition on a small layer; for a large one prefer animating opacity or position of separate layers")
        case .offscreenFilter:
            let sources = e.filterSources ?? ["filters"]
            let filters = ("filters render the layer and its sublayers offscreen, then run each filter over the result (a blur is two passes, more with a large radius)",
                           "use a smaller blur inputRadius; set shouldRasterize on a blurred layer whose content does not change; over static content, show a pre-blurred image instead of a live blur")
            let blend = ("a blend mode reads what lies beneath, so the layer is flattened offscreen and the destination copied (drawn again), then both are composited in a shader; screen, plusL and the Porter-Duff operators only flatten it",
                         "bake the blend into the image when the content is static, or use normalBlendMode")
            let parts = (sources.contains("filters") ? [filters] : []) + (sources.contains("compositingFilter") ? [blend] : [])
            return (parts.map(\.0).joined(separator: "; ") + area(e), parts.map(\.1).joined(separator: "; "))
        case .offscreenBackdrop:
            return ("a backdrop captures what is composited beneath it, filters it and draws it again, every frame\(area(e))",
                    "lower the backdrop layer's scale (UIKit's blur samples at 0.25) and the blur radius; over static content, show a pre-blurred image instead of a live backdrop")
        case .offscreenGroupOpacity:
            return ("opacity below 1 with allowsGroupOpacity flattens the sublayers offscreen before fading them as one\(area(e))",
                    "set allowsGroupOpacity = false when the sublayers do not overlap, or fade the leaves instead")
        }
    }

    /// " (3,000 of its 4,096 pixels are opaque)", or with `all` "all 4,096 of its pixels are opaque".
    static func imageOpacity(_ e: Evidence, all: Bool = false) -> String {
        guard let p = e.imageOpaquePixels, p.count == 2 else { return all ? "every pixel is opaque" : "" }
        if all || p[0] == p[1] { return (all ? "" : " (") + "all \(p[1]) of its pixels are opaque" + (all ? "" : ")") }
        return " (\(p[0]) of its \(p[1]) pixels are opaque)"
    }

    static func rasterCPU(_ e: Evidence) -> (explanation: String, fix: String) {
        let content = e.rasterContent ?? "content"
        let change = e.rasterChange ?? "its content"
        let size = e.rasterPixels.map { " (\(whole($0[0]))×\(whole($0[1])) px, \(kib(e.uploadedBytes ?? 0)) uploaded in its worst frame)" } ?? ""
        let why = change == "appeared"
            ? "its \(content) appeared mid-run and was rasterised on the CPU and uploaded\(size)"
            : change == "came into view"
            ? "its \(content) came onto the canvas (the layer was off it, or hidden, in the frame before) and was rasterised on the CPU and uploaded\(size)"
            : "its \(content) is rasterised on the CPU and uploaded again in every frame where \(change) changes\(size)"
        let fix: String
        switch (content, change) {
        case ("shape", "strokeStart/strokeEnd"):
            fix = "expected for a draw-on: keep the shape layer's bounds tight around the path (the texture follows them) and remove the animation once it ends so later frames reuse the texture"
        case ("shape", "path"):
            fix = "morph small paths only; where the effect allows, animate transform or opacity of a static shape instead of its path (they keep the texture)"
        case ("shape", "its scale on screen"), ("text", "contentsScale"):
            fix = "a scale that changes every frame re-rasterises the content: animate between few scales, or show a static texture rasterised once at the largest scale"
        case ("text", "string"):
            fix = "change the string only when the visible value changes (a counter at 60 fps lays out and rasterises text every frame), or give each digit its own layer"
        case ("text", "fontSize"):
            fix = "animate transform.scale instead of fontSize: the text then scales as a texture and is rasterised once"
        case ("shadow", "its scale on screen"):
            fix = "a scale that changes every frame fills and blurs the shadowPath's shadow again on the CPU: animate position, rotation or opacity, which keep its texture, or use a rectangle, rounded-rectangle or circle shadowPath, which the GPU draws at any scale"
        case ("shadow", _):
            fix = "the shadow of a shadowPath that is not a rectangle, rounded rectangle or circle is filled and blurred on the CPU whenever its path, colour or radius changes: animate those rarely; position, rotation and opacity keep its texture"
        case ("gradient", _):
            fix = "nothing to fix for a short colour animation (the ramp is 1024 texels); for a long one animate opacity of two static gradients"
        case (_, "came into view"):
            // The layer existed: creating it earlier changes nothing. Core Animation draws a layer's
            // content when it is committed, on the canvas or not; caprof rasterises it when it is first seen.
            fix = "nothing to fix: the layer already existed, and Core Animation draws its content when it is committed, on screen or not, so on a device this is paid when the content is set, not when the layer scrolls or moves into view"
        case (_, "appeared"):
            fix = "nothing to fix if it then stays unchanged; to hide the cost, create the layer before it is shown"
        default:
            fix = "animate the layer's transform, position or opacity instead of what it draws: those keep the texture"
        }
        return (why, fix)
    }

    /// "12.5 KiB", "1.3 MiB".
    static func kib(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(fmt(round2(Double(bytes) / Double(1 << 20)))) MiB" : "\(fmt(round2(Double(bytes) / 1024))) KiB"
    }

    static func describe(_ i: CacheInvalidation?) -> String {
        guard let i else { return "unknown reason" }
        switch i.kind {
        case "firstUse": return "first use"
        case "propertyChanged":
            let who = i.layerName.map { "“\($0)”" } ?? "layer #\(i.layer ?? 0)"   // plain text in every format: no Markdown backticks
            return "\(i.property ?? "a property") changed on \(who) inside it"
        case "contentChanged": return "what it draws changed"
        case "rasterizationScaleChanged": return "rasterizationScale changed from \(fmt(i.from ?? 0)) to \(fmt(i.to ?? 0))"
        case "evictedUnused": return "it was evicted after \(fmt(round3(i.idleSeconds ?? 0))) s unused"
        default: return "it was evicted because the cache was full"
        }
    }

    /// The advice for a misalignment seen only while an animation moves the layer: from the frame
    /// after its last one it is aligned to the end of the run (or it still moves in the run's
    /// last frame), so the fix speaks of the motion, not of a resting place.
    static func whileMoving(_ id: FindingID, _ advice: (explanation: String, fix: String), alignedFrom: Int?, lastFrame: Int) -> (explanation: String, fix: String) {
        ("only while it animates: " + advice.explanation
            + (alignedFrom.map { "; from frame \($0) on it is on the pixel grid" } ?? "; it is still animating in the last frame profiled (\(lastFrame))"),
         "nothing to fix at rest; if the motion looks soft, animate between whole-pixel positions and sizes" +
            (id == .misalignedScaled ? " and let the scale end at 1" : ""))
    }

    static func area(_ e: Evidence) -> String {
        guard let b = e.passBounds else { return "" }
        return " (\(b.width)×\(b.height) px target)"
    }

    /// "x 10.5 px, y 20.3 px" for the edges off the grid.
    static func describeEdges(_ r: [Double]) -> String {
        let x0 = r[0], y0 = r[1], x1 = r[0] + r[2], y1 = r[1] + r[3]
        var parts: [String] = []
        for (name, v) in [("left", x0), ("top", y0), ("right", x1), ("bottom", y1)] where !Alignment.isOnGrid(v) {
            parts.append("\(name) at \(fmt(round3(v))) px")
        }
        return parts.joined(separator: ", ")
    }

    /// The shown size with as many decimals (2 to 4) as it takes to differ from the image's own
    /// size: "34×48 px image resampled to 34×48" would contradict itself for a 34.004 px width.
    static func shownSize(_ s: [Double], beside t: [Double]) -> String {
        func text(_ places: Double) -> [String] {
            s.map { fmt(($0 * places).rounded() / places) }
        }
        for places in [100.0, 1000, 10000] {
            let shown = text(places)
            if shown != t.map({ fmt($0) }) { return shown.joined(separator: "×") }
        }
        return text(10000).joined(separator: "×")
    }

    /// A pixel size as a whole number (clamped: a projection close to the eye can be huge).
    static func whole(_ v: Double) -> String { v.isFinite && abs(v) < 1e12 ? String(Int(v.rounded())) : "∞" }
    static func round2(_ v: Double) -> Double { (v * 100).rounded() / 100 }
    static func round3(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}

/// Compact number text for reports (no trailing ".0"; at most 4 decimals).
public func fmtNumber(_ v: Double) -> String { fmt(v) }
