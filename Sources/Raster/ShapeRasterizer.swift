import CCairoShim
import Geometry

/// What a CAShapeLayer draws, for the CPU rasteriser: a fill and a stroke, each optional.
/// Colours are sRGB-encoded and not premultiplied (cairo premultiplies). Lengths are in path units.
public struct ShapeRasterJob: Sendable, Equatable {
    public enum Cap: Int32, Sendable { case butt = 0, round = 1, square = 2 }
    public enum Join: Int32, Sendable { case miter = 0, round = 1, bevel = 2 }

    public var fillPath: Path
    /// (r, g, b, a), or nil for no fill.
    public var fill: [Double]?
    public var evenOdd = false
    /// The path to stroke: `fillPath` trimmed to strokeStart…strokeEnd.
    public var strokePath: Path
    public var stroke: [Double]?
    public var lineWidth = 1.0
    public var cap = Cap.butt
    public var join = Join.miter
    public var miterLimit = 10.0
    public var dashes: [Double] = []
    public var dashPhase = 0.0
    /// Path point → pixel: x·scaleX + offsetX, y·scaleY + offsetY.
    public var scaleX = 1.0, scaleY = 1.0, offsetX = 0.0, offsetY = 0.0
    public var pixelWidth: Int
    public var pixelHeight: Int

    public init(fillPath: Path, strokePath: Path, pixelWidth: Int, pixelHeight: Int) {
        self.fillPath = fillPath; self.strokePath = strokePath
        self.pixelWidth = pixelWidth; self.pixelHeight = pixelHeight
    }
}

/// Why cairo could not rasterise a shape.
public struct ShapeRasterError: Error, CustomStringConvertible {
    public var status: Int32
    public var message: String
    /// Status -1: cairo itself could not be loaded (the message names the library and its package).
    public var libraryUnavailable: Bool { status == -1 }
    public var description: String {
        libraryUnavailable ? "cairo could not rasterise the shape: \(message)" : "cairo could not rasterise the shape: \(message) (status \(status))"
    }
}

/// Rasterises CAShapeLayer content with cairo (antialiased, Core Graphics' stroke semantics:
/// centred strokes, miter joins falling back to bevels past the miter limit, dashes in path units
/// from the phase). Dash patterns Core Graphics ignores (negative lengths, all zero) are solid.
public enum ShapeRasterizer {
    /// `key` becomes the bitmap's `contentHash` (the caller's content key; pixels are not hashed).
    public static func rasterize(_ job: ShapeRasterJob, key: UInt64) throws -> Bitmap {
        let w = max(job.pixelWidth, 0), h = max(job.pixelHeight, 0)
        guard w > 0, h > 0 else { return Bitmap(width: 0, height: 0, pixels: [], contentHash: key) }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        // cairo inverts the point → pixel matrix, whose determinant underflows below 10⁻¹⁵⁰ a side
        // ("invalid matrix"): a path scaled that small covers no texel (unless its coordinates pass
        // 10¹⁰⁰), so the bitmap is transparent.
        guard abs(job.scaleX) >= 1e-100, abs(job.scaleY) >= 1e-100 else {
            return Bitmap(width: w, height: h, pixels: pixels, contentHash: key)
        }
        let fill = Encoded(job.fillPath), stroke = Encoded(job.strokePath)
        let dashes = job.dashes.contains(where: { $0 < 0 }) || !job.dashes.contains(where: { $0 > 0 }) ? [] : job.dashes
        var err = [CChar](repeating: 0, count: 512)   // the loader's messages are up to 512 bytes
        let status: Int32 = fill.withC { fp in
            stroke.withC { sp in
                dashes.withUnsafeBufferPointer { d in
                    var style = caprof_shape_style()
                    let f = job.fill ?? [0, 0, 0, 0], s = job.stroke ?? [0, 0, 0, 0]
                    style.fill = (f[0], f[1], f[2], f[3])
                    style.even_odd = job.evenOdd ? 1 : 0
                    style.stroke = (s[0], s[1], s[2], s[3])
                    style.line_width = Self.lineWidth(job)
                    style.cap = job.cap.rawValue
                    style.join = job.join.rawValue
                    style.miter_limit = job.miterLimit
                    style.dashes = d.isEmpty ? nil : d.baseAddress
                    style.dash_count = d.count
                    style.dash_offset = job.dashPhase
                    return pixels.withUnsafeMutableBufferPointer { out in
                        withUnsafePointer(to: fp) { fpp in
                            withUnsafePointer(to: sp) { spp in
                                withUnsafePointer(to: style) { st in
                                    caprof_shape_rasterize(out.baseAddress, Int32(w), Int32(h), job.scaleX, job.scaleY,
                                                           job.offsetX, job.offsetY, fpp, spp, st, &err, err.count)
                                }
                            }
                        }
                    }
                }
            }
        }
        if status != 0 { throw ShapeRasterError(status: status, message: String(cString: err)) }
        return Bitmap(width: w, height: h, pixels: pixels, contentHash: key)
    }

    /// The stroke width given to cairo: the job's, or a finite one that covers the same pixels.
    /// cairo strokes in 24.8 fixed point and fails ("out of memory") on outlines ~10¹⁵ wide. Every
    /// pixel lies within D (path units) of every control point of the stroked path (the farthest
    /// corners of the two boxes), so past a width of 16·(D + 1) a wider stroke covers no other
    /// pixel: each segment's slab already spans the bitmap across, caps and round or miter joins
    /// hold a disc of radius ≥ D around the path. Only a bevel join turning back by more than
    /// ~150° (its chord at w/2 · cos(θ/2) from the vertex, θ the angle between the segments)
    /// could still cut a corner a wider bevel would reach.
    static func lineWidth(_ job: ShapeRasterJob) -> Double {
        var xs: [Double] = [], ys: [Double] = []
        for e in job.strokePath.elements {
            switch e {
            case .move(let p), .line(let p): xs.append(p.x); ys.append(p.y)
            case .quad(let a, let p): xs += [a.x, p.x]; ys += [a.y, p.y]
            case .cubic(let a, let b, let p): xs += [a.x, b.x, p.x]; ys += [a.y, b.y, p.y]
            case .close: break
            }
        }
        guard let px0 = xs.min(), let px1 = xs.max(), let py0 = ys.min(), let py1 = ys.max(),
              job.scaleX != 0, job.scaleY != 0 else { return job.lineWidth }
        let rx = [(0 - job.offsetX) / job.scaleX, (Double(job.pixelWidth) - job.offsetX) / job.scaleX]
        let ry = [(0 - job.offsetY) / job.scaleY, (Double(job.pixelHeight) - job.offsetY) / job.scaleY]
        let dx = max(abs(rx.max()! - px0), abs(px1 - rx.min()!)), dy = max(abs(ry.max()! - py0), abs(py1 - ry.min()!))
        let d = (dx * dx + dy * dy).squareRoot()
        guard d.isFinite, job.lineWidth.isFinite || job.lineWidth == .infinity else { return job.lineWidth }
        return min(job.lineWidth, 16 * (d + 1))
    }

    /// A path as the shim's opcode and point arrays.
    struct Encoded {
        var ops: [UInt8] = []
        var points: [Double] = []
        init(_ path: Path) {
            var pen = Point.zero, start = Point.zero
            for e in path.elements {
                switch e {
                case .move(let p): ops.append(UInt8(CAPROF_PATH_MOVE)); points += [p.x, p.y]; pen = p; start = p
                case .line(let p): ops.append(UInt8(CAPROF_PATH_LINE)); points += [p.x, p.y]; pen = p
                case .quad(let c, let p):
                    // Degree elevation: the same curve as a cubic.
                    let c1 = Point(pen.x + (c.x - pen.x) * 2 / 3, pen.y + (c.y - pen.y) * 2 / 3)
                    let c2 = Point(p.x + (c.x - p.x) * 2 / 3, p.y + (c.y - p.y) * 2 / 3)
                    ops.append(UInt8(CAPROF_PATH_CUBIC)); points += [c1.x, c1.y, c2.x, c2.y, p.x, p.y]; pen = p
                case .cubic(let a, let b, let p):
                    ops.append(UInt8(CAPROF_PATH_CUBIC)); points += [a.x, a.y, b.x, b.y, p.x, p.y]; pen = p
                case .close: ops.append(UInt8(CAPROF_PATH_CLOSE)); pen = start
                }
            }
        }
        func withC<R>(_ body: (caprof_path) -> R) -> R {
            ops.withUnsafeBufferPointer { o in
                points.withUnsafeBufferPointer { p in
                    body(caprof_path(ops: o.baseAddress, op_count: o.count, points: p.baseAddress, point_count: p.count / 2))
                }
            }
        }
    }
}
