/// Which layers got more (or less) expensive between a baseline and the current run, and why:
/// findings added or removed, pixels up or down. Layers are matched by display name (their name,
/// else their index path: name the layers you want followed across edits).
public struct LayerChange: Sendable, Equatable, Codable {
    public enum Direction: String, Sendable, Codable {
        /// Its findings cost more pixels now, or it raises a finding it did not.
        case costlier
        /// Its findings cost fewer pixels now, or one was resolved.
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

    public var pixelDelta: Int { pixelsAfter - pixelsBefore }

    /// "gained offscreen.rounded-clip (27 kpx); blended 10 kpx → 20 kpx"
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
        return parts.joined(separator: "; ")
    }

    /// Finding ids involved in the change.
    public var findingIDs: Set<String> { Set(added + removed + changed.map(\.id)) }
}

public struct FindingChange: Sendable, Equatable, Codable {
    public var id: String
    public var before: FindingCost
    public var after: FindingCost
}

public enum LayerDiff {
    /// Costlier layers first (most pixels added first), then cheaper ones (most pixels saved
    /// first); layers whose findings did not change are left out.
    public static func diff(baseline: SceneMeasurement, current: SceneMeasurement) -> [LayerChange] {
        let before = Dictionary(baseline.layers.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
        let after = Dictionary(current.layers.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [LayerChange] = []
        for name in Set(before.keys).union(after.keys) {
            let b = before[name]?.findings ?? [:], a = after[name]?.findings ?? [:]
            let added = Set(a.keys).subtracting(b.keys).sorted(), removed = Set(b.keys).subtracting(a.keys).sorted()
            let changed = Set(a.keys).intersection(b.keys).sorted().compactMap { id -> FindingChange? in
                a[id] == b[id] ? nil : FindingChange(id: id, before: b[id]!, after: a[id]!)
            }
            if added.isEmpty && removed.isEmpty && changed.isEmpty { continue }
            let pb = before[name]?.pixels ?? 0, pa = after[name]?.pixels ?? 0
            let costlier = pa > pb || (pa == pb && (!added.isEmpty || changed.contains { $0.after.frames > $0.before.frames }))
            out.append(LayerChange(layer: name, line: after[name]?.line ?? before[name]?.line,
                                   direction: costlier ? .costlier : .cheaper, pixelsBefore: pb, pixelsAfter: pa,
                                   added: added, removed: removed, changed: changed))
        }
        return out.sorted {
            if $0.direction != $1.direction { return $0.direction == .costlier }
            let d0 = abs($0.pixelDelta), d1 = abs($1.pixelDelta)
            return d0 != d1 ? d0 > d1 : $0.layer < $1.layer
        }
    }

    /// Findings (id, layer) raised now that the baseline does not have.
    public static func newFindings(baseline: SceneMeasurement, current: SceneMeasurement) -> [(layer: LayerCost, id: String)] {
        let before = Dictionary(baseline.layers.map { ($0.layer, $0) }, uniquingKeysWith: { a, _ in a })
        return current.layers.flatMap { l in
            l.findings.keys.sorted().filter { before[l.layer]?.findings[$0] == nil }.map { (layer: l, id: $0) }
        }
    }
}
