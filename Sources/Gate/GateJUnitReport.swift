/// JUnit XML (the schema CI systems read: Jenkins, GitLab, GitHub test reporters): one testsuite
/// per scene, one testcase per rule applied to it (classname = the scene, name = the rule).
/// Error-level failures are `<failure>`; skipped checks are `<skipped>`; warnings pass, with the
/// message in `<system-out>`.
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

    public func render(_ r: GateResult) -> String {
        let all = r.scenes.flatMap(\.checks)
        let failures = all.filter { $0.status == .regression }.count
        let skipped = all.filter { $0.status == .skipped }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"caprof gate\" tests=\"\(all.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        for s in r.scenes {
            let f = s.checks.filter { $0.status == .regression }.count
            let k = s.checks.filter { $0.status == .skipped }.count
            out += "  <testsuite name=\"\(Self.escape(s.scene))\" tests=\"\(s.checks.count)\" failures=\"\(f)\" errors=\"0\" skipped=\"\(k)\">\n"
            for c in s.checks {
                out += "    <testcase classname=\"\(Self.escape(s.scene))\" name=\"\(Self.escape(c.rule))\""
                let detail = ([c.message] + c.culprits.map { "\($0.layer)\($0.line.map { " (\(s.scene):\($0))" } ?? ""): \($0.why)" })
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
