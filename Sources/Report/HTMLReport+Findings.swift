import SystemSupport
import Profile

/// The HTML report's parts about what to fix: the fix-first list under the summary, the findings
/// table, and what the scene uses that is not drawn (or drawn with a font stand-in).
extension HTMLReport {
    /// What to fix first, right under the summary: the user's first question is what a fix saves.
    func fixFirst(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        let first = ReportUnits.fixFirst(r)
        guard !first.isEmpty else { return }
        h.raw("<section id=\"fix-first\" class=\"fix-first\">\n<h2>Fix first</h2>\n<p class=\"note\">Each fix applied to its finding's worst frame, which is planned again: what it saves there (details in <a href=\"#findings\">Findings</a>).</p><ol>\n")
        for f in first {
            let s = f.saving!
            h.raw("<li><code>\(esc(f.id.rawValue))</code> <b>\(esc(f.layersDescription))</b>: \(esc(s.fix)) saves <b>\(esc(ReportUnits.saving(s)))</b>\(esc(ReportUnits.savingTime(s, r))) <small>frame \(s.frame)</small></li>\n")
        }
        h.raw("</ol>\n</section>\n")
    }

    // MARK: - Findings

    func findingsTable(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        h.raw("<section id=\"findings\">\n<h2>Findings</h2>\n")
        if r.findings.isEmpty {
            h.raw("<p class=\"ok\">No findings: nothing to fix (blended layers, misaligned or resampled images, low-scale contents, offscreen passes, CPU rasterisation).</p>\n</section>\n")
            return
        }
        h.raw("<table class=\"findings\">\n<colgroup><col class=\"c-sev\"><col class=\"c-id\"><col class=\"c-layer\"><col class=\"c-frames\"><col class=\"c-px\"><col></colgroup>\n<thead><tr>")
        for (key, title, type) in [("severity", "Severity", "num"), ("id", "Finding", "text"), ("layer", "Layer", "text"),
                                   ("frames", "Frames", "num"), ("pixels", "Pixels", "num"), ("why", "Why · fix", "")] {
            if type.isEmpty { h.raw("<th>\(title)</th>") }
            else { h.raw("<th data-sort=\"\(key)\" data-type=\"\(type)\" tabindex=\"0\" aria-sort=\"\(key == "severity" ? "descending" : "none")\">\(title)</th>") }
        }
        h.raw("</tr></thead>\n<tbody>\n")
        for (i, f) in r.findings.enumerated() {
            let sevRank = Severity.allCases.firstIndex(of: f.severity)! * 1_000_000_000 + min(f.maxPixels, 999_999_999)
            h.raw("<tr id=\"finding-\(i + 1)\" class=\"finding\" data-id=\"\(esc(f.id.rawValue))\" data-layer-id=\"\(f.layer.id)\">")
            h.raw("<td data-v=\"\(sevRank)\"><span class=\"sev sev-\(f.severity.rawValue)\">\(f.severity.rawValue)</span></td>")
            h.raw("<td data-v=\"\(esc(f.id.rawValue))\"><code>\(esc(f.id.rawValue))</code><small>\(esc(f.id.instrumentsName))</small></td>")
            var layer = "<b>\(esc(f.layersDescription))</b>"
            if let l = f.layer.location { layer += "<small class=\"mono\" title=\"\(esc(l.file)):\(l.line):\(l.column)\">\(esc(Self.baseName(l.file))):\(l.line)</small>" }
            h.raw("<td data-v=\"\(esc(f.layer.display))\">\(layer)</td>")
            var frames = r.run.frameCount == 1 ? "—" : esc(f.frames.map(\.description).joined(separator: ", "))
            if f.phase == .midAnimation { frames += "<small>mid-animation only</small>" }
            else if r.run.frameCount > 1 { frames += "<small>\(f.frameCount) of \(r.run.frameCount)</small>" }
            h.raw("<td class=\"num\" data-v=\"\(f.frames.first?.first ?? 0)\">\(frames)</td>")
            var pixels = f.pixelsAreOffscreenTexels
                ? "\(ReportUnits.pixels(f.maxPixels))<small>rendered offscreen; the result covers \(ReportUnits.percent(f.canvasShare)) of the screen"
                : "\(ReportUnits.pixels(f.maxPixels))<small>\(ReportUnits.percent(f.canvasShare)) of the screen"
            if f.frameCount > 1 { pixels += " in frame \(f.worstFrame)" }
            if let g = f.maxGPUNanoseconds { pixels += "<br>\(esc(ReportUnits.gpuLabel(r))) \(ReportUnits.ms(g))" }
            if let c = f.maxCPUNanoseconds { pixels += "<br>CPU \(ReportUnits.ms(c))" }
            pixels += "</small>"
            h.raw("<td class=\"num\" data-v=\"\(f.maxPixels)\">\(pixels)</td>")
            let saves = f.saving.map { "<p class=\"fix\"><b>Saves</b> \(esc(ReportUnits.saving($0) + ReportUnits.savingTime($0, r))) in frame \($0.frame) <small>(measured with \(esc($0.fix)))</small></p>" } ?? ""
            h.raw("<td class=\"why\">\(esc(f.explanation))<p class=\"fix\"><b>Fix</b> \(esc(f.fix))</p>\(saves)</td></tr>\n")
        }
        h.raw("</tbody>\n</table>\n<p class=\"note\">Ordered by severity (from the share of the screen a finding costs in its worst frame: high from 25 %, medium from 2 %), then pixels. Click a column to sort.</p>\n</section>\n")
    }

    /// What is not drawn, apart from the fonts drawn with a stand-in: those are drawn (in another
    /// face), and listing them as not drawn would send a reader looking for missing text.
    func warnings(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        let fonts = r.warnings.filter(\.isFontSubstitution), undrawn = r.warnings.filter { !$0.isFontSubstitution }
        func list(_ ws: [ProfileReport.Warning]) {
            h.raw("<ul class=\"warnings\">\n")
            for w in ws {
                let place = w.location.map { " <span class=\"mono muted\">\(esc($0.file)):\($0.line):\($0.column)</span>" } ?? ""
                h.raw("<li>\(esc(w.message))\(place)</li>\n")
            }
            h.raw("</ul>\n")
        }
        if !undrawn.isEmpty {
            h.raw("<section id=\"warnings\">\n<h2>Not drawn yet</h2>\n<p class=\"note\">What the scene uses that caprof does not draw or evaluate yet; frames are profiled without it.</p>\n")
            list(undrawn)
            h.raw("</section>\n")
        }
        if !fonts.isEmpty {
            h.raw("<section id=\"fonts\">\n<h2>Font stand-ins</h2>\n<p class=\"note\">Text drawn with an installed font of similar metrics instead of the one named: drawn and profiled, in another face.</p>\n")
            list(fonts)
            h.raw("</section>\n")
        }
    }
}
