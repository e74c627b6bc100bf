import Geometry
import LayerModel

/// The fix a finding's advice names, applied to a copy of a frame's layer tree, so the frame can
/// be planned again and what the fix saves measured (`Saving`). Only fixes that are edits of the
/// layer's own properties are applied; findings whose fix is a design decision (a filter, a
/// backdrop, a transition), a new asset (an image without alpha or at another size) or CPU work
/// (`raster.cpu`) have none, and their findings carry no measured saving.
public enum FindingFix {
    /// Applies the fix of finding `id` (with the evidence of its worst frame) to `layer`, the
    /// finding's own layer. Returns what it changed, in a few words ("shadowPath set to the
    /// layer's rounded bounds"), or nil when the finding has no such fix or it changes nothing.
    /// - inBackdrop: the layer is a backdrop or inside one (`LayerDirectory.Entry.inBackdrop`),
    ///   where a translucent tint is the design and the advice is to keep it: no fix is applied.
    public static func apply(_ id: FindingID, evidence: Evidence, to layer: inout Layer, canvasScale: Double,
                             inBackdrop: Bool = false) -> String? {
        switch id {
        case .offscreenShadow:
            guard layer.shadowPath == nil else { return nil }
            // Core Animation draws the shadow from the path analytically: no offscreen pass. A
            // shape layer's shadow takes the shape's path; any other layer's the rounded bounds
            // (exact for a background, an approximation for contents or sublayers).
            if layer.layerClass == .shape, let path = layer.shape.path {
                layer.shadowPath = path
                return "shadowPath set to the layer's path"
            }
            layer.shadowPath = .roundedRect(layer.bounds, cornerRadius: layer.cornerRadius)
            return "shadowPath set to the layer's rounded bounds"
        case .offscreenGroupOpacity:
            guard layer.allowsGroupOpacity else { return nil }
            layer.allowsGroupOpacity = false
            return "allowsGroupOpacity off"
        case .offscreenRoundedClip:
            guard layer.masksToBounds else { return nil }
            layer.masksToBounds = false
            return "masksToBounds off (the corners drawn into the content instead)"
        case .offscreenMask:
            // Only a mask that is a plain (rounded) rectangle over the layer's bounds has an
            // equivalent rounded clip; any other mask is the design.
            guard let m = layer.mask, m.sublayers.isEmpty, m.contents == nil, m.mask == nil,
                  m.backgroundColor?.isOpaque == true, m.transform == .identity, m.opacity == 1,
                  approximatelyEqual(frame(of: m), Rect(0, 0, layer.bounds.width, layer.bounds.height)) else { return nil }
            layer.mask = nil
            layer.masksToBounds = true
            layer.cornerRadius = m.cornerRadius
            return "the mask replaced by masksToBounds with the mask's cornerRadius"
        case .offscreenRasterize, .rasterCacheMiss:
            guard layer.shouldRasterize else { return nil }
            layer.shouldRasterize = false
            return "shouldRasterize off"
        case .blended:
            let reasons = evidence.blendReasons ?? []
            var changed: [String] = []
            if reasons.contains(.translucentColor), !inBackdrop {
                // Pre-mixed with what lies beneath: the colour's own components at full alpha
                // shade the same pixels as the pre-mixed colour would.
                var any = false
                if var c = layer.backgroundColor, c.alpha < 1 { c.alpha = 1; layer.backgroundColor = c; any = true }
                if var c = layer.borderColor, c.alpha < 1 { c.alpha = 1; layer.borderColor = c; any = true }
                if any { changed.append("backgroundColor opaque (pre-mixed)") }
            }
            if reasons.contains(.opacity), layer.opacity < 1 { layer.opacity = 1; changed.append("opacity 1") }
            if reasons.contains(.compositingFilter), layer.compositingFilter != .normalBlendMode {
                layer.compositingFilter = .normalBlendMode; changed.append("normalBlendMode")
            }
            return changed.isEmpty ? nil : changed.joined(separator: ", ")
        case .misalignedSubpixel:
            // Only a layer placed by position and size alone: under a transform the rounding
            // belongs to whoever sets the transform.
            guard layer.transform == .identity, canvasScale > 0 else { return nil }
            let f = frame(of: layer)
            func snap(_ v: Double) -> Double { (v * canvasScale).rounded() / canvasScale }
            let rounded = Rect(snap(f.minX), snap(f.minY), snap(f.maxX) - snap(f.minX), snap(f.maxY) - snap(f.minY))
            guard rounded != f else { return nil }
            layer.setFrame(rounded)
            return "frame rounded to device pixels"
        default:
            return nil
        }
    }

    /// The layer's frame in its superlayer (no transform): position − anchorPoint · size.
    static func frame(of l: Layer) -> Rect {
        Rect(l.position.x - l.anchorPoint.x * l.bounds.width, l.position.y - l.anchorPoint.y * l.bounds.height,
             l.bounds.width, l.bounds.height)
    }

    static func approximatelyEqual(_ a: Rect, _ b: Rect) -> Bool {
        abs(a.minX - b.minX) < 1e-6 && abs(a.minY - b.minY) < 1e-6 && abs(a.width - b.width) < 1e-6 && abs(a.height - b.height) < 1e-6
    }
}

/// What applying a finding's fix saves in the frame it costs the most (`FindingFix`), measured by
/// planning and analysing that frame again with the fix: the same figures with or without a GPU.
public struct Saving: Sendable, Equatable, Codable {
    /// The frame measured (the finding's worst frame).
    public var frame: Int
    /// What the fix changed ("shadowPath set to the layer's rounded bounds").
    public var fix: String
    /// Offscreen passes, and their targets' device pixels, the frame no longer renders.
    public var offscreenPasses: Int
    public var offscreenPixels: Int
    /// Fragments the frame no longer shades on the screen (`FrameCounters.shadedPixels`).
    public var shadedPixels: Int
    /// Screen pixels no longer blended (`FrameCounters.blendedPixels`).
    public var blendedPixels: Int
    /// With a GPU: the device time the frame no longer takes (the median of three draws with and
    /// without the fix; noisy below a few hundred microseconds, negative when the fix costs more),
    /// on `ProfileReport.run.device`. nil without one.
    public var gpuNanoseconds: Int64?

    public init(frame: Int, fix: String, offscreenPasses: Int, offscreenPixels: Int, shadedPixels: Int, blendedPixels: Int) {
        self.frame = frame; self.fix = fix; self.offscreenPasses = offscreenPasses; self.offscreenPixels = offscreenPixels
        self.shadedPixels = shadedPixels; self.blendedPixels = blendedPixels
    }

    /// The difference `before − after` of two analyses of one frame.
    public init(frame: Int, fix: String, before: FrameCounters, after: FrameCounters) {
        self.init(frame: frame, fix: fix, offscreenPasses: before.offscreenPasses - after.offscreenPasses,
                  offscreenPixels: before.offscreenPixels - after.offscreenPixels,
                  shadedPixels: before.shadedPixels - after.shadedPixels, blendedPixels: before.blendedPixels - after.blendedPixels)
    }

    /// The work saved, for ranking: pixels rendered into offscreen targets count twice (each is
    /// shaded into the target and read back when the result is composited), plus screen
    /// fragments; blended pixels weigh a quarter more (a read of the destination besides the
    /// write). Negative when the fix costs more than it saves.
    public var work: Double {
        Double(2 * offscreenPixels + shadedPixels) + 0.25 * Double(blendedPixels)
    }

    /// Whether the fix measurably saves anything.
    public var savesWork: Bool { offscreenPasses > 0 || work > 0 }

    /// The findings whose cost is GPU work, so that what their fix saves is what they cost: their
    /// severity rises to the saving's (`Severity.init(canvasShare:)` of `work` over the canvas)
    /// when that is higher. An offscreen pass costs its texels twice, more than the share of the
    /// screen its result covers says: a shadow rendered offscreen over a fifth of the screen saves
    /// two fifths of a screen of work and is high, never below a cheap blended bar. Quality
    /// findings (misaligned, low scale) keep the severity of the pixels they spoil.
    public static func raisesSeverity(_ id: FindingID) -> Bool {
        switch id {
        case .blended, .offscreenMask, .offscreenRoundedClip, .offscreenShadow, .offscreenGroupOpacity,
             .offscreenRasterize, .rasterCacheMiss: return true
        default: return false
        }
    }

    /// The severity of finding `f` once its saving is known.
    public static func severity(of f: Finding, canvasPixels: Int) -> Severity {
        guard let s = f.saving, raisesSeverity(f.id), s.work > 0, canvasPixels > 0 else { return f.severity }
        return max(f.severity, Severity(canvasShare: s.work / Double(canvasPixels)))
    }
}
