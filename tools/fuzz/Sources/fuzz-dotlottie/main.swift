import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `dotlottie` target (FuzzTarget.dotlottie). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/dotlottie/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.dotlottie.run(bytes)
    if !violations.isEmpty { fatalError("dotlottie: " + violations.prefix(5).joined(separator: "; ")) }
})
