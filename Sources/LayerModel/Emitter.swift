import Geometry

/// CAEmitterLayer's emitterShape: where particles are born (reference §2.5).
public enum EmitterShape: String, CaseIterable, Sendable { case point, line, rectangle, circle, cuboid, sphere }
/// CAEmitterLayer's emitterMode: which part of the shape emits.
public enum EmitterMode: String, CaseIterable, Sendable { case points, outline, surface, volume }
/// CAEmitterLayer's renderMode: the order particles are drawn in and how they combine.
public enum EmitterRenderMode: String, CaseIterable, Sendable {
    case unordered, oldestFirst, oldestLast, backToFront, additive
}

/// CAEmitterLayer properties (reference §2.5). The layer's birthRate, lifetime, velocity, scale
/// and spin multiply the cells' values.
public struct EmitterProperties: Sendable, Equatable {
    public var emitterCells: [EmitterCell] = []
    public var birthRate: Double = 1
    public var lifetime: Double = 1
    public var velocity: Double = 1
    public var scale: Double = 1
    public var spin: Double = 1
    /// The random generator's seed (an unsigned 32-bit value in Core Animation).
    public var seed: Int = 0
    public var emitterPosition: Point = .zero
    public var emitterZPosition: Double = 0
    public var emitterSize: Size = Size(0, 0)
    public var emitterDepth: Double = 0
    public var emitterShape: EmitterShape = .point
    public var emitterMode: EmitterMode = .volume
    public var renderMode: EmitterRenderMode = .unordered
    public var preservesDepth = false
    public init() {}

    /// Every image a cell (or sub-cell) shows, for the image table.
    public var cellContents: [ImageSource] {
        var out: [ImageSource] = []
        func visit(_ cells: [EmitterCell]) { for c in cells { if let i = c.contents { out.append(i) }; visit(c.emitterCells) } }
        visit(emitterCells)
        return out
    }
}

/// A CAEmitterCell (reference §2.5): what one kind of particle looks like and how it moves.
/// Means with a range draw uniformly in [mean − range/2, mean + range/2] ([H]); angles in radians.
public struct EmitterCell: Sendable, Equatable {
    public var name: String?
    public var enabled = true
    public var contents: ImageSource?
    public var contentsRect: Rect = .unit
    public var contentsScale: Double = 1
    public var color: Color = .white
    public var birthRate: Double = 0
    public var lifetime: Double = 0
    public var lifetimeRange: Double = 0
    public var velocity: Double = 0
    public var velocityRange: Double = 0
    public var xAcceleration: Double = 0
    public var yAcceleration: Double = 0
    public var zAcceleration: Double = 0
    public var scale: Double = 1
    public var scaleRange: Double = 0
    public var scaleSpeed: Double = 0
    public var spin: Double = 0
    public var spinRange: Double = 0
    public var emissionLatitude: Double = 0
    public var emissionLongitude: Double = 0
    public var emissionRange: Double = 0
    public var redRange: Double = 0
    public var greenRange: Double = 0
    public var blueRange: Double = 0
    public var alphaRange: Double = 0
    public var redSpeed: Double = 0
    public var greenSpeed: Double = 0
    public var blueSpeed: Double = 0
    public var alphaSpeed: Double = 0
    public var magnificationFilter: ContentsFilter = .linear
    public var minificationFilter: ContentsFilter = .linear
    /// CAMediaTiming of the cell in the emitter's time: it emits from beginTime for duration
    /// seconds (0 = for ever; caprof's reading, as a duration of 0 means "unset" elsewhere).
    public var beginTime: Double = 0
    public var duration: Double = 0
    public var emitterCells: [EmitterCell] = []
    public init() {}
}

/// One live particle at the presentation time: what the plan draws (as an image item). Computed by
/// the presentation (Animation's `EmitterSimulation`), never written in a scene.
public struct Particle: Sendable, Equatable {
    /// The cell's contents and how they are placed.
    public var contents: ImageSource
    public var contentsRect: Rect
    public var contentsScale: Double
    public var minificationFilter: ContentsFilter
    public var magnificationFilter: ContentsFilter
    /// Centre, in the emitter layer's bounds space (z toward the viewer).
    public var position: Point
    public var z: Double
    /// Rotation about z, radians (positive is clockwise on a y-down screen, as a layer's rotation).
    public var angle: Double
    public var scale: Double
    /// Non-premultiplied colour, clamped to 0…1, multiplied into the contents.
    public var color: Color
    /// Seconds since birth, and the order of birth (for oldestFirst / oldestLast).
    public var age: Double
    public var birthTime: Double
    public init(contents: ImageSource, contentsRect: Rect, contentsScale: Double, minificationFilter: ContentsFilter,
                magnificationFilter: ContentsFilter, position: Point, z: Double, angle: Double, scale: Double,
                color: Color, age: Double, birthTime: Double) {
        self.contents = contents; self.contentsRect = contentsRect; self.contentsScale = contentsScale
        self.minificationFilter = minificationFilter; self.magnificationFilter = magnificationFilter
        self.position = position; self.z = z; self.angle = angle; self.scale = scale; self.color = color
        self.age = age; self.birthTime = birthTime
    }
}
