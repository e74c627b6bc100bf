import SystemSupport
import Raster

/// Where `caprof snapshot` keeps a frame's golden and its diff image.
///
/// A frame is keyed by its scene's path relative to the current directory (normalised: `./`,
/// `//` and `a/../` removed) and its scene time in milliseconds: the golden of
/// `Examples/motion.json` at 0.5 s is `GOLDENS/Examples/motion.json@500ms.png`, the directories
/// of the scene path mirrored under GOLDENS. The key is collision-free (the path is kept whole,
/// and the `@<ms>ms.png` suffix, which holds no `@`, is read from the end) and readable in a pull
/// request. Times are rounded to the microsecond (`@333.333ms`; whole milliseconds print without
/// decimals: `@0ms`, `@1000ms`). A scene outside the current directory has no relative path and
/// is refused: run caprof from the directory that holds the scenes (the repository root in CI).
enum SnapshotKeys {
    struct OutsideDirectory: Error { var path: String }

    /// The scene's path relative to the current directory, normalised.
    static func relativePath(_ path: String, cwd: String = FileManager.default.currentDirectoryPath) throws -> String {
        var parts: [Substring] = []
        let absolute = path.hasPrefix("/")
        if absolute {
            let base = cwd.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
            var p: [Substring] = []
            for c in path.split(separator: "/", omittingEmptySubsequences: true) where c != "." {
                if c == ".." { if !p.isEmpty { p.removeLast() } } else { p.append(c) }
            }
            guard p.count > base.count, Array(p.prefix(base.count)) == base else { throw OutsideDirectory(path: path) }
            parts = Array(p.dropFirst(base.count))
        } else {
            for c in path.split(separator: "/", omittingEmptySubsequences: true) where c != "." {
                if c == ".." {
                    guard !parts.isEmpty else { throw OutsideDirectory(path: path) }
                    parts.removeLast()
                } else {
                    parts.append(c)
                }
            }
        }
        guard !parts.isEmpty else { throw OutsideDirectory(path: path) }
        return parts.joined(separator: "/")
    }

    /// "500", "333.333", "0": the time in milliseconds, rounded to the microsecond.
    static func milliseconds(_ seconds: Double) -> String {
        var s = String(cFormat: "%.3f", seconds * 1000)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }

    /// `scene.json@500ms.png`: the file name (with the scene's directories) of a frame's golden or diff.
    static func key(scene relative: String, time: Double) -> String {
        relative + "@" + milliseconds(time) + "ms.png"
    }

    static func join(_ dir: String, _ name: String) -> String {
        dir.hasSuffix("/") ? dir + name : dir + "/" + name
    }

    /// The default diff directory: `snapshot-diffs` beside the goldens directory.
    static func defaultDiffDirectory(goldens: String) -> String {
        let parent = URL(fileURLWithPath: goldens).deletingLastPathComponent().path
        // Keep a relative goldens path relative (readable in the output).
        if !goldens.hasPrefix("/") {
            let trimmed = goldens.split(separator: "/", omittingEmptySubsequences: true)
            if trimmed.count <= 1 { return "snapshot-diffs" }
            return trimmed.dropLast().joined(separator: "/") + "/snapshot-diffs"
        }
        return join(parent, "snapshot-diffs")
    }
}

/// The diff image of a failing frame: golden | actual | heat map of ΔE, side by side, each panel
/// the frame's size, separated by `separator` (4) pixels of mid grey. Golden and actual are shown over
/// a light checkerboard (transparent areas stay visible); the heat map (`PerceptualComparison
/// .heatMap`) shows pixels that are equal as the golden dimmed to a quarter of its brightness (so
/// the change can be placed in the picture), passing differences in blues and failing ones red to
/// yellow.
enum SnapshotDiffImage {
    static let separator = 4

    static func width(frameWidth w: Int) -> Int { 3 * w + 2 * separator }

    static func make(golden: Bitmap, actual: Bitmap, result: PerceptualComparison.Result) -> Bitmap {
        let w = golden.width, h = golden.height
        let W = width(frameWidth: w)
        var px = [UInt8](repeating: 0, count: W * h * 4)
        let heat = PerceptualComparison.heatMap(result)
        let hasMap = heat != nil && result.deltaE.count == w * h
        let g = golden.pixels, act = actual.pixels
        /// A straight channel over the checkerboard value `k` (premultiplied source).
        @inline(__always) func over(_ p: UInt8, _ a: UInt8, _ k: UInt32) -> UInt32 {
            min(255, UInt32(p) + (k * (255 - UInt32(a)) + 127) / 255)
        }
        for y in 0..<h {
            let row = y * W * 4
            for x in 0..<w {
                let i = (y * w + x) * 4
                let k: UInt32 = ((x / 8 + y / 8) % 2 == 0) ? 255 : 214
                let o0 = row + x * 4, o1 = o0 + (w + separator) * 4, o2 = o1 + (w + separator) * 4
                for c in 0..<3 {
                    px[o0 + c] = UInt8(over(g[i + c], g[i + 3], k))
                    px[o1 + c] = UInt8(over(act[i + c], act[i + 3], k))
                }
                if hasMap && result.deltaE[y * w + x] > 0 {
                    px[o2] = heat!.pixels[i]; px[o2 + 1] = heat!.pixels[i + 1]; px[o2 + 2] = heat!.pixels[i + 2]
                } else {
                    // Unchanged: the golden as grey at a quarter of its brightness.
                    let l = Int(px[o0]) * 54 + Int(px[o0 + 1]) * 183 + Int(px[o0 + 2]) * 19
                    let v = UInt8(l / 256 / 4)
                    px[o2] = v; px[o2 + 1] = v; px[o2 + 2] = v
                }
                px[o0 + 3] = 255; px[o1 + 3] = 255; px[o2 + 3] = 255
            }
            for s in 0..<separator {
                for panel in 1...2 {
                    let o = row + (panel * (w + separator) - separator + s) * 4
                    px[o] = 128; px[o + 1] = 128; px[o + 2] = 128; px[o + 3] = 255
                }
            }
        }
        return Bitmap(width: W, height: h, pixels: px)
    }
}
