import ArgumentParser
import AssetImport

/// `--state NAME` / `--transition FROM:TO` for `.ca` packages and `.caml` files (their LKStates).
struct StateOptions: ParsableArguments {
    @Option(help: ArgumentHelp("For a .ca package or .caml file: show this state (its LKState values applied).", valueName: "name"))
    var state: String?

    @Option(help: ArgumentHelp("For a .ca package or .caml file: animate from state FROM to state TO as Core Animation's state controller would.",
                               valueName: "FROM:TO"))
    var transition: String?

    func validate() throws {
        if state != nil && transition != nil { throw ValidationError("--state and --transition cannot be combined") }
        if let t = transition, parsedTransition(t) == nil { throw ValidationError("--transition takes FROM:TO, two state names (e.g. Locked:Unlock)") }
    }

    private func parsedTransition(_ t: String) -> (from: String, to: String)? {
        guard let colon = t.firstIndex(of: ":") else { return nil }
        let from = String(t[..<colon]), to = String(t[t.index(after: colon)...])
        return from.isEmpty || to.isEmpty ? nil : (from, to)
    }

    var selection: StateSelection { StateSelection(state: state, transition: transition.flatMap(parsedTransition)) }
}
