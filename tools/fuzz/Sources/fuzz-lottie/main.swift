import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `lottie` target (FuzzTarget.lottie). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/lottie/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.lottie.run(bytes)
    if !violations.isEmpty { fatalError("lottie: " + violations.prefix(5).joined(separator: "; ")) }
})
