import Plan

/// The stable ids of findings (scene-format.md "Reports: the finding vocabulary"). Ids are never
/// renamed; new analyses add cases. Only what the analyses can raise today is listed.
public enum FindingID: String, Sendable, Codable, CaseIterable, Comparable {
    /// The frame holds content caprof does not draw yet (a layer class, a feature): every report
    /// says so first, since its figures leave out what that content costs.
    case unsupported
    /// A layer composited with blending over the content beneath it (Color Blended Layers).
    case blended
    /// A layer whose edges in device pixels are off the pixel grid (Color Misaligned Images, magenta).
    case misalignedSubpixel = "misaligned.subpixel"
    /// Image contents resampled: image pixels ≠ device pixels (Color Misaligned Images, yellow).
    case misalignedScaled = "misaligned.scaled"
    /// contentsScale or rasterizationScale below the canvas scale: blurry content.
    case contentsLowScale = "contents.low-scale"
    /// An offscreen pass for a `mask` layer.
    case offscreenMask = "offscreen.mask"
    /// An offscreen pass for masksToBounds with cornerRadius clipping sublayers or contents.
    case offscreenRoundedClip = "offscreen.rounded-clip"
    /// An offscreen pass for a shadow without shadowPath.
    case offscreenShadow = "offscreen.shadow"
    /// A shadow no pixel of which can be seen (`HiddenShadow`): clipped away by masksToBounds, or
    /// only beneath the layer's own opaque background. Its cost, passes or pixels, buys nothing.
    case shadowHidden = "shadow.hidden"
    /// An offscreen pass for group opacity.
    case offscreenGroupOpacity = "offscreen.group-opacity"
    /// A shouldRasterize layer rendered into the raster cache (on a cache miss).
    case offscreenRasterize = "offscreen.rasterize"
    /// A running CATransition's snapshots of the previous and the new state.
    case offscreenTransition = "offscreen.transition"
    /// An offscreen pass for `filters` or a compositingFilter other than source-over (a blend mode
    /// flattens the layer and reads what lies beneath it).
    case offscreenFilter = "offscreen.filter"
    /// A backdrop (CABackdropLayer, backgroundFilters): what lies beneath captured, filtered, drawn again.
    case offscreenBackdrop = "offscreen.backdrop"
    /// A shouldRasterize layer whose cached bitmap had to be rendered again (Color Hits Green and
    /// Misses Red), with the reason.
    case rasterCacheMiss = "raster-cache.miss"
    /// Shape, text or gradient content rasterised on the CPU again (and uploaded) because what it
    /// draws changed since the previous frame (`RasterCPUAnalysis`).
    case rasterCPU = "raster.cpu"

    /// The finding for an offscreen pass recorded by the plan.
    public init(_ reason: OffscreenReason) {
        switch reason {
        case .mask: self = .offscreenMask
        case .roundedClip: self = .offscreenRoundedClip
        case .shadow: self = .offscreenShadow
        case .groupOpacity: self = .offscreenGroupOpacity
        case .rasterize: self = .offscreenRasterize
        case .transition: self = .offscreenTransition
        case .filter: self = .offscreenFilter
        case .backdrop: self = .offscreenBackdrop
        }
    }

    /// Declaration order (used to order a frame's observations).
    public static func < (a: FindingID, b: FindingID) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// What Instruments' Core Animation debug colours call it (for text reports).
    public var instrumentsName: String {
        switch self {
        case .blended: return "Color Blended Layers"
        case .misalignedSubpixel, .misalignedScaled: return "Color Misaligned Images"
        case .contentsLowScale: return "blurry contents"
        case .offscreenMask, .offscreenRoundedClip, .offscreenShadow, .offscreenGroupOpacity, .offscreenRasterize,
             .offscreenTransition, .offscreenFilter, .offscreenBackdrop:
            return "Color Offscreen-Rendered"
        case .shadowHidden: return "shadow never visible"
        case .rasterCacheMiss: return "Color Hits Green and Misses Red"
        case .rasterCPU: return "CPU rasterisation (Time Profiler)"
        case .unsupported: return "not drawn by caprof yet"
        }
    }
}

/// How much a finding matters, from what it costs (`Severity.init(canvasShare:)`).
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case low, medium, high

    /// Thresholds on the share of the canvas's pixels the finding costs in its worst frame:
    /// high from 25 % (a quarter of the screen blended, resampled or rendered twice is visible in
    /// the frame time on any device), medium from 2 % (a list cell or a navigation bar), low below
    /// (an icon, a thumbnail).
    public init(canvasShare s: Double) {
        self = s >= Severity.highShare ? .high : s >= Severity.mediumShare ? .medium : .low
    }
    public static let highShare = 0.25
    public static let mediumShare = 0.02

    public static func < (a: Severity, b: Severity) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
