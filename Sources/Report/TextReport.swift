import SystemSupport
import Profile

/// The terminal summary: what the run was, what a frame costs, then the worst findings with
/// layer, place, frames, pixels, why and the fix. ANSI colours only when `colors` is true (the
/// caller decides: a terminal, and NO_COLOR unset).
public struct TextReport: Sendable {
    public var colors: Bool
    /// Findings listed in full; the rest are counted.
    public var maxFindings: Int

    public init(colors: Bool, maxFindings: Int = 8) { self.colors = colors; self.maxFindings = maxFindings }

    public func render(_ r: ProfileReport) -> String {
        var out: [String] = []
        let c = r.scene.canvas
        let frames = r.run.frameCount == 1
            ? "1 frame (t = \(seconds(r.frames.first?.time ?? 0)))"
            : "\(r.run.frameCount) frames \(r.run.firstFrame)–\(r.run.lastFrame) at \(Profile.fmtNumber(r.run.fps)) fps"
        let where_ = ReportUnits.device(r)
        out.append(bold(r.scene.file) + dim("  \(n(c.width))×\(n(c.height)) pt @\(n(c.scale))× = \(c.pixelWidth)×\(c.pixelHeight) px · \(frames) · \(where_)"))

        let t = r.totals
        let canvasPixels = Double(c.pixelWidth * c.pixelHeight)
        // The figures of Profile's README ("Figures"): blended is a share of the screen (≤ 100 %),
        // shaded is a count of fragments, overdraw is Android's (draws beyond the first).
        var blended = "blended \(pixels(t.meanBlendedPixels)) (\(percent(t.meanBlendedPixels / max(canvasPixels, 1))) of the screen"
        if t.meanEdgeBlendedPixels > 0 { blended += ", \(pixels(t.meanEdgeBlendedPixels)) of it edges only" }
        blended += ")"
        var frame = [ReportUnits.count(meanItemCount(r), "draw item"), blended,
                     "overdraw \(String(cFormat: "%.2f", t.meanOverdraw))× (max \(t.maxOverdraw)×)",
                     "\(pixels(t.meanShadedPixels)) shaded"]
        if t.offscreenPasses > 0 {
            let perFrame = Double(t.offscreenPasses) / Double(max(t.frames, 1))
            frame.append("\(ReportUnits.count((perFrame * 10).rounded() / 10, "offscreen pass", plural: "offscreen passes")) (\(pixels(Double(t.offscreenPixels) / Double(max(t.frames, 1)))))")
        }
        out.append(label(r.run.frameCount > 1 ? "mean/frame" : "per frame") + frame.joined(separator: dim(" · ")))

        var cost: [String] = []
        if let g = t.stages["gpu"] { cost.append("\(ReportUnits.gpuLabel(r)) \(ms(g.meanNanoseconds))") }
        let parts = FrameCost.cpuStages.compactMap { s in t.stages[s].map { "\(s) \(ms($0.meanNanoseconds))" } }
        cost.append("CPU \(ms(t.meanCPUNanoseconds)) (" + parts.joined(separator: " + ") + ")")
        if let a = t.stages["analyze"] { cost.append(dim("profiler \(ms(a.meanNanoseconds))")) }
        if let d = t.meanDrawCalls { cost.append(ReportUnits.count((d * 10).rounded() / 10, "draw call")) }
        if let u = t.uploadedBytes { cost.append("\(bytes(u)) uploaded") }
        if let p = t.peakTextureBytes { cost.append("\(bytes(p)) textures") }
        if let s = t.peakTextureSharing, s.savedBytes > 0 {
            cost.append(dim("sharing \(s.textures) texture\(s.textures == 1 ? "" : "s") among \(s.layers) layers saves \(bytes(s.savedBytes))"))
        }
        out.append(label("cost/frame") + cost.joined(separator: dim(" · ")))
        if let s = ShortcutsSummary.line(t) {
            out.append(label("shortcuts") + s + dim(" (caprof's own, in the mean frame; the findings describe every layer as a device draws it)"))
        }
        if let u = UpdatedRegionsSummary.line(r) {
            out.append(label("updates") + u + dim(" (Flash Updated Regions; a reused frame's pixels, GPU time and analysis are the previous frame's)"))
        }
        if let s = r.startup {
            out.append(label("start-up") + "\(ms(s.wallNanoseconds)) once" + dim(" (first frame's pipelines, shaders, \(bytes(s.uploadedBytes)) of first uploads; not in the per-frame costs)"))
        }
        out.append("")

        if r.findings.isEmpty {
            // "Nothing blended" would be wrong: shadows and antialiased edges blend (the blended pixels
            // above) without anything to fix.
            out.append(green("No findings") + ": nothing to fix (blended layers, misaligned or resampled images, low-scale contents, offscreen passes, CPU rasterisation).")
        } else {
            let counts = Severity.allCases.reversed().compactMap { s -> String? in
                let k = t.findingsBySeverity[s.rawValue] ?? 0
                return k > 0 ? "\(k) \(s.rawValue)" : nil
            }
            out.append(bold("\(r.findings.count) finding\(r.findings.count == 1 ? "" : "s")") + ": " + counts.joined(separator: ", "))
            let first = ReportUnits.fixFirst(r)
            if !first.isEmpty {
                out.append("")
                out.append(bold("Fix first") + dim(" (each fix applied to its worst frame, planned again: what it saves there)"))
                for (k, f) in first.enumerated() {
                    let s = f.saving!
                    out.append("  \(k + 1). \(bold(f.id.rawValue))  \(f.layersDescription)" + dim(" — \(s.fix): ") + ReportUnits.saving(s)
                               + dim(" (frame \(s.frame))"))
                }
            }
            for f in r.findings.prefix(maxFindings) {
                out.append("")
                out.append(contentsOf: finding(f, frames: r.run.frameCount, gpuLabel: ReportUnits.gpuLabel(r),
                                           savingTime: { ReportUnits.savingTime($0, r) }))
            }
            let rest = r.findings.count - maxFindings
            if rest > 0 { out.append(""); out.append(dim("… \(rest) more; --format json lists every finding")) }
        }
        if !r.warnings.isEmpty {
            out.append("")
            let fonts = r.warnings.filter(\.isFontSubstitution).count, undrawn = r.warnings.count - fonts
            var parts: [String] = []
            if undrawn > 0 { parts.append("\(undrawn) thing\(undrawn == 1 ? "" : "s") in the scene not drawn or evaluated yet") }
            if fonts > 0 { parts.append("\(fonts) font\(fonts == 1 ? "" : "s") drawn with an installed stand-in") }
            out.append(yellow(parts.joined(separator: "; ")) + dim(" (warnings above; JSON \"warnings\")"))
        }
        return out.joined(separator: "\n") + "\n"
    }

    func finding(_ f: Finding, frames total: Int, gpuLabel: String = "GPU", savingTime: (Saving) -> String = { _ in "" }) -> [String] {
        let sev = f.severity.rawValue.uppercased().paddedTo(6)
        let sevText: String
        switch f.severity {
        case .high: sevText = paint(sev, "1;31")
        case .medium: sevText = paint(sev, "33")
        case .low: sevText = paint(sev, "36")
        }
        var head = "\(sevText) \(bold(f.id.rawValue))  \(f.layersDescription)"
        if let l = f.layer.location { head += dim("  \(l.file):\(l.line)") }
        let when = total == 1 ? "" : "  \(f.framesDescription)" + (f.phase == .midAnimation ? ", mid-animation only" : "")
        head += when
        let share = percent(f.canvasShare)
        var costLine = f.pixelsAreOffscreenTexels
            ? "\(pixels(Double(f.maxPixels))) rendered offscreen (the result covers \(share) of the screen)"
            : "\(pixels(Double(f.maxPixels))) (\(share) of the screen)"
        if let m = f.members {
            costLine += " for its \(m.count) layers together, each in its worst frame"
            if f.frameCount > 1 { costLine += "; \(pixels(Double(f.totalPixels))) over \(f.frameCount) frames" }
        } else if f.frameCount > 1 {
            costLine += " in the worst frame (\(f.worstFrame)), \(pixels(Double(f.totalPixels))) over \(f.frameCount) frames"
        }
        if let g = f.maxGPUNanoseconds { costLine += "; \(gpuLabel) \(ReportUnits.ms(g)) in its costliest frame" }
        if let c = f.maxCPUNanoseconds, let total = f.cpuNanoseconds {
            costLine += "; CPU \(ReportUnits.ms(c)) in its costliest frame, \(ReportUnits.ms(total)) in all"
        }
        var lines = [head, "       " + dim(costLine), "       " + f.explanation, "       " + green("fix: ") + f.fix]
        if let s = f.saving { lines.append("       " + green("saves: ") + ReportUnits.saving(s) + savingTime(s) + dim(" in frame \(s.frame) (measured with \(s.fix))")) }
        return lines
    }

    // MARK: - Numbers

    func meanItemCount(_ r: ProfileReport) -> Double {
        guard !r.frames.isEmpty else { return 0 }
        let m = Double(r.frames.reduce(0) { $0 + $1.counters.items }) / Double(r.frames.count)
        return (m * 10).rounded() / 10
    }
    // The report formats share one set of units (ReportUnits).
    func n(_ v: Double) -> String { ReportUnits.number(v) }
    func seconds(_ v: Double) -> String { ReportUnits.seconds(v) }
    func ms(_ ns: UInt64) -> String { ReportUnits.ms(ns) }
    func percent(_ v: Double) -> String { ReportUnits.percent(v) }
    func pixels(_ v: Double) -> String { ReportUnits.pixels(v) }
    func bytes(_ b: Int) -> String { ReportUnits.bytes(b) }

    // MARK: - Colours

    func paint(_ s: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { paint(s, "1") }
    func dim(_ s: String) -> String { paint(s, "2") }
    func green(_ s: String) -> String { paint(s, "32") }
    func yellow(_ s: String) -> String { paint(s, "33") }
    func label(_ s: String) -> String { dim(s.paddedTo(12)) }
}
