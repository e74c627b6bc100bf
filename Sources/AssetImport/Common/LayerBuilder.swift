import Geometry
import LayerModel
import Animation

/// Sets the properties an asset stores on a layer, with Core Animation's defaults for every key
/// left out (a fresh `Layer` holds them), and reports what it cannot apply. Shared by the archive
/// and CAML decoders, which differ only in how they read values.
struct LayerBuilder {
    let ctx: ImportContext

    /// The scene-model class for a Core Animation class chain (most derived first), and whether the
    /// most derived class is one caprof draws. Private or undrawn subclasses fall back to the
    /// nearest drawn superclass (CABackdropLayer → CALayer), and are reported.
    static func layerClass(chain: [String]) -> (LayerClass, exact: Bool) {
        for (i, name) in chain.enumerated() {
            if let c = LayerClass(rawValue: name) { return (c, i == 0) }
        }
        return (.layer, false)
    }

    /// Keys that change nothing caprof draws (host or editor state, bookkeeping, hints). Read and
    /// dropped on purpose, so they are not reported.
    static let noEffectKeys: Set<String> = [
        "delegate", "__CACodingContents", "contentsFormat", "drawsAsynchronously", "canDrawConcurrently", "needsDisplayOnBoundsChange",
        "autoresizingMask", "isRootLayer", "edgeAntialiasingMask", "allowsGroupBlending", "id",
        "clearsContext", "sortsSublayers", "hitTestsAsOpaque", "hitTestsContentsAlphaChannel", "contentsOpaque",
        "contentsDither", "contentsMultiplyColor", "invertsShadow", "wantsExtendedDynamicRangeContent",
        "toneMapMode", "preferredDynamicRange", "contentsHeadroom", "allowsDisplayCompositing", "inheritsTiming",
        "caplayLayerType", "caplayGeneratedFrom",
    ]

    /// Applies one stored key. `layer.layerClass` must be set already.
    func apply(_ key: String, _ value: ImportedValue, to layer: inout Layer, at place: SourceLocation) {
        if Self.noEffectKeys.contains(key) || key.hasPrefix("mica_") || key.hasPrefix("caplay") || key.hasPrefix("__cap") { return }
        switch key {
        case "continuousCorners":
            // Private predecessor of cornerCurve (iOS 13): YES = continuous corners.
            if value.number.map({ $0 != 0 }) == true { layer.cornerCurve = .continuous }
            return
        case "duration", "repeatCount", "repeatDuration", "autoreverses", "fillMode":
            layerTiming(key, value, at: place)
            return
        case "filters":
            layer.filters = filters(key, value, at: place)
            return
        case "backgroundFilters":
            layer.backgroundFilters = filters(key, value, at: place)
            return
        case "scale" where layer.layerClass == .backdrop:
            if let n = value.number, n > 0, n.isFinite { layer.backdrop.scale = n } else {
                ctx.warn("CABackdropLayer scale \(value.kindDescription) is not a positive number; 1 is kept", at: place)
            }
            return
        case "groupName" where layer.layerClass == .backdrop:
            layer.backdrop.groupName = value.string
            return
        case "windowServerAware" where layer.layerClass == .backdrop, "groupNamespace" where layer.layerClass == .backdrop,
             "allowsSubstituteColor" where layer.layerClass == .backdrop:
            return   // which windows a device's backdrop sees, and its group's namespace: nothing offscreen
        case "compositingFilter":
            // A filter name string, or a CAFilter whose type is the mode's name; nil = source-over.
            if case .null = value { return }
            var name = value.string
            if case .filter(let type, _, _) = value { name = type }
            if let name, let mode = CompositingFilter(rawValue: name) {
                layer.compositingFilter = mode
                return
            }
            ctx.warn("compositingFilter \(filterList(value)) is not a compositing filter caprof knows (expected one of "
                     + CompositingFilter.allCases.map(\.rawValue).joined(separator: ", ")
                     + "); the layer is composited source-over", at: place)
            return
        case "preservesDepth" where layer.layerClass == .emitter:
            // KeyPathTable's row is CAReplicatorLayer's; an emitter keeps it (particles are drawn flat).
            if let n = value.number { layer.emitter.preservesDepth = n != 0 }
            return
        case "contentsScaling":
            if value.string == "repeat" { ctx.warn("contentsScaling 'repeat' (tiled contents) is not drawn; the contents are stretched", at: place) }
            return
        case "font":
            // CATextLayer.font is a CTFont/NSFont, a CGFont or a name; caprof keeps the name. The
            // font object's own size is ignored: CATextLayer draws at `fontSize` (CATextLayer.font docs).
            if case .font(let name, _) = value, layer.layerClass == .text {
                layer.text.font = name
                return
            }
        default:
            break
        }
        guard let property = KeyPathTable.property(named: key) else {
            ctx.warn("unknown key '\(key)' on \(layer.layerClass.rawValue) (\(value.kindDescription)) is not applied", at: place)
            return
        }
        if let owner = property.layerClass, owner != layer.layerClass {
            ctx.warn("\(key) is a \(owner.rawValue) property; on a \(layer.layerClass.rawValue) it is not applied", at: place)
            return
        }
        guard var typed = ValueTyping.typed(value, as: property.valueType, nullable: property.nullable) else {
            ctx.warn("\(key): expected \(property.valueType.summary), found \(value.kindDescription); the default is kept", at: place)
            return
        }
        if let domain = property.domain, case .number(let n) = typed, !domain.contains(n) {
            // Archives store floats: 1.0000001 for 1. Clamp into the domain, and say so when it is more than rounding.
            let clamped = min(max(n, domain.minimum ?? -.infinity), domain.maximum ?? .infinity)
            if abs(clamped - n) > 1e-6 || !domain.contains(clamped) {
                ctx.warn("\(key) \(n) is outside \(domain); the default is kept", at: place)
                return
            }
            typed = .number(clamped)
        }
        if !property.set(&layer, typed) {
            ctx.warn("\(key): the value \(value.kindDescription) could not be applied", at: place)
        }
    }

    /// A layer's own duration/repeat/fill: layers never end in caprof's timing model. Kite writes
    /// `duration = inf` or 3600 s, which is the same on any timeline caprof samples (≤ 10 s by default).
    private func layerTiming(_ key: String, _ value: ImportedValue, at place: SourceLocation) {
        switch key {
        case "duration":
            if let d = value.number, d == 0 || d >= 3600 { return }
        case "repeatCount", "repeatDuration":
            if let d = value.number, d == 0 { return }
        case "autoreverses":
            if let d = value.number, d == 0 { return }
        case "fillMode":
            // Without a finite duration a layer's fill mode has no effect.
            return
        default: break
        }
        ctx.warn("the layer's own \(key) (\(describe(value))) is not applied: layers never end in caprof's timing model", at: place)
    }

    private func describe(_ v: ImportedValue) -> String {
        if let n = v.number { return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n) }
        return v.kindDescription
    }

    /// "gaussianBlur, colorSaturate" for a filters array or a single filter/string.
    func filterList(_ v: ImportedValue) -> String {
        switch v {
        case .array(let items): return items.map(filterList).joined(separator: ", ")
        case .filter(let type, _, _): return type
        case .string(let s): return s
        default: return v.kindDescription
        }
    }
}
