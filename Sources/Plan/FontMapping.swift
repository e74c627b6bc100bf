/// Apple font names → the open families tools/setup installs (fonts-inter, fonts-liberation2).
/// Pure: the set of families is fixed (the text rasteriser loads only those files), so the plan
/// can say which substitution it made, once per font name per scene.
///
/// | Apple name (any of)                                                         | drawn with        | why |
/// |-----------------------------------------------------------------------------|-------------------|-----|
/// | `.AppleSystemUIFont`, `.SFUI…`, `SF Pro` (Text/Display/Rounded), `System`    | Inter             | the closest open design to San Francisco |
/// | `Helvetica`, `Helvetica Neue`, `Arial` (CATextLayer's default is Helvetica) | Liberation Sans   | metric-compatible with Helvetica/Arial: same advances, same line breaks |
/// | `Times`, `Times New Roman`, `Georgia`, `New York`                           | Liberation Serif  | metric-compatible with Times New Roman |
/// | `Menlo`, `SF Mono`, `Courier`, `Courier New`, `Monaco`                      | Liberation Mono   | metric-compatible with Courier New; monospaced |
/// | `Inter`, `Liberation Sans/Serif/Mono`                                       | itself            | installed: no substitution |
/// | anything else                                                               | Liberation Sans   | Core Animation's default family (Helvetica) |
///
/// PostScript-style suffixes pick the weight and style: `Helvetica-Bold`, `HelveticaNeue-Medium`,
/// `SFProText-Semibold`, `Menlo-Italic` (Thin 100, UltraLight 200, Light 300, Regular 400,
/// Medium 500, Semibold 600, Bold 700, Heavy 800, Black 900; Italic/Oblique). The system font's
/// private names carry the weight without a hyphen (`.AppleSystemUIFontMedium`,
/// `.AppleSystemUIFontBold`, `.AppleSystemUIFontDemi` = Semibold, `.AppleSystemUIFontEmphasized` =
/// Bold, `.AppleSystemUIFontItalic`): Inter at that weight.
public enum FontMapping {
    public struct Resolved: Sendable, Equatable {
        public var family: String
        public var weight: Int
        public var italic: Bool
        /// The name asked for is not an installed family.
        public var substituted: Bool
    }

    static let families: [String: String] = {
        var t: [String: String] = [:]
        for k in [".applesystemuifont", ".sfui", ".sfuitext", ".sfuidisplay", ".sfprotext", ".sfprodisplay", "sfpro", "sfprotext",
                  "sfprodisplay", "sfprorounded", "sfui", "sfuitext", "sfuidisplay", "system", "systemfont", "sanfrancisco"] { t[k] = "Inter" }
        for k in ["helvetica", "helveticaneue", "arial", "arialmt"] { t[k] = "Liberation Sans" }
        for k in ["times", "timesnewroman", "timesnewromanpsmt", "timesroman", "georgia", "newyork"] { t[k] = "Liberation Serif" }
        for k in ["menlo", "sfmono", "courier", "couriernew", "couriernewpsmt", "monaco"] { t[k] = "Liberation Mono" }
        return t
    }()
    static let installed: [String: String] = [
        "inter": "Inter", "liberationsans": "Liberation Sans", "liberationserif": "Liberation Serif", "liberationmono": "Liberation Mono",
    ]
    static let weights: [String: Int] = [
        "thin": 100, "ultralight": 200, "extralight": 200, "light": 300, "regular": 400, "roman": 400, "book": 400,
        "medium": 500, "semibold": 600, "demibold": 600, "bold": 700, "heavy": 800, "extrabold": 800, "black": 900,
    ]

    static let systemPrivate = ".applesystemuifont"

    /// A style glued to `.AppleSystemUIFont` ("medium", "bolditalic", "demi", "emphasized"), or nil.
    static func gluedStyle(_ suffix: Substring) -> (weight: Int, italic: Bool)? {
        var style = String(suffix), italic = false
        if style.hasSuffix("italic") { italic = true; style.removeLast("italic".count) }
        if style.isEmpty { return italic ? (400, true) : nil }
        let extra = ["demi": 600, "emphasized": 700]
        guard let w = weights[style] ?? extra[style] else { return nil }
        return (w, italic)
    }

    /// The plan's warning for a font drawn with a stand-in; reports recognise it by
    /// `isSubstitutionWarning` (a JSON report carries only the text).
    public static func substitutionWarning(font: String, standIn family: String) -> String {
        "font \"\(font)\"\(substitutionMarker)\(family), its stand-in (caprof draws only the fonts tools/setup installs)"
    }
    public static func isSubstitutionWarning(_ message: String) -> Bool {
        message.hasPrefix("font \"") && message.contains(substitutionMarker)
    }
    private static let substitutionMarker = " is not installed; drawn with "

    public static func resolve(_ name: String) -> Resolved {
        var base = name, weight = 400, italic = false
        // "Family-Style": the style after the last hyphen, if it names weights/italics only.
        if let dash = name.lastIndex(of: "-"), dash != name.startIndex {
            var style = name[name.index(after: dash)...].lowercased()
            var recognised = false
            for suffix in ["italic", "oblique"] where style.hasSuffix(suffix) {
                italic = true; recognised = true; style.removeLast(suffix.count)
            }
            if let w = weights[style] { weight = w; recognised = true } else if !style.isEmpty { recognised = false }
            if recognised { base = String(name[..<dash]) } else { italic = false; weight = 400 }
        }
        let key = base.lowercased().filter { $0 != " " && $0 != "_" }
        if let f = installed[key] { return Resolved(family: f, weight: weight, italic: italic, substituted: false) }
        if families[key] == nil, key.hasPrefix(Self.systemPrivate), let glued = Self.gluedStyle(key.dropFirst(Self.systemPrivate.count)) {
            return Resolved(family: "Inter", weight: glued.weight, italic: glued.italic || italic, substituted: true)
        }
        return Resolved(family: families[key] ?? "Liberation Sans", weight: weight, italic: italic, substituted: true)
    }
}
