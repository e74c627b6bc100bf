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
        c.errors = scenes.filter { $0.error != nil }.count
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
        outcome = c.errors > 0 ? .error : c.regressions > 0 ? .regression : c.improvements > 0 ? .improvement : .pass
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
        /// A scene could not be loaded or profiled: the gate cannot decide for it (exit 1), while
        /// every other scene is still checked and reported.
        case error

        public var exitCode: Int32 {
            switch self {
            case .error: return GateResult.errorExitCode
            case .pass: return 0
            case .regression: return 2
            case .improvement: return 4
            }
        }
    }

    public struct Counts: Sendable, Equatable, Codable {
        public var passed = 0, warnings = 0, regressions = 0, improvements = 0, skipped = 0
        /// Scenes that could not be loaded or profiled.
        public var errors = 0

        public init() {}
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            passed = try c.decode(Int.self, forKey: .passed); warnings = try c.decode(Int.self, forKey: .warnings)
            regressions = try c.decode(Int.self, forKey: .regressions); improvements = try c.decode(Int.self, forKey: .improvements)
            skipped = try c.decode(Int.self, forKey: .skipped)
            errors = try c.decodeIfPresent(Int.self, forKey: .errors) ?? 0
        }
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
    /// The scene's current measurement (empty, 0 runs, for a scene that failed).
    public var measurement: SceneMeasurement
    /// Why the scene could not be loaded or profiled (it has no checks then), with its place.
    public var error: SceneFailure?
    /// Seconds spent profiling the scene (JUnit `time`), when measured here.
    public var seconds: Double?

    /// The worst status of its checks.
    public var status: CheckStatus {
        checks.map(\.status).max() ?? .pass
    }
}

/// A scene the gate could not load or profile: the located message a single run would print.
public struct SceneFailure: Sendable, Equatable, Codable {
    /// "scene.json:12:5: error: /root/…: …".
    public var message: String
    public var line: Int?
    public var column: Int?
    public init(message: String, line: Int? = nil, column: Int? = nil) {
        self.message = message; self.line = line; self.column = column
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
    /// The layers that explain a failure or an improvement, every one, the costliest first (the
    /// change in pixels against a baseline, else the pixels now). Text outputs show the first
    /// `GateEvaluation.maxCulprits` and say how many they left out; JSON lists them all.
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
    /// What the culprits are ordered by: the pixels it added or saved against the baseline, else
    /// the pixels its findings cost now.
    public var pixels: Int?
}

extension Check {
    /// The culprits a text output shows, and how many it leaves out.
    public var shownCulprits: (shown: [Culprit], leftOut: Int) {
        (Array(culprits.prefix(GateEvaluation.maxCulprits)), Swift.max(0, culprits.count - GateEvaluation.maxCulprits))
    }
}
