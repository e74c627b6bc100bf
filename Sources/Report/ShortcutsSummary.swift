import Profile

/// caprof's own compositing shortcuts in the mean frame (`FrameCost.culledItems`,
/// `flattenedItems`, `stackCulledPixels`), for the text and Markdown reports: what it did not draw
/// or drew at once, reported apart from the findings, which describe the scene on a device.
enum ShortcutsSummary {
    /// nil when frames were not drawn or no shortcut was taken.
    static func line(_ t: ProfileReport.Totals) -> String? {
        func tenths(_ v: Double) -> Double { (v * 10).rounded() / 10 }
        var parts: [String] = []
        if let c = t.meanCulledItems, c > 0 { parts.append(ReportUnits.count(tenths(c), "item") + " culled under opaque layers") }
        if let f = t.meanFlattenedItems, f > 0 { parts.append("\(ReportUnits.number(tenths(f))) blended in flattened regions") }
        if let s = t.meanStackCulledPixels, s > 0 { parts.append("≈ \(ReportUnits.pixels(s)) culled beneath stacked layers") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }
}
