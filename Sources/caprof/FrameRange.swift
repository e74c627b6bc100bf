import Animation
import ArgumentParser
import SystemSupport
import SceneFormat

/// `--frames START:END`: a half-open span of scene time [START, END) sampled at `--fps`.
///
/// Each bound is seconds (`0.5`, `0.5s`) or a frame number with an `f` suffix (`12f` = 12 / fps s).
/// An empty START is 0; an empty END is the scene's timeline duration (`PresentationTimeline.duration`).
/// Frame i is always at i / fps, so `12f:48f` renders frames 12 … 47 and `0.5:1 --fps 10` frames 5 … 9.
struct FrameRange: Equatable, Sendable {
    enum Bound: Equatable, Sendable {
        case seconds(Double)
        case frame(Int)
        func time(fps: Double) -> Double {
            switch self {
            case .seconds(let s): return s
            case .frame(let i): return Double(i) / fps
            }
        }
    }
    var start: Bound?
    var end: Bound?

    static let expectedForm = "expected START:END in seconds (0:2, 0.5:, :1.5) or frame numbers with an f suffix (12f:48f)"

    /// Parses the option's text; a ValidationError names the option and the expected form.
    static func parse(_ text: String) throws -> FrameRange {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw ValidationError("'\(text)' is not a range; \(expectedForm)") }
        func bound(_ s: Substring) throws -> Bound? {
            let t = s.trimmingWhitespace()
            if t.isEmpty { return nil }
            if t.hasSuffix("f") {
                guard let i = Int(t.dropLast()), i >= 0 else {
                    throw ValidationError("'\(t)' is not a frame number ≥ 0; \(expectedForm)")
                }
                return .frame(i)
            }
            let number = t.hasSuffix("s") ? String(t.dropLast()) : t
            guard let v = Double(number), v.isFinite, v >= 0, number.first != "+" else {
                throw ValidationError("'\(t)' is not a time in seconds ≥ 0; \(expectedForm)")
            }
            return .seconds(v)
        }
        let r = FrameRange(start: try bound(parts[0]), end: try bound(parts[1]))
        if let s = r.start, let e = r.end {
            let empty: Bool
            switch (s, e) {
            case let (.frame(a), .frame(b)): empty = b <= a
            case let (.seconds(a), .seconds(b)): empty = b <= a
            default: empty = false   // mixed units: checked once the fps is known
            }
            if empty { throw ValidationError("END must be after START (the range is half-open)") }
        }
        return r
    }

    /// The most frames one run renders by default (a hostile range never exhausts disk or time
    /// silently): the decoder's limit for a scene's own timeline, `SceneLimits.maxFrames`.
    static let maxFrames = SceneLimits.maxFrames

    /// The latest scene time a range may reach (keeps frame indices exact integers).
    static let maxTime = 1_000_000.0

    /// The frames to render at `fps`, for a scene whose timeline lasts `duration` seconds.
    /// `limit` is the run's frame limit (`--limit frames=N`).
    func frames(fps: Double, duration: Double, limit: Int = FrameRange.maxFrames) throws -> [(index: Int, time: Double)] {
        let a = start?.time(fps: fps) ?? 0
        let b: Double
        if let e = end {
            b = e.time(fps: fps)
            if b <= a { throw ValidationError("--frames: END (\(Self.format(b)) s) must be after START (\(Self.format(a)) s)") }
        } else {
            if a > duration {
                throw ValidationError("--frames: START (\(Self.format(a)) s) is after the scene's end (\(Self.format(duration)) s); give an END")
            }
            b = duration
        }
        if b > Self.maxTime {
            throw ValidationError("--frames: \(Self.format(b)) s is beyond the latest scene time accepted (\(Self.format(Self.maxTime)) s)")
        }
        let estimate = (b - a) * fps
        if !(estimate <= Double(limit)) {
            throw ValidationError("--frames/--fps: \(Self.format(a))…\(Self.format(b)) s at \(Self.format(fps)) fps is \(String(cFormat: "%.0f", estimate.rounded(.up))) frames; the limit is \(limit) per run (raise it with --limit frames=N)")
        }
        return PresentationTimeline.frameTimes(from: a, to: b, fps: fps)
    }

    static func format(_ v: Double) -> String { String(cFormat: "%g", v) }
}
