/// What one frame cost, measured outside the profiler (it reads no clock and knows no backend):
/// the CLI fills it from its stage timings and the backend's `RenderStats`. Backend fields are nil
/// when the run drew nothing (`--no-gpu`).
public struct FrameCost: Sendable, Equatable, Codable {
    /// CPU: evaluating the presentation tree at the frame's time.
    public var evaluateNanoseconds: UInt64
    /// CPU: building the frame plan.
    public var planNanoseconds: UInt64
    /// CPU: the profiler's analyses of the frame (its own overhead).
    public var analyzeNanoseconds: UInt64
    /// CPU: shape, text and gradient-ramp content rasterised for the frame (cairo, Pango): nil when
    /// the run drew nothing. Core Animation pays it on the CPU too (`raster.cpu`).
    public var rasterNanoseconds: UInt64?
    /// CPU: texture uploads (new textures created, texels copied to the staging buffer).
    public var uploadNanoseconds: UInt64?
    /// CPU: draw records written and batched, the command buffer recorded (uploads excluded).
    /// Called "record" in every report, never "encode" (which `caprof render` uses for PNG encoding).
    public var recordNanoseconds: UInt64?
    /// Wall time of drawing the frame: encode, submit, wait for the device, read back.
    public var renderNanoseconds: UInt64?
    /// Device time of the frame's command buffer (timestamp queries); nil without timestamps.
    public var gpuNanoseconds: UInt64?
    /// Texel bytes uploaded for the frame (0 when every image was resident).
    public var uploadedBytes: Int?
    /// Bytes of textures resident after the frame.
    public var textureBytes: Int?
    /// Draw calls recorded.
    public var drawCalls: Int?
    /// Device time of each offscreen pass (timestamps around it), in the plan's pass order; nil
    /// when not every pass ran (a damaged frame, retained passes).
    public var passGPUNanoseconds: [UInt64]?
    /// Offscreen passes caprof did not render because their result was the previous frame's
    /// (`RetainedPasses`): its own shortcut; the findings still count them as a device renders them.
    public var retainedPasses: Int?
    /// Offscreen passes caprof redrew only where they changed, onto the previous frame's result
    /// (`PassDamage`): its own shortcut too.
    public var partialPasses: Int?
    /// caprof's compositing shortcuts, decided in the plan (`CanvasExecutionStats`); findings
    /// still describe every layer as a device draws it. Draw items not drawn because opaque
    /// content above hides them (occlusion culling).
    public var culledItems: Int?
    /// Draw items blended in registers in flattened regions (one draw per region).
    public var flattenedItems: Int?
    /// The plan's estimate of layer pixels not drawn beneath stacks of layers that hide them
    /// (stack culling: K translucent layers, or one opaque; each pixel within 1/255).
    public var stackCulledPixels: Int?

    /// The stages that make up "CPU per frame" in every report and the gate's `cpuMilliseconds`:
    /// what the frame costs the compositor on the CPU — evaluate, plan, raster, upload, record. The
    /// profiler's own analysis is reported apart (`analyze`): an app does not pay for it.
    public static let cpuStages = ["evaluate", "plan", "raster", "upload", "record"]

    /// The sum of `cpuStages` for this frame.
    public var cpuNanoseconds: UInt64 {
        evaluateNanoseconds + planNanoseconds + (rasterNanoseconds ?? 0) + (uploadNanoseconds ?? 0) + (recordNanoseconds ?? 0)
    }

    public init(evaluateNanoseconds: UInt64 = 0, planNanoseconds: UInt64 = 0, analyzeNanoseconds: UInt64 = 0,
                uploadNanoseconds: UInt64? = nil, recordNanoseconds: UInt64? = nil, renderNanoseconds: UInt64? = nil, gpuNanoseconds: UInt64? = nil,
                uploadedBytes: Int? = nil, textureBytes: Int? = nil, drawCalls: Int? = nil) {
        self.evaluateNanoseconds = evaluateNanoseconds; self.planNanoseconds = planNanoseconds
        self.analyzeNanoseconds = analyzeNanoseconds; self.recordNanoseconds = recordNanoseconds
        self.uploadNanoseconds = uploadNanoseconds
        self.renderNanoseconds = renderNanoseconds; self.gpuNanoseconds = gpuNanoseconds
        self.uploadedBytes = uploadedBytes; self.textureBytes = textureBytes; self.drawCalls = drawCalls
    }
}
