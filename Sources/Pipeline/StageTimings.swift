import SystemSupport
import Dispatch

/// Wall-clock time per pipeline stage, in nanoseconds (measured around each stage, never read
/// inside evaluation or planning, which stay deterministic). Stages accumulate over the frames a
/// `SceneRenderer` renders until `resetTimings()`.
public struct StageTimings: Sendable {
    public var load: UInt64 = 0
    /// Scene time → presentation tree (`PresentationTimeline.presentation(at:)`).
    public var evaluate: UInt64 = 0
    public var decodeImages: UInt64 = 0
    public var plan: UInt64 = 0
    /// Shapes rasterised on the CPU (cairo) for this frame's raster requests (`ContentRasterizer`).
    public var rasterize: UInt64 = 0
    public var render: UInt64 = 0
    /// PNG encoding of the frame (named "png" in messages; "record" is command recording).
    public var png: UInt64 = 0
    public init() {}

    public static func measure<T>(_ slot: inout UInt64, _ body: () throws -> T) rethrows -> T {
        let t0 = DispatchTime.now().uptimeNanoseconds
        defer { slot += DispatchTime.now().uptimeNanoseconds - t0 }
        return try body()
    }

    /// Every stage divided by `frames` (per-frame means of accumulated timings).
    public func averaged(over frames: Int) -> StageTimings {
        let n = UInt64(max(frames, 1))
        var t = StageTimings()
        t.load = load / n; t.evaluate = evaluate / n; t.decodeImages = decodeImages / n
        t.plan = plan / n; t.rasterize = rasterize / n; t.render = render / n; t.png = png / n
        return t
    }

    public var summary: String {
        func ms(_ ns: UInt64) -> String { String(cFormat: "%.1f ms", Double(ns) / 1e6) }
        return "load \(ms(load)), evaluate \(ms(evaluate)), images \(ms(decodeImages)), plan \(ms(plan)), raster \(ms(rasterize)), render \(ms(render)), png \(ms(png))"
    }
}
