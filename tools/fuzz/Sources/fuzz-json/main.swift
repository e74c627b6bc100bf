import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `json` target (FuzzTarget.json). A broken invariant is a crash, so
// libFuzzer saves the input; copy it to Tests/HostileInputTests/Regressions/json/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.json.run(bytes)
    if !violations.isEmpty { fatalError("json: " + violations.prefix(5).joined(separator: "; ")) }
})
