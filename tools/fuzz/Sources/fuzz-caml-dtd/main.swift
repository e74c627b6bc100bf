import FuzzDriver
import FuzzHarness

// libFuzzer driver for the `caml-dtd` target (FuzzTarget.camlDTD): the bytes are the decisions of
// CAMLDocumentGenerator, which writes CAML with DTDs, declarations and entity references; an XML
// tree or a scene past the expansion budgets, or a broken plan invariant, is a violation. A broken
// invariant is a crash, so libFuzzer saves the input (the decisions, not the document); copy it to
// Tests/HostileInputTests/Regressions/caml-dtd/ once fixed.
exit(runFuzzer { bytes in
    let violations = FuzzTarget.camlDTD.run(bytes)
    if !violations.isEmpty { fatalError("caml-dtd: " + violations.prefix(5).joined(separator: "; ")) }
})
