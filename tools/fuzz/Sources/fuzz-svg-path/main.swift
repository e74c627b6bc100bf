import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `svg-path` target (FuzzTarget.svgPath). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/svg-path/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.svgPath.run(bytes)
    if !violations.isEmpty { fatalError("svg-path: " + violations.prefix(5).joined(separator: "; ")) }
})
