import Plan

/// A profile of a scene's timeline: the value every report format is written from. Versioned
/// (`caprofReport`); fields are added, never renamed, and the JSON Schema in `Report` documents it.
public struct ProfileReport: Sendable, Equatable, Codable {
    public static let currentVersion = 2

    /// The report format's version. 2: blended pixels are distinct canvas pixels (≤ the canvas),
    /// overdraw counts draws beyond the first, edge-blended and drawn pixels were added.
    public var caprofReport: Int
    public var tool: Tool
    public var scene: SceneSummary
    public var run: RunSummary
    /// One record per frame profiled, in order.
    public var frames: [FrameRecord]
    /// Most important first (severity, then pixels).
    public var findings: [Finding]
    public var totals: Totals
    /// What the scene uses that caprof does not draw or evaluate yet, with places.
    public var warnings: [Warning]
    /// The one-time work of the first frame drawn (nil when nothing was drawn), kept out of every
    /// per-frame cost.
    public var startup: StartupCost?
    /// Per layer that draws, the most it shaded and blended in one frame, by layer name
    /// (`LayerPixels`): what lets the gate blame the layer whose cost changed, finding or not.
    /// Absent in reports written before it was added.
    public var layerPixels: [LayerPixels]?

    public init(tool: Tool, scene: SceneSummary, run: RunSummary, frames: [FrameRecord], findings: [Finding],
                totals: Totals, warnings: [Warning]) {
        caprofReport = Self.currentVersion
        self.tool = tool; self.scene = scene; self.run = run; self.frames = frames; self.findings = findings
        self.totals = totals; self.warnings = warnings
    }

    /// The first frame's one-time work: pipeline creation, shader compilation, first texture
    /// uploads. Measured by drawing the first frame once before the profiled frames (which then
    /// find pipelines built and textures resident, as every later frame of an app does).
    public struct StartupCost: Sendable, Equatable, Codable {
        /// Wall time of that first draw (CPU and device, read back included).
        public var wallNanoseconds: UInt64
        /// Its texture uploads, and the bytes uploaded.
        public var uploadNanoseconds: UInt64
        public var uploadedBytes: Int
        /// Its command recording (pipelines created on first use included).
        public var recordNanoseconds: UInt64
        public init(wallNanoseconds: UInt64, uploadNanoseconds: UInt64, uploadedBytes: Int, recordNanoseconds: UInt64) {
            self.wallNanoseconds = wallNanoseconds; self.uploadNanoseconds = uploadNanoseconds
            self.uploadedBytes = uploadedBytes; self.recordNanoseconds = recordNanoseconds
        }
    }

    public struct Tool: Sendable, Equatable, Codable {
        public var name: String
        public var version: String
        public init(name: String = "caprof", version: String) { self.name = name; self.version = version }
    }

    public struct SceneSummary: Sendable, Equatable, Codable {
        /// The scene file as given on the command line.
        public var file: String
        public var canvas: CanvasSummary
        /// Layers in the model tree.
        public var layers: Int
        /// The timeline's span in seconds (scene-format.md `timeline.duration`).
        public var duration: Double
        public var fps: Double
        public init(file: String, canvas: CanvasSummary, layers: Int, duration: Double, fps: Double) {
            self.file = file; self.canvas = canvas; self.layers = layers; self.duration = duration; self.fps = fps
        }
    }

    public struct CanvasSummary: Sendable, Equatable, Codable {
        public var width: Double, height: Double, scale: Double
        public var pixelWidth: Int, pixelHeight: Int
        public init(width: Double, height: Double, scale: Double, pixelWidth: Int, pixelHeight: Int) {
            self.width = width; self.height = height; self.scale = scale; self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
        }
    }

    public struct RunSummary: Sendable, Equatable, Codable {
        /// Whether frames were drawn on a Vulkan device (false: plan-only, `--no-gpu`).
        public var gpu: Bool
        /// The device's name when drawn.
        public var device: String?
        /// What kind of device drew ("discrete GPU", "integrated GPU", "virtual GPU", "CPU",
        /// "other"): "CPU" is software Vulkan (lavapipe), whose "GPU" times are CPU time.
        public var deviceKind: String?
        /// Frames per second the timeline was sampled at; frame i is at i / fps seconds.
        public var fps: Double
        public var frameCount: Int
        public var firstFrame: Int
        public var lastFrame: Int
        public init(gpu: Bool, device: String?, deviceKind: String? = nil, fps: Double, frameCount: Int, firstFrame: Int, lastFrame: Int) {
            self.gpu = gpu; self.device = device; self.deviceKind = deviceKind; self.fps = fps; self.frameCount = frameCount
            self.firstFrame = firstFrame; self.lastFrame = lastFrame
        }
        /// Drawn by software Vulkan on the CPU: its "GPU" times are the CPU's.
        public var softwareDevice: Bool { gpu && deviceKind == "CPU" }
    }

    public struct FrameRecord: Sendable, Equatable, Codable {
        public var index: Int
        /// Scene time in seconds.
        public var time: Double
        public var counters: FrameCounters
        public var cost: FrameCost
        /// The ids raised in this frame (sorted, unique): what the frame strip marks.
        public var findings: [FindingID]
        /// The frame's offscreen passes (the render graph), when it has any.
        public var passes: [PassSummary]?
        /// How the frame was drawn (`FrameCacheUse`): whole, only its damage, or reused (nothing
        /// changed: not drawn again, its pixels and GPU timings are the previous frame's). Without
        /// a GPU, what the frame cache would do.
        public var frameCache: FrameCacheUse?
        /// The damaged rectangles (device pixels, disjoint; Flash Updated Regions), when the frame
        /// has damage and is not wholly damaged.
        public var damage: [PixelRect]?
        /// The frame's plan and layers were the previous frame's, so its analysis was reused
        /// rather than recomputed (same counters and findings).
        public var analysisReused: Bool?
        public init(index: Int, time: Double, counters: FrameCounters, cost: FrameCost, findings: [FindingID]) {
            self.index = index; self.time = time; self.counters = counters; self.cost = cost; self.findings = findings
        }
    }

    public struct Warning: Sendable, Equatable, Codable {
        public var message: String
        public var location: FileLocation?
        public init(message: String, location: FileLocation?) { self.message = message; self.location = location }
        /// A font drawn with an installed stand-in (the plan's substitution warning): drawn, so
        /// not among what caprof does not draw yet.
        public var isFontSubstitution: Bool { FontMapping.isSubstitutionWarning(message) }
    }

    public struct Totals: Sendable, Equatable, Codable {
        public var frames: Int
        public var findings: Int
        public var findingsBySeverity: [String: Int]
        /// The frame shading the most pixels (`ProfileReport.worstFrame(in:)`: ties go to the most
        /// blended pixels, then the earliest frame).
        public var worstFrame: Int?
        /// Means over the frames of the `FrameCounters` of the same names (defined in Profile's README).
        public var meanShadedPixels: Double
        public var meanBlendedPixels: Double
        public var meanEdgeBlendedPixels: Double
        public var meanDrawnPixels: Double
        public var meanOverdraw: Double
        /// The most draws beyond the first on one pixel, over all frames.
        public var maxOverdraw: Int
        /// Offscreen passes and their target pixels, over all frames.
        public var offscreenPasses: Int
        public var offscreenPixels: Int
        /// Per stage over the frames (only stages that were measured).
        public var stages: [String: StageStats]
        /// Mean over the frames of `FrameCost.cpuNanoseconds` (the "CPU per frame" of every report).
        public var meanCPUNanoseconds: UInt64
        public var uploadedBytes: Int?
        public var peakTextureBytes: Int?
        public var meanDrawCalls: Double?
        /// The frame whose texture sharing saves the most memory (`TextureSharing`); nil when
        /// no frame samples an image.
        public var peakTextureSharing: TextureSharing?
        /// Mean of `FrameCounters.damagedPixels` (Flash Updated Regions), when measured.
        public var meanDamagedPixels: Double?
        /// Frames not drawn again because nothing changed (`FrameCacheUse.reused`), when known.
        public var reusedFrames: Int?
        /// Mean of `FrameCost.retainedPasses` (offscreen passes per frame not rendered again by
        /// caprof: their results were the previous frame's), when frames were drawn.
        public var meanRetainedPasses: Double?
        /// Mean of `FrameCost.partialPasses` (offscreen passes per frame caprof redrew only where
        /// they changed), when frames were drawn.
        public var meanPartialPasses: Double?
        /// Means of caprof's compositing shortcuts (`FrameCost.culledItems`, `flattenedItems`,
        /// `stackCulledPixels`), when frames were drawn.
        public var meanCulledItems: Double?
        public var meanFlattenedItems: Double?
        public var meanStackCulledPixels: Double?
    }

    public struct StageStats: Sendable, Equatable, Codable {
        public var totalNanoseconds: UInt64
        public var meanNanoseconds: UInt64
        public var maxNanoseconds: UInt64
        public init(_ values: [UInt64]) {
            totalNanoseconds = values.reduce(0, +)
            meanNanoseconds = values.isEmpty ? 0 : totalNanoseconds / UInt64(values.count)
            maxNanoseconds = values.max() ?? 0
        }
    }
}
