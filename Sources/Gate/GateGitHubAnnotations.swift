import SystemSupport

/// GitHub Actions workflow commands: one annotation per culprit layer, at that layer's line in
/// the scene file (`::error file=F,line=L,title=T::message`), naming every rule it moved, so
/// each layer is annotated once where it is written; a failing check that no layer explains is
/// annotated on the scene file itself. `::error` for regressions, `::warning` for warnings,
/// `::notice` for improvements (a culprit takes the worst status of its checks). GitHub shows at
/// most 10 error and 10 warning annotations per step (and 50 per job): beyond `maxPerLevel` per
/// level the rest are summed up in one `::notice::` line (notices stop at 9 to leave it room), so
/// the most important (in scene order, the largest change first) are the ones shown.
public struct GateGitHubAnnotations {
    public static let maxPerLevel = 10
    public init() {}

    /// Workflow-command escaping: data (%, CR, LF) and properties (also : and ,).
    public static func escapeData(_ s: String) -> String {
        s.replacingEvery("%", with: "%25").replacingEvery("\r", with: "%0D").replacingEvery("\n", with: "%0A")
    }
    public static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingEvery(":", with: "%3A").replacingEvery(",", with: "%2C")
    }

    /// The workflow command for a status; nil for those not annotated (pass, skipped).
    static func kind(_ s: CheckStatus) -> String? {
        switch s {
        case .regression: return "error"
        case .warn: return "warning"
        case .improvement: return "notice"
        default: return nil
        }
    }

    public func render(_ r: GateResult) -> String {
        var lines: [String] = []
        var emitted: [String: Int] = [:], dropped: [String: Int] = [:]
        for s in r.scenes {
            if let e = s.error {
                // A scene that failed is always annotated, at its error's place.
                var props = ["file=" + Self.escapeProperty(s.scene)]
                if let l = e.line { props.append("line=\(l)") }
                if let c = e.column { props.append("col=\(c)") }
                props.append("title=" + Self.escapeProperty("caprof gate: scene error"))
                lines.append("::error \(props.joined(separator: ","))::\(Self.escapeData(e.message))")
                emitted["error", default: 0] += 1
            }
            // A culprit once, with every check it explains; then the checks no layer explains.
            var annotations: [(kind: String, line: Int?, title: String, message: String)] = []
            for k in s.culprits {
                guard let kind = Self.kind(k.status) else { continue }
                let checks = s.checks.filter { c in c.culprits.contains { $0.layer == k.layer } }
                // Each check it explains in short (rule, value, baseline): the full messages are
                // in the step summary (markdown) and the JSON output.
                let moved = checks.map { c in
                    "\(c.rule) \(c.value.map(c.format) ?? "–")" + (c.baselineValue.map { " (baseline \(c.format($0)))" } ?? "") + " \(c.status.label)"
                }
                annotations.append((kind, k.line, "caprof gate: layer \(k.layer)",
                                    "layer \(k.layer): \(k.why) — moved " + moved.joined(separator: "; ")))
            }
            for c in s.checks where c.culprits.isEmpty {
                guard let kind = Self.kind(c.status) else { continue }
                annotations.append((kind, nil, "caprof gate: \(c.rule)", c.message))
            }
            for a in annotations {
                // One notice is kept for the line that sums up what was left out.
                let cap = a.kind == "notice" ? Self.maxPerLevel - 1 : Self.maxPerLevel
                if emitted[a.kind, default: 0] >= cap { dropped[a.kind, default: 0] += 1; continue }
                emitted[a.kind, default: 0] += 1
                var props = ["file=" + Self.escapeProperty(s.scene)]
                if let line = a.line { props.append("line=\(line)") }
                props.append("title=" + Self.escapeProperty(a.title))
                lines.append("::\(a.kind) \(props.joined(separator: ","))::\(Self.escapeData(a.message))")
            }
        }
        let extra = ["error", "warning", "notice"].compactMap { k in dropped[k].map { "\($0) more \(k)\($0 == 1 ? "" : "s")" } }
        if !extra.isEmpty {
            lines.append("::notice title=caprof gate::\(Self.escapeData(extra.joined(separator: ", ") + " not annotated (GitHub shows \(Self.maxPerLevel) per kind and step); see the step summary or the JSON output"))")
        }
        lines.append("caprof gate: " + r.verdict)
        return lines.joined(separator: "\n") + "\n"
    }
}
