import ArgumentParser
import Gate
import SystemSupport

/// The outcome of `caprof snapshot`: one entry per frame (or per scene that could not be loaded),
/// and its outputs (text, json, markdown, junit, github).
struct SnapshotReport: Codable {
    enum Status: String, Codable { case pass, fail, error, recorded }

    struct Bounds: Codable, Equatable { var x: Int, y: Int, width: Int, height: Int }

    struct Frame: Codable {
        var scene: String
        /// Scene time in seconds; nil for a scene that failed before any frame was rendered.
        var time: Double?
        var golden: String?
        var status: Status
        var width: Int?
        var height: Int?
        /// Share of the frame's pixels whose ΔE is over the threshold (0…1).
        var failingShare: Double?
        var failingPixels: Int?
        var maxDeltaE: Double?
        /// The smallest rectangle (pixels, from the top left) holding every failing pixel.
        var failingBounds: Bounds?
        /// The diff image (golden | actual | heat map) of a failing frame.
        var diff: String?
        /// Why the frame is an error, or (recorded) what became of the old golden.
        var message: String?
        /// The share of pixels that must pass for this frame (the scene's own, else --precision).
        var precision: Double?
    }

    var caprofSnapshot = 1
    var goldens: String
    var record: Bool
    var precision: Double
    var pixelThreshold: Double
    var shard: String?
    var scenes: Int
    var frames: [Frame]
    /// The counts and the outcome, filled in for the JSON output.
    var totals: Totals?

    struct Totals: Codable {
        var outcome: String, exitCode: Int32, frames: Int, passed: Int, failed: Int, errors: Int, recorded: Int
    }

    var passed: Int { frames.filter { $0.status == .pass }.count }
    var failed: Int { frames.filter { $0.status == .fail }.count }
    var errors: Int { frames.filter { $0.status == .error }.count }
    var recorded: Int { frames.filter { $0.status == .recorded }.count }

    /// 1 when anything is an error, else 2 when a frame fails, else 0 (the gate's codes).
    var exitCode: Int32 { errors > 0 ? 1 : failed > 0 ? 2 : 0 }
    var outcome: String { errors > 0 ? "error" : failed > 0 ? "fail" : "pass" }

    /// Whether some scene set its own precision (other than the run's).
    var ownPrecision: Bool { frames.contains { $0.precision.map { $0 != precision } ?? false } }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
    static func seconds(_ t: Double) -> String { String(cFormat: "%g", t) + " s" }
    static func percent(_ share: Double) -> String {
        let p = share * 100
        return (p > 0 && p < 0.01 ? String(cFormat: "%.4f", p) : String(cFormat: "%.2f", p)) + " %"
    }

    /// "x 10…29, y 4…13 (20×10 px)".
    static func place(_ b: Bounds) -> String {
        "x \(b.x)…\(b.x + b.width - 1), y \(b.y)…\(b.y + b.height - 1) (\(b.width)×\(b.height) px)"
    }

    /// "scene.json at 0.5 s" or "scene.json".
    static func name(_ f: Frame) -> String { f.time.map { "\(f.scene) at \(seconds($0))" } ?? f.scene }

    /// "scene at T: detail", without the scene twice when the detail starts with it (a scene's
    /// own error reads `file:line:col: error: …`).
    func line(_ f: Frame) -> String {
        let d = detail(f)
        return d.hasPrefix(f.scene + ":") ? d : "\(Self.name(f)): \(d)"
    }

    /// The one-line account of a frame's comparison or error.
    func detail(_ f: Frame) -> String {
        switch f.status {
        case .pass:
            return "\(Self.percent(f.failingShare ?? 0)) of pixels over ΔE \(String(cFormat: "%g", pixelThreshold)), max ΔE \(String(cFormat: "%.2f", f.maxDeltaE ?? 0))"
        case .fail:
            var s = "\(Self.percent(f.failingShare ?? 0)) of pixels over ΔE \(String(cFormat: "%g", pixelThreshold)) (allowed \(Self.percent(1 - (f.precision ?? precision)))), max ΔE \(String(cFormat: "%.2f", f.maxDeltaE ?? 0))"
            if let b = f.failingBounds { s += ", at \(Self.place(b))" }
            if let d = f.diff { s += "; diff: \(d)" }
            return s
        case .error, .recorded:
            return f.message ?? ""
        }
    }

    var summary: String {
        var parts: [String] = []
        if record {
            parts.append("\(recorded) recorded")
        } else {
            parts.append("\(passed) passed")
            parts.append("\(failed) failed")
        }
        if errors > 0 { parts.append(Self.count(errors, "error")) }
        let what = record ? (errors > 0 ? "error" : "recorded") : outcome
        return "snapshot: \(what), \(parts.joined(separator: ", ")) (\(Self.count(frames.filter { $0.time != nil }.count, "frame")) of \(Self.count(scenes, "scene"))\(shard.map { ", shard \($0)" } ?? ""); precision \(String(cFormat: "%g", precision))\(ownPrecision ? " or the scene's own" : ""), ΔE ≤ \(String(cFormat: "%g", pixelThreshold)))"
    }

    // MARK: - Formats

    func text(colors: Bool) -> String {
        let t = Terminal(fd: 1)
        func paint(_ s: String, _ code: String) -> String { colors ? t.paintAlways(s, code) : s }
        var out = ""
        for f in frames {
            let mark: String
            switch f.status {
            case .pass: mark = paint("✓ pass ", "32")
            case .fail: mark = paint("✗ FAIL ", "1;31")
            case .error: mark = paint("✗ error", "1;31")
            case .recorded: mark = paint("● recorded", "36")
            }
            out += "\(mark)  \(line(f))\n"
        }
        out += summary + "\n"
        return out
    }

    func json() throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var r = self
        r.totals = Totals(outcome: record ? (errors > 0 ? "error" : "recorded") : outcome, exitCode: exitCode,
                          frames: frames.filter { $0.time != nil }.count,
                          passed: passed, failed: failed, errors: errors, recorded: recorded)
        return String(decoding: try e.encode(r), as: UTF8.self) + "\n"
    }

    func markdown() -> String {
        func cell(_ s: String) -> String {
            s.replacingEvery("&", with: "&amp;").replacingEvery("\\", with: "\\\\").replacingEvery("|", with: "\\|")
                .replacingEvery("\n", with: " ").replacingEvery("<", with: "&lt;")
        }
        var out = "## caprof snapshot: \(outcome == "pass" ? "✅" : "❌") \(outcome)\n\n"
        out += summary + "\n\n"
        out += "| | scene | time | failing pixels | max ΔE | where | diff image |\n|---|---|---|---|---|---|---|\n"
        for f in frames {
            let mark = f.status == .pass ? "✅" : f.status == .recorded ? "📝" : "❌"
            let time = f.time.map(Self.seconds) ?? ""
            switch f.status {
            case .pass, .fail:
                out += "| \(mark) | `\(cell(f.scene))` | \(time) | \(Self.percent(f.failingShare ?? 0)) | \(String(cFormat: "%.2f", f.maxDeltaE ?? 0)) | \(f.failingBounds.map { cell(Self.place($0)) } ?? "") | \(f.diff.map { "`\(cell($0))`" } ?? "") |\n"
            case .error, .recorded:
                out += "| \(mark) | `\(cell(f.scene))` | \(time) | \(cell(f.message ?? "")) | | | |\n"
            }
        }
        return out
    }

    func junit() -> String {
        let esc = GateJUnitReport.escape
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"caprof snapshot\" tests=\"\(frames.count)\" failures=\"\(failed)\" errors=\"\(errors)\">\n"
        out += "  <testsuite name=\"caprof snapshot\" tests=\"\(frames.count)\" failures=\"\(failed)\" errors=\"\(errors)\" skipped=\"0\">\n"
        for f in frames {
            let name = f.time.map { "frame at \(Self.seconds($0))" } ?? "load scene"
            out += "    <testcase classname=\"\(esc(GateJUnitReport.classname(f.scene)))\" name=\"\(esc(name))\" file=\"\(esc(f.scene))\""
            switch f.status {
            case .pass, .recorded:
                out += "/>\n"
            case .fail:
                out += ">\n      <failure type=\"visual regression\" message=\"\(esc(detail(f)))\">\(esc(line(f) + (f.golden.map { "\ngolden: " + $0 } ?? "")))</failure>\n"
                if let d = f.diff { out += "      <system-out>[[ATTACHMENT|\(esc(d))]]</system-out>\n" }
                out += "    </testcase>\n"
            case .error:
                out += ">\n      <error message=\"\(esc(f.message ?? ""))\">\(esc(f.message ?? ""))</error>\n    </testcase>\n"
            }
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// GitHub workflow commands: an `::error` per failing frame and per error, at line 1 of the
    /// scene file (GitHub shows 10 per step: the rest are summed up in a `::notice`).
    func github() -> String {
        let data = GateGitHubAnnotations.escapeData, prop = GateGitHubAnnotations.escapeProperty
        var lines: [String] = []
        var left = 0
        for f in frames where f.status == .fail || f.status == .error {
            if lines.count >= GateGitHubAnnotations.maxPerLevel { left += 1; continue }
            let title = f.status == .fail ? "caprof snapshot: visual regression" : "caprof snapshot: error"
            lines.append("::error file=\(prop(f.scene)),line=1,title=\(prop(title))::\(data(line(f)))")
        }
        if left > 0 { lines.append("::notice title=\(prop("caprof snapshot"))::\(left) more failing frame\(left == 1 ? "" : "s") (see the job log)") }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `--format` of `caprof snapshot`.
enum SnapshotFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json, markdown, junit, github, html
}

extension Terminal {
    /// The escape sequence whatever the descriptor (the caller decided colours are wanted).
    func paintAlways(_ s: String, _ code: String) -> String { "\u{1B}[\(code)m\(s)\u{1B}[0m" }
}
