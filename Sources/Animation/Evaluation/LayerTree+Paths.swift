import LayerModel

/// Addressing layers inside a value-type tree: an index path from the root (-1 = the mask).
extension Layer {
    /// The index path of the first layer (preorder) satisfying `match`; nil when none does.
    func indexPath(where match: (Layer) -> Bool) -> [Int]? {
        if match(self) { return [] }
        if let m = mask, let p = m.indexPath(where: match) { return [-1] + p }
        for (i, s) in sublayers.enumerated() {
            if let p = s.indexPath(where: match) { return [i] + p }
        }
        return nil
    }

    /// The layer at `path` (nil if the path does not exist).
    func layer(at path: ArraySlice<Int>) -> Layer? {
        guard let first = path.first else { return self }
        if first == -1 { return mask?.layer(at: path.dropFirst()) }
        guard sublayers.indices.contains(first) else { return nil }
        return sublayers[first].layer(at: path.dropFirst())
    }

    /// Mutates the layer at `path` in place.
    mutating func modify(at path: ArraySlice<Int>, _ body: (inout Layer) -> Void) {
        guard let first = path.first else { body(&self); return }
        if first == -1 {
            if var m = mask { m.modify(at: path.dropFirst(), body); mask = m }
            return
        }
        guard sublayers.indices.contains(first) else { return }
        sublayers[first].modify(at: path.dropFirst(), body)
    }

    /// The layers from this one down to the one at `path`, both included.
    func chain(to path: ArraySlice<Int>) -> [Layer] {
        var out = [self]
        var cur = self
        for i in path {
            guard let next = i == -1 ? cur.mask : (cur.sublayers.indices.contains(i) ? cur.sublayers[i] : nil) else { break }
            out.append(next); cur = next
        }
        return out
    }

    /// The local time of the layer at `path` when the scene (the root's parent) is at `sceneTime`:
    /// each layer down the chain maps its parent's time (reference §3.2).
    func localTime(at path: [Int], sceneTime: Double) -> Double {
        chain(to: path[...]).reduce(sceneTime) {
            MediaTiming.layerLocalTime(parentTime: $0, beginTime: $1.beginTime, speed: $1.speed, timeOffset: $1.timeOffset)
        }
    }

    /// The index path of every layer in the subtree, by id (one walk instead of a search per layer).
    var indexPathsByID: [LayerID: [Int]] {
        var out: [LayerID: [Int]] = [:]
        func visit(_ l: Layer, _ path: [Int]) {
            out[l.id] = path
            if let m = l.mask { visit(m, path + [-1]) }
            for (i, s) in l.sublayers.enumerated() { visit(s, path + [i]) }
        }
        visit(self, [])
        return out
    }

    /// The local time of every layer at `sceneTime`, by id, and whether its chain is frozen
    /// (speed 0 somewhere from the root down to it).
    func localTimesByID(sceneTime: Double) -> [LayerID: (time: Double, frozen: Bool)] {
        var out: [LayerID: (Double, Bool)] = [:]
        func visit(_ l: Layer, _ parent: Double, _ frozen: Bool) {
            let t = MediaTiming.layerLocalTime(parentTime: parent, beginTime: l.beginTime, speed: l.speed, timeOffset: l.timeOffset)
            let f = frozen || l.speed == 0
            out[l.id] = (t, f)
            if let m = l.mask { visit(m, t, f) }
            for s in l.sublayers { visit(s, t, f) }
        }
        visit(self, sceneTime, false)
        return out
    }

    /// Every id in the subtree (masks included).
    var subtreeIDs: [LayerID] { var ids: [LayerID] = []; forEach { ids.append($0.id) }; return ids }

    /// The largest id in the subtree.
    var maxID: LayerID { var m = id; forEach { m = max(m, $0.id) }; return m }

    /// A copy whose ids are mapped by `transform` (masks and sublayers included).
    func relabelled(_ transform: (LayerID) -> LayerID) -> Layer {
        var l = self
        l.id = transform(id)
        if let m = mask { l.mask = m.relabelled(transform) }
        l.sublayers = sublayers.map { $0.relabelled(transform) }
        return l
    }
}
