import Plan
import Profile

/// The render graph of one frame as an inline SVG: a box per offscreen pass (its kind, reasons,
/// layer, target size and measured GPU time), placed in columns by dependency depth, with an arrow
/// from each pass to the passes that read its result, and the canvas last.
enum HTMLPassGraph {
    static func section(_ h: inout HTMLBuilder, _ r: ProfileReport) {
        h.raw("<section id=\"passes\">\n<h2>Render graph</h2>\n")
        let frame = r.frames.first { $0.index == r.totals.worstFrame } ?? r.frames.first
        guard let f = frame, let passes = f.passes, !passes.isEmpty else {
            let any = r.frames.contains { !($0.passes ?? []).isEmpty }
            h.raw("<p class=\"note\">" + (any ? "The worst frame renders nothing offscreen (other frames do; see the findings)."
                                               : "No offscreen passes: every layer is drawn straight onto the screen.") + "</p>\n</section>\n")
            return
        }
        var names: [Int: String] = [:]
        for finding in r.findings { for member in finding.perLayer { names[member.layer.id] = member.layer.display } }
        // Depth: 0 for passes reading nothing, else one more than the deepest input.
        var depth = [Int](repeating: 0, count: passes.count)
        for (i, p) in passes.enumerated() { depth[i] = (p.inputs.filter { $0 < i }.map { depth[$0] + 1 }.max() ?? 0) }
        let read = Set(passes.flatMap(\.inputs))
        let columns = (depth.max() ?? 0) + 2
        var row = [Int](repeating: 0, count: columns)
        let w = 196.0, hgt = 58.0, dx = 228.0, dy = 70.0
        var pos: [(x: Double, y: Double)] = []
        for d in depth { pos.append((10 + Double(d) * dx, 10 + Double(row[d]) * dy)); row[d] += 1 }
        let canvasPos = (x: 10 + Double(columns - 1) * dx, y: 10.0)
        let height = 20 + Double(max(row.max() ?? 1, 1)) * dy
        let width = 20 + Double(columns) * dx - (dx - w)
        h.raw("<p class=\"note\">Frame <span class=\"num\">\(f.index)</span> (the worst): \(passes.count) offscreen pass\(passes.count == 1 ? "" : "es") in execution order; arrows carry results to the passes (or the screen) that draw them.</p>\n")
        h.raw("<div class=\"graph\"><svg width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"render graph of frame \(f.index)\">\n")
        // Arrows drawn as a line and a filled head (no markers: the page references nothing, not even url(#id)).
        func edge(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) {
            let x1 = a.x + w, y1 = a.y + hgt / 2, x2 = b.x - 2, y2 = b.y + hgt / 2
            func n(_ v: Double) -> String { String(Int(v.rounded())) }
            // A curve leaving and entering horizontally, ending in a head pointing right.
            let bend = max((x2 - x1) / 2, 30)
            h.raw("<path d=\"M\(n(x1)),\(n(y1)) C\(n(x1 + bend)),\(n(y1)) \(n(x2 - bend)),\(n(y2)) \(n(x2 - 8)),\(n(y2))\" fill=\"none\" stroke=\"#8e8e93\" stroke-width=\"1.5\"/>")
            h.raw("<path d=\"M\(n(x2)),\(n(y2)) L\(n(x2 - 8)),\(n(y2 - 4)) L\(n(x2 - 8)),\(n(y2 + 4)) z\" fill=\"#8e8e93\"/>\n")
        }
        for (i, p) in passes.enumerated() {
            for j in p.inputs where j < i { edge(pos[j], pos[i]) }
            if !read.contains(i) && p.kind != "cache" { edge(pos[i], canvasPos) }
        }
        for (i, p) in passes.enumerated() {
            let fill = p.kind == "cache" ? "#e8f6ec" : p.kind == "blur" ? "#eef2ff" : "#fff8db"
            let title = "#\(i) \(p.kind) · " + p.reasons.map(\.rawValue).joined(separator: ", ")
            let layer = names[p.layer] ?? "layer \(p.layer)"
            let gpu = p.gpuNanoseconds.map { " · GPU " + ReportUnits.ms($0) } ?? ""
            h.raw("<g data-pass=\"\(i)\"><title>\(esc(title)) — \(esc(layer))</title>")
            h.raw("<rect x=\"\(Int(pos[i].x))\" y=\"\(Int(pos[i].y))\" width=\"\(Int(w))\" height=\"\(Int(hgt))\" rx=\"8\" fill=\"\(fill)\" stroke=\"#c7c7cc\"/>")
            h.raw("<text x=\"\(Int(pos[i].x + 10))\" y=\"\(Int(pos[i].y + 18))\" font-size=\"12\" font-weight=\"600\">\(esc(title))</text>")
            h.raw("<text x=\"\(Int(pos[i].x + 10))\" y=\"\(Int(pos[i].y + 34))\" font-size=\"11\">\(esc(layer))</text>")
            h.raw("<text x=\"\(Int(pos[i].x + 10))\" y=\"\(Int(pos[i].y + 49))\" font-size=\"11\" fill=\"#636366\">\(p.width)×\(p.height) px\(esc(gpu))</text></g>\n")
        }
        h.raw("<g><rect x=\"\(Int(canvasPos.x))\" y=\"\(Int(canvasPos.y))\" width=\"\(Int(w))\" height=\"\(Int(hgt))\" rx=\"8\" fill=\"#1c1c1e\"/>")
        h.raw("<text x=\"\(Int(canvasPos.x + 10))\" y=\"\(Int(canvasPos.y + 24))\" font-size=\"12\" font-weight=\"600\" fill=\"#fff\">screen</text>")
        h.raw("<text x=\"\(Int(canvasPos.x + 10))\" y=\"\(Int(canvasPos.y + 42))\" font-size=\"11\" fill=\"#d1d1d6\">\(r.scene.canvas.pixelWidth)×\(r.scene.canvas.pixelHeight) px</text></g>\n")
        h.raw("</svg></div>\n</section>\n")
    }
}
