import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `plist-dag` target (FuzzTarget.plistDAG): the bytes are the decisions of
// PlistDAGGenerator, which writes a valid binary plist of shared objects; a value returned past the
// reader's budgets is a violation. A broken invariant is a crash, so libFuzzer saves the input (the
// decisions, not the plist); copy it to Tests/HostileInputTests/Regressions/plist-dag/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.plistDAG.run(bytes)
    if !violations.isEmpty { fatalError("plist-dag: " + violations.prefix(5).joined(separator: "; ")) }
})
