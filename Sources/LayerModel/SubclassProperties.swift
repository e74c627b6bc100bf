import Geometry

/// CAShapeLayer properties (reference §2.1).
public struct ShapeProperties: Sendable, Equatable {
    public var path: Path?
    public var fillColor: Color? = .black
    public var fillRule: FillRule = .nonZero
    public var strokeColor: Color?
    public var lineWidth: Double = 1
    public var lineCap: LineCap = .butt
    public var lineJoin: LineJoin = .miter
    public var miterLimit: Double = 10
    public var lineDashPattern: [Double]?
    public var lineDashPhase: Double = 0
    public var strokeStart: Double = 0
    public var strokeEnd: Double = 1
    public init() {}
}

/// CAGradientLayer properties (reference §2.2).
public struct GradientProperties: Sendable, Equatable {
    public var colors: [Color]?
    public var locations: [Double]?
    public var startPoint = Point(0.5, 0)
    public var endPoint = Point(0.5, 1)
    public var type: GradientType = .axial
    public init() {}
}

/// CATextLayer properties (reference §2.4).
public struct TextProperties: Sendable, Equatable {
    public var string: String?
    public var font: String = "Helvetica"
    public var fontSize: Double = 36
    public var foregroundColor: Color? = .white
    public var alignmentMode: TextAlignment = .natural
    public var wrapped = false
    public var truncationMode: TruncationMode = .none
    public init() {}
}

/// CAReplicatorLayer properties (reference §2.3).
public struct ReplicatorProperties: Sendable, Equatable {
    public var instanceCount: Int = 1
    public var instanceTransform: Transform3D = .identity
    public var instanceDelay: Double = 0
    public var instanceColor: Color? = .white
    public var instanceRedOffset: Double = 0
    public var instanceGreenOffset: Double = 0
    public var instanceBlueOffset: Double = 0
    public var instanceAlphaOffset: Double = 0
    public var preservesDepth = false
    public init() {}
}
