import Plan
import Profile

/// The render graph of one frame as an inline SVG: a box per offscreen pass (its kind, reasons,
/// layer, target size and measured GPU time), each in the latest column its readers allow, with an
/// arrow from each pass to the passes that read its result, and the screen last.
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
        // Columns as late as each pass can go: a pass whose result only the screen draws sits in
        // the last column, beside the screen; one read by later passes sits just before the
        // earliest of them. So arrows to the screen are short and cross no other box.
        var consumers = [[Int]](repeating: [], count: passes.count)
        for (i, p) in passes.enumerated() { for j in Set(p.inputs) where j < i { consumers[j].append(i) } }
        var level = [Int](repeating: 0, count: passes.count)
        for i in passes.indices.reversed() {
            level[i] = consumers[i].map { level[$0] - 1 }.min() ?? 0
        }
        let first = level.min() ?? 0
        let column = level.map { $0 - first }
        let columns = (column.max() ?? 0) + 1
        var row = [Int](repeating: 0, count: columns)
        let w = 186.0, hgt = 58.0, dx = 214.0, dy = 70.0
        var pos: [(x: Double, y: Double)] = []
        for c in column { pos.append((10 + Double(c) * dx, 10 + Double(row[c]) * dy)); row[c] += 1 }
        // Rows and the gap under the last one, where a dashed arrow to the screen may run.
        let height = 20 + Double(max(row.max() ?? 1, 1)) * dy
        // The screen: a bar as tall as the graph after the last column, so every arrow into it
        // is a straight line.
        let screen = (x: 10 + Double(columns) * dx, y: 10.0, w: 120.0, h: height - 20)
        let width = screen.x + screen.w + 10
        h.raw("<p class=\"note\">Frame <span class=\"num\">\(f.index)</span> (the worst): \(passes.count) offscreen pass\(passes.count == 1 ? "" : "es") in execution order; arrows carry results to the passes (or the screen) that draw them; a dashed one, a result the screen draws that later passes also read.</p>\n")
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
        // An arrow to the screen from a pass that later passes also read (a shadowed layer's
        // content: blurred, and drawn): dashed, along the gap under its row, crossing no box.
        func gutterEdge(_ a: (x: Double, y: Double)) {
            func n(_ v: Double) -> String { String(Int(v.rounded())) }
            let x1 = a.x + w, y1 = a.y + hgt / 2, yg = a.y + hgt + (dy - hgt) / 2, x2 = screen.x - 2
            h.raw("<path d=\"M\(n(x1)),\(n(y1)) C\(n(x1 + 12)),\(n(y1)) \(n(x1 + 4)),\(n(yg)) \(n(x1 + 16)),\(n(yg)) L\(n(x2 - 8)),\(n(yg))\" fill=\"none\" stroke=\"#8e8e93\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>")
            h.raw("<path d=\"M\(n(x2)),\(n(yg)) L\(n(x2 - 8)),\(n(yg - 4)) L\(n(x2 - 8)),\(n(yg + 4)) z\" fill=\"#8e8e93\"/>\n")
        }
        for (i, p) in passes.enumerated() {
            // Sorted: a Set's order changes from process to process, and the page must not.
            for j in Set(p.inputs).sorted() where j < i { edge(pos[j], pos[i]) }
            // The screen draws the result (a cache pass's too, by the item drawing the cached layer).
            guard p.drawnOnScreen == true else { continue }
            if column[i] == columns - 1 { edge(pos[i], (screen.x, pos[i].y)) } else { gutterEdge(pos[i]) }
        }
        for (i, p) in passes.enumerated() {
            let fill = p.kind == "cache" ? "#e8f6ec" : p.kind == "blur" ? "#eef2ff" : "#fff8db"
            let title = "#\(i) \(p.kind) · " + p.reasons.map(\.rawValue).joined(separator: ", ")
            let layer = names[p.layer] ?? "layer \(p.layer)"
            let gpu = p.gpuNanoseconds.map { " · GPU " + ReportUnits.ms($0) } ?? ""
            h.raw("<g data-pass=\"\(i)\"><title>\(esc(title)) — \(esc(layer))</title>")
            h.raw("<rect x=\"\(Int(pos[i].x))\" y=\"\(Int(pos[i].y))\" width=\"\(Int(w))\" height=\"\(Int(hgt))\" rx=\"8\" fill=\"\(fill)\" stroke=\"#c7c7cc\"/>")
            h.raw("<text x=\"\(Int(pos[i].x + 10))\" y=\"\(Int(pos[i].y + 18))\" font-size=\"12\" font-weight=\"600\">\(esc(Self.fit(title, width: w - 16, em: 12, boldness: 1.08)))</text>")
            h.raw("<text x=\"\(Int(pos[i].x + 10))\" y=\"\(Int(pos[i].y + 34))\" font-size=\"11\">\(esc(Self.fit(layer, width: w - 16, em: 11)))</text>")
            h.raw("<text x=\"\(Int(pos[i].x + 10))\" y=\"\(Int(pos[i].y + 49))\" font-size=\"11\" class=\"sub\">\(p.width)×\(p.height) px\(esc(gpu))</text></g>\n")
        }
        // Colours by class: the page's `.graph text` rule outranks fill attributes, which left
        // the screen's white label dark on dark.
        h.raw("<g data-screen=\"\" class=\"screen\"><rect x=\"\(Int(screen.x))\" y=\"\(Int(screen.y))\" width=\"\(Int(screen.w))\" height=\"\(Int(screen.h))\" rx=\"8\" fill=\"#1c1c1e\"/>")
        h.raw("<text x=\"\(Int(screen.x + 10))\" y=\"\(Int(screen.y + 24))\" font-size=\"12\" font-weight=\"600\">screen</text>")
        h.raw("<text x=\"\(Int(screen.x + 10))\" y=\"\(Int(screen.y + 42))\" font-size=\"11\" class=\"sub\">\(r.scene.canvas.pixelWidth)×\(r.scene.canvas.pixelHeight) px</text></g>\n")
        h.raw("</svg></div>\n</section>\n")
    }

    /// `text` cut with "…" to fit `width` px at `em` px per em, so a long layer name or reason list
    /// stays inside its box (the box's tooltip has it whole). Proportional glyphs average about
    /// 0.56 em in the page's sans-serif; bold runs wider.
    static func fit(_ text: String, width: Double, em: Double, boldness: Double = 1) -> String {
        let fits = max(Int(width / (0.56 * em * boldness)), 4)
        return text.count <= fits ? text : String(text.prefix(fits - 1)) + "…"
    }
}
