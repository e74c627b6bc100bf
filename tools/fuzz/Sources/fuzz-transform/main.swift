import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `transform` target (FuzzTarget.transform). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/transform/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.transform.run(bytes)
    if !violations.isEmpty { fatalError("transform: " + violations.prefix(5).joined(separator: "; ")) }
})
