import Geometry

/// What the root is composited onto: a size in points, a screen scale and a background.
public struct Canvas: Sendable, Equatable {
    public var width: Double
    public var height: Double
    /// Device pixels per point.
    public var scale: Double = 1
    /// nil = transparent output.
    public var backgroundColor: Color?
    public init(width: Double, height: Double, scale: Double = 1, backgroundColor: Color? = nil) {
        self.width = width; self.height = height; self.scale = scale; self.backgroundColor = backgroundColor
    }
    /// Device-pixel size: points × scale, rounded to the nearest pixel.
    public var pixelWidth: Int { Int((width * scale).rounded()) }
    public var pixelHeight: Int { Int((height * scale).rounded()) }
    /// The largest canvas side in device pixels (design.md "Limits").
    public static let maxPixelSide = 16384
}

/// The sampled span of scene time.
public struct Timeline: Sendable, Equatable {
    /// Seconds from 0; nil = until every finite animation and transaction has ended (cap 10 s).
    public var duration: Double?
    public var fps: Double = 60
    public init(duration: Double? = nil, fps: Double = 60) { self.duration = duration; self.fps = fps }
}

/// Something in a scene that caprof read but does not render (yet): reported, never silently dropped.
public struct Unsupported: Sendable, Equatable, CustomStringConvertible {
    public var feature: String
    public var location: SourceLocation?
    /// The layer it is about, when it is about one (the profiler raises `unsupported` for it).
    public var layer: LayerID?
    public init(feature: String, location: SourceLocation?, layer: LayerID? = nil) {
        self.feature = feature; self.location = location; self.layer = layer
    }
    public var description: String {
        if let l = location { return "\(l): \(feature)" }
        return feature
    }
}

/// A model layer tree on its canvas. Animations and transactions live beside it (Animation module).
public struct Scene: Sendable {
    public var canvas: Canvas
    public var timeline = Timeline()
    public var root: Layer
    /// The file it was read from ("<memory>" when built in code).
    public var sourceFile: String = "<memory>"
    public init(canvas: Canvas, root: Layer) { self.canvas = canvas; self.root = root }

    /// Assigns preorder ids (root 0; a mask right after its owner, before the sublayers).
    public mutating func assignIDs() {
        var next = 0
        func visit(_ l: inout Layer) {
            l.id = next; next += 1
            if var m = l.mask { visit(&m); l.mask = m }
            for i in l.sublayers.indices { visit(&l.sublayers[i]) }
        }
        visit(&root)
    }
}
