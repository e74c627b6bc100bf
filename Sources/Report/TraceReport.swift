import SystemSupport
import Profile

/// The Chrome Trace Event report (the JSON object format: `{"traceEvents": [...]}`), which opens in
/// ui.perfetto.dev and chrome://tracing.
///
/// - One process, "caprof" (pid 1), with a thread for the CPU stages (tid 1) and, when frames were
///   drawn, one for the GPU (tid 2), named by metadata events (`ph: "M"`).
/// - Per frame, a complete slice (`ph: "X"`) "frame N" on the CPU thread holding the stages in the
///   order the runner performs them, each as long as it was measured: evaluate, plan, analyze,
///   then render (encode nested at its start). The GPU slice (the command buffer's device time,
///   from timestamp queries) sits on the GPU thread after encoding, inside the render slice.
/// - The timeline is synthetic: frames are laid back to back from 0, each as long as its stages
///   (images decoding and report writing are not frames' work and are left out), so a frame's
///   slice shows what it cost, not when it ran, and gaps between frames do not exist.
/// - Counter events (`ph: "C"`) at each frame's start: shaded and blended pixels, overdraw,
///   offscreen passes, updated pixels (Flash Updated Regions), and when drawn, draw calls, uploaded
///   bytes and texture memory.
/// Timestamps and durations are microseconds, with nanosecond decimals.
public struct TraceReport: Sendable {
    public static let pid = 1
    public static let cpuThread = 1
    public static let gpuThread = 2

    public init() {}

    public func render(_ r: ProfileReport) -> String {
        var events: [String] = []
        let drawn = r.frames.contains { $0.cost.renderNanoseconds != nil || $0.cost.gpuNanoseconds != nil }
        events.append(meta("process_name", tid: Self.cpuThread, ["name": .string("caprof")]))
        events.append(meta("process_labels", tid: Self.cpuThread, ["labels": .string(r.scene.file)]))
        events.append(meta("thread_name", tid: Self.cpuThread, ["name": .string("CPU stages")]))
        events.append(meta("thread_sort_index", tid: Self.cpuThread, ["sort_index": .int(0)]))
        if drawn {
            events.append(meta("thread_name", tid: Self.gpuThread, ["name": .string("GPU (\(r.run.device ?? "Vulkan"))")]))
            events.append(meta("thread_sort_index", tid: Self.gpuThread, ["sort_index": .int(1)]))
        }
        var t: UInt64 = 0
        for f in r.frames {
            let c = f.cost
            let render = c.renderNanoseconds ?? 0
            let frameDur = c.evaluateNanoseconds + c.planNanoseconds + c.analyzeNanoseconds + render
            var args: [(String, Value)] = [("frame", .int(f.index)), ("time_s", .double(f.time))]
            if !f.findings.isEmpty { args.append(("findings", .string(f.findings.map(\.rawValue).joined(separator: ", ")))) }
            events.append(slice("frame \(f.index)", cat: "frame", tid: Self.cpuThread, ts: t, dur: frameDur, args))
            var s = t
            for (name, ns) in [("evaluate", c.evaluateNanoseconds), ("plan", c.planNanoseconds), ("analyze", c.analyzeNanoseconds)] {
                events.append(slice(name, cat: "stage", tid: Self.cpuThread, ts: s, dur: ns))
                s += ns
            }
            if let wall = c.renderNanoseconds {
                events.append(slice("render", cat: "stage", tid: Self.cpuThread, ts: s, dur: wall))
                let upload = min(c.uploadNanoseconds ?? 0, wall)
                if c.uploadNanoseconds != nil {
                    events.append(slice("upload", cat: "stage", tid: Self.cpuThread, ts: s, dur: upload))
                }
                let encode = min(c.recordNanoseconds ?? 0, wall - upload)
                if c.recordNanoseconds != nil {
                    events.append(slice("record", cat: "stage", tid: Self.cpuThread, ts: s + upload, dur: encode))
                }
                if let gpu = c.gpuNanoseconds {
                    let dur = min(gpu, wall)
                    let start = min(s + upload + encode, s + wall - dur)
                    events.append(slice("GPU", cat: "gpu", tid: Self.gpuThread, ts: start, dur: dur,
                                        [("frame", .int(f.index))]))
                    // One slice per offscreen pass, nested in the frame's GPU slice, in execution order.
                    var p = start
                    for (i, pass) in (f.passes ?? []).enumerated() {
                        guard let ns = pass.gpuNanoseconds else { continue }
                        let d = min(ns, start + dur - min(p, start + dur))
                        events.append(slice("\(pass.kind) \(pass.reasons.map(\.rawValue).joined(separator: "+"))", cat: "offscreen",
                                            tid: Self.gpuThread, ts: p, dur: d,
                                            [("pass", .int(i)), ("layer", .int(pass.layer)),
                                             ("target", .string("\(pass.width)×\(pass.height)")),
                                             ("inputs", .string(pass.inputs.map(String.init).joined(separator: ", ")))]))
                        p += d
                    }
                }
            }
            var counters: [(String, String, Value)] = [
                ("shaded", "pixels", .int(f.counters.shadedPixels)),
                ("blended", "pixels", .int(f.counters.blendedPixels)),
                ("edge-blended", "pixels", .int(f.counters.edgeBlendedPixels)),
                ("overdraw", "ratio", .double(f.counters.overdraw)),
                ("offscreen", "passes", .int(f.counters.offscreenPasses)),
            ]
            if let d = c.drawCalls { counters.append(("draw", "calls", .int(d))) }
            // caprof's own saving (no pass slice for them: they did not run).
            if let n = c.retainedPasses { counters.append(("offscreen passes taken from the previous frame", "passes", .int(n))) }
            if let n = c.partialPasses { counters.append(("offscreen passes redrawn in part", "passes", .int(n))) }
            if let n = c.culledItems { counters.append(("items culled under opaque layers", "items", .int(n))) }
            if let n = c.flattenedItems { counters.append(("items blended in flattened regions", "items", .int(n))) }
            if let n = c.stackCulledPixels { counters.append(("pixels culled beneath stacked layers (estimate)", "pixels", .int(n))) }
            if let u = f.counters.damagedPixels { counters.append(("updated (Flash Updated Regions)", "pixels", .int(u))) }
            if let u = c.uploadedBytes { counters.append(("uploaded", "bytes", .int(u))) }
            if let m = c.textureBytes { counters.append(("texture memory", "bytes", .int(m))) }
            for (name, key, v) in counters {
                events.append(object([("name", .string(name)), ("cat", .string("counters")), ("ph", .string("C")),
                                      ("ts", .micros(t)), ("pid", .int(Self.pid)), ("tid", .int(Self.cpuThread)),
                                      ("args", .object([(key, v)]))]))
            }
            t += max(frameDur, 1)
        }
        let other: [(String, Value)] = [
            ("tool", .string("\(r.tool.name) \(r.tool.version)")), ("scene", .string(r.scene.file)),
            ("canvas", .string(ReportUnits.canvas(r.scene.canvas))), ("device", .string(ReportUnits.device(r))),
            ("frames", .string(ReportUnits.frames(r))),
            ("timeline", .string("synthetic: frames back to back, each as long as its measured stages")),
        ]
        return "{\"displayTimeUnit\": \"ms\",\n\"otherData\": " + Value.object(other).json + ",\n\"traceEvents\": [\n"
            + events.joined(separator: ",\n") + "\n]}\n"
    }

    // MARK: - JSON

    indirect enum Value {
        case string(String), int(Int), double(Double), micros(UInt64), object([(String, Value)])
        var json: String {
            switch self {
            case .string(let s): return TraceReport.quote(s)
            case .int(let i): return String(i)
            case .double(let d): return d.isFinite ? String(cFormat: "%.6g", d) : "0"
            case .micros(let ns): return ns % 1000 == 0 ? String(ns / 1000) : String(cFormat: "%llu.%03llu", ns / 1000, ns % 1000)
            case .object(let kv): return "{" + kv.map { TraceReport.quote($0.0) + ": " + $0.1.json }.joined(separator: ", ") + "}"
            }
        }
    }

    func object(_ kv: [(String, Value)]) -> String { Value.object(kv).json }

    func meta(_ name: String, tid: Int, _ args: [String: Value]) -> String {
        object([("name", .string(name)), ("ph", .string("M")), ("ts", .int(0)), ("pid", .int(Self.pid)), ("tid", .int(tid)),
                ("args", .object(args.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))])
    }

    func slice(_ name: String, cat: String, tid: Int, ts: UInt64, dur: UInt64, _ args: [(String, Value)] = []) -> String {
        var kv: [(String, Value)] = [("name", .string(name)), ("cat", .string(cat)), ("ph", .string("X")), ("ts", .micros(ts)),
                                     ("dur", .micros(dur)), ("pid", .int(Self.pid)), ("tid", .int(tid))]
        if !args.isEmpty { kv.append(("args", .object(args))) }
        return object(kv)
    }

    static func quote(_ s: String) -> String { JSONString.quoted(s) }
}
