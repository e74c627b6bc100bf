import Foundation
import XCTest
import AssetImport
import Pipeline
import Raster
import SceneFormat

/// The Lottie corpus: 61 animations and the 305 PNGs Apple's Core Animation drew of them through
/// lottie-ios's Core Animation engine. Every frame is rendered on lavapipe as lottie-ios's
/// snapshot tests took it (the animation's size scaled to fit 500 pt at 2×, progress 0, ¼, ½, ¾
/// and 1 on a transparent canvas) and compared by their rule (`PerceptualComparison`: ΔE 1994
/// over white and over black ≤ 3, at least the sample's precision of pixels). Each frame that
/// fails is on `LottieCorpusTests.knownFailures` with its reason; any other frame that fails is a
/// regression, and a listed frame that passes must come off the list, so the number of passing
/// frames never drops unnoticed.
final class LottieCorpusTests: XCTestCase {
    static let corpus = AssetRoundTripReftests.corpus + "/lottie-ios"

    struct Snapshot { var sample: String; var progress: Double; var png: String; var precision: Double }

    static func snapshots() throws -> [Snapshot] {
        let data = try Data(contentsOf: URL(fileURLWithPath: corpus + "/manifest.json"))
        let top = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var out: [Snapshot] = []
        for s in try XCTUnwrap(top["samples"] as? [[String: Any]]) {
            let sample = try XCTUnwrap(s["sample"] as? String)
            let precision = s["precision"] as? Double ?? 0.985
            for shot in try XCTUnwrap(s["snapshots"] as? [[String: Any]]) {
                out.append(Snapshot(sample: sample, progress: try XCTUnwrap(shot["progress"] as? Double),
                                    png: try XCTUnwrap(shot["png"] as? String), precision: precision))
            }
        }
        return out
    }

    /// A frame as lottie-ios's test image holds it: a canvas of ⌈size × scale⌉ pixels (the view's
    /// bounds are fractional points), so one row or column more than caprof's rounded canvas
    /// may be there, transparent but for the edge's coverage.
    static func fitted(_ frame: SceneRenderer.Frame, width: Int, height: Int) -> Bitmap {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        let w = min(width, frame.width), h = min(height, frame.height)
        for y in 0..<h {
            let src = y * frame.width * 4, dst = y * width * 4
            px[dst..<(dst + w * 4)] = frame.pixels[src..<(src + w * 4)]
        }
        return Bitmap(width: width, height: height, pixels: px)
    }

    func testCorpusFramesPassAsLottieIOSJudgesThem() throws {
        guard FileManager.default.fileExists(atPath: Self.corpus) else { throw CorpusMissing(message: "corpus not found at \(Self.corpus)") }
        let shots = try Self.snapshots()
        XCTAssertEqual(shots.count, 305)
        var documents: [String: AnimatedScene] = [:]
        var passed = 0
        var unexpected: [String] = [], nowPassing: [String] = []
        for shot in shots {
            let name = (shot.png as NSString).lastPathComponent
            let truth = try PNGCodec.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + shot.png))),
                                            limits: { var l = ImageLimits.standard; l.maxSide = 4096; return l }())
            var share = 0.0, reason = ""
            do {
                let animated: AnimatedScene
                if let a = documents[shot.sample] { animated = a } else {
                    animated = AnimatedScene(try AssetLoader.load(path: Self.corpus + "/" + shot.sample))
                    documents[shot.sample] = animated
                }
                let canvas = animated.document.scene.canvas
                let scale = 2 * min(1, 500 / max(canvas.width, canvas.height))
                let frame = try AssetRoundTripReftests.renderer.render(animated, at: shot.progress * animated.duration, scale: scale)
                let result = PerceptualComparison.compare(truth, Self.fitted(frame, width: truth.width, height: truth.height))
                share = result.passingShare
                reason = "\(String(format: "%.2f", (1 - share) * 100)) % of pixels over ΔE 3"
            } catch {
                reason = "\(error)"
            }
            let passes = share >= shot.precision
            if passes { passed += 1 }
            if passes && Self.knownFailures[name] != nil { nowPassing.append(name) }
            if !passes && Self.knownFailures[name] == nil { unexpected.append("\(name): \(reason)") }
        }
        print("Lottie corpus: \(passed) of \(shots.count) frames pass (\(String(format: "%.1f", Double(passed) * 100 / Double(shots.count))) %)")
        XCTAssertEqual(unexpected, [], "frames that fail and are not on the list of known failures (a regression, or add them with the reason)")
        XCTAssertEqual(nowPassing, [], "frames on the list of known failures that now pass: take them off the list")
        XCTAssertEqual(passed, shots.count - Self.knownFailures.count)
    }

    /// `caprof convert` of a Lottie animation writes a scene file that renders the same pixels (the
    /// discrete `hidden` animations of in and out points, masks composited in order, gradients
    /// over their paths' bounds all survive the round trip).
    func testConvertedAnimationsRenderTheSamePixels() throws {
        guard FileManager.default.fileExists(atPath: Self.corpus) else { throw CorpusMissing(message: "corpus not found at \(Self.corpus)") }
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/lottie-card.json").path
        for file in [example, Self.corpus + "/samples/Issues/issue_1260.json", Self.corpus + "/samples/LottieLogo2.json"] {
            let doc = try AssetLoader.load(path: file)
            let back = try SceneDecoder.decode(data: Array(SceneJSONWriter.write(doc).utf8), file: "converted.json", baseDirectory: "/")
            let a = AnimatedScene(doc), b = AnimatedScene(back)
            for p in [0.0, 0.5, 1.0] {
                let fa = try AssetRoundTripReftests.renderer.render(a, at: p * a.duration, scale: 1)
                let fb = try AssetRoundTripReftests.renderer.render(b, at: p * a.duration, scale: 1)
                XCTAssertTrue(fa.pixels == fb.pixels, "\(file) at progress \(p): the converted scene renders different pixels")
            }
        }
    }
}
