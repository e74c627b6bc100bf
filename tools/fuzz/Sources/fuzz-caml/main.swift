import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `caml` target (FuzzTarget.caml). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/caml/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.caml.run(bytes)
    if !violations.isEmpty { fatalError("caml: " + violations.prefix(5).joined(separator: "; ")) }
})
