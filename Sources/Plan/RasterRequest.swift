import Geometry
import LayerModel

/// Content the plan wants rasterised on the CPU before the frame is drawn (design.md: shape paths
/// and text go through cairo into textures). The item that shows it is an ordinary image item
/// whose `PlannedImage.key` is `key`: the caller rasterises the requests whose key it does not hold
/// yet and hands the bitmaps to the backend with the decoded images, so identical content is one
/// texture and unchanged content is never rasterised or uploaded again.
///
/// `key` is a hash of everything that decides the pixels (`ContentKey`) and of nothing else: not
/// the layer's position, rotation or opacity, which the item's matrix and paint apply.
public struct RasterRequest: Sendable, Equatable {
    public var key: UInt64
    public var pixelWidth: Int
    public var pixelHeight: Int
    public var content: RasterContent
    /// The layer that asked first (a key shared by several layers is rasterised once).
    public var layer: LayerID
}

public enum RasterContent: Sendable, Equatable {
    /// A CAShapeLayer's fill and stroke.
    case shape(ShapeRaster)
    /// A CAGradientLayer's colour ramp: `colors` at `locations` (as many of each), interpolated
    /// over `pixelWidth` texels (`GradientPaint`).
    case gradientRamp(colors: [Color], locations: [Double])
    /// A CATextLayer's string in its bounds.
    case text(TextRaster)
    /// The blurred shadow of a shadowPath that is not a rectangle, rounded rectangle or circle
    /// (those are computed analytically by the shader).
    case shadowPath(ShadowPathRaster)
}

/// A shadowPath's shadow as the rasteriser needs it: the path filled with the non-zero winding
/// rule (reference §1.11) in `color`, then blurred by a Gaussian of `sigmaX` × `sigmaY` texels
/// (taps at whole texels out to ⌈3σ⌉, as the GPU blur of a path-less shadow). The path is in the
/// layer's point space; the texture's point → texel mapping is the shape's: x·scaleX − originX.
/// shadowOpacity is not part of it (the item's opacity applies it), so fading a shadow keeps its
/// texture.
public struct ShadowPathRaster: Sendable, Equatable {
    public var path: Path
    /// shadowColor, straight (not premultiplied), its alpha included.
    public var color: Color
    public var sigmaX: Double, sigmaY: Double
    public var scaleX: Double, scaleY: Double
    public var originX: Double, originY: Double
}

/// A CAShapeLayer's content as the rasteriser needs it, in the layer's point space, with the
/// point → texel mapping of its texture.
public struct ShapeRaster: Sendable, Equatable {
    public var path: Path
    public var fillColor: Color?
    public var fillRule: FillRule
    /// `path` trimmed to strokeStart…strokeEnd (the whole path when they are 0 and 1).
    public var strokePath: Path
    public var strokeColor: Color?
    public var lineWidth: Double
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    public var miterLimit: Double
    public var lineDashPattern: [Double]
    /// The dash phase, plus the length trimmed off the start when dashes are laid out from the
    /// start of the untrimmed path (reference §2.1 [INF]).
    public var lineDashPhase: Double
    /// Point → texel: x·scaleX − originX, y·scaleY − originY.
    public var scaleX: Double, scaleY: Double
    public var originX: Double, originY: Double
    /// The stroked fraction (already applied to `strokePath`): kept so that reports can tell a
    /// draw-on from a path that changes (`raster.cpu`).
    public var strokeStart = 0.0, strokeEnd = 1.0
}

/// A stable 64-bit FNV-1a hash of the values that decide rasterised pixels. Swift's `Hasher` is
/// seeded per process, so it cannot key content across runs (design.md: determinism).
public struct ContentKey {
    public private(set) var value: UInt64 = 0xcbf29ce484222325
    public init(_ tag: UInt64) { mix(tag) }
    public mutating func mix(_ v: UInt64) {
        var x = v
        for _ in 0..<8 { value = (value ^ (x & 0xff)) &* 0x100000001b3; x >>= 8 }
    }
    public mutating func mix(_ d: Double) { mix(d == 0 ? 0 : d.bitPattern) }   // -0 == 0
    public mutating func mix(_ i: Int) { mix(UInt64(bitPattern: Int64(i))) }
    public mutating func mix(_ c: Color?) {
        guard let c else { mix(UInt64(0x6e696c)); return }
        mix(c.red); mix(c.green); mix(c.blue); mix(c.alpha)
    }
    public mutating func mix(_ s: String) {
        mix(s.utf8.count)
        for b in s.utf8 { mix(UInt64(b)) }
    }
    public mutating func mix(_ p: Path) {
        mix(p.elements.count)
        for e in p.elements {
            switch e {
            case .move(let a): mix(1); mix(a.x); mix(a.y)
            case .line(let a): mix(2); mix(a.x); mix(a.y)
            case .quad(let a, let b): mix(3); mix(a.x); mix(a.y); mix(b.x); mix(b.y)
            case .cubic(let a, let b, let c): mix(4); mix(a.x); mix(a.y); mix(b.x); mix(b.y); mix(c.x); mix(c.y)
            case .close: mix(5)
            }
        }
    }
}

extension FramePlan {
    /// The raster requests whose content the previous frame did not show: what a renderer that
    /// keeps last frame's rasters must rasterise (on the CPU) and upload for this frame — the
    /// deterministic part of `raster.cpu` (its bytes are pixelWidth × pixelHeight × 4; the CPU time
    /// is measured by the pipeline, `ContentRasterizer.Stats`). All of them when `previous` is nil.
    public func newRasterRequests(since previous: FramePlan?) -> [RasterRequest] {
        guard let previous else { return rasterRequests }
        let shown = Set(previous.rasterRequests.map(\.key))
        return rasterRequests.filter { !shown.contains($0.key) }
    }
}
