import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `effects` target (FuzzTarget.effects). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/effects/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.effects.run(bytes)
    if !violations.isEmpty { fatalError("effects: " + violations.prefix(5).joined(separator: "; ")) }
})
