import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `scene` target (FuzzTarget.scene). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/scene/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.scene.run(bytes)
    if !violations.isEmpty { fatalError("scene: " + violations.prefix(5).joined(separator: "; ")) }
})
