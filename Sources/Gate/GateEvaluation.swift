import SystemSupport

/// The gate's decision as a pure function: measurements + budget + baseline → results. No file,
/// clock or GPU: the CLI measures and writes, this decides.
public enum GateEvaluation {
    /// A scene's path as given and its measurement.
    public typealias Measured = (scene: String, measurement: SceneMeasurement)

    /// Tolerance for comparing values (timing medians and overdraw are fractional).
    static let epsilon = 1e-9
    static let maxCulprits = 5

    /// - Parameters:
    ///   - failures: scenes that could not be loaded or profiled, with their place among `scenes`
    ///     (the position they take in the result); each becomes an error entry.
    ///   - seconds: profiling time per scene key, for JUnit's `time`.
    ///   - failOn: `--fail-on`: findings at or above this severity fail every scene (exit 2).
    ///     Without it a scene absent from a given baseline still reports its high-severity findings
    ///     (a warning), so that a new scene never passes silently (`GateSeverityCheck`).
    public static func evaluate(_ scenes: [Measured], budget: Budget, baseline: Baseline?, baselineFile: String? = nil,
                                failures: [(position: Int, scene: String, failure: SceneFailure)] = [],
                                seconds: [String: Double] = [:], failOn: FailOn? = nil) -> GateResult {
        var results = scenes.map { s -> SceneResult in
            let key = ScenePattern.normalize(s.scene)
            let base = baseline?.measurement(for: key)
            var notes: [String] = []
            if baseline != nil && base == nil { notes.append("not in the baseline: rules comparing with it are skipped (record it with --record)") }
            if let b = base, b.frames != s.measurement.frames {
                notes.append("the baseline profiled \(b.frames) frame\(b.frames == 1 ? "" : "s"), this run \(s.measurement.frames): per-frame maxima still compare, counts over frames may not")
            }
            let changes = base.map { LayerDiff.diff(baseline: $0, current: s.measurement) } ?? []
            var checks = budget.rules(for: key).map { check($0, current: s.measurement, base: base, changes: changes) }
            // "New" needs a baseline that lacks the scene: with no baseline at all, nothing is new.
            if let c = GateSeverityCheck.check(s.measurement, isNew: baseline != nil && base == nil, failOn: failOn) { checks.append(c) }
            return SceneResult(scene: key, hasBaseline: base != nil, checks: checks, layerChanges: changes, notes: notes,
                               measurement: s.measurement, seconds: seconds[key])
        }
        for f in failures.sorted(by: { $0.position < $1.position }) {
            let key = ScenePattern.normalize(f.scene)
            let empty = SceneMeasurement(runs: 0, frames: 0, canvasPixels: 0, metrics: [:], findingCounts: [:], layers: [])
            results.insert(SceneResult(scene: key, hasBaseline: baseline?.measurement(for: key) != nil, checks: [], layerChanges: [],
                                       notes: [], measurement: empty, error: f.failure, seconds: seconds[key]),
                           at: min(f.position, results.count))
        }
        return GateResult(budget: budget.source, baseline: baselineFile, scenes: results)
    }

    /// One rule on one scene.
    public static func check(_ rule: Rule, current: SceneMeasurement, base: SceneMeasurement?, changes: [LayerChange]) -> Check {
        var metric: Metric?, finding: String?
        var value: Double?, baseValue: Double?
        var skipReason: String?
        var newOnes: [(layer: LayerCost, id: String)] = []
        switch rule.target {
        case .metric(.newFindings):
            metric = .newFindings
            if let b = base {
                newOnes = LayerDiff.newFindings(baseline: b, current: current)
                value = Double(newOnes.count); baseValue = 0
            } else {
                skipReason = "needs a baseline"
            }
        case .metric(let m):
            metric = m
            value = current[m]
            baseValue = base?[m]
            if value == nil {
                skipReason = m.needsGPU ? "not measured: frames were not drawn on a GPU (--no-gpu, or reports made with it)"
                    : "not measured (timing metrics are kept only when a timing rule asks for them)"
            }
        case .finding(let id):
            finding = id
            value = Double(current.findingCounts[id] ?? 0)
            baseValue = base.map { Double($0.findingCounts[id] ?? 0) }
        }
        // A finding rule (or newFindings) without limits means "never": max 0.
        var max = rule.max
        if max == nil && rule.maxIncrease == nil { max = 0 }
        let increaseLimit = baseValue.flatMap { b in rule.maxIncrease.map { $0.limit(over: b) } }
        if skipReason == nil, max == nil, increaseLimit == nil {
            skipReason = "no baseline to compare with"
        }
        let fmt = { (v: Double) in metric?.format(v) ?? GateFormat.number(v, digits: 0) }
        let name = rule.target.description
        var status = CheckStatus.pass
        var message: String
        if let reason = skipReason {
            status = .skipped
            message = "\(name): skipped, \(reason)"
        } else {
            let v = value!
            var failures: [String] = []
            if let m = max, v > m + epsilon { failures.append("above the maximum \(fmt(m))") }
            if let l = increaseLimit, let b = baseValue, v > l + epsilon {
                failures.append("above the baseline \(fmt(b)) by more than \(rule.maxIncrease!) (limit \(fmt(l)))")
            }
            let vs = baseValue.map { b in " (baseline \(fmt(b))\(change(v, b, fmt)))" } ?? ""
            if !failures.isEmpty {
                status = rule.level == .error ? .regression : .warn
                message = "\(name) \(fmt(v))\(vs): " + failures.joined(separator: "; ")
            } else if let inc = rule.maxIncrease, let b = baseValue, v < inc.improvementLimit(under: b) - epsilon {
                status = .improvement
                message = "\(name) \(fmt(v))\(vs): improved beyond \(inc.description.replacingEvery("+", with: "−"))"
            } else {
                var limits: [String] = []
                if let m = max { limits.append("max \(fmt(m))") }
                if let l = increaseLimit { limits.append("\(rule.maxIncrease!) over the baseline = \(fmt(l))") }
                message = "\(name) \(fmt(v))\(vs): within \(limits.joined(separator: " and "))"
            }
            if status == .pass, rule.maxIncrease != nil, base == nil { message += " (no baseline: increase not checked)" }
        }
        // Culprits: the layers whose own cost changed in the check's direction (GateCulprits).
        let culprits = GateCulprits.culprits(for: status, metric: metric, finding: finding, current: current, base: base,
                                             changes: changes, newOnes: newOnes)
        return Check(rule: name, metric: metric, finding: finding, level: rule.level, status: status, value: value,
                     baselineValue: baseValue, max: max, increaseLimit: increaseLimit, limits: rule.max == nil && rule.maxIncrease == nil ? "max 0" : rule.limitDescription,
                     message: message, culprits: culprits, origin: rule.origin)
    }

    /// ", +1, +50 %" / "" when equal.
    static func change(_ v: Double, _ b: Double, _ fmt: (Double) -> String) -> String {
        if abs(v - b) <= epsilon { return "" }
        let d = v - b
        var s = ", " + (d > 0 ? "+" : "−") + fmt(abs(d))
        if b != 0 { s += ", " + (d > 0 ? "+" : "−") + GateFormat.percent(abs(d / b)) }
        return s
    }
}
