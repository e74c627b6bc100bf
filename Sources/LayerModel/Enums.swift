/// Core Animation's enumerated constants, spelled as the scene format spells them
/// (the constant without its prefix, in its Swift spelling).

/// The Core Animation class of a layer (`"class"` in a scene file).
public enum LayerClass: String, CaseIterable, Sendable {
    case layer = "CALayer"
    case shape = "CAShapeLayer"
    case gradient = "CAGradientLayer"
    case text = "CATextLayer"
    case replicator = "CAReplicatorLayer"
    case transform = "CATransformLayer"
    /// Private: draws what lies beneath its bounds through its filters (a frosted-glass blur).
    case backdrop = "CABackdropLayer"
    case emitter = "CAEmitterLayer"
}

/// contentsGravity: where the contents image sits in the bounds (reference §1.7).
/// "top" means max-Y and "bottom" min-Y, literally in layer coordinates.
public enum ContentsGravity: String, CaseIterable, Sendable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    case resize, resizeAspect, resizeAspectFill
}

/// minificationFilter / magnificationFilter.
public enum ContentsFilter: String, CaseIterable, Sendable {
    case linear, nearest, trilinear
}

/// cornerCurve (iOS 13+).
public enum CornerCurve: String, CaseIterable, Sendable {
    case circular, continuous
}

/// maskedCorners: which corners cornerRadius rounds. On iOS (y down) minXMinY is the top-left corner.
public struct CornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let minXMinY = CornerMask(rawValue: 1)
    public static let maxXMinY = CornerMask(rawValue: 2)
    public static let minXMaxY = CornerMask(rawValue: 4)
    public static let maxXMaxY = CornerMask(rawValue: 8)
    public static let all: CornerMask = [.minXMinY, .maxXMinY, .minXMaxY, .maxXMaxY]
    public static let names: [(String, CornerMask)] = [
        ("minXMinY", .minXMinY), ("maxXMinY", .maxXMinY), ("minXMaxY", .minXMaxY), ("maxXMaxY", .maxXMaxY),
    ]
}

public enum FillRule: String, CaseIterable, Sendable { case nonZero, evenOdd }
public enum LineCap: String, CaseIterable, Sendable { case butt, round, square }
public enum LineJoin: String, CaseIterable, Sendable { case miter, round, bevel }
public enum GradientType: String, CaseIterable, Sendable { case axial, radial, conic }
public enum TextAlignment: String, CaseIterable, Sendable { case natural, left, right, center, justified }
public enum TruncationMode: String, CaseIterable, Sendable { case none, start, middle, end }
