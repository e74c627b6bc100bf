/// A tiny built-in bitmap font for labels drawn on the CPU (contact sheets): digits, lower-case
/// letters and a little punctuation, 5×7 pixels on an 8-row cell (row 7 takes descenders),
/// proportional advances, one blank column between glyphs. Upper case is drawn as lower case;
/// a character it lacks is drawn as an empty box. Integer `scale` multiplies every pixel.
///
/// Written by hand rather than loaded from a font library: a label needs a few dozen glyphs, and
/// exact, device-independent pixels keep the sheets reproducible.
public enum PixelFont {
    /// Rows of one glyph cell (baseline under row 6, row 7 for descenders).
    public static let cellHeight = 8
    /// Blank columns between glyphs, before scaling.
    public static let spacing = 1

    /// Width of `text` in pixels at `scale`: glyph widths plus the spacing between them.
    public static func width(of text: String, scale: Int = 1) -> Int {
        let glyphs = text.map(glyph)
        if glyphs.isEmpty { return 0 }
        return (glyphs.reduce(0) { $0 + $1.width } + spacing * (glyphs.count - 1)) * scale
    }

    /// Draws `text` with its top-left corner at (x, y) over premultiplied RGBA8 `pixels` of
    /// `width`×`height`, source-over with the premultiplied `color`. Pixels outside are clipped.
    /// Returns the x just after the text.
    @discardableResult
    public static func draw(_ text: String, into pixels: inout [UInt8], width: Int, height: Int,
                            x: Int, y: Int, scale: Int = 1, color: (UInt8, UInt8, UInt8, UInt8)) -> Int {
        var penX = x
        let inv = 255 - Int(color.3)
        for (n, ch) in text.enumerated() {
            if n > 0 { penX += spacing * scale }
            let g = glyph(ch)
            for (row, bits) in g.rows.enumerated() {
                for col in 0..<g.width where bits[col] {
                    for sy in 0..<scale {
                        let py = y + row * scale + sy
                        guard py >= 0 && py < height else { continue }
                        for sx in 0..<scale {
                            let px = penX + col * scale + sx
                            guard px >= 0 && px < width else { continue }
                            let i = (py * width + px) * 4
                            pixels[i] = UInt8(Int(color.0) + (Int(pixels[i]) * inv + 127) / 255)
                            pixels[i + 1] = UInt8(Int(color.1) + (Int(pixels[i + 1]) * inv + 127) / 255)
                            pixels[i + 2] = UInt8(Int(color.2) + (Int(pixels[i + 2]) * inv + 127) / 255)
                            pixels[i + 3] = UInt8(Int(color.3) + (Int(pixels[i + 3]) * inv + 127) / 255)
                        }
                    }
                }
            }
            penX += g.width * scale
        }
        return penX
    }

    /// Whether the font has a glyph of its own for `ch` (else it draws an empty box).
    public static func covers(_ ch: Character) -> Bool { glyphs[Character(ch.lowercased())] != nil }

    struct Glyph { var width: Int; var rows: [[Bool]] }

    static func glyph(_ ch: Character) -> Glyph { glyphs[Character(ch.lowercased())] ?? missing }

    static let missing = parse(["#####", "#...#", "#...#", "#...#", "#...#", "#...#", "#####"])

    static func parse(_ rows: [String]) -> Glyph {
        var r = rows.map { $0.map { $0 == "#" } }
        while r.count < cellHeight { r.append([Bool](repeating: false, count: rows[0].count)) }
        return Glyph(width: rows[0].count, rows: r)
    }

    /// Each glyph as rows of `#` (ink) and `.` (blank), top to bottom; rows past the drawn ones are blank.
    static let glyphs: [Character: Glyph] = {
        let art: [Character: [String]] = [
            "0": [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
            "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
            "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
            "3": ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."],
            "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
            "5": ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
            "6": ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
            "7": ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
            "8": [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
            "9": [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
            "a": [".....", ".....", ".###.", "....#", ".####", "#...#", ".####"],
            "b": ["#....", "#....", "#.##.", "##..#", "#...#", "#...#", "####."],
            "c": [".....", ".....", ".###.", "#....", "#....", "#...#", ".###."],
            "d": ["....#", "....#", ".##.#", "#..##", "#...#", "#...#", ".####"],
            "e": [".....", ".....", ".###.", "#...#", "#####", "#....", ".###."],
            "f": ["..##", ".#..", ".#..", "###.", ".#..", ".#..", ".#.."],
            "g": [".....", ".....", ".####", "#...#", "#...#", ".####", "....#", ".###."],
            "h": ["#....", "#....", "#.##.", "##..#", "#...#", "#...#", "#...#"],
            "i": [".#.", "...", "##.", ".#.", ".#.", ".#.", "###"],
            "j": ["...#", "....", "..##", "...#", "...#", "...#", "#..#", ".##."],
            "k": ["#...", "#...", "#..#", "#.#.", "##..", "#.#.", "#..#"],
            "l": ["##.", ".#.", ".#.", ".#.", ".#.", ".#.", "###"],
            "m": [".....", ".....", "##.#.", "#.#.#", "#.#.#", "#.#.#", "#.#.#"],
            "n": [".....", ".....", "#.##.", "##..#", "#...#", "#...#", "#...#"],
            "o": [".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."],
            "p": [".....", ".....", "####.", "#...#", "#...#", "####.", "#....", "#...."],
            "q": [".....", ".....", ".####", "#...#", "#...#", ".####", "....#", "....#"],
            "r": [".....", ".....", "#.##.", "##..#", "#....", "#....", "#...."],
            "s": [".....", ".....", ".####", "#....", ".###.", "....#", "####."],
            "t": [".#..", ".#..", "####", ".#..", ".#..", ".#..", "..##"],
            "u": [".....", ".....", "#...#", "#...#", "#...#", "#..##", ".##.#"],
            "v": [".....", ".....", "#...#", "#...#", "#...#", ".#.#.", "..#.."],
            "w": [".....", ".....", "#...#", "#...#", "#.#.#", "#.#.#", ".#.#."],
            "x": [".....", ".....", "#...#", ".#.#.", "..#..", ".#.#.", "#...#"],
            "y": [".....", ".....", "#...#", "#...#", "#...#", ".####", "....#", ".###."],
            "z": [".....", ".....", "#####", "...#.", "..#..", ".#...", "#####"],
            ".": ["..", "..", "..", "..", "..", "##", "##"],
            ",": ["..", "..", "..", "..", "..", "##", "##", "#."],
            ":": ["..", "##", "##", "..", "##", "##", ".."],
            "-": ["...", "...", "...", "###", "...", "...", "..."],
            "_": ["....", "....", "....", "....", "....", "....", "....", "####"],
            "/": ["....#", "....#", "...#.", "..#..", ".#...", "#....", "#...."],
            "(": ["..#", ".#.", "#..", "#..", "#..", ".#.", "..#"],
            ")": ["#..", ".#.", "..#", "..#", "..#", ".#.", "#.."],
            "×": [".....", ".....", "#...#", ".#.#.", "..#..", ".#.#.", "#...#"],
            "·": ["..", "..", "..", "##", "##", "..", ".."],
            "%": ["##..#", "##..#", "...#.", "..#..", ".#...", "#..##", "#..##"],
            "+": [".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."],
            "#": [".#.#.", ".#.#.", "#####", ".#.#.", "#####", ".#.#.", ".#.#."],
            " ": ["...", "...", "...", "...", "...", "...", "..."],
        ]
        return art.mapValues(parse)
    }()
}
