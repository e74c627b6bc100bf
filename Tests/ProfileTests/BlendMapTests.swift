import XCTest
@testable import Profile

/// `BlendMap.applyFromAbove` against the rules of its documentation, applied pixel by pixel by a
/// model written here: runs of every kind, lengths and offsets around the eight-pixel words,
/// depths past the 63 where they saturate.
final class BlendMapTests: XCTestCase {
    struct Model {
        var sealed: [Bool], paint: [Bool], depth: [Int]
        init(_ n: Int) { sealed = Array(repeating: false, count: n); paint = sealed; depth = Array(repeating: 0, count: n) }
        /// The rules, pixel by pixel; returns the pixels where the fragment shows.
        mutating func apply(_ i: Int, paintBlends: Bool, partial: Bool) -> Bool {
            if sealed[i] { return false }
            if !paintBlends && !partial { sealed[i] = true; return false }
            depth[i] = min(depth[i] + 1, 63)
            if paintBlends { paint[i] = true }
            return true
        }
    }

    func testRunsMatchThePixelByPixelRules() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<40 {
            let width = 37 + round % 5, height = 3
            var map = BlendMap(width: width, height: height)
            var model = Model(width * height)
            let runCount = round < 4 ? 80 : 25   // the first rounds stack past the saturation
            for _ in 0..<runCount {
                let y = Int.random(in: 0..<height, using: &rng)
                let a = Int.random(in: 0..<width, using: &rng), b = Int.random(in: a...width, using: &rng)
                let kind = round < 4 ? 1 : Int.random(in: 0..<4, using: &rng)
                let paintBlends = kind == 1 || kind == 3, partial = kind >= 2
                var shown: [Int] = []
                map.applyFromAbove(y: y, a..<b, paintBlends: paintBlends, partial: partial) { shown.append(contentsOf: $0) }
                var expected: [Int] = []
                for x in a..<b where model.apply(y * width + x, paintBlends: paintBlends, partial: partial) { expected.append(x) }
                if paintBlends || partial { XCTAssertEqual(shown, expected, "round \(round)") }
            }
            // counts: every pixel with a depth, and those among them no blending paint reached.
            let blended = model.depth.indices.filter { model.depth[$0] > 0 }
            XCTAssertEqual(map.counts.blended, blended.count, "round \(round)")
            XCTAssertEqual(map.counts.edgeOnly, blended.filter { !model.paint[$0] }.count, "round \(round)")
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * width + x
                    XCTAssertEqual(map.depth(x, y), model.depth[i], "round \(round) (\(x), \(y))")
                    XCTAssertEqual(map.isPaintBlended(x, y), model.depth[i] > 0 && model.paint[i], "round \(round) (\(x), \(y))")
                }
            }
        }
    }

    func testDepthSaturatesAt63() {
        var map = BlendMap(width: 16, height: 1)
        for _ in 0..<70 { map.applyFromAbove(y: 0, 0..<16, paintBlends: true, partial: false) { _ in } }
        XCTAssertEqual((0..<16).map { map.depth($0, 0) }, Array(repeating: 63, count: 16))
        XCTAssertEqual(map.counts.blended, 16)
    }
}
