import Profile

/// Which layers got more (or less) expensive between a baseline and the current run, and why:
/// findings added or removed, their pixels up or down, and what the layer itself shades and
/// blends (`LayerPixels`, finding or not). Layers are matched by display name (their name, else
/// their index path: name the layers you want followed across edits).
public struct LayerChange: Sendable, Equatable, Codable {
    public enum Direction: String, Sendable, Codable {
        /// Its findings cost more pixels now, or it raises a finding it did not, or (findings
        /// alike) it shades or blends more.
        case costlier
        /// Its findings cost fewer pixels now, or one was resolved, or it draws less.
        case cheaper
    }
    public var layer: String
    /// Its line in the scene file (the current one, else the baseline's).
    public var line: Int?
    public var direction: Direction
    /// Device pixels its findings cost in their worst frames, before and now.
    public var pixelsBefore: Int
    public var pixelsAfter: Int
    /// Finding ids it raises now and did not, and no longer raises.
    public var added: [String]
    public var removed: [String]
    /// Findings it raised before and now, with different costs.
    public var changed: [FindingChange]
    /// What it shaded and blended before and now, when both runs measured it and it changed.
    public var drawn: DrawnChange?

    public var pixelDelta: Int { pixelsAfter - pixelsBefore }

    /// "gained offscreen.rounded-clip; blended 10 kpx → 20 kpx; blends 0 px → 120.0 kpx"
    public var why: String {
        var parts: [String] = []
        if !added.isEmpty { parts.append("gained " + added.joined(separator: ", ")) }
        if !removed.isEmpty { parts.append("lost " + removed.joined(separator: ", ")) }
        for c in changed {
            if c.before.maxPixels != c.after.maxPixels {
                parts.append("\(c.id) \(GateFormat.pixels(Double(c.before.maxPixels))) → \(GateFormat.pixels(Double(c.after.maxPixels)))")
            } else {
                parts.append("\(c.id) in \(c.before.frames) → \(c.after.frames) frames")
            }
        }
        if let d = drawn {
            if d.blendedBefore != d.blendedAfter {
                parts.append("blends \(GateFormat.pixels(Double(d.blendedBefore))) → \(GateFormat.pixels(Double(d.blendedAfter)))")
            }
            if d.shadedBefore != d.shadedAfter {
                parts.append("shades \(GateFormat.pixels(Double(d.shadedBefore))) → \(GateFormat.pixels(Double(d.shadedAfter)))")
            }
        }
        return parts.joined(separator: "; ")
    }

    /// Finding ids involved in the change.
    public var findingIDs: Set<String> { Set(added + removed + changed.map(\.id)) }
}

/// What one layer shaded and blended (the most of one frame) before and now: `LayerPixels`.
public struct DrawnChange: Sendable, Equatable, Codable {
    public var shadedBefore: Int, shadedAfter: Int
    public var blendedBefore: Int, blendedAfter: Int
    public var shadedDelta: Int { shadedAfter - shadedBefore }
    public var blendedDelta: Int { blendedAfter - blendedBefore }
}

public struct FindingChange: Sendable, Equatable, Codable {
    public var id: String
    public var before: FindingCost
    public var after: FindingCost
}

public enum LayerDiff {
    /// Costlier layers first, then cheaper ones, each the largest change first; layers whose
    /// findings and drawn pixels did not change are left out. Drawn pixels are compared only when
    /// both runs measured them (a baseline recorded before they were has none).
    public static func diff(baseline: SceneMeasurement, current: SceneMeasurement) -> [LayerChange] {
        let before = Dictionary(baseline.layers.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
        let after = Dictionary(current.layers.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
        var drawnBefore: [String: LayerPixels] = [:], drawnAfter: [String: LayerPixels] = [:]
        let compareDrawn = baseline.layerPixels != nil && current.layerPixels != nil
        if compareDrawn {
            drawnBefore = Dictionary(baseline.layerPixels!.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
            drawnAfter = Dictionary(current.layerPixels!.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
        }
        var out: [LayerChange] = []
        for name in Set(before.keys).union(after.keys).union(drawnBefore.keys).union(drawnAfter.keys) {
            let b = before[name]?.findings ?? [:], a = after[name]?.findings ?? [:]
            let added = Set(a.keys).subtracting(b.keys).sorted(), removed = Set(b.keys).subtracting(a.keys).sorted()
            let changed = Set(a.keys).intersection(b.keys).sorted().compactMap { id -> FindingChange? in
                a[id]!.sameCost(as: b[id]!) ? nil : FindingChange(id: id, before: b[id]!, after: a[id]!)
            }
            let db = drawnBefore[name], da = drawnAfter[name]
            var drawn: DrawnChange?
            if compareDrawn, db?.shadedPixels != da?.shadedPixels || db?.blendedFragments != da?.blendedFragments {
                drawn = DrawnChange(shadedBefore: db?.shadedPixels ?? 0, shadedAfter: da?.shadedPixels ?? 0,
                                    blendedBefore: db?.blendedFragments ?? 0, blendedAfter: da?.blendedFragments ?? 0)
            }
            let findingsChanged = !(added.isEmpty && removed.isEmpty && changed.isEmpty)
            if !findingsChanged && drawn == nil { continue }
            let pb = before[name]?.pixels ?? 0, pa = after[name]?.pixels ?? 0
            let costlier: Bool
            if pa != pb { costlier = pa > pb }
            else if findingsChanged { costlier = !added.isEmpty || changed.contains { $0.after.frames > $0.before.frames } }
            else { costlier = drawn!.blendedDelta != 0 ? drawn!.blendedDelta > 0 : drawn!.shadedDelta > 0 }
            out.append(LayerChange(layer: name, line: after[name]?.line ?? da?.line ?? before[name]?.line ?? db?.line,
                                direction: costlier ? .costlier : .cheaper, pixelsBefore: pb, pixelsAfter: pa,
                                added: added, removed: removed, changed: changed, drawn: drawn))
        }
        return out.sorted {
            if $0.direction != $1.direction { return $0.direction == .costlier }
            let d0 = magnitude($0), d1 = magnitude($1)
            return d0 != d1 ? d0 > d1 : $0.layer < $1.layer
        }
    }

    /// How large a change is, for ordering: the largest of its findings' and its drawn pixels'.
    static func magnitude(_ c: LayerChange) -> Int {
        max(abs(c.pixelDelta), abs(c.drawn?.blendedDelta ?? 0), abs(c.drawn?.shadedDelta ?? 0))
    }

    /// Findings (id, layer) raised now that the baseline does not have.
    public static func newFindings(baseline: SceneMeasurement, current: SceneMeasurement) -> [(layer: LayerCost, id: String)] {
        let before = Dictionary(baseline.layers.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
        return current.layers.flatMap { l in
            l.findings.keys.sorted().filter { before[l.layer]?.findings[$0] == nil }.map { (layer: l, id: $0) }
        }
    }
}
