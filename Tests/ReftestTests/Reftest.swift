import Foundation
import AssetImport
import Pipeline
import Raster
import SceneFormat
import XCTest

/// A rendered image: premultiplied RGBA8 as the backend returns it.
struct Image: Equatable {
    var width: Int, height: Int, pixels: [UInt8]
    func pixel(_ x: Int, _ y: Int) -> [Int] {
        let i = (y * width + x) * 4
        return pixels[i..<(i + 4)].map(Int.init)
    }
}

/// Shared harness: one Vulkan device (lavapipe, pinned for determinism) for all reftests.
/// GPU tests run serially (XCTest's default; the suite is never run with --parallel).
class ReftestCase: XCTestCase {
    static let renderer: SceneRenderer = {
        setenv("VK_DRIVER_FILES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json", 0)
        return try! SceneRenderer()
    }()
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Where failing tests leave actual / expected / diff PNGs.
    static let failureDir = FileManager.default.temporaryDirectory.appendingPathComponent("caprof-reftest-failures")

    /// Renders a scene given as JSON text (images resolve against Examples/).
    func render(_ json: String, file: String = "reftest.json") throws -> Image {
        let doc = try SceneDecoder.decode(data: Array(json.utf8), file: file,
                                          baseDirectory: Self.repoRoot.appendingPathComponent("Examples").path)
        let f = try Self.renderer.render(doc)
        return Image(width: f.width, height: f.height, pixels: f.pixels)
    }

    func renderFile(_ path: String, at time: Double = 0) throws -> Image {
        // Any scene file or asset the CLI opens (a Lottie example too).
        let f = try Self.renderer.render(try AssetLoader.load(path: path), at: time)
        return Image(width: f.width, height: f.height, pixels: f.pixels)
    }

    /// A minimal scene: a canvas of w×h points at `scale` with a white background and the given
    /// sublayers (JSON text) under a full-canvas root.
    func scene(_ w: Int, _ h: Int, scale: Double = 1, background: String = "\"#FFFFFF\"", _ sublayers: String) -> String {
        """
        {"caprof": 1, "canvas": {"width": \(w), "height": \(h), "scale": \(scale), "backgroundColor": \(background)},
         "root": {"frame": [0, 0, \(w), \(h)], "sublayers": [\(sublayers)]}}
        """
    }

    /// Compares two images: at most `maxDiffering` pixels may differ, each by at most `tolerance`
    /// per channel. On failure writes actual, expected and a diff image (differences in red).
    func assertImagesMatch(_ actual: Image, _ expected: Image, tolerance: Int = 0, maxDiffering: Int = 0,
                           _ name: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        guard actual.width == expected.width, actual.height == expected.height else {
            return XCTFail("\(name): size \(actual.width)×\(actual.height) ≠ \(expected.width)×\(expected.height)", file: file, line: line)
        }
        var differing = 0, worst = 0
        var diff = [UInt8](repeating: 0, count: actual.pixels.count)
        for p in stride(from: 0, to: actual.pixels.count, by: 4) {
            var d = 0
            for c in 0..<4 { d = max(d, abs(Int(actual.pixels[p + c]) - Int(expected.pixels[p + c]))) }
            worst = max(worst, d)
            if d > tolerance { differing += 1; diff[p] = 255; diff[p + 3] = 255 } else {
                let g = UInt8(Int(expected.pixels[p]) / 4 + 160); diff[p] = g; diff[p + 1] = g; diff[p + 2] = g; diff[p + 3] = 255
            }
        }
        if differing > maxDiffering {
            let dir = Self.failureDir.appendingPathComponent(name.filter { $0.isLetter || $0.isNumber })
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for (n, px) in [("actual", actual.pixels), ("expected", expected.pixels), ("diff", diff)] {
                try? PNGCodec.write(premultiplied: px, width: actual.width, height: actual.height, to: dir.appendingPathComponent("\(n).png").path)
            }
            XCTFail("\(name): \(differing) pixels differ by more than \(tolerance) (worst \(worst)); see \(dir.path)/{actual,expected,diff}.png",
                    file: file, line: line)
        }
    }

    func assertPixel(_ img: Image, _ x: Int, _ y: Int, _ expected: [Int], tolerance: Int = 1,
                     file: StaticString = #filePath, line: UInt = #line) {
        let p = img.pixel(x, y)
        let ok = zip(p, expected).allSatisfy { abs($0 - $1) <= tolerance }
        XCTAssertTrue(ok, "pixel (\(x), \(y)) is \(p), expected \(expected) ±\(tolerance)", file: file, line: line)
    }
}
