/// The formats `caprof profile --format` writes.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// The terminal summary (`TextReport`).
    case text
    /// The versioned JSON report (`JSONReport`, schema in `ReportSchema`).
    case json
}
