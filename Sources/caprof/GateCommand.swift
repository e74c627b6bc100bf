import ArgumentParser
import SystemSupport
import Gate
import Pipeline
import Profile
import Render
import Report
import SceneFormat

/// `caprof gate`: checks scenes (or their JSON profile reports) against a budget and a baseline,
/// and exits as package-benchmark does: 0 pass, 2 regression, 4 only improvements, 1 error.
struct GateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Fail a CI job when scenes get more expensive: check profiles against a budget and a baseline.",
        discussion: """
        Each SCENE is profiled (plan only: the deterministic metrics need no GPU) or, for a JSON \
        report written by `caprof profile --format json` ("caprofReport"), read as is; a directory \
        stands for the *.json files in it (not its subdirectories). Several reports of one scene are \
        several runs of it.

        The budget file (--budget, JSON, "caprofBudget": 1) holds rules in the manner of Lighthouse \
        CI assertions: per metric (offscreenPasses, offscreenPixels, blendedPixels, shadedPixels, \
        overdraw, misalignedLayers, findings, newFindings; timing: cpuMilliseconds, \
        gpuMilliseconds) or per finding id, a level (off, warn, error), an absolute "max", a \
        "maxIncrease" over the baseline ({"relative": 0.05} or {"absolute": N}) and "scenes" \
        patterns (globs) that scope the rule. Timing rules need a noise rule: "runs": N (the median \
        of N runs is compared) and a relative maxIncrease; only gpuMilliseconds draws on the GPU. \
        Without --budget, the default budget allows no increase of any deterministic metric over \
        the baseline and no new finding. See Sources/Gate/README.md for the whole format.

        --baseline FILE is compared against (a baseline written by --record, or one JSON report); \
        the result lists per scene the layers that got more or less expensive and why (findings \
        added or removed, pixels up or down, what each layer shades and blends). --record measures the scenes and writes them into \
        the baseline (created if missing, other scenes kept, written atomically) and prints \
        nothing else (one confirmation line on stderr; the report only with -o FILE); it accepts \
        the numbers, so it exits 0.

        Culprits: against a baseline, the layers whose own cost changed (findings, or the pixels \
        they shade and blend), the largest change first, each layer once with the rules it moved; \
        without a baseline, the layers raising the relevant findings. A scene not in the baseline \
        reports its high-severity findings (a warning: exit 0); --fail-on high|medium makes \
        findings at or above that severity fail every scene (exit 2).

        Output (stdout, or atomically to -o FILE): text; markdown (for $GITHUB_STEP_SUMMARY); \
        junit (JUnit XML, one testcase per scene and rule); github (workflow commands \
        ::error file=…,line=…:: one per culprit layer at its line in the scene file, naming the \
        rules it moved, at most 10 errors and 10 warnings as GitHub shows per step, the rest \
        summed up in a notice); json.

        Exit codes (package-benchmark's, unlike caprof's other commands, which use sysexits): \
        0 pass (warnings allowed); 2 regression: an error-level rule failed, or a finding at or \
        above --fail-on; 4 only improvements: \
        nothing failed and some value improved beyond its rule's threshold (re-record the \
        baseline); 1 error: bad budget or baseline file, missing or invalid scene or report, no \
        GPU for a GPU timing rule, output not written. A command line that cannot be parsed exits \
        64, as with every caprof command.

        Catalogs and shards: --shard I/N gates shard I of N of the catalog only (the scenes whose \
        rank in byte-sorted path order is I − 1 modulo N; bad syntax exits 64). The shards' \
        outputs merge into one decision and one output, in catalog order: give the catalog \
        reports of `caprof profile DIR --shard I/N --format json -o shard-I.json` (every shard \
        once) with the budget and baseline, or give only the gate results of \
        `caprof gate DIR --shard I/N --format json -o gate-I.json` (merged as they are, without \
        --budget, --baseline, --record or --fail-on). See Sources/Gate/README.md, "Catalogs and shards".
        """)

    @Argument(help: ArgumentHelp("Scene files, JSON profile reports, or directories of them.", valueName: "scene"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The budget file (JSON, \"caprofBudget\": 1); default: no increase of any deterministic metric.", valueName: "file"))
    var budget: String?

    @Option(help: ArgumentHelp("The baseline to compare with (written by --record, or a JSON report).", valueName: "file"))
    var baseline: String?

    @Flag(help: "Write the measurements into the --baseline file (created or updated, atomically), print one confirmation line, and exit 0.")
    var record = false

    @Option(help: "Output format: text, markdown, junit, github or json.")
    var format: GateOutputFormat = .text

    @Option(help: ArgumentHelp("Fail (exit 2) on findings at or above this severity, in every scene: high or medium. Default: a scene not in the baseline reports its high findings without failing.",
                               valueName: "severity"))
    var failOn: FailOn?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the output to this file (atomically) instead of stdout; - is stdout.", valueName: "file"))
    var outputArgument: String?
    /// The file to write, nil for standard output (no -o, or `-o -`).
    var output: String? { outputArgument == "-" ? nil : outputArgument }

    @Flag(help: "Never draw on the GPU (the default unless a gpuMilliseconds rule applies): GPU timing rules are skipped.")
    var noGPU = false

    @Option(help: "Use the Vulkan device whose name contains this text (GPU timing rules only).")
    var device: String?

    @Flag(name: .shortAndLong, help: "No notes on stderr (errors and the output only).")
    var quiet = false

    @OptionGroup var limitOptions: LimitOptions

    @OptionGroup var animationOption: AnimationOption

    @Option(help: ArgumentHelp("Gate shard I of N of the catalog only (1 ≤ I ≤ N): the scenes whose rank in path order is I − 1 modulo N.",
                               valueName: "I/N"),
            transform: { s in do { return try CatalogShard.parse(s) } catch { throw ValidationError("\(error)") } })
    var shard: CatalogShard?

    func run() throws {
        let err = Terminal.stderr
        do {
            let code = try gate(err)
            if code != 0 { throw ExitCode(code) }
        } catch let e as ExitCode {
            throw e
        } catch {
            err.error(Self.describe(error))
            throw ExitCode(GateResult.errorExitCode)
        }
    }

    static func describe(_ error: Error) -> String {
        switch error {
        case let e as GateError: return e.description
        case let e as SceneError: return e.description
        case let e as SceneImages.Failure: return e.description
        case let e as ProfileCommand.ReportWriteError: return "error: \(e.message)"
        case let e as UsageError: return "error: \(e.message)"
        case let e as VulkanError: return "error: \(e): \(e.advice)"
        default: return "error: \(error)"
        }
    }

    struct UsageError: Error { var message: String }

    func gate(_ err: Terminal) throws -> Int32 {
        if inputs.isEmpty { throw UsageError(message: "no scene given: caprof gate SCENE… (see --help)") }
        if record && baseline == nil { throw UsageError(message: "--record writes the baseline: name it with --baseline FILE") }
        if noGPU && device != nil { throw UsageError(message: "--device picks the Vulkan device to draw on; --no-gpu draws nothing") }
        if let o = output { if o.isEmpty { throw UsageError(message: "-o needs a file name") }; try ProfileCommand.checkWritable(o) }
        if let b = baseline, record { try ProfileCommand.checkWritable(b) }

        let expanded = try GateInputs.expand(inputs)
        if let merged = try mergedResults(expanded) { return try emit(merged, err) }
        let rules = try budget.map(BudgetParser.load(path:)) ?? Budget.standard
        var base: Baseline?
        if let b = baseline {
            if record && !FileManager.default.fileExists(atPath: b) { base = nil } else { base = try Baseline.load(path: b) }
        }
        var files = expanded.inputs
        var shardInfo: ShardInfo?
        if let s = shard {
            (files, shardInfo) = GateInputs.shard(files, s)
            if !quiet { err.write(err.dim("shard \(s): \(shardInfo!.positions.count) of \(shardInfo!.catalogScenes) scenes (round-robin on the sorted paths)")) }
        }
        let outcome = try GateMeasure(budget: rules, noGPU: noGPU, device: device, quiet: quiet, err: err,
                                      limits: try limitOptions.resolved(), animation: animationOption.animation).measure(files)
        let measured = outcome.measured
        var result = GateEvaluation.evaluate(measured, budget: rules, baseline: base, baselineFile: baseline,
                                             failures: outcome.failures, seconds: outcome.seconds, failOn: failOn)
        result.shard = shardInfo

        // Recording accepts the numbers: the regression report is no news then, so it is written
        // only where asked for by name (-o); the terminal gets one confirmation line.
        if !record || output != nil { try write(result, err) }
        // Every scene that failed is also said on stderr, as a single run would say it.
        for f in outcome.failures { err.error(f.failure.message) }
        if record, let b = baseline {
            let updated = (base ?? Baseline()).recording(Dictionary(measured.map { ($0.scene, $0.measurement) }, uniquingKeysWith: { a, _ in a }))
            try ProfileCommand.writeAtomically(try updated.encoded(), to: b)
            if !quiet {
                let changed = result.scenes.filter { s in
                    s.hasBaseline && (!s.layerChanges.isEmpty || s.checks.contains { $0.status != .pass && $0.status != .skipped })
                }.count
                let new = measured.filter { base?.measurement(for: $0.scene) == nil }.count
                err.write("\(err.green("recorded")) \(measured.count) scene\(measured.count == 1 ? "" : "s") into \(b)"
                          + err.dim(" (\(new) new, \(changed) changed since the previous baseline)"))
            }
            // Scenes that failed are not recorded, and the run is an error.
            return outcome.failures.isEmpty ? 0 : GateResult.errorExitCode
        }
        return finish(result, err)
    }

    /// Writes the output in the chosen format (stdout, or atomically to -o).
    func write(_ result: GateResult, _ err: Terminal) throws {
        let colors = output == nil && format == .text && Terminal.stdout.colors
        let text = Data(try format.render(result, colors: colors).utf8)
        if let o = output {
            try ProfileCommand.writeAtomically(text, to: o)
            if !quiet { err.write("\(err.green("wrote")) \(o) \(err.dim("(\(format.rawValue))"))") }
        } else {
            StandardStreams.writeOut(text)
        }
    }

    func finish(_ result: GateResult, _ err: Terminal) -> Int32 {
        if result.outcome == .improvement && !quiet {
            err.write("note: only improvements: lock them in by re-recording the baseline (caprof gate … --baseline \(result.baseline ?? baseline ?? "FILE") --record)")
        }
        return result.exitCode
    }

    func emit(_ result: GateResult, _ err: Terminal) throws -> Int32 {
        try write(result, err)
        return finish(result, err)
    }

    /// When every input is a gate result (`caprof gate --format json`, e.g. one per shard), their
    /// merge: already decided against their budget and baseline, so none may be given again.
    func mergedResults(_ expanded: GateInputs.Expanded) throws -> GateResult? {
        guard !expanded.results.isEmpty else { return nil }
        if budget != nil || baseline != nil || record || shard != nil || failOn != nil {
            throw UsageError(message: "gate results (\"caprofGate\") are merged as they are, already checked against their budget and baseline: no --budget, --baseline, --record, --shard or --fail-on with them")
        }
        return try GateResult.merging(expanded.results)
    }
}

extension GateOutputFormat: ExpressibleByArgument {}
extension FailOn: ExpressibleByArgument {}
