import Profile

/// What the gate knows of one scene: its metrics and what each layer costs, taken from one or more
/// profile reports of it (several runs: timing metrics are their median). This is also what a
/// baseline stores per scene, so a measurement and its baseline compare field by field.
public struct SceneMeasurement: Sendable, Equatable, Codable {
    /// Runs measured (timing metrics are the median over them).
    public var runs: Int
    /// Frames profiled per run.
    public var frames: Int
    /// Device pixels of the canvas.
    public var canvasPixels: Int
    /// By `Metric` raw value. `newFindings` is never stored (it is a comparison); timing metrics
    /// only when a timing rule asked for them (so baselines of exact metrics stay byte-stable).
    public var metrics: [String: Double]
    /// Layers raising each finding id.
    public var findingCounts: [String: Int]
    /// Per layer (by display name: its name, else its index path), the findings it raises and
    /// what they cost; sorted by layer.
    public var layers: [LayerCost]
    /// Per layer that draws, the most it shaded and blended in one frame (`LayerPixels`), finding
    /// or not: the layer diff compares them so that a layer costlier without a finding (a new
    /// shadow) is the one blamed. nil in baselines and reports made before they were measured.
    public var layerPixels: [LayerPixels]?

    public init(runs: Int, frames: Int, canvasPixels: Int, metrics: [String: Double], findingCounts: [String: Int], layers: [LayerCost],
                layerPixels: [LayerPixels]? = nil) {
        self.runs = runs; self.frames = frames; self.canvasPixels = canvasPixels; self.metrics = metrics
        self.findingCounts = findingCounts; self.layers = layers; self.layerPixels = layerPixels
    }

    public subscript(metric: Metric) -> Double? { metrics[metric.rawValue] }

    /// The measurement of one or more runs of the same scene (the first run's plan counters and
    /// findings: they are identical in every run; timing: the median over the runs).
    /// - Parameter timing: keep the timing metrics (a timing rule asked for them).
    public init(reports: [ProfileReport], timing: Bool) {
        precondition(!reports.isEmpty, "a measurement needs at least one report")
        let r = reports[0]
        runs = reports.count
        frames = r.frames.count
        canvasPixels = r.scene.canvas.pixelWidth * r.scene.canvas.pixelHeight
        func maxOf(_ key: (FrameCounters) -> Double) -> Double { r.frames.map { key($0.counters) }.max() ?? 0 }
        // Per layer: a grouped finding counts once per layer it names, as before grouping.
        let findings = r.findings.flatMap(\.perLayer)
        // Each layer's finding takes the severity the report gives it (a group's, which its sum
        // of pixels may raise): the severity `--fail-on` and a new scene's report go by.
        let severities = r.findings.flatMap { g in g.perLayer.map { _ in g.severity } }
        var m: [String: Double] = [
            Metric.offscreenPasses.rawValue: maxOf { Double($0.offscreenPasses) },
            Metric.offscreenPixels.rawValue: maxOf { Double($0.offscreenPixels) },
            Metric.blendedPixels.rawValue: maxOf { Double($0.blendedPixels) },
            Metric.shadedPixels.rawValue: maxOf { Double($0.shadedPixels) },
            // Rounded so that baselines stay readable and stable.
            Metric.overdraw.rawValue: (maxOf { $0.overdraw } * 10_000).rounded() / 10_000,
            Metric.misalignedLayers.rawValue: Double(Set(findings.filter { $0.id == .misalignedSubpixel || $0.id == .misalignedScaled }
                .map(\.layer.display)).count),
            Metric.findings.rawValue: Double(findings.count),
            Metric.rasterCacheMisses.rawValue: Double(r.frames.reduce(0) { $0 + ($1.counters.rasterCacheMisses ?? 0) }),
        ]
        // Flash Updated Regions after the first frame (reports made before damage was measured lack it).
        let damaged = r.frames.dropFirst().compactMap(\.counters.damagedPixels)
        if r.frames.first?.counters.damagedPixels != nil {
            m[Metric.damagedPixels.rawValue] = Double(damaged.max() ?? 0)
        }
        if timing {
            let cpu = reports.map { rep in Self.mean(rep.frames.map { f -> Double in
                Double(f.cost.cpuNanoseconds) / 1e6
            }) }
            m[Metric.cpuMilliseconds.rawValue] = Self.round(Self.median(cpu))
            let gpu = reports.compactMap { rep -> Double? in
                let g = rep.frames.compactMap(\.cost.gpuNanoseconds)
                return g.isEmpty ? nil : Self.mean(g.map { Double($0) / 1e6 })
            }
            if !gpu.isEmpty { m[Metric.gpuMilliseconds.rawValue] = Self.round(Self.median(gpu)) }
        }
        metrics = m
        var counts: [String: Int] = [:]
        for f in findings { counts[f.id.rawValue, default: 0] += 1 }
        findingCounts = counts
        var byLayer: [String: LayerCost] = [:]
        for (f, severity) in zip(findings, severities) {
            // A line is kept only when it is in the scene file itself: the culprits' annotations
            // point at `file=SCENE,line=N`, which a line inside a .lottie or .ca package is not.
            let line = f.layer.location.flatMap { $0.file == r.scene.file ? $0.line : nil }
            var l = byLayer[f.layer.display] ?? LayerCost(layer: f.layer.display, line: line, findings: [:])
            if l.line == nil { l.line = line }
            var c = l.findings[f.id.rawValue] ?? FindingCost(maxPixels: 0, totalPixels: 0, frames: 0)
            c.maxPixels += f.maxPixels; c.totalPixels += f.totalPixels; c.frames = max(c.frames, f.frameCount)
            c.severity = max(c.severity ?? severity, severity)
            l.findings[f.id.rawValue] = c
            byLayer[f.layer.display] = l
        }
        layers = byLayer.values.sorted { $0.layer < $1.layer }
        layerPixels = r.layerPixels
    }

    static func mean(_ v: [Double]) -> Double { v.isEmpty ? 0 : v.reduce(0, +) / Double(v.count) }
    /// The median (the mean of the middle two for an even count).
    public static func median(_ v: [Double]) -> Double {
        if v.isEmpty { return 0 }
        let s = v.sorted(), n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }
    static func round(_ ms: Double) -> Double { (ms * 1000).rounded() / 1000 }
}

/// What one layer's findings cost in a run.
public struct LayerCost: Sendable, Equatable, Codable {
    /// The layer's name, else its index path from the root ("2.1"; "root").
    public var layer: String
    /// Its line in the scene file.
    public var line: Int?
    /// By finding id.
    public var findings: [String: FindingCost]

    public init(layer: String, line: Int?, findings: [String: FindingCost]) {
        self.layer = layer; self.line = line; self.findings = findings
    }

    /// Device pixels its findings cost in their worst frames, summed over its findings.
    public var pixels: Int { findings.values.reduce(0) { $0 + $1.maxPixels } }
}

/// What one finding of one layer costs: device pixels in its worst frame and over all its
/// frames, and the frames it is raised in.
public struct FindingCost: Sendable, Equatable, Codable {
    public var maxPixels: Int
    public var totalPixels: Int
    public var frames: Int
    /// The severity the report gives it (nil in baselines recorded before it was kept).
    public var severity: Severity?
    public init(maxPixels: Int, totalPixels: Int, frames: Int, severity: Severity? = nil) {
        self.maxPixels = maxPixels; self.totalPixels = totalPixels; self.frames = frames; self.severity = severity
    }

    /// The same cost (pixels and frames; the severity follows from them).
    func sameCost(as o: FindingCost) -> Bool { maxPixels == o.maxPixels && totalPixels == o.totalPixels && frames == o.frames }
}
