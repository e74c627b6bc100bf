/// The layers that explain a check, and each scene's culprits once across its checks.
///
/// Against a baseline a culprit is a layer whose own cost changed, in the direction of the check
/// (costlier for a failure, cheaper for an improvement), ranked by how much it moved the check's
/// metric: its blended fragments for `blendedPixels`, its shaded pixels for `shadedPixels` and
/// `overdraw`, its relevant findings' pixels for the others. A layer that did not change is never
/// blamed, however large: an unchanged navigation bar did not cause a new shadow's blending.
/// Without a baseline nothing changed, so the layers raising the relevant findings now are named.
enum GateCulprits {
    static func culprits(for status: CheckStatus, metric: Metric?, finding: String?, current: SceneMeasurement,
                         base: SceneMeasurement?, changes: [LayerChange], newOnes: [(layer: LayerCost, id: String)]) -> [Culprit] {
        guard status == .regression || status == .warn || status == .improvement else { return [] }
        let relevant: Set<String>? = finding.map { [$0] } ?? metric?.explainingFindings
        var culprits: [Culprit] = []
        if metric == .newFindings {
            // One culprit per layer, its new findings' pixels summed; its why is the layer diff's
            // when it has one (which says "gained …"), so a layer reads the same in every check.
            var order: [String] = [], byLayer: [String: Culprit] = [:]
            for n in newOnes {
                let px = n.layer.findings[n.id]?.maxPixels ?? 0
                let own = "new \(n.id) (\(GateFormat.pixels(Double(px))))"
                if var k = byLayer[n.layer.layer] {
                    k.pixels = (k.pixels ?? 0) + px
                    if !changes.contains(where: { $0.layer == n.layer.layer }) { k.why += ", " + own }
                    byLayer[n.layer.layer] = k
                } else {
                    order.append(n.layer.layer)
                    let why = changes.first { $0.layer == n.layer.layer }?.why ?? own
                    byLayer[n.layer.layer] = Culprit(layer: n.layer.layer, line: n.layer.line, why: why, pixels: px)
                }
            }
            culprits = order.map { byLayer[$0]! }
        } else if let b = base {
            let before = Dictionary(b.layers.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
            let after = Dictionary(current.layers.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
            for c in changes {
                guard let d = contribution(of: c, to: metric, relevant: relevant, before: before[c.layer], after: after[c.layer]) else { continue }
                // A change of frames only (same pixels) goes the way the layer diff says.
                let costlier = d != 0 ? d > 0 : c.direction == .costlier
                if costlier == (status == .improvement) { continue }
                culprits.append(Culprit(layer: c.layer, line: c.line, why: c.why, pixels: abs(d)))
            }
        } else if status != .improvement {
            // No baseline: nothing changed, so the layers raising the relevant findings now.
            culprits = current.layers
                .filter { l in relevant.map { !$0.isDisjoint(with: l.findings.keys) } ?? !l.findings.isEmpty }
                .map { l in
                    let ids = l.findings.keys.sorted().filter { relevant?.contains($0) ?? true }
                    return Culprit(layer: l.layer, line: l.line, why: ids.map { "\($0) (\(GateFormat.pixels(Double(l.findings[$0]!.maxPixels))))" }.joined(separator: ", "),
                                   pixels: ids.reduce(0) { $0 + l.findings[$1]!.maxPixels })
                }
        }
        // The largest first, whatever the source (ties keep the diff's order, else the names');
        // all of them are kept (JSON lists every one).
        return culprits.enumerated().sorted {
            let a = $0.element.pixels ?? 0, b = $1.element.pixels ?? 0
            return a != b ? a > b : $0.offset < $1.offset
        }.map(\.element)
    }

    /// How much (signed, pixels) `change` moved `metric`; nil when the layer's change has nothing
    /// to do with it.
    static func contribution(of change: LayerChange, to metric: Metric?, relevant: Set<String>?,
                             before: LayerCost?, after: LayerCost?) -> Int? {
        // The change of the relevant findings' pixels (gained ones count their pixels now, lost
        // ones their pixels before); nil when none of them changed.
        func findings(_ ids: Set<String>?) -> Int? {
            let touched = change.findingIDs.filter { ids?.contains($0) ?? true }
            if touched.isEmpty { return nil }
            return touched.reduce(0) { $0 + (after?.findings[$1]?.maxPixels ?? 0) - (before?.findings[$1]?.maxPixels ?? 0) }
        }
        let drawn = change.drawn
        switch metric {
        case .blendedPixels?:
            if let d = drawn, d.blendedDelta != 0 { return d.blendedDelta }
            return findings(relevant)
        case .shadedPixels?, .overdraw?:
            // Drawn pixels are what these count; a baseline without them falls back to findings.
            if let d = drawn { return d.shadedDelta != 0 ? d.shadedDelta : nil }
            return findings(nil)
        case .findings?, .newFindings?:
            // Counts of findings: only a layer whose findings changed moved them.
            return findings(nil)
        default:
            if relevant != nil { return findings(relevant) }
            if let f = findings(nil) { return f }
            return drawn.map { $0.blendedDelta != 0 ? $0.blendedDelta : $0.shadedDelta }
        }
    }
}

/// A layer named by one or more checks of a scene, once: the metrics it moved and why.
public struct SceneCulprit: Sendable, Equatable {
    public var layer: String
    public var line: Int?
    /// The rules of the checks it explains, in check order ("blendedPixels", "finding blended").
    public var rules: [String]
    /// The worst status among those checks.
    public var status: CheckStatus
    /// Why, each distinct reason once (the checks' reasons for it, in check order).
    public var reasons: [String]
    public var why: String { reasons.joined(separator: "; ") }
    /// The most it moved any of them (pixels), for ordering.
    public var pixels: Int
}

extension SceneResult {
    /// Each culprit layer once across the scene's checks (failures first, then warnings, then
    /// improvements; within them the largest change first), with every rule it moved: a layer
    /// that regressed three metrics is one culprit, not three.
    public var culprits: [SceneCulprit] {
        var byLayer: [String: SceneCulprit] = [:]
        var order: [String] = []
        for c in checks where !c.culprits.isEmpty {
            for k in c.culprits {
                if var s = byLayer[k.layer] {
                    if !s.rules.contains(c.rule) { s.rules.append(c.rule) }
                    s.status = max(s.status, c.status)
                    if !s.reasons.contains(k.why) { s.reasons.append(k.why) }
                    s.pixels = max(s.pixels, k.pixels ?? 0)
                    if s.line == nil { s.line = k.line }
                    byLayer[k.layer] = s
                } else {
                    order.append(k.layer)
                    byLayer[k.layer] = SceneCulprit(layer: k.layer, line: k.line, rules: [c.rule], status: c.status, reasons: [k.why], pixels: k.pixels ?? 0)
                }
            }
        }
        return order.enumerated().map { (offset: $0.offset, culprit: byLayer[$0.element]!) }.sorted {
            if $0.culprit.status != $1.culprit.status { return $0.culprit.status > $1.culprit.status }
            if $0.culprit.pixels != $1.culprit.pixels { return $0.culprit.pixels > $1.culprit.pixels }
            return $0.offset < $1.offset
        }.map(\.culprit)
    }
}

extension SceneResult {
    /// The culprits a text output shows (`GateEvaluation.maxCulprits`), and how many it leaves out.
    public var shownCulprits: (shown: [SceneCulprit], leftOut: Int) {
        let all = culprits
        return (Array(all.prefix(GateEvaluation.maxCulprits)), max(0, all.count - GateEvaluation.maxCulprits))
    }
}
