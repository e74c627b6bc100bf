import Profile

/// The severity at or above which `caprof gate --fail-on` fails the job on findings (exit 2).
public enum FailOn: String, Sendable, CaseIterable {
    case high
    case medium

    public var severity: Severity { self == .high ? .high : .medium }
}

/// The check on the findings a scene raises at or above a severity, whatever the baseline says.
///
/// A scene absent from the baseline has nothing to compare with, so every baseline rule skips
/// it: without this check a new screen with a full-screen offscreen pass would pass silently. Its
/// high-severity findings are therefore always reported (level warn: reported, exit 0), and
/// `--fail-on high|medium` turns the check on for every scene at error level (exit 2), at or
/// above that severity.
enum GateSeverityCheck {
    /// The check for one scene, or nil when none applies (a scene in the baseline, no --fail-on).
    static func check(_ current: SceneMeasurement, isNew: Bool, failOn: FailOn?) -> Check? {
        guard isNew || failOn != nil else { return nil }
        let threshold = failOn?.severity ?? .high
        let rule = "findings ≥ \(threshold.rawValue)"
        // Each (layer, finding id) at or above the threshold, the costliest first.
        var hits: [(layer: LayerCost, id: String, cost: FindingCost)] = []
        for l in current.layers {
            for (id, c) in l.findings.sorted(by: { $0.key < $1.key }) where (c.severity ?? .low) >= threshold {
                hits.append((l, id, c))
            }
        }
        let culprits = hits.map { h in
            Culprit(layer: h.layer.layer, line: h.layer.line,
                    why: "\(h.id), \(h.cost.severity?.rawValue ?? "?") (\(GateFormat.pixels(Double(h.cost.maxPixels))))", pixels: h.cost.maxPixels)
        }.enumerated().sorted { ($0.element.pixels ?? 0) != ($1.element.pixels ?? 0) ? ($0.element.pixels ?? 0) > ($1.element.pixels ?? 0) : $0.offset < $1.offset }
            .map(\.element)
        let level: Level = failOn != nil ? .error : .warn
        let why = isNew ? "new scene, not in the baseline" : "--fail-on \(threshold.rawValue)"
        let status: CheckStatus
        let message: String
        if hits.isEmpty {
            status = .pass
            message = "\(rule) 0: none (\(why))"
        } else {
            status = level == .error ? .regression : .warn
            let n = hits.count
            message = "\(rule) \(n): \(n) finding\(n == 1 ? "" : "s") at \(threshold.rawValue) severity\(threshold == .high ? "" : " or above") (\(why))"
                + (failOn == nil ? "; reported only: --fail-on \(threshold.rawValue) fails the job on them" : "")
        }
        return Check(rule: rule, metric: nil, finding: nil, level: level, status: status, value: Double(hits.count),
                     baselineValue: nil, max: 0, increaseLimit: nil, limits: "max 0", message: message,
                     culprits: status == .pass ? [] : culprits, origin: failOn != nil ? "--fail-on \(threshold.rawValue)" : nil)
    }
}
