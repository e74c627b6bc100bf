import CCairoShim
import SystemSupport

/// What a CATextLayer draws, for the CPU rasteriser: the string laid out in the layer's bounds (in
/// pixels: points × contentsScale) with an installed family (`FontMapping` chose it).
public struct TextRasterJob: Sendable, Equatable {
    public enum Alignment: Int32, Sendable { case natural = 0, left, right, center, justified }
    public enum Truncation: Int32, Sendable { case none = 0, start, middle, end }
    public var string: String
    public var family: String
    public var weight = 400
    public var italic = false
    public var sizePixels: Double
    /// (r, g, b, a) straight, sRGB-encoded.
    public var color: [Double]
    public var alignment = Alignment.natural
    public var wrapped = false
    public var truncation = Truncation.none
    public var widthPixels: Double
    public var heightPixels: Double
    public init(string: String, family: String, sizePixels: Double, color: [Double], widthPixels: Double, heightPixels: Double) {
        self.string = string; self.family = family; self.sizePixels = sizePixels; self.color = color
        self.widthPixels = widthPixels; self.heightPixels = heightPixels
    }
}

/// Line count and bounds of laid-out text, in pixels relative to the box's top-left corner.
public struct TextMetrics: Sendable, Equatable {
    public var lineCount: Int
    /// What is painted (glyph outlines).
    public var ink: (x: Double, y: Double, width: Double, height: Double)
    /// Advances × line heights.
    public var logical: (x: Double, y: Double, width: Double, height: Double)
    public static func == (a: TextMetrics, b: TextMetrics) -> Bool {
        a.lineCount == b.lineCount && a.ink == b.ink && a.logical == b.logical
    }
}

public struct TextRasterError: Error, CustomStringConvertible {
    public var message: String
    /// Pango, cairo or fontconfig could not be loaded (a missing package, not the scene's fault).
    public var libraryUnavailable = false
    public var description: String { "Pango could not lay out the text: \(message)" }
}

/// Lays out and rasterises text with Pango (HarfBuzz shaping) on cairo. Fonts come only from
/// `fontDirectories` (what tools/setup installs), through a private fontconfig configuration: no
/// system or user font configuration takes part, so the pixels depend on the font files alone.
public enum TextRasterizer {
    /// Debian's directories of the families `FontMapping` uses (fonts-inter, fonts-liberation2).
    public static let fontDirectories = ["/usr/share/fonts/opentype/inter", "/usr/share/fonts/truetype/liberation2"]

    /// The number of font files found (0: tools/setup has not installed the fonts; -1: Pango,
    /// cairo or fontconfig could not be loaded, `librariesUnavailable` says why).
    public static let fontFileCount: Int = {
        let dirs = fontDirectories.map { strdup($0) }
        defer { dirs.forEach { free($0) } }
        var ptrs = dirs.map { UnsafePointer<CChar>($0) }
        return Int(ptrs.withUnsafeMutableBufferPointer { caprof_text_fonts($0.baseAddress, Int32($0.count)) })
    }()

    /// Why the text libraries (opened on first use) cannot be loaded; nil once they are.
    public static var librariesUnavailable: String? { caprof_text_unavailable().map { String(cString: $0) } }

    /// Only the layout (no pixels).
    public static func measure(_ job: TextRasterJob) throws -> TextMetrics {
        try run(job, into: nil, width: 0, height: 0)
    }

    /// A `width`×`height` bitmap of the text (the layer's backing store) with `key` as its identity.
    public static func rasterize(_ job: TextRasterJob, width: Int, height: Int, key: UInt64) throws -> (Bitmap, TextMetrics) {
        guard width > 0, height > 0 else { return (Bitmap(width: 0, height: 0, pixels: [], contentHash: key), try measure(job)) }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let m = try pixels.withUnsafeMutableBufferPointer { try run(job, into: $0.baseAddress, width: width, height: height) }
        return (Bitmap(width: width, height: height, pixels: pixels, contentHash: key), m)
    }

    /// FreeType's largest face, in pixels per em. A larger size is refused before Pango sees it:
    /// FreeType fails it, and cairo then keeps the font face in error, so every later text of
    /// that font in the process would fail too. The plan scales text down to the same limit
    /// (`TextRaster.maxPixelsPerEm`; `TextSizeLimitTests` holds them equal).
    public static let maxPixelsPerEm = 65_535.0

    private static func run(_ job: TextRasterJob, into rgba: UnsafeMutablePointer<UInt8>?, width: Int, height: Int) throws -> TextMetrics {
        guard job.sizePixels >= 0, job.sizePixels <= maxPixelsPerEm else {
            throw TextRasterError(message: "a font size of \(job.sizePixels) px is beyond FreeType's \(Int(maxPixelsPerEm)) px per em")
        }
        if fontFileCount < 0, let why = librariesUnavailable {
            throw TextRasterError(message: why, libraryUnavailable: true)
        }
        guard fontFileCount > 0 else {
            throw TextRasterError(message: "no fonts in \(fontDirectories.joined(separator: ", ")) (run tools/setup: fonts-inter, fonts-liberation2)")
        }
        var metrics = caprof_text_metrics()
        var err = [CChar](repeating: 0, count: 512)   // the loader's messages are up to 512 bytes
        let status: Int32 = job.string.withCString { text in
            job.family.withCString { family in
                var s = caprof_text_style()
                s.text = text; s.family = family
                s.weight = Int32(job.weight); s.italic = job.italic ? 1 : 0
                s.size_px = job.sizePixels
                let c = job.color + [0, 0, 0, 0]
                s.color = (c[0], c[1], c[2], c[3])
                s.alignment = job.alignment.rawValue
                s.wrapped = job.wrapped ? 1 : 0
                s.truncation = job.truncation.rawValue
                s.width_px = job.widthPixels; s.height_px = job.heightPixels
                return caprof_text_layout(&s, &metrics, rgba, Int32(width), Int32(height), &err, err.count)
            }
        }
        if status != 0 { throw TextRasterError(message: String(cString: err)) }
        return TextMetrics(lineCount: Int(metrics.line_count),
                           ink: (metrics.ink_x, metrics.ink_y, metrics.ink_w, metrics.ink_h),
                           logical: (metrics.logical_x, metrics.logical_y, metrics.logical_w, metrics.logical_h))
    }
}
