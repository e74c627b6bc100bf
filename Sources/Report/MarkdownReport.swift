import Profile
import SystemSupport

/// The Markdown report, for CI step summaries (`$GITHUB_STEP_SUMMARY`): a summary line, the
/// findings as a table (most important first), then the per-frame totals. GitHub-flavoured
/// Markdown only: tables, emphasis, code spans, no HTML.
public struct MarkdownReport: Sendable {
    /// Rows in the table; the rest are counted under it (a step summary is capped at 1 MiB).
    public var maxFindings: Int

    public init(maxFindings: Int = 100) { self.maxFindings = maxFindings }

    public func render(_ r: ProfileReport) -> String {
        var out: [String] = []
        let verdict = r.findings.isEmpty
            ? "no findings"
            : "\(r.findings.count) finding\(r.findings.count == 1 ? "" : "s") (\(ReportUnits.severityCounts(r)))"
        out.append("### caprof: \(code(r.scene.file)) — \(verdict)")
        out.append("")
        out.append("\(ReportUnits.canvas(r.scene.canvas)) · \(ReportUnits.frames(r)) · \(escape(ReportUnits.device(r)))")
        out.append("")
        if r.findings.isEmpty {
            out.append("Nothing blended, misaligned, resampled, low-scale or rendered offscreen.")
        } else {
            let first = ReportUnits.fixFirst(r)
            if !first.isEmpty {
                out.append("**Fix first** (each fix applied to its worst frame, planned again: what it saves there):")
                out.append("")
                for (k, f) in first.enumerated() {
                    out.append("\(k + 1). \(code(f.id.rawValue)) **\(escape(f.layersDescription))**: \(escape(f.saving!.fix)) saves \(escape(ReportUnits.saving(f.saving!))) (frame \(f.saving!.frame))")
                }
                out.append("")
            }
            out.append("| severity | finding | layer | frames | cost (worst frame) | why · fix |")
            out.append("|---|---|---|---|---|---|")
            for f in r.findings.prefix(maxFindings) { out.append(row(f, frames: r.run.frameCount, report: r)) }
            if r.findings.count > maxFindings {
                out.append("")
                out.append("… \(r.findings.count - maxFindings) more; the JSON report (`--format json`) lists every finding.")
            }
        }
        out.append("")
        out.append(totals(r))
        if !r.warnings.isEmpty {
            out.append("")
            let fonts = r.warnings.filter(\.isFontSubstitution).count
            let head = fonts == r.warnings.count ? "\(fonts) font\(fonts == 1 ? "" : "s") drawn with an installed stand-in"
                : "\(r.warnings.count) warning\(r.warnings.count == 1 ? "" : "s") (what caprof does not draw or evaluate yet\(fonts > 0 ? ", fonts drawn with a stand-in" : ""))"
            out.append(head + ": "
                       + r.warnings.prefix(5).map { w in
                           escape(w.message) + (w.location.map { " (\(code("\($0.file):\($0.line)")))" } ?? "")
                       }.joined(separator: "; ") + (r.warnings.count > 5 ? "; …" : "") + ".")
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// One table row of a finding.
    func row(_ f: Finding, frames total: Int, report r: ProfileReport? = nil) -> String {
        let sev: String
        switch f.severity {
        case .high: sev = "🔴 high"
        case .medium: sev = "🟠 medium"
        case .low: sev = "⚪ low"
        }
        var layer = "**\(escape(f.layersDescription))**"
        if let l = f.layer.location { layer += " " + code("\(l.file):\(l.line)") }
        var frames = total == 1 ? "–" : f.frames.map(\.description).joined(separator: ", ")
        if f.phase == .midAnimation { frames += " (mid-animation)" }
        let cost = f.pixelsAreOffscreenTexels
            ? "\(ReportUnits.pixels(f.maxPixels)) offscreen (covers \(ReportUnits.percent(f.canvasShare)))"
            : "\(ReportUnits.pixels(f.maxPixels)) (\(ReportUnits.percent(f.canvasShare)))"
        let cells = [sev, code(f.id.rawValue), layer, frames, cost, escape(f.explanation) + ". **Fix:** " + escape(f.fix)
                     + (f.saving.map { s in ". **Saves:** " + escape(ReportUnits.saving(s) + (r.map { ReportUnits.savingTime(s, $0) } ?? "")) + " in frame \(s.frame)" } ?? "")]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    func totals(_ r: ProfileReport) -> String {
        let t = r.totals
        let canvasPixels = Double(max(r.scene.canvas.pixelWidth * r.scene.canvas.pixelHeight, 1))
        var parts: [String] = []
        if let g = t.stages["gpu"] { parts.append("\(ReportUnits.gpuLabel(r)) \(ReportUnits.ms(g.meanNanoseconds))") }
        let cpu = FrameCost.cpuStages.compactMap { s in t.stages[s].map { "\(s) \(ReportUnits.ms($0.meanNanoseconds))" } }
        parts.append("CPU \(ReportUnits.ms(t.meanCPUNanoseconds)) (" + cpu.joined(separator: ", ") + ")")
        if let a = t.stages["analyze"] { parts.append("profiler \(ReportUnits.ms(a.meanNanoseconds))") }
        parts.append("blended \(ReportUnits.pixels(t.meanBlendedPixels)) (\(ReportUnits.percent(t.meanBlendedPixels / canvasPixels)) of the screen"
                     + (t.meanEdgeBlendedPixels > 0 ? ", \(ReportUnits.pixels(t.meanEdgeBlendedPixels)) edges only)" : ")"))
        parts.append("overdraw \(ReportUnits.times(t.meanOverdraw)) (max \(t.maxOverdraw)×)")
        parts.append("\(ReportUnits.pixels(t.meanShadedPixels)) shaded")
        if t.offscreenPasses > 0 {
            parts.append(ReportUnits.count((Double(t.offscreenPasses) / Double(max(t.frames, 1)) * 10).rounded() / 10, "offscreen pass", plural: "offscreen passes"))
        }
        if let d = t.meanDrawCalls { parts.append(ReportUnits.count((d * 10).rounded() / 10, "draw call")) }
        if let u = t.uploadedBytes { parts.append("\(ReportUnits.bytes(u)) uploaded in all") }
        if let p = t.peakTextureBytes { parts.append("\(ReportUnits.bytes(p)) textures at peak") }
        if let s = t.peakTextureSharing, s.savedBytes > 0 { parts.append("\(ReportUnits.bytes(s.savedBytes)) saved by sharing \(s.textures) textures among \(s.layers) layers") }
        if let u = UpdatedRegionsSummary.line(r) { parts.append("Flash Updated Regions: " + u) }
        if let s = ShortcutsSummary.line(t) { parts.append("caprof's shortcuts: " + s) }
        var line = "**Per frame** (mean): " + parts.joined(separator: " · ")
        if let w = t.worstFrame, r.run.frameCount > 1 { line += " · worst frame \(w)" }
        return line
    }

    /// Text safe in a table cell: Markdown's inline syntax and the cell separator escaped, lines joined.
    func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\n", "\r": out.append(" ")
            case "|", "*", "_", "`", "[", "]", "<", ">", "#", "\\", "~": out.append("\\"); out.append(ch)
            default: out.append(ch)
            }
        }
        return out
    }

    /// A code span (backticks in the text widen the fence; pipes are escaped for tables).
    func code(_ s: String) -> String {
        let t = s.replacingEvery("|", with: "\\|").replacingEvery("\n", with: " ")
        return t.contains("`") ? "`` \(t) ``" : "`\(t)`"
    }
}
