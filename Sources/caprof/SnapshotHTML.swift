import Report
import SystemSupport

/// `caprof snapshot --format html`: one self-contained page (no network, no files beside it) for a
/// reviewer to open as a CI artifact. First the failing frames, each with its diff image (golden |
/// actual | ΔE heat map) embedded and the numbers that failed it; then the errors; then every frame
/// in a table. Diff images are embedded up to `maxEmbeddedBytes` in all (a run with hundreds of
/// failing 3× frames would make a page no browser opens comfortably); past that they are linked
/// by their path.
extension SnapshotReport {
    static let maxEmbeddedBytes = 48 << 20

    /// Additions to the profile report's stylesheet: the status pills and the diff figures.
    static let htmlCSS = """
    .st{display:inline-block;font-size:11.5px;font-weight:600;line-height:18px;padding:0 8px;border-radius:9px;text-transform:uppercase;letter-spacing:.04em}
    .st-pass{color:#248a3d;background:color-mix(in srgb,#248a3d 14%,transparent)}
    .st-fail,.st-error{color:var(--high);background:color-mix(in srgb,var(--high) 14%,transparent)}
    .st-recorded{color:var(--accent);background:color-mix(in srgb,var(--accent) 14%,transparent)}
    @media (prefers-color-scheme:dark){.st-pass{color:#30d158;background:color-mix(in srgb,#30d158 16%,transparent)}}
    .diff{margin:0 0 34px}
    .diff h3{margin:0 0 2px;word-break:break-all}
    .diff .cols{display:grid;grid-template-columns:1fr 1fr 1fr;font-size:12px;color:var(--muted);margin:10px 0 4px;max-width:var(--w)}
    .diff img{display:block;max-width:100%;height:auto;border-radius:6px;cursor:zoom-in;outline:1px solid var(--line);image-rendering:auto}
    .diff .nums{display:flex;flex-wrap:wrap;gap:2px 22px;font-size:13.5px;margin-top:4px}
    .errors li{margin:6px 0;word-break:break-word}
    """

    func html() -> String {
        let esc = HTMLStyle.escape
        var h = ""
        let headline: String
        if record {
            headline = errors > 0 ? "\(Self.count(errors, "error")) while recording" : "\(Self.count(recorded, "golden")) recorded"
        } else if failed + errors == 0 {
            headline = "All \(Self.count(passed, "frame")) match their goldens"
        } else {
            headline = [failed > 0 ? "\(failed) of \(Self.count(passed + failed, "frame")) \(failed == 1 ? "differs" : "differ")" : nil,
                        errors > 0 ? Self.count(errors, "error") : nil].compactMap { $0 }.joined(separator: ", ")
        }
        h += "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        h += "<title>\(esc(headline)) · caprof snapshot</title>\n<style>\(HTMLStyle.css)\n\(Self.htmlCSS)</style>\n</head>\n<body>\n<main>\n"
        h += "<header>\n<p class=\"brand\">caprof snapshot</p>\n<h1>\(esc(headline))</h1>\n<dl class=\"meta\">"
        var meta: [(String, String)] = [
            ("outcome", record ? (errors > 0 ? "error" : "recorded") : outcome),
            ("goldens", goldens),
            ("scenes", "\(scenes)"),
            ("frames", "\(frames.filter { $0.time != nil }.count)"),
            ("rule", "ΔE94 ≤ \(String(cFormat: "%g", pixelThreshold)) over white and black; ≥ \(String(cFormat: "%g", precision * 100)) % of pixels\(ownPrecision ? " (or the scene's own)" : "")"),
        ]
        if let s = shard { meta.append(("shard", s)) }
        for (k, v) in meta { h += "<div><dt>\(esc(k))</dt><dd class=\"num\">\(esc(v))</dd></div>" }
        h += "</dl>\n</header>\n"

        let failing = frames.filter { $0.status == .fail }
        if !failing.isEmpty {
            h += "<h2 id=\"differences\">Differences</h2>\n"
            var embedded = 0
            for f in failing {
                h += "<section class=\"diff\">\n<h3>\(esc(f.scene)) <span class=\"muted\">at \(esc(f.time.map(Self.seconds) ?? ""))</span></h3>\n"
                h += "<div class=\"nums num\"><span><b>\(esc(Self.percent(f.failingShare ?? 0)))</b> of pixels over ΔE \(String(cFormat: "%g", pixelThreshold)) (allowed \(esc(Self.percent(1 - (f.precision ?? precision)))))</span>"
                h += "<span>max ΔE <b>\(String(cFormat: "%.2f", f.maxDeltaE ?? 0))</b></span>"
                if let b = f.failingBounds { h += "<span>at \(esc(Self.place(b)))</span>" }
                h += "</div>\n"
                if let path = f.diff {
                    let bytes = FileStatus(path: path).flatMap { s in
                        embedded + s.size <= Self.maxEmbeddedBytes ? FileBytes.read(path: path, upTo: s.size, expected: s.size) : nil
                    }
                    if let bytes, let w = f.width, let ht = f.height {
                        embedded += bytes.count
                        let width = SnapshotDiffImage.width(frameWidth: w)
                        h += "<div class=\"cols\" style=\"--w:\(width)px\"><span>golden</span><span>actual</span><span>ΔE heat map</span></div>\n"
                        h += "<img src=\"data:image/png;base64,\(Data(bytes).base64EncodedString())\" width=\"\(width)\" height=\"\(ht)\" alt=\"golden, actual and ΔE heat map of \(esc(Self.name(f)))\" data-zoom=\"\(esc(Self.name(f)))\">\n"
                        h += "<p class=\"note\">\(esc(path))\(f.golden.map { " · golden: " + esc($0) } ?? "")</p>\n"
                    } else {
                        h += "<p class=\"note\">diff image: <a href=\"\(esc(path))\">\(esc(path))</a> (not embedded: the page holds \(Self.maxEmbeddedBytes >> 20) MiB of images at most)\(f.golden.map { " · golden: " + esc($0) } ?? "")</p>\n"
                    }
                }
                h += "</section>\n"
            }
        }

        let errored = frames.filter { $0.status == .error }
        if !errored.isEmpty {
            h += "<h2 id=\"errors\">Errors</h2>\n<ul class=\"errors\">\n"
            for f in errored { h += "<li>\(esc(line(f)))</li>\n" }
            h += "</ul>\n"
        }

        h += "<h2 id=\"frames\">Frames</h2>\n<table>\n<thead><tr><th>status</th><th>scene</th><th>time</th><th>failing pixels</th><th>max ΔE</th><th>precision</th><th>golden</th></tr></thead>\n<tbody>\n"
        for f in frames {
            let compared = f.status == .pass || f.status == .fail
            h += "<tr><td><span class=\"st st-\(f.status.rawValue)\">\(f.status.rawValue)</span></td>"
            h += "<td class=\"mono\">\(esc(f.scene))</td><td class=\"num\">\(esc(f.time.map(Self.seconds) ?? "–"))</td>"
            if compared {
                h += "<td class=\"num\">\(esc(Self.percent(f.failingShare ?? 0)))</td><td class=\"num\">\(String(cFormat: "%.2f", f.maxDeltaE ?? 0))</td>"
                h += "<td class=\"num\">\(String(cFormat: "%g", f.precision ?? precision))</td>"
            } else {
                h += "<td colspan=\"3\" class=\"muted\">\(esc(f.message ?? ""))</td>"
            }
            h += "<td class=\"mono\">\(esc(f.golden ?? ""))</td></tr>\n"
        }
        h += "</tbody>\n</table>\n"
        h += "<footer>caprof snapshot · \(esc(String(summary.dropFirst("snapshot: ".count)))) · this file loads nothing from the network.</footer>\n"
        h += "</main>\n<dialog id=\"zoom\"><img alt=\"\"><p></p></dialog>\n<script>\(HTMLStyle.script)</script>\n</body>\n</html>\n"
        return h
    }
}
