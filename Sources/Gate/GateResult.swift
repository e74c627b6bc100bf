import Report

/// What the gate decided, per scene and rule, with the numbers: the value every output format
/// (`GateOutput`) is written from, and the exit code.
public struct GateResult: Sendable, Equatable, Codable {
    public static let currentVersion = 1
    public var caprofGate: Int
    /// Where the rules came from (a budget file, or "default budget").
    public var budget: String
    /// The baseline file compared against, if any.
    public var baseline: String?
    public var scenes: [SceneResult]
    public var outcome: Outcome
    public var counts: Counts
    /// Present when only shard I of N of the catalog was gated (`caprof gate --shard I/N`): its
    /// scenes' positions in the whole catalog, so that the shards' results merge back in order.
    public var shard: ShardInfo?

    public init(budget: String, baseline: String?, scenes: [SceneResult], shard: ShardInfo? = nil) {
        caprofGate = Self.currentVersion
        self.budget = budget; self.baseline = baseline; self.scenes = scenes; self.shard = shard
        var c = Counts()
        for check in scenes.flatMap(\.checks) {
            switch check.status {
            case .pass: c.passed += 1
            case .warn: c.warnings += 1
            case .regression: c.regressions += 1
            case .improvement: c.improvements += 1
            case .skipped: c.skipped += 1
            }
        }
        counts = c
        outcome = c.regressions > 0 ? .regression : c.improvements > 0 ? .improvement : .pass
    }

    /// The process exit code (package-benchmark's): 0 pass, 2 regression, 4 only improvements.
    /// Errors that stop the gate from deciding exit with `GateResult.errorExitCode` (1).
    public var exitCode: Int32 { outcome.exitCode }
    public static let errorExitCode: Int32 = 1

    public enum Outcome: String, Sendable, Codable {
        /// No error-level rule failed and nothing improved beyond its threshold (warnings allowed).
        case pass
        /// At least one error-level rule failed.
        case regression
        /// Nothing failed and at least one rule improved beyond its threshold: the baseline can be
        /// re-recorded to lock the gain in.
        case improvement

        public var exitCode: Int32 {
            switch self {
            case .pass: return 0
            case .regression: return 2
            case .improvement: return 4
            }
        }
    }

    public struct Counts: Sendable, Equatable, Codable {
        public var passed = 0, warnings = 0, regressions = 0, improvements = 0, skipped = 0
    }
}

/// One scene's checks, its layer diff against the baseline, and notes.
public struct SceneResult: Sendable, Equatable, Codable {
    /// The scene's path as given (normalised).
    public var scene: String
    /// Whether the baseline had this scene.
    public var hasBaseline: Bool
    public var checks: [Check]
    /// Layers that got costlier (first) or cheaper than in the baseline, and why.
    public var layerChanges: [LayerChange]
    /// Things to know that are not checks ("not in the baseline", frame counts differ).
    public var notes: [String]
    /// The scene's current measurement.
    public var measurement: SceneMeasurement

    /// The worst status of its checks.
    public var status: CheckStatus {
        checks.map(\.status).max() ?? .pass
    }
}

/// The result of one rule on one scene.
public enum CheckStatus: String, Sendable, Codable, Comparable, CaseIterable {
    /// Not checked: nothing to compare with (no baseline, a timing not measured), with the reason.
    case skipped
    /// Within the rule.
    case pass
    /// Better than the baseline beyond the rule's threshold.
    case improvement
    /// Failed a warn-level rule.
    case warn
    /// Failed an error-level rule.
    case regression

    public static func < (a: CheckStatus, b: CheckStatus) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

public struct Check: Sendable, Equatable, Codable {
    /// "offscreenPasses" or "finding blended".
    public var rule: String
    public var metric: Metric?
    public var finding: String?
    public var level: Level
    public var status: CheckStatus
    /// The current value, and the baseline's (nil: none).
    public var value: Double?
    public var baselineValue: Double?
    /// The absolute maximum, and the maximum the allowed increase over the baseline gives.
    public var max: Double?
    public var increaseLimit: Double?
    /// The rule's limits in words ("max 4, +0 % over baseline").
    public var limits: String
    /// One line with the numbers: what was compared and the verdict.
    public var message: String
    /// The layers that explain a failure or an improvement (at most 5, most pixels first).
    public var culprits: [Culprit]
    /// Where the rule is written ("budget.json:4:7"); nil for the default budget.
    public var origin: String?

    /// The increase over the baseline (nil without one).
    public var delta: Double? {
        guard let v = value, let b = baselineValue else { return nil }
        return v - b
    }
    /// The relative change over the baseline (nil without one or from 0).
    public var relativeDelta: Double? {
        guard let d = delta, let b = baselineValue, b != 0 else { return nil }
        return d / b
    }

    public func format(_ v: Double) -> String { metric?.format(v) ?? GateFormat.number(v, digits: 0) }
}

/// A layer named by a check: where it is and why it matters.
public struct Culprit: Sendable, Equatable, Codable {
    public var layer: String
    public var line: Int?
    public var why: String
}
