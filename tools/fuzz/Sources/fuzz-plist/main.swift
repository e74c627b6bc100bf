import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `plist` target (FuzzTarget.plist). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/plist/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.plist.run(bytes)
    if !violations.isEmpty { fatalError("plist: " + violations.prefix(5).joined(separator: "; ")) }
})
