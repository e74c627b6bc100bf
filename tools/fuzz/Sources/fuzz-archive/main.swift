import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `archive` target (FuzzTarget.archive). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/archive/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.archive.run(bytes)
    if !violations.isEmpty { fatalError("archive: " + violations.prefix(5).joined(separator: "; ")) }
})
