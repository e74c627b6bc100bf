import LayerModel

/// The model layer tree as reports show it (the HTML report's layer tree): each layer's id (what
/// findings name), class, display name and place in the scene file. Masks are listed as a child
/// marked `isMask`.
public struct LayerOutline: Sendable, Equatable, Codable {
    public var id: LayerID
    public var layerClass: String
    public var name: String?
    /// Sublayer indices from the root (a mask keeps its owner's path).
    public var path: [Int]
    /// The name, else the index path ("2.1"; "root"), as findings name layers.
    public var display: String
    public var location: FileLocation?
    public var isMask: Bool
    public var children: [LayerOutline]

    public init(_ layer: Layer, path: [Int] = [], isMask: Bool = false) {
        id = layer.id; layerClass = layer.layerClass.rawValue; name = layer.name; self.path = path; self.isMask = isMask
        if let n = layer.name, !n.isEmpty { display = n } else { display = path.isEmpty ? "root" : path.map(String.init).joined(separator: ".") }
        if isMask && (layer.name ?? "").isEmpty { display += " mask" }
        location = layer.location.map { FileLocation(file: $0.file, line: $0.line, column: $0.column) }
        var kids: [LayerOutline] = []
        if let m = layer.mask { kids.append(LayerOutline(m, path: path, isMask: true)) }
        for (i, s) in layer.sublayers.enumerated() { kids.append(LayerOutline(s, path: path + [i])) }
        children = kids
    }

    /// Layers in the subtree (this one included).
    public var count: Int { children.reduce(1) { $0 + $1.count } }

    /// Visits the subtree depth first, parents before children.
    public func forEach(_ body: (LayerOutline) -> Void) {
        body(self)
        for c in children { c.forEach(body) }
    }
}
