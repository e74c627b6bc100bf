import XCTest
import FuzzHarness
import LayerModel
import Plan

/// The `effects` fuzz target's trees, from a fixed sequence of inputs: they reach what the target
/// is for (offscreen passes, shadowPath rasters, shapes, text, backdrops, blend modes), and every
/// one holds the plan invariants and rasterises within its request. The fuzzer explores further;
/// this keeps the target honest in the ordinary `swift test`.
final class EffectsTreeTests: XCTestCase {
    /// SplitMix64 bytes: the same inputs on every run.
    static func input(_ seed: UInt64, count: Int = 700) -> [UInt8] {
        var s = seed &* 0x9E3779B97F4A7C15
        return (0..<count).map { _ in
            s &+= 0x9E3779B97F4A7C15
            var z = s
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }

    func testEffectsTreesReachPassesAndRasters() {
        var passes = 0, shadowPaths = 0, shapes = 0, texts = 0, backdrops = 0, blends = 0
        for seed in 0..<150 as Range<UInt64> {
            var g = LayerTreeGenerator(Self.input(seed), effects: true)
            let (canvas, root, images) = g.tree()
            root.forEach { l in
                if l.layerClass == .backdrop { backdrops += 1 }
                if l.compositingFilter != .normalBlendMode { blends += 1 }
            }
            let plan = FramePlanner(canvas: canvas, images: images).plan(root: root)
            passes += plan.offscreenPasses.count
            for r in plan.rasterRequests {
                switch r.content {
                case .shadowPath: shadowPaths += 1
                case .shape: shapes += 1
                case .text: texts += 1
                case .gradientRamp: break
                }
            }
        }
        print("effects trees: \(passes) passes, \(shadowPaths) shadowPath rasters, \(shapes) shapes, \(texts) texts, \(backdrops) backdrops, \(blends) blend modes")
        XCTAssertGreaterThan(passes, 0)
        XCTAssertGreaterThan(shadowPaths, 0)
        XCTAssertGreaterThan(shapes, 0)
        XCTAssertGreaterThan(texts, 0)
        XCTAssertGreaterThan(backdrops, 0)
        XCTAssertGreaterThan(blends, 0)
    }

    func testEffectsTreesHoldTheirInvariants() {
        for seed in 0..<150 as Range<UInt64> {
            XCTAssertEqual(FuzzTarget.effects.run(Self.input(seed)), [], "seed \(seed)")
        }
    }
}
