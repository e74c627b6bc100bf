import SystemSupport
import Profile

/// The HTML report's per-frame charts as inline SVG (no script, no library): one `<g class="frame">`
/// per frame holding its bars, its finding mark and a `<title>` tooltip, on a shared frame axis.
/// Colours come from the page's CSS classes, so the charts follow light and dark mode.
struct HTMLChart {
    let frames: [ProfileReport.FrameRecord]
    /// The most severe finding raised per frame (the marks under the plot).
    let severity: [Int: Severity]
    /// Frames outlined by a dashed line (those the overlays show).
    let marked: Set<Int>

    static let width = 960.0
    static let left = 70.0
    static let right = 12.0
    static let top = 14.0
    static let plotHeight = 120.0
    static let bottom = 36.0
    var plotWidth: Double { Self.width - Self.left - Self.right }
    var height: Double { Self.top + Self.plotHeight + Self.bottom }
    var band: Double { plotWidth / Double(max(frames.count, 1)) }

    /// Stacked CPU stages per frame, with the GPU time as a line.
    func timeChart(gpu: Bool, software: Bool = false) -> String {
        let stages: [(String, KeyPath<FrameCost, UInt64>?, KeyPath<FrameCost, UInt64?>?)] = [
            ("evaluate", \.evaluateNanoseconds, nil), ("plan", \.planNanoseconds, nil),
            ("analyze", \.analyzeNanoseconds, nil), ("upload", nil, \.uploadNanoseconds), ("record", nil, \.recordNanoseconds),
        ]
        func value(_ c: FrameCost, _ s: (String, KeyPath<FrameCost, UInt64>?, KeyPath<FrameCost, UInt64?>?)) -> Double {
            if let k = s.1 { return Double(c[keyPath: k]) }
            return Double(c[keyPath: s.2!] ?? 0)
        }
        let hasRecord = frames.contains { $0.cost.recordNanoseconds != nil }
        let shown = stages.filter { ($0.0 != "record" && $0.0 != "upload") || hasRecord }
        let gpuValues = frames.map { f in f.cost.gpuNanoseconds.map { Double($0) } }
        let maxStack = frames.map { f in shown.reduce(0) { $0 + value(f.cost, $1) } }.max() ?? 0
        let maxValue = max(maxStack, gpuValues.compactMap { $0 }.max() ?? 0)
        let top = Self.nice(maxValue)
        var legend = shown.map { ($0.0, "s-\($0.0)") }
        if gpuValues.contains(where: { $0 != nil }) { legend.append(("GPU", "s-gpu")) }
        var svg = open("time", title: "Time per frame", legend: legend,
                       caption: "CPU stages stacked" + (gpuValues.contains { $0 != nil } ? (software ? "; the line is the device time of software Vulkan, on the CPU (timestamp queries)" : "; the line is the GPU's device time (timestamp queries)") : gpu ? "" : "; no GPU time (--no-gpu)"))
        svg += axes(top: top) { Self.compact($0 / 1e6) + " ms" }
        for (i, f) in frames.enumerated() {
            var y = Self.top + Self.plotHeight
            var parts: [String] = []
            var rects = ""
            for s in shown {
                let v = value(f.cost, s)
                parts.append("\(s.0) \(ReportUnits.ms(v))")
                let hgt = v / top * Self.plotHeight
                if hgt > 0 {
                    y -= hgt
                    rects += rect(i, y: y, height: hgt, cls: "s-\(s.0)")
                }
            }
            if let g = gpuValues[i] { parts.append("GPU \(ReportUnits.ms(g))") }
            svg += group(i, f, tooltip: parts.joined(separator: " · "), body: rects)
        }
        let points = gpuValues.enumerated().compactMap { i, v -> String? in
            v.map { "\(fmt(x(i))),\(fmt(Self.top + Self.plotHeight - $0 / top * Self.plotHeight))" }
        }
        if points.count > 1 { svg += "<polyline class=\"gpu-line\" points=\"\(points.joined(separator: " "))\"/>" }
        if points.count <= 120 {
            for p in points { let xy = p.split(separator: ","); svg += "<circle class=\"gpu-dot\" cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2.5\"/>" }
        }
        return svg + close()
    }

    /// Blended pixels per frame.
    func blendedChart(canvasPixels: Int) -> String {
        let values = frames.map { Double($0.counters.blendedPixels) }
        let top = Self.nice(values.max() ?? 0)
        var svg = open("blended", title: "Blended pixels", legend: [("blended", "s-blended")],
                       caption: "canvas pixels whose final colour involves blending (the blended overlay's red and orange)")
        svg += axes(top: top) { $0 >= 1e6 ? Self.compact($0 / 1e6) + " Mpx" : $0 >= 1e3 ? Self.compact($0 / 1e3) + " kpx" : Self.compact($0) + " px" }
        let canvas = Double(max(canvasPixels, 1))
        for (i, f) in frames.enumerated() {
            let v = values[i], hgt = v / top * Self.plotHeight
            svg += group(i, f, tooltip: "blended \(ReportUnits.pixels(v)) (\(ReportUnits.percent(v / canvas)) of the screen) · shaded \(ReportUnits.pixels(f.counters.shadedPixels))",
                         body: rect(i, y: Self.top + Self.plotHeight - hgt, height: hgt, cls: "s-blended"))
        }
        return svg + close()
    }

    /// Overdraw (Android's: draws beyond the first per canvas pixel) per frame, with the 1× line.
    func overdrawChart() -> String {
        let values = frames.map(\.counters.overdraw)
        let top = Self.nice(max(values.max() ?? 0, 1))
        var svg = open("overdraw", title: "Overdraw", legend: [("overdraw", "s-overdraw")],
                       caption: "draws beyond the first per screen pixel (Android's overdraw); the dashed line is 1×")
        svg += axes(top: top) { Self.compact($0) + "×" }
        let one = Self.top + Self.plotHeight - 1 / top * Self.plotHeight
        for (i, f) in frames.enumerated() {
            let v = values[i], hgt = v / top * Self.plotHeight
            svg += group(i, f, tooltip: "overdraw \(ReportUnits.times(v)) · up to \(f.counters.maxOverdraw)× on a pixel · \(ReportUnits.count(f.counters.items, "item"))",
                         body: rect(i, y: Self.top + Self.plotHeight - hgt, height: hgt, cls: "s-overdraw"))
        }
        svg += "<line class=\"ref\" x1=\"\(fmt(Self.left))\" x2=\"\(fmt(Self.width - Self.right))\" y1=\"\(fmt(one))\" y2=\"\(fmt(one))\"/>"
        return svg + close()
    }

    // MARK: - Pieces

    func x(_ i: Int) -> Double { Self.left + (Double(i) + 0.5) * band }

    func rect(_ i: Int, y: Double, height: Double, cls: String) -> String {
        let gap = min(band * 0.2, 2)
        let w = max(band - gap, 0.6)
        return "<rect class=\"\(cls)\" x=\"\(fmt(x(i) - w / 2))\" y=\"\(fmt(y))\" width=\"\(fmt(w))\" height=\"\(fmt(max(height, 0)))\"/>"
    }

    /// One frame's group: a hover band, its bars, its finding mark, its tooltip.
    func group(_ i: Int, _ f: ProfileReport.FrameRecord, tooltip: String, body: String) -> String {
        var g = "<g class=\"frame\" data-frame=\"\(f.index)\"><title>frame \(f.index) · t = \(ReportUnits.seconds(f.time)) · \(esc(tooltip))"
        if !f.findings.isEmpty { g += " · " + f.findings.map(\.rawValue).joined(separator: ", ") }
        g += "</title><rect class=\"hover\" x=\"\(fmt(x(i) - band / 2))\" y=\"\(fmt(Self.top))\" width=\"\(fmt(band))\" height=\"\(fmt(Self.plotHeight))\"/>" + body
        if let s = severity[f.index] {
            g += "<rect class=\"mark sev-\(s.rawValue)\" x=\"\(fmt(x(i) - band / 2))\" y=\"\(fmt(Self.top + Self.plotHeight + 5))\" width=\"\(fmt(max(band - min(band * 0.2, 2), 0.6)))\" height=\"5\"/>"
        }
        return g + "</g>"
    }

    func open(_ id: String, title: String, legend: [(String, String)], caption: String) -> String {
        var s = "<figure class=\"chart\" data-chart=\"\(id)\"><figcaption><b>\(esc(title))</b>"
        for (name, cls) in legend { s += "<span class=\"key\"><i class=\"\(cls)\"></i>\(esc(name))</span>" }
        s += "<span class=\"muted\">\(esc(caption))</span></figcaption>"
        s += "<svg viewBox=\"0 0 \(fmt(Self.width)) \(fmt(height))\" role=\"img\" aria-label=\"\(esc(title)) per frame\" preserveAspectRatio=\"xMinYMin meet\">"
        return s
    }

    func close() -> String {
        var s = ""
        for (i, f) in frames.enumerated() where marked.contains(f.index) {
            s += "<line class=\"marked\" x1=\"\(fmt(x(i)))\" x2=\"\(fmt(x(i)))\" y1=\"\(fmt(Self.top - 4))\" y2=\"\(fmt(Self.top + Self.plotHeight))\"/>"
        }
        return s + "</svg></figure>\n"
    }

    /// Grid lines and y labels at 0, ½ and the top; frame numbers along x.
    func axes(top: Double, label: (Double) -> String) -> String {
        var s = ""
        for k in 0...2 {
            let v = top * Double(k) / 2
            let y = Self.top + Self.plotHeight - Double(k) / 2 * Self.plotHeight
            s += "<line class=\"grid\" x1=\"\(fmt(Self.left))\" x2=\"\(fmt(Self.width - Self.right))\" y1=\"\(fmt(y))\" y2=\"\(fmt(y))\"/>"
            s += "<text class=\"ylabel\" x=\"\(fmt(Self.left - 8))\" y=\"\(fmt(y + 4))\">\(k == 0 ? "0" : esc(label(v)))</text>"
        }
        if !severity.isEmpty {
            s += "<text class=\"ylabel\" x=\"\(fmt(Self.left - 8))\" y=\"\(fmt(Self.top + Self.plotHeight + 10))\">findings</text>"
        }
        let n = frames.count
        let step = Self.niceStep(Double(n) / 8)
        var i = 0
        while i < n {
            s += "<text class=\"xlabel\" x=\"\(fmt(x(i)))\" y=\"\(fmt(Self.top + Self.plotHeight + 24))\">\(frames[i].index)</text>"
            i += step
        }
        return s
    }

    /// An axis number: three significant digits, no trailing zeros ("50", "2.5", "0.25").
    static func compact(_ v: Double) -> String { String(cFormat: "%.3g", v) }

    /// The smallest of 1, 2, 2.5, 5 × 10^k at or above v (1 for v ≤ 0).
    static func nice(_ v: Double) -> Double {
        guard v > 0, v.isFinite else { return 1 }
        let p = pow(10, (log10(v)).rounded(.down))
        for m in [1.0, 2, 2.5, 5, 10] where m * p >= v * (1 - 1e-12) { return m * p }
        return 10 * p
    }

    /// A whole step of 1, 2, 5 × 10^k at or above v.
    static func niceStep(_ v: Double) -> Int {
        guard v > 1 else { return 1 }
        let p = pow(10, (log10(v)).rounded(.down))
        for m in [1.0, 2, 5, 10] where m * p >= v { return Int(m * p) }
        return Int(10 * p)
    }

    func fmt(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
