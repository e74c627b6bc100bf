import SystemSupport
import Profile

/// A catalog on the terminal: each scene's `TextReport` block in catalog order, then one totals
/// line over the catalog (or the shard).
public struct CatalogTextReport: Sendable {
    public var colors: Bool
    public var maxFindings: Int

    public init(colors: Bool, maxFindings: Int = 8) { self.colors = colors; self.maxFindings = maxFindings }

    public func render(_ c: CatalogReport) -> String {
        let scene = TextReport(colors: colors, maxFindings: maxFindings)
        var out = ""
        for entry in c.entries {
            switch entry {
            case .scene(let r): out += scene.render(r) + "\n"
            case .error(let e): out += errorBlock(e)
            }
        }
        return out + totalsLine(c) + "\n"
    }

    func errorBlock(_ e: CatalogReport.SceneError) -> String {
        let head = colors ? "\u{1B}[1m\(e.file)\u{1B}[0m" : e.file
        let mark = colors ? "\u{1B}[1;31mnot profiled\u{1B}[0m" : "not profiled"
        return "\(head)  \(mark)\n\(e.message)\n\n"
    }

    /// "catalog: 3 scenes · 5 frames · 7 findings (1 high, 2 medium, 4 low) · …".
    public func totalsLine(_ c: CatalogReport) -> String {
        let t = c.totals
        var head = "catalog"
        if let s = c.shard { head += " shard \(s.index)/\(s.count) (\(t.scenes) of \(s.catalogScenes) scenes)" }
        var parts = ["\(t.scenes) scene\(t.scenes == 1 ? "" : "s")", "\(t.frames) frame\(t.frames == 1 ? "" : "s")"]
        let sev = CatalogMarkdownReport.severities(t)
        parts.append("\(t.findings) finding\(t.findings == 1 ? "" : "s")" + (sev.isEmpty ? "" : " (\(sev))"))
        parts.append("\(t.offscreenPasses) offscreen pass\(t.offscreenPasses == 1 ? "" : "es")")
        parts.append("blended \(ReportUnits.pixels(t.blendedPixels)) of \(ReportUnits.pixels(t.shadedPixels)) shaded (all frames)")
        var cost = "CPU \(ReportUnits.ms(t.cpuNanoseconds))"
        if let g = t.stageNanoseconds["gpu"] { cost += ", \(t.gpuLabel) \(ReportUnits.ms(g))" }
        parts.append(cost + " in all")
        if t.warnings > 0 { parts.append("\(t.warnings) warning\(t.warnings == 1 ? "" : "s")") }
        if let e = c.errors, !e.isEmpty { parts.append("\(e.count) scene\(e.count == 1 ? "" : "s") not profiled (errors)") }
        let dot = colors ? "\u{1B}[2m · \u{1B}[0m" : " · "
        let label = colors ? "\u{1B}[1m\(head)\u{1B}[0m" : head
        return label + ": " + parts.joined(separator: dot)
    }
}

/// A catalog as Markdown for CI step summaries: one table row per scene and a totals row.
public struct CatalogMarkdownReport: Sendable {
    /// Rows in the table; the rest are summed in the totals row all the same.
    public var maxScenes: Int

    public init(maxScenes: Int = 500) { self.maxScenes = maxScenes }

    public func render(_ c: CatalogReport) -> String {
        let md = MarkdownReport()
        let t = c.totals
        var out: [String] = []
        var title = "### caprof catalog: \(t.scenes) scene\(t.scenes == 1 ? "" : "s")"
        if let s = c.shard { title += " (shard \(s.index)/\(s.count) of \(s.catalogScenes))" }
        if let e = c.errors, !e.isEmpty { title += ", \(e.count) not profiled (errors)" }
        let sev = Self.severities(t)
        title += " — " + (t.findings == 0 ? "no findings" : "\(t.findings) finding\(t.findings == 1 ? "" : "s") (\(sev))")
        out.append(title)
        out.append("")
        let gpu = t.gpuScenes > 0
        out.append("| scene | frames | findings | high | medium | low | offscreen passes | blended px (all frames) | shaded px (all frames) | CPU ms\(gpu ? " | \(t.gpuLabel) ms" : "") |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:\(gpu ? "|---:" : "")|")
        for entry in c.entries.prefix(maxScenes) {
            switch entry {
            case .scene(let r): out.append(row(md.code(r.scene.file), CatalogTotals([r]), gpu: gpu))
            case .error(let e):
                let message = e.message.replacingEvery("|", with: "\\|").replacingEvery("\n", with: " ")
                out.append("| \(md.code(e.file)) | ❗ error: \(message) |" + String(repeating: " |", count: gpu ? 9 : 8))
            }
        }
        if c.entries.count > maxScenes { out.append("| … \(c.entries.count - maxScenes) more | | | | | | | | | \(gpu ? "| " : "")|") }
        out.append(row("**total**", t, gpu: gpu))
        return out.joined(separator: "\n") + "\n"
    }

    func row(_ name: String, _ t: CatalogTotals, gpu: Bool) -> String {
        var cells = [name, "\(t.frames)", "\(t.findings)"]
        cells += ["high", "medium", "low"].map { "\(t.findingsBySeverity[$0] ?? 0)" }
        cells += ["\(t.offscreenPasses)", "\(t.blendedPixels)", "\(t.shadedPixels)", ms(t.cpuNanoseconds)]
        if gpu { cells.append(t.stageNanoseconds["gpu"].map(ms) ?? "–") }
        return "| " + cells.joined(separator: " | ") + " |"
    }

    func ms(_ ns: UInt64) -> String { String(cFormat: "%.2f", Double(ns) / 1e6) }

    /// "1 high, 2 medium" (high first; empty when nothing).
    static func severities(_ t: CatalogTotals) -> String {
        Severity.allCases.reversed().compactMap { s -> String? in
            let k = t.findingsBySeverity[s.rawValue] ?? 0
            return k > 0 ? "\(k) \(s.rawValue)" : nil
        }.joined(separator: ", ")
    }
}
