import SystemSupport
import Profile

/// Numbers with units as every report format prints them: times in ms, pixels in px/kpx/Mpx,
/// bytes in B/KiB/MiB, shares in %.
public enum ReportUnits {
    public static func ms(_ ns: UInt64) -> String { ms(Double(ns)) }
    /// Milliseconds, or microseconds below 0.01 ms (so a 5 µs stage does not read "0.00 ms").
    public static func ms(_ ns: Double) -> String {
        let v = ns / 1e6
        if v < 0.01 { return String(cFormat: "%.1f µs", ns / 1e3) }
        return String(cFormat: v < 10 ? "%.2f ms" : v < 100 ? "%.1f ms" : "%.0f ms", v)
    }
    public static func pixels(_ v: Double) -> String {
        if v >= 1e6 { return String(cFormat: "%.2f Mpx", v / 1e6) }
        if v >= 1e4 { return String(cFormat: "%.1f kpx", v / 1e3) }
        return String(cFormat: "%.0f px", v)
    }
    public static func pixels(_ v: Int) -> String { pixels(Double(v)) }
    public static func bytes(_ b: Int) -> String {
        let v = Double(b)
        if v >= Double(1 << 20) { return String(cFormat: "%.1f MiB", v / Double(1 << 20)) }
        if v >= Double(1 << 10) { return String(cFormat: "%.1f KiB", v / Double(1 << 10)) }
        return "\(b) B"
    }
    /// 0.123 → "12 %"; below 10 % one decimal ("2.5 %").
    public static func percent(_ v: Double) -> String {
        v >= 0.1 || v == 0 ? String(cFormat: "%.0f %%", v * 100) : String(cFormat: "%.1f %%", v * 100)
    }
    public static func seconds(_ v: Double) -> String { Profile.fmtNumber((v * 1000).rounded() / 1000) + " s" }
    public static func number(_ v: Double) -> String { Profile.fmtNumber(v) }
    public static func times(_ v: Double) -> String { String(cFormat: "%.2f×", v) }

    /// A count with its noun, singular only for exactly 1: "1 draw item", "2 draw items",
    /// "1.5 offscreen passes".
    public static func count(_ v: Double, _ noun: String, plural: String? = nil) -> String {
        "\(number(v)) " + (v == 1 ? noun : (plural ?? noun + "s"))
    }
    public static func count(_ v: Int, _ noun: String, plural: String? = nil) -> String { count(Double(v), noun, plural: plural) }

    /// "390×844 pt @3× = 1170×2532 px".
    public static func canvas(_ c: ProfileReport.CanvasSummary) -> String {
        "\(number(c.width))×\(number(c.height)) pt @\(number(c.scale))× = \(c.pixelWidth)×\(c.pixelHeight) px"
    }

    /// "120 frames 0–119 at 60 fps" / "1 frame (t = 0 s)".
    public static func frames(_ r: ProfileReport) -> String {
        r.run.frameCount == 1
            ? "1 frame (t = \(seconds(r.frames.first?.time ?? 0)))"
            : "\(r.run.frameCount) frames \(r.run.firstFrame)–\(r.run.lastFrame) at \(number(r.run.fps)) fps"
    }

    /// The device, or "plan only (--no-gpu)".
    public static func device(_ r: ProfileReport) -> String {
        guard r.run.gpu else { return "plan only (--no-gpu)" }
        return (r.run.device ?? "GPU") + (r.run.softwareDevice ? ", software Vulkan on the CPU" : "")
    }

    /// What the device times are called: lavapipe's "GPU" time is CPU time, and a reader comparing
    /// it with a phone's must not take it for a GPU's.
    public static func gpuLabel(_ r: ProfileReport) -> String { r.run.softwareDevice ? "GPU (software, on the CPU)" : "GPU" }

    /// "4 offscreen passes (687.4 kpx), 792 px fewer shaded, 1530 px fewer blended": what a fix
    /// saves, its non-zero parts; a part the fix makes dearer is said as such.
    public static func saving(_ s: Saving) -> String {
        var parts: [String] = []
        if s.offscreenPasses != 0 || s.offscreenPixels != 0 {
            let n = abs(s.offscreenPasses)
            let passes = count(n, "offscreen pass", plural: "offscreen passes") + (s.offscreenPasses < 0 ? " more" : "")
            parts.append(passes + " (\(pixels(abs(s.offscreenPixels))))")
        }
        if s.shadedPixels != 0 { parts.append("\(pixels(abs(s.shadedPixels))) \(s.shadedPixels > 0 ? "fewer" : "more") shaded") }
        if s.blendedPixels != 0 { parts.append("\(pixels(abs(s.blendedPixels))) \(s.blendedPixels > 0 ? "fewer" : "more") blended") }
        return parts.isEmpty ? "nothing measurable" : parts.joined(separator: ", ")
    }

    /// The measured device time of a saving, labelled with what measured it: "; 3.2 ms of GPU
    /// time" / "; 3.2 ms of software Vulkan time (CPU)"; empty without one.
    public static func savingTime(_ s: Saving, _ r: ProfileReport) -> String {
        guard let t = s.gpuNanoseconds else { return "" }
        let what = r.run.softwareDevice ? "software Vulkan time (CPU) on \(r.run.device ?? "this device")" : "GPU time on \(r.run.device ?? "this device")"
        return t >= 0 ? "; \(ms(UInt64(t))) less \(what)" : "; \(ms(UInt64(-t))) more \(what)"
    }

    /// The findings whose fix saves the most work (`Saving.work`), most first: what to fix first.
    public static func fixFirst(_ r: ProfileReport, limit: Int = 5) -> [Finding] {
        let ranked = r.findings.enumerated().filter { $0.element.saving?.savesWork == true }
            .sorted { a, b in
                let x = a.element.saving!, y = b.element.saving!
                return x.work != y.work ? x.work > y.work : x.offscreenPasses != y.offscreenPasses ? x.offscreenPasses > y.offscreenPasses : a.offset < b.offset
            }
        // One entry per fix of the same layers (shouldRasterize off answers both a rasterize
        // finding and its cache misses).
        var seen = Set<String>()
        let distinct = ranked.map(\.element).filter { f in
            seen.insert(f.saving!.fix + "|" + (f.members ?? [f]).map { String($0.layer.id) }.joined(separator: ",")).inserted
        }
        return Array(distinct.prefix(limit))
    }

    /// Findings per severity, high first: "1 high, 2 medium".
    public static func severityCounts(_ r: ProfileReport) -> String {
        Severity.allCases.reversed().compactMap { s -> String? in
            let k = r.findings.filter { $0.severity == s }.count
            return k > 0 ? "\(k) \(s.rawValue)" : nil
        }.joined(separator: ", ")
    }

    /// The most severe finding raised at each frame, by frame index.
    public static func severityByFrame(_ r: ProfileReport) -> [Int: Severity] {
        var out: [Int: Severity] = [:]
        for f in r.findings {
            for run in f.frames {
                for i in run.first...run.last where out[i].map({ $0 < f.severity }) ?? true { out[i] = f.severity }
            }
        }
        return out
    }
}
