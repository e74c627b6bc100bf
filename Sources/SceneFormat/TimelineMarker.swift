/// A named point or span of a scene's timeline: a Lottie animation's `markers` entry
/// (`{"tm": frame, "cm": name, "dr": frames}`), in scene seconds. lottie-ios plays a marker's
/// segment with `play(fromMarker:toMarker:)`; `caprof render --marker`, `profile --marker` and
/// `snapshot --markers` take the same spans.
public struct TimelineMarker: Sendable, Equatable {
    /// The marker's name (`cm`, or the `name` inside an old exporter's JSON-string `cm`).
    public var name: String
    /// Scene time of the marker's first frame, in seconds; may lie outside the timeline (kept as
    /// the file has it).
    public var start: Double
    /// The segment's length in seconds (0: a marker of one point in time). Finite, ≥ 0.
    public var duration: Double

    public init(name: String, start: Double, duration: Double) {
        self.name = name; self.start = start; self.duration = duration
    }

    /// The segment's end, `start + duration`.
    public var end: Double { start + duration }
}
