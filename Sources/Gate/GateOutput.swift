import SystemSupport

/// The formats `caprof gate --format` writes, each from a `GateResult` alone.
public enum GateOutputFormat: String, Sendable, CaseIterable {
    /// A terminal summary (`GateTextReport`).
    case text
    /// GitHub-flavoured Markdown for CI step summaries (`GateMarkdownReport`).
    case markdown
    /// JUnit XML, one testcase per scene × rule (`GateJUnitReport`).
    case junit
    /// GitHub Actions workflow commands, `::error file=…,line=…::` (`GateGitHubAnnotations`).
    case github
    /// The result as JSON (`"caprofGate": 1`).
    case json

    public func render(_ r: GateResult, colors: Bool = false) throws -> String {
        switch self {
        case .text: return GateTextReport(colors: colors).render(r)
        case .markdown: return GateMarkdownReport().render(r)
        case .junit: return GateJUnitReport().render(r)
        case .github: return GateGitHubAnnotations().render(r)
        case .json:
            let e = JSONEncoder()
            e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try e.encode(r), as: UTF8.self) + "\n"
        }
    }
}

extension GateResult {
    /// "regression: 2 rules failed (1 warning), 12 passed" …: one line for every format.
    public var verdict: String {
        let c = counts
        var parts: [String] = []
        switch outcome {
        case .error: parts.append("error: \(c.errors) scene\(c.errors == 1 ? "" : "s") could not be profiled")
            if c.regressions > 0 { parts.append("\(c.regressions) rule\(c.regressions == 1 ? "" : "s") failed") }
        case .regression: parts.append("regression: \(c.regressions) rule\(c.regressions == 1 ? "" : "s") failed")
        case .improvement: parts.append("improvement: \(c.improvements) rule\(c.improvements == 1 ? "" : "s") improved beyond threshold (the baseline can be re-recorded)")
        case .pass: parts.append("pass")
        }
        if c.warnings > 0 { parts.append("\(c.warnings) warning\(c.warnings == 1 ? "" : "s")") }
        if (outcome == .regression || outcome == .error) && c.improvements > 0 { parts.append("\(c.improvements) improved") }
        parts.append("\(c.passed) passed")
        if c.skipped > 0 { parts.append("\(c.skipped) skipped") }
        return parts.joined(separator: ", ") + " (\(scenes.count) scene\(scenes.count == 1 ? "" : "s"))"
    }
}

extension CheckStatus {
    var label: String {
        switch self {
        case .skipped: return "skipped"
        case .pass: return "pass"
        case .improvement: return "improved"
        case .warn: return "warning"
        case .regression: return "REGRESSION"
        }
    }
}

/// The terminal summary: per scene the passing rules on one line with their values, then every
/// other check with its numbers and culprit layers (failures first), the layer diff, and one
/// verdict line.
public struct GateTextReport {
    public var colors: Bool
    public init(colors: Bool = false) { self.colors = colors }

    func paint(_ s: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }

    func mark(_ s: CheckStatus) -> String {
        switch s {
        case .regression: return paint("✗ FAIL", "1;31")
        case .warn: return paint("! warn", "1;33")
        case .improvement: return paint("↓ better", "1;32")
        case .pass: return paint("✓ pass", "32")
        case .skipped: return paint("- skip", "2")
        }
    }

    public func render(_ r: GateResult) -> String {
        var out = "caprof gate: \(r.budget)" + (r.baseline.map { " against \($0)" } ?? ", no baseline") + "\n"
        for s in r.scenes {
            out += "\n" + paint(s.scene, "1") + "\n"
            if let e = s.error { out += "  \(paint("✗ ERROR", "1;31"))  \(e.message)\n" }
            for n in s.notes { out += "  note: \(n)\n" }
            let passed = s.checks.filter { $0.status == .pass }
            if !passed.isEmpty {
                out += "  \(mark(.pass))  " + passed.map { c in "\(c.rule) \(c.value.map(c.format) ?? "–")" }.joined(separator: ", ") + "\n"
            }
            for c in s.checks.filter({ $0.status != .pass }).sorted(by: { $0.status > $1.status }) {
                out += "  \(mark(c.status))  \(c.message)\n"
            }
            // Each culprit once, with every rule it moved (not once per failing rule).
            let (shown, leftOut) = s.shownCulprits
            if !shown.isEmpty { out += "  culprits:\n" }
            for k in shown {
                out += "      \(k.layer)" + (k.line.map { " (\(s.scene):\($0))" } ?? "") + ": \(k.why) — \(k.rules.joined(separator: ", "))\n"
            }
            if leftOut > 0 { out += "      … and \(leftOut) more layer\(leftOut == 1 ? "" : "s") (--format json lists every one)\n" }
            if !s.layerChanges.isEmpty {
                out += "  layers changed since the baseline:\n"
                for l in s.layerChanges {
                    let sign = l.direction == .costlier ? paint("+", "31") : paint("−", "32")
                    // Findings' pixels only when its findings changed (a drawn-only change has none).
                    let findings = l.findingIDs.isEmpty ? "" : "\(GateFormat.pixels(Double(l.pixelsBefore))) → \(GateFormat.pixels(Double(l.pixelsAfter))); "
                    out += "    \(sign) \(l.layer)" + (l.line.map { " (\(s.scene):\($0))" } ?? "") + ": \(findings)\(l.why)\n"
                }
            }
        }
        let v = r.verdict
        let painted = r.outcome == .regression || r.outcome == .error ? paint(v, "1;31") : r.outcome == .improvement ? paint(v, "1;32") : paint(v, "1")
        return out + "\n" + painted + "\n"
    }
}
