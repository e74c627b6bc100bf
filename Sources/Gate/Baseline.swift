import SystemSupport
import Profile
import Report
import SceneFormat

/// A baseline: the measurements of scenes at a point the team accepted, written by
/// `caprof gate --record` and compared against by later runs. Compact and byte-stable (sorted
/// keys, exact metrics only unless a timing rule asked for timings), so it can be committed and
/// reviewed in diffs:
///
///     {"caprofBaseline": 1, "scenes": {"Examples/cards.json": {"runs": 1, "frames": 1,
///       "canvasPixels": 2962440, "metrics": {"blendedPixels": 321300, …},
///       "findingCounts": {"blended": 2, …},
///       "layers": [{"layer": "navBar", "line": 40, "findings": {"blended": {"maxPixels": …}}}]}}}
///
/// A `caprof profile --format json` report is also accepted as a baseline of its one scene.
public struct Baseline: Sendable, Equatable, Codable {
    public static let currentVersion = 1
    public var caprofBaseline: Int
    /// By scene path as given on the command line (normalised: `./` dropped).
    public var scenes: [String: SceneMeasurement]

    public init(scenes: [String: SceneMeasurement] = [:]) {
        caprofBaseline = Self.currentVersion; self.scenes = scenes
    }

    /// The scene's baseline: by its normalised path, else by a unique entry with the same file name
    /// (so a baseline recorded from another working directory still applies).
    public func measurement(for scene: String) -> SceneMeasurement? {
        let key = ScenePattern.normalize(scene)
        if let m = scenes[key] { return m }
        let name = key.split(separator: "/").last.map(String.init) ?? key
        let same = scenes.filter { ($0.key.split(separator: "/").last.map(String.init) ?? $0.key) == name }
        return same.count == 1 ? same.first!.value : nil
    }

    /// This baseline with `measurements` recorded over it (other scenes are kept).
    public func recording(_ measurements: [String: SceneMeasurement]) -> Baseline {
        var b = self
        for (k, v) in measurements { b.scenes[ScenePattern.normalize(k)] = v }
        return b
    }

    public func encoded() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var d = try e.encode(self)
        d.append(0x0A)
        return d
    }

    /// Reads a baseline file, or a JSON profile report as the baseline of its scene.
    public static func load(path: String) throws -> Baseline {
        // A FIFO or a device would block or never end: refused before it is opened.
        if let status = FileStatus(path: path), !status.isRegularFile {
            throw GateError(file: path, "cannot read the baseline file: it is not a regular file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GateError(file: path, "cannot read the baseline file: it does not exist or is not accessible (record one with --record)")
        }
        return try decode(data, file: path)
    }

    public static func decode(_ data: Data, file: String) throws -> Baseline {
        // The scene format's strict parser (RFC 8259) says where the JSON breaks.
        let top: JSONValue
        do { top = try JSONParser.parse([UInt8](data), file: file) } catch let e as SceneError {
            throw GateError(e, file: file, prefix: "the baseline is not valid JSON: ")
        }
        guard top.members != nil else { throw GateError(file: file, pointer: "", "expected a JSON object") }
        do {
            if let v = top["caprofBaseline"] {
                guard v.number == Double(currentVersion) else {
                    throw GateError(file: file, pointer: "/caprofBaseline", "unsupported baseline version \(BudgetParser.describe(v)); this caprof reads \(currentVersion)")
                }
                let b = try JSONDecoder().decode(Baseline.self, from: data)
                // Every metric is a count, an area, a ratio or a time: a negative one (a hand edit)
                // would make every comparison against it meaningless.
                for (scene, m) in b.scenes.sorted(by: { $0.key < $1.key }) {
                    for (name, v) in m.metrics.sorted(by: { $0.key < $1.key }) where !(v >= 0) {
                        throw GateError(file: file, pointer: "/scenes/\(JSONPointer.escape(scene))/metrics/\(JSONPointer.escape(name))",
                                        "a metric must be a number ≥ 0, found \(v)")
                    }
                }
                return b
            }
            if top["caprofReport"] != nil {
                let r = try JSONReport.decode(data)
                return Baseline(scenes: [ScenePattern.normalize(r.scene.file): SceneMeasurement(reports: [r], timing: true)])
            }
        } catch let e as DecodingError {
            throw GateError(file: file, pointer: pointer(e), describe(e))
        }
        throw GateError(file: file, pointer: "", "not a caprof baseline (\"caprofBaseline\": 1) nor a caprof JSON report (\"caprofReport\": 1)")
    }

    /// The strict parser's located error for `data`, if it finds one.
    static func syntaxError(_ data: Data, file: String) -> SceneError? {
        do { _ = try JSONParser.parse([UInt8](data), file: file); return nil } catch let e as SceneError {
            return e.kind == .malformedJSON ? e : nil
        } catch { return nil }
    }

    static func pointer(_ e: DecodingError) -> String {
        let path: [CodingKey]
        switch e {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): path = c.codingPath
        @unknown default: path = []
        }
        return path.map { "/" + ($0.intValue.map(String.init) ?? JSONPointer.escape($0.stringValue)) }.joined()
    }

    static func describe(_ e: Error) -> String {
        switch e as? DecodingError {
        case .typeMismatch(let t, _)?: return "expected \(t)"
        case .valueNotFound(let t, _)?: return "missing value of type \(t)"
        case .keyNotFound(let k, _)?: return "missing key \"\(k.stringValue)\""
        case .dataCorrupted(let c)?: return c.debugDescription
        default: return "\(e)"
        }
    }
}
