import LayerModel
import Plan

/// What the profiler needs to know about each layer of one presentation tree: how to name it in a
/// report and the few properties the analyses read beside the plan. Mask layers are listed under
/// their name, else "<owner> mask" (they draw nothing on screen, but their own offscreen passes
/// are reported).
public struct LayerDirectory: Sendable {
    public struct Entry: Sendable, Equatable {
        public var id: LayerID
        public var name: String?
        /// Sublayer indices from the root (the root is []).
        public var indexPath: [Int]
        public var location: SourceLocation?
        public var backgroundAlpha: Double
        public var borderAlpha: Double
        public var contentsScale: Double
        public var shouldRasterize: Bool
        public var rasterizationScale: Double
        public var hasSublayers: Bool
        /// The layer and its descendants (only filled for shouldRasterize layers, the one analysis
        /// that needs a subtree).
        public var subtree: Set<LayerID>
        /// The layer or an ancestor has a `mask`: its pixels are cut by the mask's alpha.
        public var masked: Bool = false
        /// A CAEmitterLayer: its particles are its items (additive ones blend with `plus`).
        public var isEmitter: Bool = false
        /// contentsCenter cuts the image into nine parts, stretched by design (a resizing gravity and
        /// a centre that is not the whole image: `ContentsLayout.isNineSliced`).
        public var stretchable: Bool = false
        /// A CABackdropLayer (or a layer with backgroundFilters) or a layer inside one: a
        /// translucent tint there is the frosted look itself, not something to make opaque.
        public var inBackdrop: Bool = false

        /// The name, else the index path ("2.1"; "root" for the root), as render warnings print it.
        /// Negative ids are a CATransition's previous state (the evaluator's snapshot), named so.
        public var displayName: String {
            let base: String
            if let n = name, !n.isEmpty { base = n } else {
                base = indexPath.isEmpty ? "root" : indexPath.map(String.init).joined(separator: ".")
            }
            return id < 0 ? base + " (previous state, CATransition)" : base
        }
    }

    public private(set) var entries: [LayerID: Entry] = [:]

    public init(root: Layer) {
        visit(root, path: [], masked: false, inBackdrop: false)
    }

    public subscript(id: LayerID) -> Entry? { entries[id] }

    private mutating func visit(_ l: Layer, path: [Int], masked: Bool, inBackdrop: Bool) {
        let masked = masked || l.mask != nil
        let inBackdrop = inBackdrop || l.layerClass == .backdrop || !l.backgroundFilters.isEmpty
        var subtree: Set<LayerID> = []
        if l.shouldRasterize { l.forEach { subtree.insert($0.id) } }
        entries[l.id] = Entry(id: l.id, name: l.name, indexPath: path, location: l.location,
                              backgroundAlpha: l.backgroundColor?.alpha ?? 0, borderAlpha: l.borderColor?.alpha ?? 0,
                              contentsScale: l.contentsScale, shouldRasterize: l.shouldRasterize,
                              rasterizationScale: l.rasterizationScale, hasSublayers: !l.sublayers.isEmpty,
                              subtree: subtree, masked: masked, isEmitter: l.layerClass == .emitter,
                              stretchable: l.contents != nil
                                && ContentsLayout.isNineSliced(gravity: l.contentsGravity, contentsCenter: l.contentsCenter),
                              inBackdrop: inBackdrop)
        if let m = l.mask {
            var named = m
            if named.name?.isEmpty ?? true { named.name = (entries[l.id]?.displayName ?? "layer") + " mask" }
            visit(named, path: path, masked: false, inBackdrop: false)
        }
        for (i, s) in l.sublayers.enumerated() { visit(s, path: path + [i], masked: masked, inBackdrop: inBackdrop) }
    }
}
