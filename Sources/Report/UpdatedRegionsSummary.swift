import Profile

/// The run's Flash Updated Regions in words, shared by the text, Markdown and HTML reports: the
/// mean damaged pixels per frame (what changed since the previous frame) and how many frames were
/// reused (nothing changed: not drawn again, their pixels, GPU timings and analysis are the
/// previous frame's).
enum UpdatedRegionsSummary {
    /// "0.7 % of the screen updated per frame (20.7 kpx)"; nil when damage was not measured.
    static func damaged(_ r: ProfileReport) -> String? {
        guard let d = r.totals.meanDamagedPixels else { return nil }
        let canvas = Double(max(r.scene.canvas.pixelWidth * r.scene.canvas.pixelHeight, 1))
        return "\(ReportUnits.percent(d / canvas)) of the screen updated per frame (\(ReportUnits.pixels(d)))"
    }

    /// "119 of 120 frames unchanged: reused, not drawn again"; nil when unknown.
    static func reused(_ r: ProfileReport) -> String? {
        guard let n = r.totals.reusedFrames else { return nil }
        return "\(n) of \(r.totals.frames) frames unchanged: reused, not drawn again"
    }

    /// "21.0 offscreen passes per frame taken from the previous frame, not rendered again", and/or
    /// "2 redrawn only where they changed"; nil when none were (or frames were not drawn).
    static func retained(_ r: ProfileReport) -> String? {
        let retained = r.totals.meanRetainedPasses.map { ($0 * 10).rounded() / 10 } ?? 0
        let partial = r.totals.meanPartialPasses.map { ($0 * 10).rounded() / 10 } ?? 0
        var parts: [String] = []
        if retained > 0 {
            parts.append(ReportUnits.count(retained, "offscreen pass", plural: "offscreen passes")
                         + " per frame taken from the previous frame, not rendered again")
        }
        if partial > 0 {
            parts.append((retained > 0 ? ReportUnits.number(partial) : ReportUnits.count(partial, "offscreen pass", plural: "offscreen passes")
                          + " per frame") + " redrawn only where they changed")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// All three, joined: the line every report prints under "Flash Updated Regions".
    static func line(_ r: ProfileReport) -> String? {
        let parts = [damaged(r), reused(r), retained(r)].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
