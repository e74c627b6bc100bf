/// The formats `caprof profile --format` writes.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// The terminal summary (`TextReport`).
    case text
    /// The versioned JSON report (`JSONReport`, schema in `ReportSchema`).
    case json
    /// One self-contained HTML page with overlays, charts, findings and the layer tree (`HTMLReport`).
    case html
    /// GitHub-flavoured Markdown for CI step summaries (`MarkdownReport`).
    case markdown
    /// Chrome Trace Event JSON for ui.perfetto.dev or chrome://tracing (`TraceReport`).
    case trace
}
