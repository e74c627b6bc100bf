import LayerModel

/// One finding of a report: an id of the vocabulary, raised for one layer over some frames,
/// with what it costs, why and how to fix it.
public struct Finding: Sendable, Equatable, Codable {
    public var id: FindingID
    public var severity: Severity
    public var layer: LayerRef
    /// at-rest: raised at the first or last frame profiled (the layer looks this way when nothing
    /// moves); mid-animation: only in between.
    public var phase: FindingPhase
    /// The frames it is raised in, as runs of consecutive frame numbers.
    public var frames: [FrameRun]
    public var frameCount: Int
    /// The frame where it costs the most pixels (the first of equals).
    public var worstFrame: Int
    /// Device pixels it costs in its worst frame, and summed over its frames.
    public var maxPixels: Int
    public var totalPixels: Int
    /// maxPixels ÷ canvas pixels (what the severity is decided from).
    public var canvasShare: Double
    /// One line: what happens and why, with the numbers of the worst frame.
    public var explanation: String
    /// One line: what a Core Animation engineer would change.
    public var fix: String
    /// The numbers behind the explanation, from the worst frame.
    public var evidence: Evidence
    /// Measured device time of its offscreen passes, summed over the run and in its costliest
    /// frame (nil without a GPU run, and for findings that are no pass).
    public var gpuNanoseconds: UInt64?
    public var maxGPUNanoseconds: UInt64?
    /// raster.cpu: measured CPU time of rasterising its content, summed over the run and in its
    /// costliest frame (nil when the run drew nothing).
    public var cpuNanoseconds: UInt64?
    public var maxCPUNanoseconds: UInt64?
    /// For a group of near-identical findings on several layers (`FindingGroups`): each layer's
    /// own finding, costliest first; `layer` is the first, the pixels are their sums. nil for a
    /// finding of one layer.
    public var members: [Finding]?
    /// What applying the fix saves in the worst frame (`FindingFix`, `Saving`), measured by
    /// planning that frame again with the fix; nil when the fix is no edit of the layer tree, or
    /// savings were not measured.
    public var saving: Saving?

    /// "frames 12–47, 60" / "frame 3".
    public var framesDescription: String { FrameRun.describe(frames) }
}

public enum FindingPhase: String, Sendable, Codable {
    case atRest = "at-rest"
    case midAnimation = "mid-animation"
}

/// A layer as reports name it: its name, else its index path from the root, and its place in the
/// scene file.
public struct LayerRef: Sendable, Equatable, Codable {
    public var id: LayerID
    public var name: String?
    /// Sublayer indices from the root (the root is []).
    public var path: [Int]
    /// The name, else the index path ("2.1"; "root").
    public var display: String
    public var location: FileLocation?

    public init(_ e: LayerDirectory.Entry) {
        id = e.id; name = e.name; path = e.indexPath; display = e.displayName
        location = e.location.map { FileLocation(file: $0.file, line: $0.line, column: $0.column) }
    }
    public init(id: LayerID, name: String?, path: [Int], display: String, location: FileLocation?) {
        self.id = id; self.name = name; self.path = path; self.display = display; self.location = location
    }
}

/// A place in a scene file.
public struct FileLocation: Sendable, Equatable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public init(file: String, line: Int, column: Int) { self.file = file; self.line = line; self.column = column }
    public var description: String { "\(file):\(line)" }
}

/// Consecutive frame numbers first...last.
public struct FrameRun: Sendable, Equatable, Codable, CustomStringConvertible {
    public var first: Int
    public var last: Int
    public init(first: Int, last: Int) { self.first = first; self.last = last }
    public var count: Int { last - first + 1 }
    public var description: String { first == last ? "\(first)" : "\(first)–\(last)" }

    /// Runs of consecutive numbers, in order (duplicates ignored).
    public static func runs(_ frames: [Int]) -> [FrameRun] {
        var out: [FrameRun] = []
        for f in Set(frames).sorted() {
            if let last = out.last, last.last + 1 == f { out[out.count - 1].last = f } else { out.append(FrameRun(first: f, last: f)) }
        }
        return out
    }

    /// "frame 3", "frames 12–47", "frames 0–3, 10–12".
    public static func describe(_ ranges: [FrameRun]) -> String {
        let n = ranges.reduce(0) { $0 + $1.count }
        return (n == 1 ? "frame " : "frames ") + ranges.map(\.description).joined(separator: ", ")
    }
}
