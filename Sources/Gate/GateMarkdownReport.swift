import SystemSupport

/// GitHub-flavoured Markdown for a CI step summary (`$GITHUB_STEP_SUMMARY`): the verdict, a table
/// of checks per scene (failures first), and the layers that changed. No HTML.
public struct GateMarkdownReport {
    public init() {}
    /// Rows per table; a long catalog stays readable and within GitHub's summary size (1 MiB).
    public static let maxRows = 100

    static func cell(_ s: String) -> String {
        s.replacingEvery("&", with: "&amp;").replacingEvery("\\", with: "\\\\").replacingEvery("|", with: "\\|")
            .replacingEvery("\n", with: " ").replacingEvery("<", with: "&lt;")
    }

    func icon(_ s: CheckStatus) -> String {
        switch s {
        case .regression: return "❌ regression"
        case .warn: return "⚠️ warning"
        case .improvement: return "📉 improved"
        case .pass: return "✅ pass"
        case .skipped: return "➖ skipped"
        }
    }

    public func render(_ r: GateResult) -> String {
        let head = r.outcome == .regression || r.outcome == .error ? "❌" : r.outcome == .improvement ? "📉" : (r.counts.warnings > 0 ? "⚠️" : "✅")
        var out = "## \(head) caprof gate: \(Self.cell(r.verdict))\n\n"
        out += "Budget: `\(r.budget)`" + (r.baseline.map { " · baseline: `\($0)`" } ?? " · no baseline") + "\n"
        for s in r.scenes {
            if let e = s.error {
                out += "\n### `\(s.scene)`: ❗ error\n\n| status | rule | value | baseline | limits | detail |\n|---|---|--:|--:|---|---|\n"
                out += "| ❗ error | load and profile | – | – | – | \(Self.cell(e.message)) |\n"
                continue
            }
            out += "\n### `\(s.scene)`: \(icon(s.status))\n\n"
            for n in s.notes { out += "> \(Self.cell(n))\n\n" }
            if s.checks.isEmpty { out += "No rule applies to this scene.\n"; continue }
            out += "| status | rule | value | baseline | limits | detail |\n|---|---|--:|--:|---|---|\n"
            let sorted = s.checks.sorted { $0.status > $1.status }
            for c in sorted.prefix(Self.maxRows) {
                let value = c.value.map(c.format) ?? "–"
                let base = c.baselineValue.map(c.format) ?? "–"
                // The culprits are listed once below, with the rules each moved.
                let detail = c.culprits.isEmpty ? "" : "culprits: " + c.culprits.prefix(GateEvaluation.maxCulprits).map(\.layer).joined(separator: ", ")
                    + (c.culprits.count > GateEvaluation.maxCulprits ? ", …" : "")
                out += "| \(icon(c.status)) | \(Self.cell(c.rule)) | \(Self.cell(value)) | \(Self.cell(base)) | \(Self.cell(c.limits)) | \(Self.cell(detail)) |\n"
            }
            if sorted.count > Self.maxRows { out += "\n… and \(sorted.count - Self.maxRows) more checks (see the JSON output).\n" }
            let (culprits, leftOut) = s.shownCulprits
            if !culprits.isEmpty {
                out += "\n**Culprits** (each layer once, with the rules it moved)\n\n| | layer | line | rules | why |\n|---|---|--:|---|---|\n"
                for k in culprits {
                    out += "| \(icon(k.status)) | \(Self.cell(k.layer)) | \(k.line.map { "\($0)" } ?? "–") | \(Self.cell(k.rules.joined(separator: ", "))) | \(Self.cell(k.why)) |\n"
                }
                if leftOut > 0 { out += "\n… and \(leftOut) more (JSON lists every one)\n" }
            }
            if !s.layerChanges.isEmpty {
                out += "\n**Layers changed since the baseline**\n\n| | layer | line | pixels before | pixels now | why |\n|---|---|--:|--:|--:|---|\n"
                for l in s.layerChanges.prefix(Self.maxRows) {
                    out += "| \(l.direction == .costlier ? "🔺" : "🔻") | \(Self.cell(l.layer)) | \(l.line.map { "\($0)" } ?? "–") | "
                        + "\(GateFormat.pixels(Double(l.pixelsBefore))) | \(GateFormat.pixels(Double(l.pixelsAfter))) | \(Self.cell(l.why)) |\n"
                }
            }
        }
        return out
    }
}
