import ArgumentParser
import AssetImport
import LayerModel
import Pipeline
import SceneFormat
import SystemSupport

/// `--animation ID`, the same in every command that loads a scene: which animation of a `.lottie`
/// package (a dotLottie package may hold several; default: the manifest's first). Refused, by
/// `AssetLoader`, for any other kind of file.
struct AnimationOption: ParsableArguments {
    @Option(help: ArgumentHelp("For a .lottie package: load this animation (its id in the package's manifest; default the first).",
                               valueName: "id"))
    var animation: String?

    func validate() throws {
        if let a = animation, a.isEmpty { throw ValidationError("--animation needs an animation id (see the package's manifest.json)") }
    }
}

/// Scene times picked by share of the timeline (`--progress`) or by a marker (`--marker`).
enum TimelinePicks {
    /// "0.5" → 0.5; a finite share in [0, 1]. `option` names the option in the message.
    static func parseShare(_ text: String, option: String = "--progress") throws -> Double {
        let t = text.trimmingWhitespace()
        let number = t.hasSuffix("%") ? String(t.dropLast()) : t
        guard let v = Double(number), v.isFinite, number.first != "+" else {
            throw ValidationError("\(option): '\(t)' is not a number; give a share of the timeline from 0 to 1 (0.5 is its middle)")
        }
        let share = t.hasSuffix("%") ? v / 100 : v
        guard share >= 0 && share <= 1 else {
            throw ValidationError("\(option) \(t): a share of the timeline is from 0 (its start) to 1 (its end)")
        }
        return share
    }

    /// "0,0.5,1" → [0, 0.5, 1].
    static func parseShares(_ text: String, option: String = "--progress") throws -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, !parts.contains(where: { $0.trimmingWhitespace().isEmpty }) else {
            throw ValidationError("\(option) '\(text)': expected shares of the timeline from 0 to 1 separated by commas (0,0.25,1)")
        }
        return try parts.map { try parseShare($0, option: option) }
    }

    /// The scene time at share `p` of the timeline: p × its duration (the span `render --frames
    /// START:` renders: timeline.duration, else the animations' natural duration). For a Lottie
    /// animation that is frame ip + p · (op − ip). A scene whose timeline lasts 0 s is refused.
    static func time(progress p: Double, _ animated: AnimatedScene, scene: String) throws -> Double {
        let d = animated.duration
        guard d > 0, d.isFinite else {
            throw ValidationError("--progress: \(scene) has no duration (a still scene: nothing animates and it has no timeline.duration); give --time in seconds instead")
        }
        return p * d
    }

    /// The marker called `name` (the last of that name, as lottie-ios's marker table keeps it);
    /// an unknown name is a data error on the scene listing the markers it has.
    static func marker(_ name: String, in doc: SceneDocument, scene: String) throws -> TimelineMarker {
        if let m = doc.markers.last(where: { $0.name == name }) { return m }
        let here = SourceLocation(file: scene, pointer: "", line: 0, column: 0)
        if doc.markers.isEmpty {
            throw SceneError(.unresolvedReference, at: here, "no marker \(quote(name)): the scene has no markers (markers come from a Lottie animation's \"markers\")")
        }
        var seen = Set<String>()
        let names = doc.markers.filter { seen.insert($0.name).inserted }.map { "\(quote($0.name)) (\(span($0)))" }
        throw SceneError(.unresolvedReference, at: here, "no marker \(quote(name)); its markers are \(names.joined(separator: ", "))")
    }

    /// `--marker` alone: the scene time of the marker's start (refused before the timeline's start).
    static func start(of m: TimelineMarker) throws -> Double {
        guard m.start >= 0 else {
            throw ValidationError("--marker \(quote(m.name)) starts at \(FrameRange.format(m.start)) s, before the timeline's start (scene time 0)")
        }
        return m.start
    }

    /// `--marker` with `--frames A:B`: the frames of the marker's segment, A and B counted from its
    /// start and the end clipped to its end (`0:` is the whole segment), as an absolute range.
    static func segment(_ m: TimelineMarker, relative range: FrameRange?, fps: Double) throws -> FrameRange {
        guard m.duration > 0 else {
            throw ValidationError("--marker \(quote(m.name)) has no duration (dr 0): it marks one point in time, not a segment of frames (`caprof render --marker \(m.name)` renders its frame)")
        }
        _ = try start(of: m)
        let a = m.start + (range?.start?.time(fps: fps) ?? 0)
        let b = m.start + min(range?.end?.time(fps: fps) ?? m.duration, m.duration)
        guard b > a else {
            throw ValidationError("--frames with --marker \(quote(m.name)): nothing of the segment (\(span(m))) is left; bounds count from the marker's start and END is clipped to its end (\(FrameRange.format(m.duration)) s after it)")
        }
        return FrameRange(start: .seconds(a), end: .seconds(b))
    }

    static func span(_ m: TimelineMarker) -> String {
        m.duration > 0 ? "\(FrameRange.format(m.start))–\(FrameRange.format(m.end)) s" : "at \(FrameRange.format(m.start)) s"
    }

    static func quote(_ s: String) -> String { "\"" + s + "\"" }
}
