import Profile

/// What a budget rule can measure per scene. Deterministic metrics come from the frame plans (the
/// same on every machine, with or without a GPU); timing metrics are measured and noisy, so a rule
/// on them must say how to tame the noise (`Rule.runs`, a relative `maxIncrease`).
public enum Metric: String, Sendable, Codable, CaseIterable {
    /// The most offscreen passes Core Animation would render in one frame.
    case offscreenPasses
    /// The most device pixels of offscreen-pass targets in one frame.
    case offscreenPixels
    /// The most blended pixels of one frame: canvas pixels whose final colour involves blending,
    /// the red and orange of Color Blended Layers (`FrameCounters.blendedPixels`).
    case blendedPixels
    /// The most fragments shaded in one frame (every draw item's drawn pixels, overdraw included).
    case shadedPixels
    /// The highest overdraw of one frame, Android's: draws beyond the first per canvas pixel.
    case overdraw
    /// Layers raising `misaligned.subpixel` or `misaligned.scaled` (each layer counted once).
    case misalignedLayers
    /// shouldRasterize layers rendered again (raster-cache misses) over the whole run.
    case rasterCacheMisses
    /// Findings in the report (one per finding id and layer).
    case findings
    /// Findings (id and layer) raised now that the baseline does not have; needs a baseline.
    case newFindings
    /// CPU milliseconds per frame (`FrameCost.cpuStages`: evaluate + plan + raster, + upload + record when
    /// drawn; the start-up apart, as in every report): the mean over the frames of one run, the
    /// median over `runs` runs. Timing: needs a noise rule.
    case cpuMilliseconds
    /// GPU milliseconds per frame (timestamp queries around the frame's command buffer): the mean
    /// over the frames of one run, the median over `runs` runs. Timing: needs a noise rule and a GPU.
    case gpuMilliseconds
    /// Flash Updated Regions: the most device pixels updated in one frame after the first (what
    /// changed since the previous frame, `FrameCounters.damagedPixels`; the first frame, wholly
    /// new, is not counted). A scene at rest: 0. Deterministic, but only checked when a rule names
    /// it (baselines recorded before it existed do not have it).
    case damagedPixels

    /// Measured with a clock: noisy, never in the default budget.
    public var isTiming: Bool { self == .cpuMilliseconds || self == .gpuMilliseconds }
    /// Needs frames drawn on a Vulkan device.
    public var needsGPU: Bool { self == .gpuMilliseconds }
    /// The deterministic metrics the default budget guards.
    public static let deterministic: [Metric] = allCases.filter { !$0.isTiming && $0 != .damagedPixels }

    /// The findings whose layers explain a change of this metric (for the layer diff's culprits and
    /// for annotations); nil: any finding.
    public var explainingFindings: Set<String>? {
        switch self {
        case .offscreenPasses, .offscreenPixels:
            // A hidden shadow without shadowPath is reported by its passes as shadow.hidden.
            return Set(FindingID.allCases.map(\.rawValue).filter { $0.hasPrefix("offscreen.") }).union(["offscreen.rasterize", "shadow.hidden"])
        case .blendedPixels: return ["blended"]
        case .misalignedLayers: return ["misaligned.subpixel", "misaligned.scaled"]
        case .rasterCacheMisses: return ["raster-cache.miss"]
        default: return nil
        }
    }

    /// The value with its unit, as reports print it.
    public func format(_ v: Double) -> String {
        switch self {
        case .offscreenPixels, .blendedPixels, .shadedPixels, .damagedPixels: return GateFormat.pixels(v)
        case .overdraw: return GateFormat.number(v, digits: 3) + "×"
        case .cpuMilliseconds, .gpuMilliseconds: return GateFormat.number(v, digits: 3) + " ms"
        default: return GateFormat.number(v, digits: 0)
        }
    }
}

/// Finding ids a rule may name: the ids the profiler raises today, plus those scene-format.md
/// reserves for analyses still to come (a budget written for them counts 0 until they exist).
public enum KnownFindings {
    public static let reserved: [String] = []
    public static var all: [String] { FindingID.allCases.map(\.rawValue) + reserved }
}
