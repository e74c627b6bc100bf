/// A budget: the rules `caprof gate` checks each scene against, as data (in the manner of
/// Lighthouse CI's assertions and package-benchmark's thresholds). Read from JSON by
/// `BudgetParser`; the format is documented in this module's README.
///
///     {"caprofBudget": 1, "extends": "default", "rules": [
///       {"metric": "offscreenPasses", "level": "error", "max": 4, "maxIncrease": {"absolute": 0}},
///       {"finding": "offscreen.rounded-clip", "level": "warn", "scenes": ["Examples/cards.json"]},
///       {"metric": "gpuMilliseconds", "level": "warn", "runs": 5, "maxIncrease": {"relative": 0.1}}]}
public struct Budget: Sendable, Equatable {
    public static let currentVersion = 1

    /// Rules in file order; for one target (a metric or a finding id), the last rule whose scene
    /// patterns match a scene is the one applied to it (`rules(for:)`), so a later, scoped rule
    /// overrides an earlier general one.
    public var rules: [Rule]
    /// Where the rules came from ("budget.json", or "default budget").
    public var source: String

    public init(rules: [Rule], source: String) { self.rules = rules; self.source = source }

    /// What the gate checks without a budget file: every deterministic metric at level error, no
    /// increase over the baseline allowed (they are exact, so any increase is real), and no new
    /// findings. Without a baseline these rules have nothing to compare with and are skipped.
    public static let standard = Budget(rules: Metric.deterministic.map { m in
        m == .newFindings
            ? Rule(target: .metric(m), level: .error, max: 0)
            : Rule(target: .metric(m), level: .error, maxIncrease: .relative(0))
    }, source: "default budget")

    /// The rules applied to `scene`: per target, the last matching rule (level off included: an
    /// `off` rule switches a target off for the scenes it matches).
    public func rules(for scene: String) -> [Rule] {
        var chosen: [RuleTarget: Rule] = [:]
        var order: [RuleTarget] = []
        for r in rules where r.matches(scene: scene) {
            if chosen[r.target] == nil { order.append(r.target) }
            chosen[r.target] = r
        }
        return order.compactMap { chosen[$0] }.filter { $0.level != .off }
    }

    /// The most runs any timing rule applied to `scene` asks for (1 without one).
    public func runs(for scene: String) -> Int {
        rules(for: scene).compactMap(\.runs).max() ?? 1
    }

    /// Whether a rule applied to `scene` needs frames drawn on a GPU.
    public func needsGPU(for scene: String) -> Bool {
        rules(for: scene).contains { if case .metric(let m) = $0.target { return m.needsGPU }; return false }
    }

    /// Whether a rule applied to `scene` measures time (then the baseline keeps timing metrics).
    public func measuresTime(for scene: String) -> Bool {
        rules(for: scene).contains { if case .metric(let m) = $0.target { return m.isTiming }; return false }
    }
}

/// What a rule is about: a metric, or the number of layers raising one finding id.
public enum RuleTarget: Sendable, Hashable, CustomStringConvertible {
    case metric(Metric)
    case finding(String)

    /// "offscreenPasses", "finding blended".
    public var description: String {
        switch self {
        case .metric(let m): return m.rawValue
        case .finding(let id): return "finding \(id)"
        }
    }
}

/// How much a failing rule matters (Lighthouse CI's assertion levels).
public enum Level: String, Sendable, Codable, CaseIterable {
    /// Not checked.
    case off
    /// Reported; never fails the gate.
    case warn
    /// Fails the gate (exit 2).
    case error
}

/// How far a value may rise over its baseline.
public enum Increase: Sendable, Equatable, CustomStringConvertible {
    /// A fraction of the baseline value (0.05 = 5 %).
    case relative(Double)
    /// In the metric's own unit.
    case absolute(Double)

    /// The highest value allowed over `baseline`.
    public func limit(over baseline: Double) -> Double {
        switch self {
        case .relative(let r): return baseline * (1 + r)
        case .absolute(let a): return baseline + a
        }
    }

    /// The value below which `current` counts as an improvement over `baseline` (the same
    /// threshold mirrored: a change within it is noise, for timing; for exact metrics with a
    /// threshold of 0, any decrease).
    public func improvementLimit(under baseline: Double) -> Double {
        switch self {
        case .relative(let r): return baseline * (1 - r)
        case .absolute(let a): return baseline - a
        }
    }

    public var description: String {
        switch self {
        case .relative(let r): return "+" + GateFormat.percent(r)
        case .absolute(let a): return "+" + GateFormat.number(a, digits: 3)
        }
    }
}

/// One rule of a budget.
public struct Rule: Sendable, Equatable {
    public var target: RuleTarget
    public var level: Level
    /// The highest value allowed, whatever the baseline.
    public var max: Double?
    /// How far the value may rise over the baseline (checked only where the baseline has the scene).
    public var maxIncrease: Increase?
    /// Scene patterns (globs) the rule applies to; empty: every scene. See `ScenePattern`.
    public var scenes: [String]
    /// Timing rules: the median of this many runs is compared (the noise rule).
    public var runs: Int?
    /// Where the rule is written ("budget.json:4:7"), for messages; nil for the default budget.
    public var origin: String?

    public init(target: RuleTarget, level: Level, max: Double? = nil, maxIncrease: Increase? = nil,
                scenes: [String] = [], runs: Int? = nil, origin: String? = nil) {
        self.target = target; self.level = level; self.max = max; self.maxIncrease = maxIncrease
        self.scenes = scenes; self.runs = runs; self.origin = origin
    }

    public func matches(scene: String) -> Bool {
        scenes.isEmpty || scenes.contains { ScenePattern.matches($0, scene) }
    }

    /// "max 4, +0 % over baseline"
    public var limitDescription: String {
        var parts: [String] = []
        if let m = max { parts.append("max \(formatValue(m))") }
        if let i = maxIncrease { parts.append("\(i) over baseline") }
        if let r = runs { parts.append("median of \(r) runs") }
        return parts.joined(separator: ", ")
    }

    func formatValue(_ v: Double) -> String {
        if case .metric(let m) = target { return m.format(v) }
        return GateFormat.number(v, digits: 0)
    }
}
