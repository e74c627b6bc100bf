/// What one layer draws, whatever findings it raises: its share of a frame's shaded pixels and of
/// its blending. Findings only name layers that have something to fix, so a layer that gets costlier
/// without raising one (a shadow with a shadowPath: it blends every pixel it covers, by design)
/// would be invisible to the gate's layer diff, and a regression would be blamed on whichever
/// unchanged layer raises a finding. These figures let the gate name the layer that changed.
public struct LayerPixels: Sendable, Equatable, Codable {
    /// The layer's name, else its index path ("2.1"; "root"), as findings name it.
    public var layer: String
    /// Its line in the scene file.
    public var line: Int?
    /// Fragments its draw items shade (its share of `FrameCounters.shadedPixels`); in a report,
    /// the most of any frame.
    public var shadedPixels: Int
    /// Of those, the fragments that blend with what lies beneath wherever they cover: translucent
    /// paint, opacity, image alpha (transparent texels only, when known), shadows, masked results,
    /// blend modes (`BlendReason.blendsEveryPixel`; antialiased edges apart). A cost, counted per
    /// fragment, not the canvas pixels `FrameCounters.blendedPixels` counts; in a report, the most
    /// of any frame.
    public var blendedFragments: Int
    /// The file `line` is in, while a run is recorded; a report keeps the line only where it is in
    /// the scene file itself (not in a file inside a .lottie or .ca package), then drops this.
    var sourceFile: String?

    public init(layer: String, line: Int?, shadedPixels: Int, blendedFragments: Int) {
        self.layer = layer; self.line = line; self.shadedPixels = shadedPixels; self.blendedFragments = blendedFragments
    }

    enum CodingKeys: String, CodingKey { case layer, line, shadedPixels, blendedFragments }

    /// The figures as a report of `sceneFile` keeps them: the line only when it is that file's.
    func reported(in sceneFile: String) -> LayerPixels {
        var l = self
        if sourceFile != sceneFile { l.line = nil }
        l.sourceFile = nil
        return l
    }

    /// Folds one frame's figures into the per-layer worst so far (by layer name): a run keeps one
    /// entry per layer, not one per layer and frame.
    public static func fold(_ frame: [LayerPixels], into worst: inout [String: LayerPixels]) {
        for l in frame {
            guard var w = worst[l.layer] else { worst[l.layer] = l; continue }
            w.shadedPixels = max(w.shadedPixels, l.shadedPixels)
            w.blendedFragments = max(w.blendedFragments, l.blendedFragments)
            if w.line == nil { w.line = l.line; w.sourceFile = l.sourceFile }
            worst[l.layer] = w
        }
    }
}
