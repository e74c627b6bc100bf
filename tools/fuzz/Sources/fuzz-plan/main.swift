import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `plan` target (FuzzTarget.plan). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/plan/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.plan.run(bytes)
    if !violations.isEmpty { fatalError("plan: " + violations.prefix(5).joined(separator: "; ")) }
})
