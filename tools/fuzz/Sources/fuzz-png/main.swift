import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `png` target (FuzzTarget.png). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/png/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.png.run(bytes)
    if !violations.isEmpty { fatalError("png: " + violations.prefix(5).joined(separator: "; ")) }
})
