import SystemSupport
import Profile

/// The HTML report: one self-contained file (inline CSS, a few lines of inline JS, inline SVG,
/// images as data: URIs; nothing is fetched) to open and look at.
///
/// Sections, top to bottom: a header (scene, canvas, frames, device); summary figures; the frame
/// strip (thumbnails of frames the GPU drew, after the profiled range as a looping GIF, or a note); the overlays of the worst frame (or the
/// frames asked for) with their legends; per-frame charts (time per stage, blended pixels,
/// overdraw) with the frames raising findings marked; the findings table (sortable, by severity
/// first); the layer tree with a badge per finding; what the scene uses that is not drawn yet.
///
/// Like every format it writes values it is given: the images come encoded (PNG bytes) from the
/// caller, which made them from the run.
public struct HTMLReport: Sendable {
    /// An encoded PNG and its size in pixels.
    public struct Image: Sendable {
        public var png: [UInt8]
        public var width: Int
        public var height: Int
        public init(png: [UInt8], width: Int, height: Int) { self.png = png; self.width = width; self.height = height }
        var dataURI: String { "data:image/png;base64," + Data(png).base64EncodedString() }
    }

    /// The profiled range as an animated image (a GIF, encoded by the caller), shown beside the
    /// frame strip.
    public struct Animation: Sendable {
        public var data: [UInt8]
        /// `image/gif` or `image/apng`.
        public var mime: String
        public var width: Int
        public var height: Int
        public var frames: Int
        public var fps: Double
        /// Every `step`-th profiled frame.
        public var step: Int
        public init(data: [UInt8], mime: String, width: Int, height: Int, frames: Int, fps: Double, step: Int) {
            self.data = data; self.mime = mime; self.width = width; self.height = height
            self.frames = frames; self.fps = fps; self.step = step
        }
        var dataURI: String { "data:\(mime);base64," + Data(data).base64EncodedString() }
    }

    public struct Thumbnail: Sendable {
        public var frame: Int
        public var time: Double
        public var image: Image
        public init(frame: Int, time: Double, image: Image) { self.frame = frame; self.time = time; self.image = image }
    }

    /// One overlay of a frame and its legend counts (`OverlayImage.legendPixels`).
    public struct Panel: Sendable {
        public var kind: OverlayKind
        public var image: Image
        public var legendPixels: [Int]
        public init(kind: OverlayKind, image: Image, legendPixels: [Int]) {
            self.kind = kind; self.image = image; self.legendPixels = legendPixels
        }
    }

    /// The overlays of one frame.
    public struct FrameOverlaySet: Sendable {
        public var frame: Int
        public var time: Double
        /// Why this frame: "the worst frame" or "asked for".
        public var reason: String
        public var background: OverlayBackground
        /// The frame as rendered (nil with --no-gpu).
        public var rendered: Image?
        public var panels: [Panel]
        public init(frame: Int, time: Double, reason: String, background: OverlayBackground, rendered: Image?, panels: [Panel]) {
            self.frame = frame; self.time = time; self.reason = reason; self.background = background
            self.rendered = rendered; self.panels = panels
        }
    }

    public var thumbnails: [Thumbnail]
    public var preview: Animation?
    public var overlays: [FrameOverlaySet]
    /// The model layer tree (the findings' layers are found in it by id).
    public var layers: LayerOutline?

    public init(thumbnails: [Thumbnail] = [], preview: Animation? = nil, overlays: [FrameOverlaySet] = [], layers: LayerOutline? = nil) {
        self.thumbnails = thumbnails; self.preview = preview; self.overlays = overlays; self.layers = layers
    }

    public func render(_ r: ProfileReport) -> String {
        var h = HTMLBuilder()
        h.raw("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        h.raw("<meta name=\"generator\" content=\"\(esc(r.tool.name)) \(esc(r.tool.version))\">\n")
        h.raw("<title>\(esc(r.scene.file)) · caprof profile</title>\n<style>\(HTMLStyle.css)</style>\n</head>\n<body>\n<main>\n")
        header(&h, r)
        summary(&h, r)
        fixFirst(&h, r)
        frameStrip(&h, r)
        overlaySection(&h, r)
        HTMLPassGraph.section(&h, r)
        charts(&h, r)
        findingsTable(&h, r)
        layerTree(&h, r)
        warnings(&h, r)
        h.raw("<footer>\(esc(r.tool.name)) \(esc(r.tool.version)) · report format \(r.caprofReport) · "
              + "findings come from the frame plans, costs from the run; this file loads nothing from the network.</footer>\n")
        h.raw("</main>\n<dialog id=\"zoom\"><img alt=\"\"><p></p></dialog>\n<script>\(HTMLStyle.script)</script>\n</body>\n</html>\n")
        return h.text
    }

    // MARK: - Header and summary

    func header(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        let c = r.scene.canvas
        h.raw("<header>\n<p class=\"brand\">caprof profile</p>\n<h1>\(esc(r.scene.file))</h1>\n<dl class=\"meta\">")
        var items: [(String, String)] = [
            ("canvas", "\(ReportUnits.number(c.width))×\(ReportUnits.number(c.height)) pt @\(ReportUnits.number(c.scale))× · \(c.pixelWidth)×\(c.pixelHeight) px"),
            ("frames", r.run.frameCount == 1
                ? "1 frame, t = \(ReportUnits.seconds(r.frames.first?.time ?? 0))"
                : "\(r.run.frameCount) · \(r.run.firstFrame)–\(r.run.lastFrame) at \(ReportUnits.number(r.run.fps)) fps"),
            ("timeline", r.scene.duration > 0 ? ReportUnits.seconds(r.scene.duration) : "static"),
            ("layers", "\(r.scene.layers)"),
        ]
        items.append(("device", r.run.gpu ? (r.run.device ?? "Vulkan") + (r.run.softwareDevice ? ", software Vulkan on the CPU" : "") : "none: plan only (--no-gpu)"))
        for (k, v) in items { h.raw("<div><dt>\(esc(k))</dt><dd class=\"num\">\(esc(v))</dd></div>") }
        h.raw("</dl>\n<nav>")
        var links = [("summary", "Summary")]
        if !ReportUnits.fixFirst(r).isEmpty { links.append(("fix-first", "Fix first")) }
        links += [("frames", "Frames"), ("overlays", "Overlays"), ("cost", "Per frame"), ("findings", "Findings")]
        if layers != nil { links.append(("layers", "Layers")) }
        if r.warnings.contains(where: { !$0.isFontSubstitution }) { links.append(("warnings", "Not drawn yet")) }
        if r.warnings.contains(where: \.isFontSubstitution) { links.append(("fonts", "Font stand-ins")) }
        h.raw(links.map { "<a href=\"#\($0.0)\">\($0.1)</a>" }.joined())
        h.raw("</nav>\n</header>\n")
    }

    func summary(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        let t = r.totals
        let canvasPixels = Double(max(r.scene.canvas.pixelWidth * r.scene.canvas.pixelHeight, 1))
        h.raw("<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"kpis\">\n")
        var chips = ""
        for s in Severity.allCases.reversed() {
            let k = t.findingsBySeverity[s.rawValue] ?? 0
            if k > 0 { chips += "<span class=\"sev sev-\(s.rawValue)\">\(k) \(s.rawValue)</span> " }
        }
        kpi(&h, "\(r.findings.count)", r.findings.count == 1 ? "finding" : "findings", chips.isEmpty ? "nothing to fix" : chips, raw: true)
        if let g = t.stages["gpu"] {
            kpi(&h, ReportUnits.ms(g.meanNanoseconds), "\(ReportUnits.gpuLabel(r)) per frame", "max \(ReportUnits.ms(g.maxNanoseconds))")
        } else {
            kpi(&h, "—", "GPU per frame", r.run.gpu ? "no timestamps on this device" : "not drawn (--no-gpu)")
        }
        kpi(&h, ReportUnits.ms(t.meanCPUNanoseconds), "CPU per frame",
            FrameCost.cpuStages.filter { t.stages[$0] != nil }.joined(separator: " + ") + (t.stages["analyze"].map { "; profiler \(ReportUnits.ms($0.meanNanoseconds)) apart" } ?? ""))
        if let s = r.startup {
            kpi(&h, ReportUnits.ms(s.wallNanoseconds), "start-up", "first frame's one-time work (pipelines, shaders, \(ReportUnits.bytes(s.uploadedBytes)) first uploads); not in the per-frame costs")
        }
        kpi(&h, ReportUnits.pixels(t.meanBlendedPixels), r.run.frameCount > 1 ? "blended per frame (mean)" : "blended", "\(ReportUnits.percent(t.meanBlendedPixels / canvasPixels)) of the screen"
            + (t.meanEdgeBlendedPixels > 0 ? "; \(ReportUnits.pixels(t.meanEdgeBlendedPixels)) edges only" : ""))
        kpi(&h, ReportUnits.times(t.meanOverdraw), "overdraw", "draws beyond the first per pixel; up to \(t.maxOverdraw)× on one pixel")
        let passes = Double(t.offscreenPasses) / Double(max(t.frames, 1))
        var passDetail = t.offscreenPasses > 0 ? "\(ReportUnits.pixels(Double(t.offscreenPixels) / Double(max(t.frames, 1)))) of targets" : "none"
        if let n = t.meanRetainedPasses, n > 0 {
            // caprof's own saving (RetainedPasses): the count above is what a device renders.
            passDetail += " · \(ReportUnits.number((n * 10).rounded() / 10)) a frame taken from the previous frame by caprof"
        }
        if let n = t.meanPartialPasses, (n * 10).rounded() > 0 {
            passDetail += " · \(ReportUnits.number((n * 10).rounded() / 10)) a frame redrawn in part by caprof"
        }
        kpi(&h, ReportUnits.number((passes * 10).rounded() / 10), "offscreen passes per frame", passDetail)
        if let d = t.meanDrawCalls {
            var sub: [String] = []
            if let p = t.peakTextureBytes { sub.append("\(ReportUnits.bytes(p)) textures") }
            if let s = t.peakTextureSharing, s.savedBytes > 0 { sub.append("\(ReportUnits.bytes(s.savedBytes)) saved by sharing") }
            if let u = t.uploadedBytes { sub.append("\(ReportUnits.bytes(u)) uploaded") }
            // caprof's own shortcuts (the findings describe the layers as a device draws them).
            if let line = ShortcutsSummary.line(t) { sub.append("caprof's shortcuts: " + line) }
            kpi(&h, ReportUnits.number((d * 10).rounded() / 10), "draw calls per frame", sub.joined(separator: " · "))
        }
        if let d = t.meanDamagedPixels {
            kpi(&h, ReportUnits.pixels(d), "updated per frame (Flash Updated Regions)",
                [UpdatedRegionsSummary.damaged(r), UpdatedRegionsSummary.reused(r)].compactMap { $0 }.joined(separator: "; "))
        }
        h.raw("</div>\n</section>\n")
    }

    func kpi(_ h: inout HTMLBuilder, _ value: String, _ label: String, _ detail: String, raw: Bool = false) {
        h.raw("<div class=\"kpi\"><b class=\"num\">\(esc(value))</b><span>\(esc(label))</span><small>\(raw ? detail : esc(detail))</small></div>\n")
    }

    // MARK: - Frames and overlays

    func frameStrip(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        h.raw("<section id=\"frames\">\n<h2>Frames</h2>\n")
        if thumbnails.isEmpty {
            h.raw("<p class=\"note\">No frame strip: \(r.run.gpu ? "no frames were kept" : "nothing was rendered (--no-gpu); the findings and counters come from the frame plans alone").</p>\n")
        } else {
            let worst = Set(overlays.map(\.frame))
            let severity = ReportUnits.severityByFrame(r)
            // A strip wider than the page (more than six thumbnails) scrolls sideways: say so above
            // it, and fade its right edge (CSS `.strip-wrap.scrolls`) so the cut-off frames read
            // as more to come. A short strip gets neither (a fade would only hide its frames).
            if let p = preview {
                let kib = (p.data.count + 1023) / 1024
                let every = p.step == 1 ? "every frame" : "one frame in \(p.step)"
                h.raw("<figure class=\"preview\"><img src=\"\(p.dataURI)\" width=\"\(p.width)\" height=\"\(p.height)\" alt=\"the profiled frames, animated\">")
                h.raw("<figcaption>The profiled range, animated: \(ReportUnits.count(p.frames, "frame")) (\(every)) at \(esc(ReportUnits.number(p.fps))) fps, looping; \(p.mime == "image/gif" ? "GIF" : "APNG"), \(kib) KiB.</figcaption></figure>\n")
            }
            let count = thumbnails.count
            h.raw("<p class=\"note strip-cue\">\(ReportUnits.count(count, "frame")) in the strip\(count > 6 ? " — scroll sideways (shift + wheel, or swipe) to see them all" : "").</p>\n")
            h.raw(count > 6 ? "<div class=\"strip-wrap scrolls\"><div class=\"strip\" tabindex=\"0\" aria-label=\"frame strip, scrolls sideways\">\n"
                            : "<div class=\"strip-wrap\"><div class=\"strip\">\n")
            for t in thumbnails {
                var cls = "thumb"
                if worst.contains(t.frame) { cls += " worst" }
                var caption = "<b class=\"num\">\(t.frame)</b>"
                if let s = severity[t.frame] { caption += "<i class=\"dot sev-\(s.rawValue)\" title=\"findings (\(s.rawValue) at worst)\"></i>" }
                caption += "<small class=\"num\">\(esc(ReportUnits.seconds(t.time)))</small>"
                h.raw("<figure class=\"\(cls)\"><img src=\"\(t.image.dataURI)\" width=\"\(t.image.width)\" height=\"\(t.image.height)\" alt=\"frame \(t.frame)\" data-zoom=\"frame \(t.frame) · \(esc(ReportUnits.seconds(t.time)))\"><figcaption>\(caption)</figcaption></figure>\n")
            }
            let which = thumbnails.count >= r.run.frameCount
                ? (r.run.frameCount == 1 ? "The frame profiled" : "Every frame profiled")
                : "\(thumbnails.count) of \(r.run.frameCount) frames, evenly spaced"
            h.raw("</div></div>\n<p class=\"note\">\(which)\(worst.isEmpty ? "" : "; outlined: the frame the overlays show"). A dot marks a frame raising findings, in the colour of its most severe one.</p>\n")
        }
        h.raw("</section>\n")
    }

    func overlaySection(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        h.raw("<section id=\"overlays\">\n<h2>Overlays</h2>\n")
        if overlays.isEmpty { h.raw("<p class=\"note\">No overlays in this report.</p>\n</section>\n"); return }
        let canvasPixels = Double(max(r.scene.canvas.pixelWidth * r.scene.canvas.pixelHeight, 1))
        for set in overlays {
            h.raw("<h3>Frame <span class=\"num\">\(set.frame)</span> <span class=\"muted num\">t = \(esc(ReportUnits.seconds(set.time))) · \(esc(set.reason))</span></h3>\n")
            h.raw("<p class=\"note\">" + (set.background == .renderedFrame
                ? "Tints over the rendered frame, dimmed. Click an image to see it at full size."
                : "Nothing was rendered (--no-gpu): tints over a neutral dark background, not the frame. Click an image to see it at full size.") + "</p>\n")
            h.raw("<div class=\"overlays\">\n")
            if let f = set.rendered {
                h.raw("<figure><figcaption><b>Frame</b><span class=\"muted\">as rendered</span></figcaption>")
                h.raw("<img src=\"\(f.dataURI)\" width=\"\(f.width)\" height=\"\(f.height)\" alt=\"frame \(set.frame)\" class=\"checker\" data-zoom=\"frame \(set.frame)\"></figure>\n")
            }
            for p in set.panels {
                h.raw("<figure><figcaption><b>\(esc(p.kind.rawValue))</b><span class=\"muted\">\(esc(p.kind.title))</span></figcaption>")
                h.raw("<img src=\"\(p.image.dataURI)\" width=\"\(p.image.width)\" height=\"\(p.image.height)\" alt=\"\(esc(p.kind.rawValue)) overlay of frame \(set.frame)\" data-overlay=\"\(p.kind.rawValue)\" data-zoom=\"\(esc(p.kind.title)) · frame \(set.frame)\">")
                h.raw("<ul class=\"legend\">")
                for (i, e) in p.kind.legend.enumerated() {
                    let px = i < p.legendPixels.count ? p.legendPixels[i] : 0
                    h.raw("<li title=\"\(esc(e.detail))\"><i style=\"background:rgb(\(e.color.r),\(e.color.g),\(e.color.b))\"></i>\(esc(e.label)) <span class=\"num muted\">\(ReportUnits.percent(Double(px) / canvasPixels))</span></li>")
                }
                h.raw("</ul></figure>\n")
            }
            h.raw("</div>\n")
        }
        h.raw("<p class=\"note\">blended: red where blended paint shows in the pixel (deeper red: stacked), orange where only antialiased edges, rounded corners or clip rims blend, green where the last layer drawn there is opaque — Color Blended Layers; red + orange = the blended pixels of the summary. "
              + "misaligned: magenta for edges off the device-pixel grid, yellow for resampled images — Color Misaligned Images. "
              + "overdraw: Android's Debug GPU Overdraw scale — no tint: drawn at most once; blue 1×, green 2×, pink 3×, red 4× or more overdrawn (drawn 2, 3, 4, 5+ times). "
              + "Percentages are shares of the screen.</p>\n</section>\n")
    }

    // MARK: - Charts

    func charts(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        h.raw("<section id=\"cost\">\n<h2>Per frame</h2>\n")
        if r.frames.isEmpty { h.raw("<p class=\"note\">No frames.</p>\n</section>\n"); return }
        if r.frames.count == 1 { stageTable(&h, r.frames[0], gpuLabel: ReportUnits.gpuLabel(r)); h.raw("</section>\n"); return }
        let chart = HTMLChart(frames: r.frames, severity: ReportUnits.severityByFrame(r), marked: Set(overlays.map(\.frame)))
        h.raw(chart.timeChart(gpu: r.run.gpu, software: r.run.softwareDevice))
        h.raw(chart.blendedChart(canvasPixels: r.scene.canvas.pixelWidth * r.scene.canvas.pixelHeight))
        h.raw(chart.overdrawChart())
        h.raw("</section>\n")
    }

    /// One frame: its stages as a small table with proportional bars (a chart of one bar says nothing).
    func stageTable(_ h: inout HTMLBuilder, _ f: ProfileReport.FrameRecord, gpuLabel: String) {
        let c = f.cost
        var rows: [(String, String, UInt64)] = [("evaluate", "s-evaluate", c.evaluateNanoseconds), ("plan", "s-plan", c.planNanoseconds),
                                                ("analyze", "s-analyze", c.analyzeNanoseconds)]
        if let u = c.uploadNanoseconds { rows.append(("upload", "s-upload", u)) }
        if let e = c.recordNanoseconds { rows.append(("record", "s-record", e)) }
        if let g = c.gpuNanoseconds { rows.append((gpuLabel, "s-gpu", g)) }
        let top = Double(max(rows.map(\.2).max() ?? 1, 1))
        h.raw("<table class=\"stages\"><tbody>\n")
        for (name, cls, ns) in rows {
            h.raw("<tr><td>\(name)</td><td class=\"num\">\(ReportUnits.ms(ns))</td><td class=\"bar\"><i class=\"\(cls)\" style=\"width:\(String(cFormat: "%.1f", Double(ns) / top * 100))%\"></i></td></tr>\n")
        }
        let counters = f.counters
        h.raw("</tbody></table>\n<p class=\"note\">One frame profiled: \(ReportUnits.count(counters.items, "draw item")), \(ReportUnits.pixels(counters.shadedPixels)) shaded, \(ReportUnits.pixels(counters.blendedPixels)) blended (\(ReportUnits.percent(Double(counters.blendedPixels) / Double(max(counters.canvasPixels, 1)))) of the screen), overdraw \(ReportUnits.times(counters.overdraw)). Profile a span of the timeline (--frames) for per-frame charts.</p>\n")
    }

    // MARK: - Layer tree

    func layerTree(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        guard let root = layers else { return }
        var byLayer: [Int: [(Int, Finding)]] = [:]
        // A group's badge goes on each of its layers (with that layer's own finding), linking to
        // the group's row: a layer of a group is no cleaner than the group's first.
        for (i, f) in r.findings.enumerated() {
            for member in f.members ?? [f] { byLayer[member.layer.id, default: []].append((i + 1, member)) }
        }
        h.raw("<section id=\"layers\">\n<h2>Layers</h2>\n<div class=\"tree\">\n")
        node(&h, root, depth: 0, findings: byLayer)
        h.raw("</div>\n<p class=\"note\">\(ReportUnits.count(root.count, "layer")) in the model tree; badges link to the findings. Levels below the second start collapsed.</p>\n</section>\n")
    }

    func node(_ h: inout HTMLBuilder, _ n: LayerOutline, depth: Int, findings: [Int: [(Int, Finding)]]) {
        var line = "<span class=\"cls\">\(esc(n.layerClass))</span> <span class=\"lname\">\(esc(n.display))</span>"
        if n.isMask { line += " <span class=\"tag\">mask</span>" }
        if let l = n.location { line += " <span class=\"mono muted\" title=\"\(esc(l.file)):\(l.line):\(l.column)\">\(esc(Self.baseName(l.file))):\(l.line)</span>" }
        for (row, f) in findings[n.id] ?? [] {
            line += " <a class=\"badge sev-\(f.severity.rawValue)\" href=\"#finding-\(row)\" title=\"\(esc(f.explanation))\">\(esc(f.id.rawValue))</a>"
        }
        if n.children.isEmpty {
            h.raw("<div class=\"leaf\" data-layer-id=\"\(n.id)\">\(line)</div>\n")
            return
        }
        var inside = 0
        for c in n.children { c.forEach { inside += findings[$0.id]?.count ?? 0 } }
        if inside > 0 { line += " <span class=\"inside muted\">\(inside) finding\(inside == 1 ? "" : "s") inside</span>" }
        h.raw("<details data-layer-id=\"\(n.id)\"\(depth < 2 ? " open" : "")><summary>\(line)</summary>\n")
        for c in n.children { node(&h, c, depth: depth + 1, findings: findings) }
        h.raw("</details>\n")
    }

}

extension HTMLReport {
    /// The last path component ("Examples/cards.json" → "cards.json"); the full path goes in a tooltip.
    static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }
}

/// Text accumulated in order.
struct HTMLBuilder {
    var text = ""
    mutating func raw(_ s: String) { text += s }
}

/// Escapes text for HTML content and attribute values.
func esc(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for ch in s {
        switch ch {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(ch)
        }
    }
    return out
}
