/// The debug overlays of one frame: Instruments' Core Animation colours (reference §8) and
/// Android's GPU-overdraw heat map, drawn on the CPU over the dimmed frame by `OverlayPainter`.
public enum OverlayKind: String, Sendable, Codable, CaseIterable {
    /// Color Blended Layers: red where the pixel was blended (deeper red for stacked blending),
    /// orange where only antialiased edge pixels blended, green where the last item drawn there
    /// replaced what was beneath.
    case blended
    /// Color Misaligned Images: magenta where an item's edges are off the device-pixel grid,
    /// yellow where its image is resampled (scaled, rotated, in perspective).
    case misaligned
    /// Android's "Debug GPU overdraw": blue, green, pink, red for pixels drawn 2, 3, 4, 5+ times.
    case overdraw
    /// Color Offscreen-Rendered Yellow: yellow where an offscreen pass's result lands (deeper where
    /// the results of two or more layers do: a group inside a group).
    case offscreen
    /// Color Hits Green and Misses Red: shouldRasterize layers drawn from the cache (green) or
    /// rendered again this frame (red).
    case rasterCache = "raster-cache"
    /// Flash Updated Regions: yellow where the frame differs from the previous one (the plan's
    /// damage, what the frame cache draws again); the first frame is updated everywhere.
    case updatedRegions = "updated-regions"

    /// What Instruments or Android call it.
    public var title: String {
        switch self {
        case .blended: return "Color Blended Layers"
        case .misaligned: return "Color Misaligned Images"
        case .overdraw: return "GPU overdraw"
        case .offscreen: return "Color Offscreen-Rendered Yellow"
        case .rasterCache: return "Color Hits Green and Misses Red"
        case .updatedRegions: return "Flash Updated Regions"
        }
    }

    /// The legend, in order: the swatches the overlay uses.
    public var legend: [OverlayLegendEntry] { OverlayPalette.legend(self) }
}

/// What lies under the tints.
public enum OverlayBackground: String, Sendable, Codable {
    /// The frame as the GPU rendered it, desaturated and darkened (`OverlayPainter.dim`).
    case renderedFrame = "rendered-frame"
    /// A neutral dark grey: nothing was rendered (`--no-gpu`), only the tints are meaningful.
    case neutral
}

/// One overlay: opaque sRGB RGBA8 pixels (premultiplied = straight), canvas-sized, rows top down.
public struct OverlayImage: Sendable, Equatable {
    public var kind: OverlayKind
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]
    /// Pixels per legend entry (same order as `kind.legend`), for legends with numbers.
    public var legendPixels: [Int]

    public init(kind: OverlayKind, width: Int, height: Int, pixels: [UInt8], legendPixels: [Int]) {
        self.kind = kind; self.width = width; self.height = height; self.pixels = pixels; self.legendPixels = legendPixels
    }

    /// The RGB of pixel (x, y).
    public func rgb(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}

/// The overlays of one frame.
public struct FrameOverlays: Sendable {
    /// The frame's number (time = frame / fps) and scene time.
    public var frame: Int
    public var time: Double
    public var background: OverlayBackground
    /// One per `OverlayKind`, in `OverlayKind.allCases` order.
    public var images: [OverlayImage]

    public init(frame: Int, time: Double, background: OverlayBackground, images: [OverlayImage]) {
        self.frame = frame; self.time = time; self.background = background; self.images = images
    }

    public subscript(kind: OverlayKind) -> OverlayImage? { images.first { $0.kind == kind } }

    /// The file name of an overlay: `frame-00012-blended.png` (frame numbers zero-padded to 5
    /// digits as `caprof render` names frames, so a directory lists frame by frame).
    public static func fileName(frame: Int, kind: OverlayKind) -> String {
        let n = String(frame)
        return "frame-" + String(repeating: "0", count: max(0, 5 - n.count)) + n + "-\(kind.rawValue).png"
    }
}

/// One swatch of a legend.
public struct OverlayLegendEntry: Sendable, Equatable {
    /// The tint as it looks over the neutral background (for legend swatches): sRGB bytes.
    public var color: (r: UInt8, g: UInt8, b: UInt8)
    public var label: String
    public var detail: String

    public static func == (a: OverlayLegendEntry, b: OverlayLegendEntry) -> Bool {
        a.color == b.color && a.label == b.label && a.detail == b.detail
    }
}

/// The colours of the overlays and how strongly each is mixed over the dimmed frame.
///
/// - Instruments' debug colours are pure red, green, magenta and yellow (reference §8); they are
///   mixed at a little over half strength so the content stays legible beneath, with red mixed
///   stronger for each further blended layer ("stacked translucency looks more intensely red").
/// - Android's overdraw colours are the ones `hwui` draws (`kOverdrawColors`: 0x2f0000ff,
///   0x2f00ff00, 0x3fff0000, 0x7fff0000, ARGB), shown here as they look over a white app, which is
///   how the Android documentation pictures them: #D0D0FF blue (1×), #D0FFD0 green (2×), #FFC0C0
///   pink (3×), #FF8080 red (4×+). Over a dark dimmed frame they are mixed at 85 % so the scale
///   reads as it does on a phone. "Overdrawn 1×" means drawn twice: a pixel drawn once (the root's
///   background, say) has no overdraw and no tint, as on Android.
public enum OverlayPalette {
    public typealias Tint = (r: UInt8, g: UInt8, b: UInt8, strength: Double)

    public static let opaque: Tint = (0, 255, 0, 0.5)
    /// Red for 1, 2, 3 and 4-or-more blended layers stacked over the last opaque one.
    public static let blended: [Tint] = [(255, 0, 0, 0.55), (255, 0, 0, 0.68), (255, 0, 0, 0.79), (255, 0, 0, 0.88)]
    /// Pixels blended only at antialiased edges, rounded corners and rounded clips (partial
    /// coverage of opaque paint): orange, so the cheap edge bands read apart from blended paint.
    public static let edge: Tint = (255, 150, 0, 0.6)
    public static let misaligned: Tint = (255, 0, 255, 0.62)
    public static let scaled: Tint = (255, 255, 0, 0.62)
    /// Overdrawn 1×, 2×, 3× and 4× or more (drawn 2, 3, 4, 5+ times).
    public static let overdraw: [Tint] = [(0xD0, 0xD0, 0xFF, 0.85), (0xD0, 0xFF, 0xD0, 0.85),
                                          (0xFF, 0xC0, 0xC0, 0.85), (0xFF, 0x80, 0x80, 0.85)]
    /// Offscreen results, one and two-or-more passes deep.
    public static let offscreen: [Tint] = [(255, 255, 0, 0.5), (255, 255, 0, 0.75)]
    public static let cacheHit: Tint = (0, 255, 0, 0.6)
    public static let cacheMiss: Tint = (255, 0, 0, 0.6)
    /// Flash Updated Regions flashes updated pixels yellow in Instruments.
    public static let updated: Tint = (255, 255, 0, 0.6)
    /// The neutral background without a rendered frame (iOS dark-mode system grey 6).
    public static let neutral: (r: UInt8, g: UInt8, b: UInt8) = (0x1C, 0x1C, 0x1E)

    static func legend(_ kind: OverlayKind) -> [OverlayLegendEntry] {
        func e(_ t: Tint, _ label: String, _ detail: String) -> OverlayLegendEntry {
            func mix(_ c: UInt8, _ n: UInt8) -> UInt8 { UInt8((Double(n) * (1 - t.strength) + Double(c) * t.strength).rounded()) }
            return OverlayLegendEntry(color: (mix(t.r, neutral.r), mix(t.g, neutral.g), mix(t.b, neutral.b)), label: label, detail: detail)
        }
        switch kind {
        case .blended:
            return [e(opaque, "opaque", "the last item drawn replaced the pixel"),
                    e(blended[0], "blended", "blended over what was beneath (1 or 2 layers deep)"),
                    e(blended[2], "blended 3×+", "three or more blended layers stacked"),
                    e(edge, "edges", "only antialiased edges, rounded corners or clip rims blended")]
        case .misaligned:
            return [e(misaligned, "misaligned", "edges off the device-pixel grid"),
                    e(scaled, "scaled", "image resampled: texels ≠ device pixels")]
        case .overdraw:
            return [e(overdraw[0], "1×", "drawn twice"), e(overdraw[1], "2×", "drawn 3 times"),
                    e(overdraw[2], "3×", "drawn 4 times"), e(overdraw[3], "4×+", "drawn 5 or more times")]
        case .offscreen:
            return [e(offscreen[0], "offscreen", "the result of an offscreen pass is composited here"),
                    e(offscreen[1], "nested", "two or more layers rendered offscreen, one inside another")]
        case .rasterCache:
            return [e(cacheHit, "hit", "shouldRasterize: drawn from the cached bitmap"),
                    e(cacheMiss, "miss", "shouldRasterize: the bitmap was rendered again this frame")]
        case .updatedRegions:
            return [e(updated, "updated", "changed since the previous frame: drawn again (a first frame everywhere)")]
        }
    }
}
