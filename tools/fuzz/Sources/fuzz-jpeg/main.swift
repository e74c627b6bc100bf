import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `jpeg` target (FuzzTarget.jpeg). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/jpeg/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.jpeg.run(bytes)
    if !violations.isEmpty { fatalError("jpeg: " + violations.prefix(5).joined(separator: "; ")) }
})
