import Geometry
import LayerModel
import Plan

/// Builds a layer tree from fuzz bytes: a small canvas and up to `maxLayers` layers, each with the
/// properties the planner reads (geometry, 3D and projective transforms, clips, corners, borders,
/// contents with gravity, rect and 9-slice, masks). Numbers are mostly ordinary, sometimes extreme
/// but finite (0, ±1e-300, ±1e300, huge scales, perspective with the eye inside the layer): values
/// that valid scenes and animations can reach. Bytes past the end read as zero, so every input
/// gives a tree and the same input always gives the same tree.
///
/// With `effects`, each layer reads further bytes (after those the plain trees read, so the
/// committed `plan` inputs build the trees they always built) for what makes offscreen passes and
/// CPU rasters: shadows with radius, offset and a shadowPath of any shape, shouldRasterize,
/// filters, compositing filters, backdrop layers, shape paths with strokes and dashes, gradient
/// colours and text.
public struct LayerTreeGenerator {
    private let bytes: [UInt8]
    private let effects: Bool
    private var i = 0
    private var layers = 0
    public static let maxLayers = 48
    public static let maxDepth = 10
    /// The images contents can show: (width, height) in texels.
    static let imageSizes = [(1, 1), (7, 5), (64, 64), (300, 2), (16384, 16384)]

    public init(_ bytes: [UInt8], effects: Bool = false) { self.bytes = bytes; self.effects = effects }

    public mutating func tree() -> (Canvas, Layer, ImageTable) {
        let scales = [1.0, 2, 3, 0.5, 1.5, 16]
        let canvas = Canvas(width: Double(1 + Int(byte()) * 2), height: Double(1 + Int(byte()) * 2),
                            scale: scales[Int(byte()) % scales.count])
        var images: ImageTable = [:]
        for (k, s) in Self.imageSizes.enumerated() {
            // The translucent 7×5 image has an opaque part and a least alpha, so that stack
            // culling meets image veils' pieces and sheers too, not only solid veils.
            images[.file("/image\(k)")] = ImageInfo(key: UInt64(k + 1), width: s.0, height: s.1, isOpaque: k % 2 == 0,
                                                    opaqueRects: k == 1 ? [PixelRect(x: 0, y: 0, width: 4, height: 5)] : [],
                                                    minimumAlpha: k == 1 ? 128 : 0)
        }
        var root = layer(depth: 1)
        root.id = 0
        var scene = Scene(canvas: canvas, root: root)
        scene.assignIDs()
        return (canvas, scene.root, images)
    }

    private mutating func byte() -> UInt8 {
        defer { i += 1 }
        return i < bytes.count ? bytes[i] : 0
    }
    private mutating func flag() -> Bool { byte() & 1 == 1 }
    private mutating func pick<T>(_ options: [T]) -> T { options[Int(byte()) % options.count] }

    /// Mostly a value in `typical` (a byte scaled into the range), sometimes an extreme.
    private mutating func number(_ typical: ClosedRange<Double>) -> Double {
        let b = byte()
        if b < 224 { return typical.lowerBound + (typical.upperBound - typical.lowerBound) * Double(b) / 223 }
        let extremes: [Double] = [0, -0.0, 1e-300, -1e-300, 1e300, -1e300, 1e6, -1e6, 0.5, 1e-7,
                                  Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
                                  Double.leastNonzeroMagnitude, 65536.5, -3, 1e15, 1e-15, 2, 1, -1,
                                  4e9, 0.49999999999999994, 1.0000000001, 1234.5678, 7, 0.1, 100, -100, 1e38, -1e38, 3e-5, 9e15]
        return extremes[Int(b - 224) % extremes.count]
    }

    private mutating func rect(_ typical: ClosedRange<Double>) -> Rect {
        Rect(number(typical), number(typical), number(0...typical.upperBound), number(0...typical.upperBound))
    }

    private mutating func color() -> Color? {
        let c = byte()
        if c < 16 { return nil }
        return Color(Double(c % 4) / 3, Double(c / 4 % 4) / 3, Double(c / 16 % 4) / 3, Double(byte()) / 255)
    }

    private mutating func transform() -> Transform3D {
        switch byte() % 10 {
        case 0, 1, 2: return .identity
        case 3: return .translation(number(-200...200), number(-200...200), number(-200...200))
        case 4: return .scale(number(-4...4), number(-4...4), number(-4...4))
        case 5: return .rotation(number(-7...7), number(-1...1), number(-1...1), number(-1...1))
        case 6:
            // Perspective with the eye at distance d, then a rotation: points can go behind the eye.
            var p = Transform3D.identity
            p.m34 = -1 / number(1...2000)
            return .rotation(number(-3.2...3.2), 0, 1, 0) * p
        case 7:
            var p = Transform3D.identity
            p.m14 = number(-0.05...0.05); p.m24 = number(-0.05...0.05); p.m44 = number(-2...2)
            return p
        case 8: return .scale(0, number(-2...2), 1)   // singular
        default: return Transform3D((0..<16).map { _ in number(-3...3) })
        }
    }

    private mutating func layer(depth: Int) -> Layer {
        layers += 1
        let classes: [LayerClass] = [.layer, .layer, .layer, .transform, .replicator, .shape, .gradient, .text]
        var l = Layer(pick(classes))
        l.bounds = rect(-50...300)
        l.position = Point(number(-100...500), number(-100...500))
        if flag() { l.anchorPoint = Point(number(-1...2), number(-1...2)); l.anchorPointZ = number(-100...100) }
        l.zPosition = number(-10...10)
        l.transform = transform()
        if flag() { l.sublayerTransform = transform() }
        l.opacity = number(-0.5...1.5)
        l.hidden = byte() > 240
        l.backgroundColor = color()
        l.cornerRadius = number(0...80)
        l.cornerCurve = flag() ? .continuous : .circular
        l.maskedCorners = CornerMask(rawValue: Int(byte() % 16))
        l.masksToBounds = flag()
        l.doubleSided = byte() > 64
        l.geometryFlipped = byte() > 200
        l.allowsEdgeAntialiasing = flag()
        l.allowsGroupOpacity = flag()
        if flag() { l.borderWidth = number(0...40); l.borderColor = color() }
        if flag() { l.shadowOpacity = number(0...1); l.shadowColor = color() }
        if flag() {
            let k = Int(byte()) % Self.imageSizes.count
            l.contents = ImageSource(origin: .file("/image\(k)"), location: SourceLocation(file: "fuzz", pointer: "", line: 0, column: 0))
            l.contentsGravity = pick(ContentsGravity.allCases)
            if flag() { l.contentsRect = rect(-0.5...1.5) }
            if flag() { l.contentsCenter = rect(-0.5...1.5) }
            l.contentsScale = pick([1.0, 2, 3, 0.25, 1e-6, 1e6])
            l.minificationFilter = pick(ContentsFilter.allCases)
            l.magnificationFilter = pick(ContentsFilter.allCases)
        }
        if l.layerClass == .replicator { l.replicator.instanceCount = Int(byte() % 8); l.replicator.instanceTransform = transform() }
        if effects { addEffects(&l) }
        guard depth < Self.maxDepth else { return l }
        if byte() > 230, layers < Self.maxLayers { l.mask = layer(depth: depth + 1) }
        let children = Int(byte() % 5)
        for _ in 0..<children where layers < Self.maxLayers {
            l.sublayers.append(layer(depth: depth + 1))
        }
        return l
    }

    // MARK: effects

    private mutating func addEffects(_ l: inout Layer) {
        if byte() > 232 { l.layerClass = .backdrop }
        if flag() {
            l.shadowOpacity = number(0...1)
            l.shadowColor = color()
            l.shadowRadius = number(0...60)
            l.shadowOffset = Size(number(-50...50), number(-50...50))
            if flag() { l.shadowPath = path() }
        }
        if byte() > 200 {
            l.shouldRasterize = true
            l.rasterizationScale = pick([1.0, 2, 3, 0.5, 1e-6, 1e6, 0])
        }
        if byte() > 180 { l.filters = filters() }
        if byte() > 200 { l.compositingFilter = pick(CompositingFilter.allCases) }
        switch l.layerClass {
        case .backdrop:
            l.backgroundFilters = filters()
            l.backdrop.scale = number(0...1)
            l.backdrop.groupName = pick([nil, "a", "b"])
        case .shape:
            l.shape.path = flag() ? path() : nil
            l.shape.fillColor = color()
            l.shape.fillRule = pick(FillRule.allCases)
            if flag() {
                l.shape.strokeColor = color()
                l.shape.lineWidth = number(0...30)
                l.shape.lineCap = pick(LineCap.allCases)
                l.shape.lineJoin = pick(LineJoin.allCases)
                l.shape.miterLimit = number(0...20)
                if flag() { l.shape.lineDashPattern = (0..<Int(byte() % 4)).map { _ in number(0...20) } }
                l.shape.lineDashPhase = number(-20...20)
                l.shape.strokeStart = number(-0.5...1.5)
                l.shape.strokeEnd = number(-0.5...1.5)
            }
        case .gradient:
            let n = Int(byte() % 5)
            l.gradient.colors = (0..<n).map { _ in color() ?? Color(0, 0, 0, 1) }
            if flag() { l.gradient.locations = (0..<Int(byte() % 5)).map { _ in number(-0.5...1.5) } }
            l.gradient.startPoint = Point(number(-1...2), number(-1...2))
            l.gradient.endPoint = Point(number(-1...2), number(-1...2))
            l.gradient.type = pick(GradientType.allCases)
        case .text:
            l.text.string = pick([nil, "", "Hi", "caprof\nscene", "ﬁ ‹› ٣ 日本", String(repeating: "wrap me ", count: 40)])
            l.text.fontSize = number(0...200)
            l.text.foregroundColor = color()
            l.text.alignmentMode = pick(TextAlignment.allCases)
            l.text.wrapped = flag()
            l.text.truncationMode = pick(TruncationMode.allCases)
        default:
            break
        }
    }

    private mutating func filters() -> [Filter] {
        (0..<Int(byte() % 3)).map { _ in
            var f = Filter(pick(FilterType.allCases))
            f.inputRadius = number(0...100)
            f.inputNormalizeEdges = flag()
            f.inputAmount = number(-2...3)
            f.inputAngle = number(-7...7)
            f.inputColor = color() ?? Color(1, 1, 1, 1)
            if flag() { f.inputColorMatrix = (0..<20).map { _ in number(-2...2) } }
            if f.type == .variableBlur, flag() {
                let k = Int(byte()) % Self.imageSizes.count
                f.inputMaskImage = ImageSource(origin: .file("/image\(k)"), location: SourceLocation(file: "fuzz", pointer: "", line: 0, column: 0))
            }
            return f
        }
    }

    /// A path: the shapes the analytic shadow recognises, a star, or free elements (open or
    /// closed, curves, repeated moves, degenerate segments).
    private mutating func path() -> Path {
        switch byte() % 6 {
        case 0: return Path()
        case 1: return .rect(rect(-50...300))
        case 2: return .roundedRect(rect(-50...300), cornerRadius: number(0...80))
        case 3: return .ellipse(in: rect(-50...300))
        case 4:
            let n = 2 + Int(byte() % 9), c = Point(number(-50...300), number(-50...300))
            let outer = number(0...200), inner = number(0...200)
            var e: [Path.Element] = []
            for k in 0..<(2 * n) {
                let a = Double(k) * .pi / Double(n), r = k % 2 == 0 ? outer : inner
                let p = Point(c.x + r * sin(a), c.y - r * cos(a))
                e.append(k == 0 ? .move(p) : .line(p))
            }
            return Path(e + [.close])
        default:
            var e: [Path.Element] = []
            for _ in 0..<Int(byte() % 12) {
                func pt() -> Point { Point(number(-100...400), number(-100...400)) }
                switch byte() % 5 {
                case 0: e.append(.move(pt()))
                case 1: e.append(.line(pt()))
                case 2: e.append(.quad(pt(), pt()))
                case 3: e.append(.cubic(pt(), pt(), pt()))
                default: e.append(.close)
                }
            }
            return Path(e)
        }
    }
}
