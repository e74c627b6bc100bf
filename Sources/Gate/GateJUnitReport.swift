import SystemSupport

/// JUnit XML (the schema CI systems read: Jenkins, GitLab, GitHub test reporters): one testsuite
/// per scene, one testcase for profiling the scene (its `time`, and an `<error>` when the scene
/// cannot be loaded or profiled) and one per rule applied to it. Error-level failures are
/// `<failure>`; skipped checks are `<skipped>`; warnings pass, with the message in `<system-out>`.
///
/// `classname` is the scene path with its dots replaced by underscores: Jenkins and others split
/// a classname at its last dot into package and class, which would make `cards.json` a class
/// `json` in a package `cards`. The testsuite's `name` and `file` keep the real path. `time` is
/// seconds: the profiling testcase carries the scene's profiling time, rule testcases 0 (a rule
/// is a comparison of numbers already measured).
public struct GateJUnitReport {
    public init() {}

    public static func escape(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            default:
                // XML 1.0 forbids most control characters, even escaped.
                if u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF { out += "?" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// The scene path as a classname no CI system splits: dots become underscores.
    public static func classname(_ scene: String) -> String { scene.replacingEvery(".", with: "_") }

    static func seconds(_ s: Double?) -> String { String(cFormat: "%.3f", s ?? 0) }

    public func render(_ r: GateResult) -> String {
        let all = r.scenes.flatMap(\.checks)
        let failures = all.filter { $0.status == .regression }.count
        let skipped = all.filter { $0.status == .skipped }.count
        let errors = r.scenes.filter { $0.error != nil }.count
        let total = all.count + r.scenes.count
        let time = r.scenes.reduce(0) { $0 + ($1.seconds ?? 0) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"caprof gate\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(Self.seconds(time))\">\n"
        for s in r.scenes {
            let f = s.checks.filter { $0.status == .regression }.count
            let k = s.checks.filter { $0.status == .skipped }.count
            let cls = Self.escape(Self.classname(s.scene)), file = Self.escape(s.scene)
            out += "  <testsuite name=\"\(file)\" tests=\"\(s.checks.count + 1)\" failures=\"\(f)\" errors=\"\(s.error == nil ? 0 : 1)\" skipped=\"\(k)\" time=\"\(Self.seconds(s.seconds))\">\n"
            out += "    <testcase classname=\"\(cls)\" name=\"profile\" file=\"\(file)\" time=\"\(Self.seconds(s.seconds))\""
            if let e = s.error {
                out += ">\n      <error message=\"\(Self.escape(e.message))\" type=\"scene-error\">\(Self.escape(e.message))</error>\n    </testcase>\n"
            } else {
                out += "/>\n"
            }
            for c in s.checks {
                out += "    <testcase classname=\"\(cls)\" name=\"\(Self.escape(c.rule))\" file=\"\(file)\" time=\"0.000\""
                let (shown, leftOut) = c.shownCulprits
                let detail = ([c.message] + shown.map { "\($0.layer)\($0.line.map { " (\(s.scene):\($0))" } ?? ""): \($0.why)" }
                              + (leftOut > 0 ? ["… and \(leftOut) more layers (the JSON output lists every one)"] : []))
                    .joined(separator: "\n")
                switch c.status {
                case .regression:
                    out += ">\n      <failure message=\"\(Self.escape(c.message))\" type=\"regression\">\(Self.escape(detail))</failure>\n    </testcase>\n"
                case .skipped:
                    out += ">\n      <skipped message=\"\(Self.escape(c.message))\"/>\n    </testcase>\n"
                case .warn, .improvement:
                    out += ">\n      <system-out>\(Self.escape(c.status.label + ": " + detail))</system-out>\n    </testcase>\n"
                case .pass:
                    out += "/>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }
}
