import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `archive-dag` target (FuzzTarget.archiveDAG): the bytes are the decisions
// of ArchiveGraphGenerator, which writes a valid keyed archive of shared layers, animations and
// values; a scene imported past the expansion budgets, or a broken plan invariant, is a violation.
// A broken invariant is a crash, so libFuzzer saves the input (the decisions, not the archive);
// copy it to Tests/HostileInputTests/Regressions/archive-dag/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.archiveDAG.run(bytes)
    if !violations.isEmpty { fatalError("archive-dag: " + violations.prefix(5).joined(separator: "; ")) }
})
