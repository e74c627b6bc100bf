import SystemSupport

/// GitHub Actions workflow commands: `::error file=F,line=L,title=T::message` for each failed
/// error-level check and `::warning …` for each warning, pointing at the scene file line of the
/// layer that explains it (the first culprit), else at the scene file. GitHub shows at most 10
/// error and 10 warning annotations per step (and 50 per job): beyond `maxPerLevel` per level the
/// rest are summed up in one `::notice::` line (improvement notices stop at 9 to leave it room), so the most important (in scene order, the
/// culprit's layer first) are the ones shown. Improvements are `::notice` lines (capped too).
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
            for c in s.checks {
                let kind: String
                switch c.status {
                case .regression: kind = "error"
                case .warn: kind = "warning"
                case .improvement: kind = "notice"
                default: continue
                }
                // One notice is kept for the line that sums up what was left out.
                let cap = kind == "notice" ? Self.maxPerLevel - 1 : Self.maxPerLevel
                if emitted[kind, default: 0] >= cap { dropped[kind, default: 0] += 1; continue }
                emitted[kind, default: 0] += 1
                var props = ["file=" + Self.escapeProperty(s.scene)]
                let culprit = c.culprits.first
                if let line = culprit?.line { props.append("line=\(line)") }
                props.append("title=" + Self.escapeProperty("caprof gate: \(c.rule)"))
                var message = c.message
                if let k = culprit { message += " — layer \(k.layer): \(k.why)" }
                if c.culprits.count > 1 { message += " (+\(c.culprits.count - 1) more layer\(c.culprits.count == 2 ? "" : "s"); the JSON output lists every one)" }
                lines.append("::\(kind) \(props.joined(separator: ","))::\(Self.escapeData(message))")
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
