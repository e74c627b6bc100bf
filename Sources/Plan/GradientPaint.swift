import Geometry
import LayerModel

/// How a CAGradientLayer item maps its local points to a position along its colour ramp
/// (reference §2.2). The item's paint is its ramp image (`RasterContent.gradientRamp`: the stops
/// interpolated once, 1024 texels, shared by every layer with the same colours and locations), read
/// with a linear sampler at t; the shader computes t per fragment from these points, so the
/// gradient is exact at any size, under any transform, and costs no texture of the layer's size.
public struct GradientPaint: Sendable, Equatable {
    public var type: GradientType
    /// startPoint and endPoint mapped from the unit square to the bounds, in local points.
    public var start: Point
    public var end: Point
    public init(type: GradientType, start: Point, end: Point) { self.type = type; self.start = start; self.end = end }
}
