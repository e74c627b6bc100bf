import Geometry
import LayerModel
import Animation
import SceneFormat
import SystemSupport

/// A text layer (`ty` 5) as a CATextLayer inside the layer: the first text document's string,
/// font (its family from `fonts`, mapped as caprof maps Apple fonts), size, fill colour and
/// justification, placed so that the first line's baseline starts at the layer's origin, as
/// After Effects places point text. Text animators (`t.a`) are not applied by lottie-ios's
/// Core Animation engine either; a warning says so.
enum LottieText {
    /// The first baseline's distance from the top of a CATextLayer as a share of the font size:
    /// the ascent of the family caprof draws the font with (Plan's FontMapping): Inter (0.969)
    /// for San Francisco and the system font, Liberation Sans (0.905, Helvetica's metrics) for
    /// the rest.
    static func ascent(_ family: String) -> Double {
        let key = family.lowercased().filter { $0.isLetter }
        let system = key.hasPrefix("sf") || key.hasPrefix("appleSystem".lowercased()) || key == "system" || key.hasPrefix("inter") || key.hasPrefix("sanfrancisco")
        return system ? 0.969 : 0.905
    }

    static func apply(_ l: JSONValue, to layer: inout Layer, size: Size, clock: LottieClock, ctx: LottieContext, depth: Int) throws {
        let name = l["nm"]?.string ?? "text"
        layer.bounds = Rect(0, 0, size.width, size.height)
        guard let t = l["t"], let docs = t["d"]?["k"]?.array, let first = docs.first, let s = first["s"], s.members != nil else {
            ctx.warn("text layer '\(name)' has no text document ('t.d.k[0].s'); nothing is drawn", at: l)
            return
        }
        if docs.count > 1 {
            ctx.warn("text layer '\(name)' changes its text over time: the first text is shown throughout", at: t["d"]!, layer: layer.id)
        }
        if let animators = t["a"]?.array, !animators.isEmpty {
            ctx.warn("text layer '\(name)' has text animators: lottie-ios's Core Animation engine does not apply them, as the device shows", at: t["a"]!, layer: layer.id)
        }
        try ctx.countText(s["t"]?.string ?? "", at: s["t"] ?? s)
        let string = (s["t"]?.string ?? "").replacingEvery("\r", with: "\n").replacingEvery("\u{3}", with: "\n")
        guard string.unicodeScalars.count <= SceneLimits.maxTextLength else {
            throw ctx.error(s["t"]!, "a text of \(string.unicodeScalars.count) characters; the limit is \(SceneLimits.maxTextLength)", kind: .limitExceeded)
        }
        let fontSize = min(max(s["s"]?.number ?? 12, 0), 10_000)
        var text = try ctx.newLayer(at: s, depth: depth + 1)
        text.layerClass = .text
        text.name = name
        text.text.string = string
        text.text.fontSize = fontSize
        let fontName = s["f"]?.string ?? "Helvetica"
        text.text.font = ctx.fontFamilies[fontName] ?? fontName
        if let fc = s["fc"] { text.text.foregroundColor = try LottieValues.colorValue(fc, ctx, what: "text colour") } else { text.text.foregroundColor = .black }
        let lines = Double(string.split(separator: "\n", omittingEmptySubsequences: false).count)
        let lineHeight = s["lh"]?.number ?? fontSize * 1.2
        // A box needs at least its width: `"sz": []` is no box (indexing it trapped).
        let box = s["sz"].flatMap { LottieNumber.numbers($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let width = box.map { $0[0] } ?? max(size.width * 4, fontSize * Double(string.count))
        let height = (box.flatMap { $0.count > 1 ? $0[1] : nil }) ?? max(lines * lineHeight, fontSize * 1.25)
        var x = 0.0
        switch s["j"]?.number {
        case 1: text.text.alignmentMode = .right; if box == nil { x = -width }
        case 2: text.text.alignmentMode = .center; if box == nil { x = -width / 2 }
        default: text.text.alignmentMode = .left
        }
        var y = -fontSize * Self.ascent(text.text.font)
        if let ps = s["ps"].flatMap({ LottieNumber.numbers($0) }), ps.count >= 2, box != nil { x = ps[0]; y = ps[1] }
        text.text.wrapped = box != nil
        text.anchorPoint = Point(0, 0)
        text.bounds = Rect(0, 0, max(width, 1), max(height, 1))
        text.position = Point(x, y)
        layer.sublayers = [text]
    }
}
