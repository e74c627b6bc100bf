/// Near-identical findings on many layers (six table cells, each with the same misaligned frame;
/// four avatars with the same resampled image) become one finding listing the layers, with their
/// total cost, so a report names one fix once instead of repeating it per layer.
///
/// "Near-identical" = the same id, the same phase (at rest or mid-animation) and the same fix
/// text (the fix carries the numbers that matter: the pixel size to supply, the scale to set).
/// The group's pixels are the sum of its layers' (each in its own worst frame), and its share of
/// the screen decides the severity. Findings whose sum exceeds the screen are on layers stacked
/// over the same pixels: they are left apart (a share above 100 % would mean nothing).
/// Each layer's own finding stays in `members`, so tools (and the gate) still see every layer.
public enum FindingGroups {
    public static func group(_ findings: [Finding], canvasPixels: Int) -> [Finding] {
        struct Key: Hashable { var id: FindingID; var phase: FindingPhase; var fix: String }
        var order: [Key] = []
        var groups: [Key: [Finding]] = [:]
        for f in findings {
            let k = Key(id: f.id, phase: f.phase, fix: f.fix)
            if groups[k] == nil { order.append(k) }
            groups[k, default: []].append(f)
        }
        let out = order.flatMap { k -> [Finding] in
            let members = groups[k]!
            guard members.count > 1, members.reduce(0, { $0 + $1.maxPixels }) <= canvasPixels else { return members }
            // The costliest layer leads (the input order is most pixels first within a severity).
            let sorted = members.sorted { $0.maxPixels != $1.maxPixels ? $0.maxPixels > $1.maxPixels : $0.layer.id < $1.layer.id }
            let lead = sorted[0]
            var g = lead
            g.maxPixels = sorted.reduce(0) { $0 + $1.maxPixels }
            g.totalPixels = sorted.reduce(0) { $0 + $1.totalPixels }
            // The members' shares add up (for offscreen findings a share is of the screen their
            // results cover, not of the texels they render).
            g.canvasShare = min(sorted.reduce(0) { $0 + $1.canvasShare }, 1)
            g.frames = FrameRun.runs(sorted.flatMap { $0.frames.flatMap { Array($0.first...$0.last) } })
            g.frameCount = g.frames.reduce(0) { $0 + $1.count }
            g.severity = sorted.map(\.severity).max()!
            let fromShare = Severity(canvasShare: g.canvasShare)
            if !FindingAggregator.isCapped(k.id, k.phase) && fromShare > g.severity { g.severity = fromShare }
            g.explanation = "\(sorted.count) layers alike; \(lead.layer.display): \(lead.explanation)"
            g.members = sorted
            return [g]
        }
        return FindingAggregator.ordered(out)
    }
}

extension Finding {
    /// The per-layer findings: the members of a group, else the finding itself.
    public var perLayer: [Finding] { members ?? [self] }
    /// The layers a finding names: every member's for a group.
    public var layers: [LayerRef] { perLayer.map(\.layer) }
    /// Its pixels are texels rendered offscreen (offscreen passes, raster-cache misses), not
    /// pixels on the screen: they can exceed the canvas, while its share of the screen is what
    /// its result covers.
    public var pixelsAreOffscreenTexels: Bool {
        id.rawValue.hasPrefix("offscreen.") || id == .rasterCacheMiss
            || (id == .shadowHidden && evidence.passBounds != nil)   // a path-less shadow's passes
    }

    /// "navbar" for one layer; "cell-1, cell-2, cell-3 and 3 more (6 layers)" for a group.
    public var layersDescription: String {
        guard let m = members, m.count > 1 else { return layer.display }
        let shown = m.prefix(4).map(\.layer.display).joined(separator: ", ")
        return (m.count > 4 ? shown + " and \(m.count - 4) more" : shown) + " (\(m.count) layers)"
    }
}
